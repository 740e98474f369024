/**
 * Time limits no machine reaches, however busy, for the tests that assert behaviour and not a time limit:
 * the app's request, stream and poll limits are set for the test file (`beforeAll`) and put back
 * after it. A test of a limit itself sets its own short limit instead.
 */
import { setStreamLimits } from '../../src/connect';
import { CURSOR_TIMING } from '../../src/triggers/common/cursor';

/** Ten minutes: longer than any test may take, so only a real hang reaches it. */
export const GENEROUS_MS = 10 * 60_000;

export const useGenerousTimeLimits = (): void => {
  const restore: Array<() => void> = [];
  beforeAll(() => {
    restore.push(setStreamLimits({ requestMs: GENEROUS_MS, lookupMs: GENEROUS_MS, stallMs: GENEROUS_MS }));
    const cursor = { ...CURSOR_TIMING };
    Object.assign(CURSOR_TIMING, { requestBudgetMs: GENEROUS_MS, minRequestTimeoutMs: GENEROUS_MS });
    restore.push(() => Object.assign(CURSOR_TIMING, cursor));
  });
  afterAll(() => {
    while (restore.length) restore.pop()?.();
  });
};
