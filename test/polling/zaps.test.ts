/**
 * Several Zaps on one stream through a rush, without timings: three Zaps of one account polling the same
 * event every 1, 2 and 15 minutes (Zapier cannot tell them apart), each with its own dedupe table, through
 * the rushes of `bench:poll` scaled down: smaller answers and a smaller cache value (the app's, cut by 24),
 * and a rush that is as many answers long as the benchmark's is.
 */
import { type RushScenario, playRush } from '../../scripts/lib/pollPlay';
import { THREE_ZAPS, performWith, scaledTimings } from './harness';

const SCALE = 24;
const timings = scaledTimings(SCALE);
const perform = performWith(timings);

const scenario = (
  name: string,
  count: number,
  recordBytes: number,
  script: 'latin' | 'cyrillic' = 'latin',
): RushScenario => ({
  name,
  everyMin: 1,
  zaps: THREE_ZAPS,
  rush: { count, minutes: 30, recordBytes, script },
  perHour: 40,
  maxHours: 12,
  // A quarter of an hour of polls once every Zap had the rush.
  afterHours: 0.25,
  // Half an hour of steady polls before the rush (its steady flow is a few registrations).
  turnedOnMin: 30,
});

describe('three Zaps of one stream (1, 2 and 15 minutes) through a rush, scaled down', () => {
  it.each([
    scenario('10,000 of 1 KB (as 600)', 600, 1_000),
    scenario('10,000 of 4 KB in Latin script (as 200)', 200, 4_000),
    scenario('10,000 of 4 KB in a non-Latin script (as 200)', 200, 4_000, 'cyrillic'),
    scenario('10,000 of 10 KB (as 70)', 70, 10_000),
  ])('$name: every Zap gets every registration', async (s) => {
    const played = await playRush(s, perform);
    expect(played.zaps.map((zap) => zap.lost)).toEqual([0, 0, 0]);
    for (const zap of played.zaps) expect(zap.wholeRushMs).toBeLessThan(Infinity);
    const largest = Math.max(...played.polls.map((poll) => poll.answer));
    expect(largest).toBeLessThan(timings.answerLimitBytes);
    // The rush was more than an answer and more than the kept entry holds: it grew to a good part of its
    // cap (what some Zap may lack beyond an eighth of an answer, while a backlog is owed, became owed
    // shares).
    expect(
      played.polls.filter((poll) => poll.answer > 0.8 * timings.answerLimitBytes).length,
    ).toBeGreaterThan(2);
    expect(played.largestKept).toBeGreaterThan(0.3 * timings.keptCapBytes);
  });
});
