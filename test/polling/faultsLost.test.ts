/**
 * The cache is an optimisation, even when it loses several keys of the stream at once, or all of them, in
 * the middle of a rush that the slower Zaps are still catching up on: every Zap still gets every
 * registration, what may be owed is read again from the service. The rush's registrations are made at
 * whole seconds (`…:00.000Z`), where a range read again must start just before its first position.
 */
import { playClock, playRush } from '../../scripts/lib/pollPlay';
import type { FakeCache } from '../../scripts/lib/fakeCache';
import { perform, scenario, timings } from './faultPlay';
import { MINUTE, performWith } from './harness';

/** Polls of the play (about 220) at which the slower Zaps are still catching up on the rush. */
const CATCHING_UP = [74, 92, 128];

const expectNothingLost = async (hook: (cache: FakeCache, poll: number) => void) => {
  const played = await playRush(scenario, perform, hook);
  expect(played.zaps.map((zap) => zap.lost)).toEqual([0, 0, 0]);
  for (const zap of played.zaps) expect(zap.wholeRushMs).toBeLessThan(Infinity);
  expect(Math.max(...played.polls.map((poll) => poll.answer))).toBeLessThan(timings.answerLimitBytes);
  return played;
};

describe('three Zaps through a rush, 5% of cache calls failing (throwing, or timing out)', () => {
  it('every Zap gets every registration', async () => {
    // A poll that finds the lease of another one (or one a failed call left) waits for it: the play's
    // clock moves on by that wait.
    const clock = playClock();
    const failing = await playRush({ ...scenario, cacheFailing: 0.05 }, performWith(timings, clock));
    expect(failing.zaps.map((zap) => zap.lost)).toEqual([0, 0, 0]);
    for (const zap of failing.zaps) expect(zap.wholeRushMs).toBeLessThan(Infinity);
  });
});

describe('three Zaps through a rush, several keys of the stream lost at once', () => {
  it.each(CATCHING_UP)(
    'the whole cache lost at poll %i, while the slower Zaps catch up: every Zap gets every registration',
    async (at) => {
      await expectNothingLost((cache, poll) => {
        if (poll === at) cache.evict();
      });
    },
  );

  it('the whole cache lost three times: every Zap gets every registration', async () => {
    await expectNothingLost((cache, poll) => {
      if (CATCHING_UP.includes(poll)) cache.evict();
    });
  });

  it.each([69, 94, 119])(
    'the kept entry, the owed index and every owed share lost together at poll %i (registrations at whole seconds): every Zap gets every registration',
    async (at) => {
      const played = await expectNothingLost((cache, poll) => {
        if (poll !== at) return;
        for (const key of cache.keys()) if (/:kept$|:owed$|:owed:[^:]+$/.test(key)) cache.drop(key);
      });
      expect(played.polls.length).toBeGreaterThan(at);
    },
  );
});

describe('three Zaps through a rush, the kept entry unreadable at one poll', () => {
  it.each(CATCHING_UP)(
    'its read fails on every attempt at poll %i (the entry is still there): the poll does not write over it, and every Zap has the rush at most one of its intervals later',
    async (at) => {
      const clean = await playRush(scenario, perform);
      let before: unknown;
      let after: unknown;
      const played = await expectNothingLost((cache, poll) => {
        const kept = cache.keys().find((key) => key.endsWith(':kept'));
        if (poll === at) before = kept && cache.peek(kept);
        if (poll === at + 1) after = kept && cache.peek(kept);
        cache.failingReads = poll === at ? /:kept$/ : null;
      });
      expect(before).toBeDefined();
      expect(after).toEqual(before);
      // The poll's answer is not remembered: its Zap has those records again at its next poll. Taken as
      // lost, the entry was written over and its records owed as a range: read again from the service in
      // turns, the rush reached the slower Zaps up to a turn later.
      played.zaps.forEach((zap, i) =>
        expect(zap.wholeRushMs).toBeLessThanOrEqual(
          (clean.zaps[i]?.wholeRushMs ?? 0) + zap.everyMin * MINUTE,
        ),
      );
    },
  );
});
