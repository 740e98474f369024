/**
 * Time as the app's stateful rooms see it: what the time is, and how to wait. Tests and benchmarks pass a
 * clock of their own (a virtual one makes a bounded wait instant); the app runs on `systemClock`.
 */
export interface Clock {
  now(): number;
  /** Resolves after `ms`, or at once when `signal` aborts (a bound no longer needed). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    }),
};
