/**
 * Time as the app's stateful rooms see it: what the time is, and how to wait. Tests and benchmarks pass a
 * clock of their own (a virtual one makes a bounded wait instant); the app runs on `systemClock`.
 */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};
