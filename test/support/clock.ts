/**
 * A virtual clock for many concurrent runs: `sleep` parks the caller, and once every run is parked (nothing
 * left to do but wait), time jumps to the earliest wake-up. A bounded wait of minutes is then instant, and
 * nothing depends on how fast or busy the machine is.
 */
import type { Clock } from '../../src/memory';

export interface VirtualClock extends Clock {
  /** How many times any run slept. */
  readonly sleeps: number;
}

export const virtualClock = (start = 1_800_000_000_000): VirtualClock => {
  let at = start;
  let sleeps = 0;
  const timers: Array<{ at: number; wake: () => void }> = [];
  let pumping = false;
  const pump = () => {
    pumping = false;
    timers.sort((a, b) => a.at - b.at);
    const next = timers.shift();
    if (!next) return;
    at = Math.max(at, next.at);
    next.wake();
    schedule();
  };
  const schedule = () => {
    if (pumping || timers.length === 0) return;
    pumping = true;
    setImmediate(pump);
  };
  return {
    now: () => at,
    get sleeps() {
      return sleeps;
    },
    sleep: (ms, signal) =>
      new Promise<void>((wake) => {
        sleeps += 1;
        const timer = { at: at + Math.max(0, ms), wake };
        timers.push(timer);
        // A bound no longer needed leaves the timeline: time does not jump to it.
        signal?.addEventListener('abort', () => {
          const index = timers.indexOf(timer);
          if (index >= 0) timers.splice(index, 1);
          wake();
        });
        schedule();
      }),
  };
};
