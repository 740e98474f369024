/**
 * The cache is an optimisation, even through a rush with several Zaps: whatever one key of the stream loses
 * (evicted, cut short, or put back to a value it held before), every Zap still gets every registration;
 * what the cache lost is read again from the service. Three Zaps (1, 2 and 15 minutes) through a rush of
 * about three answers (answers and cache values scaled down by 96), a fault every few polls.
 */
import type { FakeCache } from '../../scripts/lib/fakeCache';
import { type RushScenario, playRush } from '../../scripts/lib/pollPlay';
import { type PollTimings, pollTimings } from '../../src/polling';
import { performWith } from '../triggers/common/harness';
import { callable } from '../../scripts/lib/app';
import { newSubmissionTrigger } from '../../src/triggers/newSubmission';

const SCALE = 96;
const timings: PollTimings = pollTimings({
  answerLimitBytes: Math.floor((6 * 1024 * 1024) / SCALE),
  cacheValueBytes: Math.floor(1_000_000 / SCALE),
  // A poll that finds its turn taken waits this long (real time) before it reads alone.
  turnWaitMs: 20,
});
const perform = performWith(timings);

const s: RushScenario = {
  name: 'a rush of about three answers',
  everyMin: 1,
  zaps: [{ everyMin: 1 }, { everyMin: 2, phaseMin: 1 }, { everyMin: 15, phaseMin: 7 }],
  rush: { count: 100, minutes: 30, recordBytes: 1_000, script: 'latin' },
  perHour: 10,
  maxHours: 12,
  afterHours: 0.5,
};

/** The kinds of keys of a stream, by the end of their name. */
const KINDS: Array<[string, RegExp]> = [
  ['the state', /poll:submissions:[^:]+:any$/],
  ['the kept entry', /:kept$/],
  ['a piece of the kept tail', /:kept:tail\d*$/],
  ['the owed index', /:owed$/],
  ['an owed share', /:owed:[^:]+$/],
];
const STATE = KINDS[0]?.[1] as RegExp;

type Fault = 'evicted' | 'truncated' | 'stale';

/** A value cut in half: a string's text, or an object's JSON text (no longer an object). */
const truncated = (stored: { v: unknown; e: number }) => {
  const text = typeof stored.v === 'string' ? stored.v : JSON.stringify(stored.v);
  return { v: text.slice(0, Math.floor(text.length / 2)), e: stored.e };
};

/** Every `every` polls, damages one live key of `kind` (in turn), as `fault` says; counts the faults made. */
const damage = (kind: RegExp, fault: Fault, every: number) => {
  const history = new Map<string, Array<{ v: unknown; e: number }>>();
  let made = 0;
  let turn = 0;
  const hook = (cache: FakeCache, poll: number) => {
    const keys = cache.keys().filter((key) => kind.test(key));
    for (const key of keys) {
      const seen = history.get(key) ?? [];
      seen.push(cache.peek(key) as { v: unknown; e: number });
      history.set(key, seen.slice(-8));
    }
    if (poll % every !== every - 1 || !keys.length) return;
    const key = keys[turn++ % keys.length] as string;
    const now = cache.peek(key) as { v: unknown; e: number };
    if (fault === 'evicted') cache.drop(key);
    if (fault === 'truncated') cache.poke(key, truncated(now));
    if (fault === 'stale') {
      // A value the key held before, else one another key of its kind holds (a share written once).
      const text = JSON.stringify(now.v);
      const older = [...(history.get(key) ?? []), ...keys.map((other) => cache.peek(other) as typeof now)];
      const value = older.find((v) => JSON.stringify(v.v) !== text);
      if (!value) return;
      cache.poke(key, { v: value.v, e: now.e });
    }
    made += 1;
  };
  return { hook, made: () => made };
};

describe('three Zaps through a rush, one key of the stream damaged every few polls', () => {
  const cases = KINDS.flatMap(([name, kind]) =>
    (['evicted', 'truncated', 'stale'] as Fault[]).map((fault) => ({ name, kind, fault })),
  );
  it.each(cases)('$name $fault: every Zap gets every registration', async ({ kind, fault }) => {
    const faults = damage(kind, fault, 15);
    const played = await playRush(s, perform, faults.hook);
    expect(faults.made()).toBeGreaterThan(0);
    expect(played.zaps.map((zap) => zap.lost)).toEqual([0, 0, 0]);
    for (const zap of played.zaps) expect(zap.wholeRushMs).toBeLessThan(Infinity);
    expect(Math.max(...played.polls.map((poll) => poll.answer))).toBeLessThan(timings.answerLimitBytes);
  });

  it('the turn left taken (by a poll Zapier stopped) every few polls: every Zap gets every registration', async () => {
    let made = 0;
    const hook = (cache: FakeCache, poll: number) => {
      const state = cache.keys().find((key) => STATE.test(key));
      if (!state || poll % 7 !== 6) return;
      void cache.api.set(`${state}:turn`, { v: 'a stopped poll', e: Date.now() + 60_000 }, 60);
      made += 1;
    };
    // The play's clock stands still during a poll: a wait moves this one on instead (20 ms at most a poll).
    let slept = 0;
    const clock = { now: () => Date.now() + slept, sleep: async (ms: number) => void (slept += ms) };
    const trigger = newSubmissionTrigger({ timings, clock });
    const played = await playRush(s, callable((trigger.operation as { perform?: unknown }).perform), hook);
    expect(made).toBeGreaterThan(0);
    expect(played.zaps.map((zap) => zap.lost)).toEqual([0, 0, 0]);
    for (const zap of played.zaps) expect(zap.wholeRushMs).toBeLessThan(Infinity);
  });
});
