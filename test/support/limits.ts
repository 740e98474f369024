/**
 * Time limits no machine reaches, however busy, for the tests that assert behaviour and not a time limit:
 * the run's environment sets the app's request and stream limits (`CONNECT_STREAM_LIMITS`, read by
 * `streamLimits()`; a poll's request gives up 2 s before the stream's lookup limit, so it follows them; the
 * attendee lookup's timings are a value each test passes in) for the test file (`beforeAll`), and the
 * previous environment is put back after it. A test of a limit itself sets its own short limit instead.
 */
import { STREAM_LIMITS_ENV, type StreamLimits } from '../../src/connect';

/** Ten minutes: longer than any test may take, so only a real hang reaches it. */
export const GENEROUS_MS = 10 * 60_000;

/** Sets the run's stream limits to `limits` (some of them); returns a function that puts back the previous ones. */
export const setRunLimits = (limits: Partial<StreamLimits>): (() => void) => {
  const previous = process.env[STREAM_LIMITS_ENV];
  const current = previous ? (JSON.parse(previous) as Partial<StreamLimits>) : {};
  process.env[STREAM_LIMITS_ENV] = JSON.stringify({ ...current, ...limits });
  return () => {
    if (previous === undefined) delete process.env[STREAM_LIMITS_ENV];
    else process.env[STREAM_LIMITS_ENV] = previous;
  };
};

export const useGenerousTimeLimits = (): void => {
  const restore: Array<() => void> = [];
  beforeAll(() => {
    restore.push(setRunLimits({ requestMs: GENEROUS_MS, lookupMs: GENEROUS_MS, stallMs: GENEROUS_MS }));
  });
  afterAll(() => {
    while (restore.length) restore.pop()?.();
  });
};
