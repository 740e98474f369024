/**
 * Cache faults through a rush with several Zaps, for the tests of `faults*.test.ts`: three Zaps (1, 2 and
 * 15 minutes) through a rush of about three answers (answers and cache values scaled down by 96), one key
 * of the stream damaged every few polls (evicted, cut short, or put back to a value it held before).
 */
import type { FakeCache } from '../../scripts/lib/fakeCache';
import { type RushScenario, playRush } from '../../scripts/lib/pollPlay';
import { THREE_ZAPS, performWith, scaledTimings } from './harness';

const SCALE = 96;
// A poll that finds its stream's lease taken waits 20 ms before it reads alone.
export const timings = scaledTimings(SCALE, { leaseWaitMs: 20 });
export const perform = performWith(timings);

export const scenario: RushScenario = {
  name: 'a rush of about three answers',
  everyMin: 1,
  zaps: THREE_ZAPS,
  rush: { count: 100, minutes: 30, recordBytes: 1_000, script: 'latin' },
  perHour: 10,
  maxHours: 12,
  // A quarter of an hour of polls once every Zap had the rush.
  afterHours: 0.25,
  // Half an hour of steady polls before the rush (its steady flow is a few registrations).
  turnedOnMin: 30,
};

/** The kinds of keys of a stream, by the end of their name. */
export const KINDS: Array<[string, RegExp]> = [
  ['the state', /poll:submissions:[^:]+:any$/],
  ['the kept entry', /:kept$/],
  ['a piece of the kept tail', /:kept:tail\d*$/],
  ['the owed index', /:owed$/],
  ['an owed share', /:owed:[^:]+$/],
];
export const STATE = KINDS[0]?.[1] as RegExp;

export type Fault = 'evicted' | 'truncated' | 'stale';

/** A value cut in half: a string's text, or an object's JSON text (no longer an object). */
const truncated = (stored: { v: unknown; e: number }) => {
  const text = typeof stored.v === 'string' ? stored.v : JSON.stringify(stored.v);
  return { v: text.slice(0, Math.floor(text.length / 2)), e: stored.e };
};

/** Every `every` polls, damages one live key of `kind` (each in its order), as `fault` says; counts the faults made. */
export const damage = (kind: RegExp, fault: Fault, every: number) => {
  const history = new Map<string, Array<{ v: unknown; e: number }>>();
  let made = 0;
  let next = 0;
  const hook = (cache: FakeCache, poll: number) => {
    const keys = cache.keys().filter((key) => kind.test(key));
    for (const key of keys) {
      const seen = history.get(key) ?? [];
      seen.push(cache.peek(key) as { v: unknown; e: number });
      history.set(key, seen.slice(-8));
    }
    if (poll % every !== every - 1 || !keys.length) return;
    const key = keys[next++ % keys.length] as string;
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

/** Plays the rush with `kind`'s keys damaged as `fault` says, and checks that every Zap got every registration. */
export const playDamaged = async (kind: RegExp, fault: Fault) => {
  const faults = damage(kind, fault, 15);
  const played = await playRush(scenario, perform, faults.hook);
  expect(faults.made()).toBeGreaterThan(0);
  expect(played.zaps.map((zap) => zap.lost)).toEqual([0, 0, 0]);
  for (const zap of played.zaps) expect(zap.wholeRushMs).toBeLessThan(Infinity);
  expect(Math.max(...played.polls.map((poll) => poll.answer))).toBeLessThan(timings.answerLimitBytes);
};
