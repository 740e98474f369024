/**
 * Rushes through New Form Submission, without timings: the scenarios of `bench:poll` at a smaller scale
 * (a few thousand registrations instead of 10,000 and 30,000, so that the suite stays fast), through the
 * same play (scripts/lib/pollPlay.ts): the same mechanisms (answers cut by the 6 MiB budget, a backlog
 * drained over several polls, the kept entry over its cap, the steady flow around the rush). The rush at
 * 1-minute polls, in a file of its own (rush.test.ts has the others).
 */
import { HANDED_OVER, expectHandedOver, scenario } from './rushCase';

describe('a rush of registrations (smaller than the benchmark’s)', () => {
  // Polled every minute, a steady flow of 500 an hour and a quarter of an hour after the drain are enough:
  // the answers still reach 6 MiB, and the steady flow is back.
  it.each([
    {
      ...scenario('3,000 of 1 KB in 20 minutes, 1-minute polls', 1, 3_000, 20, 1_000),
      perHour: 500,
      afterHours: 0.25,
    },
  ])(HANDED_OVER, expectHandedOver);
});
