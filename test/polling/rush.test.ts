/**
 * Rushes through New Form Submission, without timings: the scenarios of `bench:poll` at a smaller scale
 * (a few thousand registrations instead of 10,000 and 30,000, so that the suite stays fast), through the
 * same play (scripts/lib/pollPlay.ts): the same mechanisms (answers cut by the 6 MiB budget, a backlog
 * drained over several polls, the kept entry over its cap, the steady flow around the rush).
 */
import { POLL_TIMINGS } from '../../src/polling';
import { HANDED_OVER, expectHandedOver, playedOnce, scenario } from './rushCase';

/**
 * The rush of 10 KB registrations, played once for both of its tests: an hour of polls before it (the rush
 * brings the kept entry to its cap) and an hour after its drain.
 */
const tenKb = {
  ...scenario('2,000 of 10 KB in 30 minutes, 5-minute polls', 5, 2_000, 30, 10_000),
  afterHours: 1,
  turnedOnMin: 60,
};

describe('a rush of registrations (smaller than the benchmark’s)', () => {
  it.each([
    tenKb,
    scenario('1,500 of 4 KB in Cyrillic in 30 minutes, 15-minute polls', 15, 1_500, 30, 4_000, 'cyrillic'),
    scenario('6,000 of 1 KB in an hour, 15-minute polls', 15, 6_000, 60, 1_000),
  ])(HANDED_OVER, expectHandedOver);
});

describe('after a rush larger than the kept entry’s cap', () => {
  it('polls read only what came after the kept entry, not their window again', async () => {
    const played = await playedOnce(tenKb);
    expect(played.lost).toBe(0);
    // The entry grew to a good part of its cap (the rush is about 20 MB; what some Zap may lack beyond an
    // eighth of an answer, while a backlog is owed, became owed shares) and was kept, its newest records
    // within it.
    expect(played.largestKept).toBeGreaterThan(0.25 * POLL_TIMINGS.keptCapBytes);
    expect(played.largestKept).toBeLessThanOrEqual(POLL_TIMINGS.keptCapBytes + 2);
    // Once drained, each poll reads what became visible since the previous one and the few minutes before
    // (late visibility): at most 3 times those bytes, where reading the window again would be the rush.
    const after = played.polls.slice(played.drainedFrom);
    expect(after.length).toBeGreaterThanOrEqual(10);
    for (const poll of after) expect(poll.service).toBeLessThanOrEqual(3 * poll.floor);
  });
});
