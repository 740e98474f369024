/**
 * What the rush tests share (rush.test.ts, rushMinute.test.ts): a scenario of `bench:poll` at a smaller
 * scale, played through New Form Submission, and the checks every rush must pass.
 */
import { functionOf } from '../../scripts/lib/app';
import { type Played, type RushScenario, playRush } from '../../scripts/lib/pollPlay';
import { NEW_SUBMISSION_KEY } from '../../src/triggers/newSubmission';

const MIB = 1024 * 1024;
export const perform = functionOf('triggers', NEW_SUBMISSION_KEY);

/** A rush of `count` registrations of `recordBytes` in `minutes`, inside 1,000 an hour, polled `everyMin`. */
export const scenario = (
  name: string,
  everyMin: number,
  count: number,
  minutes: number,
  recordBytes: number,
  script: 'latin' | 'cyrillic' = 'latin',
): RushScenario => ({
  name,
  everyMin,
  rush: { count, minutes, recordBytes, script },
  perHour: 1000,
  maxHours: 12,
  afterHours: 0.5,
  // Half an hour of steady polls before the rush: the kept entry is in use when it begins.
  turnedOnMin: 30,
});

export const HANDED_OVER =
  '$name: nothing lost, every answer under 6 MiB, the backlog handed over at the pace 6 MiB answers allow';

const plays = new Map<string, Promise<Played>>();

/** `s` played once in the file, whichever of its tests runs first (two tests may check one play). */
export const playedOnce = (s: RushScenario): Promise<Played> => {
  const key = JSON.stringify(s);
  const known = plays.get(key);
  if (known) return known;
  const played = playRush(s, perform);
  plays.set(key, played);
  return played;
};

/** Plays `s`: nothing lost, every answer under 6 MiB, the backlog drained in answers near it, new first. */
export const expectHandedOver = async (s: RushScenario): Promise<void> => {
  const played = await playedOnce(s);
  expect(played.lost).toBe(0);
  expect(played.drainedFrom).toBeGreaterThan(0);
  const largest = Math.max(...played.polls.map((poll) => poll.answer));
  expect(largest).toBeLessThan(6 * MIB);
  // The backlog was cut into answers that use the budget: several polls near the limit.
  expect(played.polls.filter((poll) => poll.answer > 5 * MIB).length).toBeGreaterThanOrEqual(2);
  // New registrations first: the polls during the drain carried new ones only, as many as fit.
  const drain = played.polls.filter((poll) => poll.answer > 5 * MIB && poll.fresh > 0);
  expect(drain.length).toBeGreaterThanOrEqual(2);
  expect(played.lastDelayMs).toBeLessThanOrEqual(played.floorDelayMs);
};
