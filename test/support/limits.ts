/**
 * Time limits no machine reaches, however busy, for the tests that assert behaviour and not a time limit:
 * the app's request and stream limits are set (a poll's request gives up 2 s before the stream's lookup
 * limit, so it follows them; the attendee lookup's timings are a value each test passes in) for the test file (`beforeAll`) and put back
 * after it. A test of a limit itself sets its own short limit instead.
 */
import { setStreamLimits } from '../../src/connect';

/** Ten minutes: longer than any test may take, so only a real hang reaches it. */
export const GENEROUS_MS = 10 * 60_000;

export const useGenerousTimeLimits = (): void => {
  const restore: Array<() => void> = [];
  beforeAll(() => {
    restore.push(setStreamLimits({ requestMs: GENEROUS_MS, lookupMs: GENEROUS_MS, stallMs: GENEROUS_MS }));
  });
  afterAll(() => {
    while (restore.length) restore.pop()?.();
  });
};
