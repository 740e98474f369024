/**
 * Time limits no machine reaches, however busy, for the tests that assert behaviour and not a time limit:
 * the app's request, stream and lookup limits are set (a poll's request gives up 2 s before the stream's
 * lookup limit, so it follows them) for the test file (`beforeAll`) and put back
 * after it. A test of a limit itself sets its own short limit instead.
 */
import { setStreamLimits } from '../../src/connect';
import { ATTENDEE_LIMITS } from '../../src/account/attendee';

/** Ten minutes: longer than any test may take, so only a real hang reaches it. */
export const GENEROUS_MS = 10 * 60_000;

export const useGenerousTimeLimits = (): void => {
  const restore: Array<() => void> = [];
  beforeAll(() => {
    restore.push(setStreamLimits({ requestMs: GENEROUS_MS, lookupMs: GENEROUS_MS, stallMs: GENEROUS_MS }));
    const attendee = { ...ATTENDEE_LIMITS };
    Object.assign(ATTENDEE_LIMITS, { lookupMs: GENEROUS_MS, waitMs: GENEROUS_MS, hydrationMs: GENEROUS_MS });
    restore.push(() => Object.assign(ATTENDEE_LIMITS, attendee));
  });
  afterAll(() => {
    while (restore.length) restore.pop()?.();
  });
};
