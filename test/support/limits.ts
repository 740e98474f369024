/**
 * Time limits no machine reaches, however busy, for the tests that assert behaviour and not a time limit.
 * jest's global setup (`test/support/timeLimits.ts`) puts `GENEROUS_LIMITS` in the run's environment
 * (`CONNECT_STREAM_LIMITS`, read by `streamLimits()`) before any worker starts, so every test file, and every
 * process a test starts (an `invoke` command, a script), runs with them: a poll's request gives up 2 s before
 * the stream's lookup limit, so it follows them; the attendee lookup's and the webhook secrets' timings are
 * values each test passes in. A test of a limit itself sets its own short limit (`setRunLimits`) and puts
 * the previous ones back after it.
 */
import { STREAM_LIMITS, STREAM_LIMITS_ENV, type StreamLimits } from '../../src/connect';

/** Ten minutes: longer than any test may take, so only a real hang reaches it. */
export const GENEROUS_MS = 10 * 60_000;

/** Every limit of the run at `GENEROUS_MS`, but how often they are checked (`stepMs`), which is no limit. */
export const GENEROUS_LIMITS: Partial<StreamLimits> = Object.freeze(
  Object.fromEntries(
    Object.keys(STREAM_LIMITS)
      .filter((key) => key !== 'stepMs')
      .map((key) => [key, GENEROUS_MS]),
  ),
);

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

/**
 * The generous limits for one file, whatever the environment it was started in (a file run by a tool
 * other than this project's jest configuration): the global setup already sets them for `npx jest`.
 */
export const useGenerousTimeLimits = (): void => {
  const restore: Array<() => void> = [];
  beforeAll(() => {
    restore.push(setRunLimits(GENEROUS_LIMITS));
  });
  afterAll(() => {
    while (restore.length) restore.pop()?.();
  });
};
