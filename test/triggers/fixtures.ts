/** Records and a controllable clock shared by the polling trigger tests. */
import type { Submission } from '../../src/connect';
import { SAMPLE_EVENT } from '../../src/mappers/event';
import { SAMPLE_SUBMISSION } from '../../src/mappers/submission';

export const EVENT_ID = SAMPLE_EVENT.id;
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const T0 = Date.parse('2026-11-22T10:00:00.000Z');

export const iso = (ms: number): string => new Date(ms).toISOString();

/** A submission of the sample event with its own id, time and status. */
export const submissionAt = (
  id: string,
  createdMs: number,
  overrides: Partial<Submission> = {},
): Submission => ({
  ...SAMPLE_SUBMISSION,
  submissionId: id,
  eventId: EVENT_ID,
  createdAt: iso(createdMs),
  ...overrides,
});

/** The client clock (`Date.now`) under the test's control. */
export const controlClock = (start = T0) => {
  let now = start;
  const spy = jest.spyOn(Date, 'now').mockImplementation(() => now);
  return {
    get now() {
      return now;
    },
    set: (ms: number) => {
      now = ms;
    },
    advance: (ms: number) => {
      now += ms;
    },
    restore: () => spy.mockRestore(),
  };
};
