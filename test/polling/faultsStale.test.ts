/**
 * The cache is an optimisation, even through a rush with several Zaps: whatever one key of the stream
 * loses, every Zap still gets every registration; what the cache lost is read again from the service. Here each kind of key is put back to a value it held before, and the lease is left taken.
 */
import type { FakeCache } from '../../scripts/lib/fakeCache';
import { callable } from '../../scripts/lib/app';
import { playClock, playRush } from '../../scripts/lib/pollPlay';
import { newSubmissionTrigger } from '../../src/triggers/newSubmission';
import { pollLeaseKey } from '../../src/polling';
import { KINDS, STATE, playDamaged, scenario as s, timings } from './faultPlay';

describe('three Zaps through a rush, one key of the stream put back to an older value every few polls', () => {
  it.each(KINDS.map(([name, kind]) => ({ name, kind })))(
    '$name stale: every Zap gets every registration',
    async ({ kind }) => playDamaged(kind, 'stale'),
  );

  it('the lease left taken (by a poll Zapier stopped) every few polls: every Zap gets every registration', async () => {
    let made = 0;
    const hook = (cache: FakeCache, poll: number) => {
      const state = cache.keys().find((key) => STATE.test(key));
      if (!state || poll % 7 !== 6) return;
      void cache.api.set(pollLeaseKey(state), { v: 'a stopped poll', e: Date.now() + 60_000 }, 60);
      made += 1;
    };
    // The play's clock moves on by a poll's waits, so that a wait for the lease (20 ms) ends.
    const clock = playClock();
    const trigger = newSubmissionTrigger({ timings, clock });
    const played = await playRush(s, callable((trigger.operation as { perform?: unknown }).perform), hook);
    expect(made).toBeGreaterThan(0);
    expect(played.zaps.map((zap) => zap.lost)).toEqual([0, 0, 0]);
    for (const zap of played.zaps) expect(zap.wholeRushMs).toBeLessThan(Infinity);
  });
});
