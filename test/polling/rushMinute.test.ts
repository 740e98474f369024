/**
 * Rushes through New Form Submission, without timings: the scenarios of `bench:poll` at a smaller scale
 * (a few thousand registrations instead of 10,000 and 30,000, so that the suite stays fast), through the
 * same play (scripts/lib/pollPlay.ts): the same mechanisms (answers cut by the 6 MiB budget, a backlog
 * drained over several polls, the kept entry over its cap, the steady flow around the rush). The rush at
 * 1-minute polls, in a file of its own (rush.test.ts has the others).
 */
import { functionOf } from '../../scripts/lib/app';
import { type RushScenario, playRush } from '../../scripts/lib/pollPlay';
import { NEW_SUBMISSION_KEY } from '../../src/triggers/newSubmission';

const MIB = 1024 * 1024;
const perform = functionOf('triggers', NEW_SUBMISSION_KEY);

const scenario = (
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
});

describe('a rush of registrations (smaller than the benchmark’s)', () => {
  it.each([scenario('3,000 of 1 KB in 20 minutes, 1-minute polls', 1, 3_000, 20, 1_000)])(
    '$name: nothing lost, every answer under 6 MiB, the backlog handed over at the pace 6 MiB answers allow',
    async (s) => {
      const played = await playRush(s, perform);
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
    },
  );
});
