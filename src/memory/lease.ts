/**
 * "One at a time, others wait": the one coordination primitive over the account's store. Several runs want
 * the same costly result (a subscription's current secret, an event's attendees, a stream's state); the first
 * takes a lease on the work (`nx`), the others wait a bounded while for the result to appear, looking at the
 * store less and less often (never in a tight loop), and take the lease themselves when its holder is gone
 * without a result (it failed or died: its lease expires or is released).
 *
 * Whoever works without the lease: a cache that fails (each run then works alone: losing the cache costs
 * work, never a result). A waiter whose bound passes while the lease is still held is told so (`waited`) and
 * its caller decides: work alone, use what it had, or fail with a message.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from './clock';
import type { AccountCache } from './store';

export interface LeaseTimings {
  /** How long a lease lives if its holder never releases it (it died): longer than the work may take. */
  leaseSeconds: number;
  /** How long a waiter waits for the result in all. */
  waitMs: number;
  /** The first look after a wait starts; each next one waits twice as long, up to `maxLookMs`. */
  firstLookMs: number;
  maxLookMs: number;
  /**
   * When set, the holder renews its lease this often while it works, so that `leaseSeconds` can be short
   * (a dead holder is then waited for only that long, however long the work may take).
   */
  renewMs?: number;
}

export type LeaseOutcome<T> =
  /** This run did the work (with the lease, or alone when the cache fails). */
  | { by: 'me'; value: T }
  /** Another run's result, found in the store. */
  | { by: 'other'; value: T }
  /** The bound passed while another run still held the lease. */
  | { by: 'waited'; looks: number };

export interface LeaseSteps<T> {
  /** The result if it is in the store already (written by whoever held the lease), else `undefined`. */
  ready(): Promise<T | undefined>;
  /** The work, done by the holder of the lease (it writes its result where `ready` finds it). */
  work(): Promise<T>;
  /** Called once, when this run first finds the lease taken (it is about to wait): lets the holder know. */
  waiting?(): Promise<void>;
}

/** Renews `token`'s lease every `renewMs` until the returned stop is called (or the lease is another's). */
const renewing = (cache: AccountCache, key: string, token: string, timings: LeaseTimings, clock: Clock) => {
  let stopped = false;
  const every = timings.renewMs;
  if (every !== undefined && every > 0) {
    void (async () => {
      for (;;) {
        await clock.sleep(every);
        if (stopped || (await cache.get<unknown>(key)) !== token) return;
        await cache.set(key, token, timings.leaseSeconds);
      }
    })();
  }
  return () => {
    stopped = true;
  };
};

/** Looks until the result appears (`found`), the lease is free (`free`) or the bound passes (`waited`). */
const wait = async <T>(
  cache: AccountCache,
  key: string,
  timings: LeaseTimings,
  clock: Clock,
  ready: () => Promise<T | undefined>,
  until: number,
): Promise<{ found: T } | { free: true } | { looks: number }> => {
  let pause = timings.firstLookMs;
  for (let looks = 0; ; ) {
    const left = until - clock.now();
    if (left <= 0) return { looks };
    await clock.sleep(Math.min(pause, left));
    pause = Math.min(timings.maxLookMs, pause * 2);
    looks += 1;
    const value = await ready();
    if (value !== undefined) return { found: value };
    if ((await cache.get<unknown>(key)) === undefined) return { free: true };
  }
};

/**
 * The result of `steps`, worked out by one run at a time per `key` (see the module comment). A failing
 * `work` releases the lease and throws to its own caller; the waiters then find the lease free and take it
 * (a shared failure is for `work` to write and `ready` to return).
 */
export const oneAtATime = async <T>(
  cache: AccountCache,
  key: string,
  timings: LeaseTimings,
  clock: Clock,
  steps: LeaseSteps<T>,
): Promise<LeaseOutcome<T>> => {
  const until = clock.now() + timings.waitMs;
  const token = randomUUID();
  let told = false;
  for (;;) {
    const won = await cache.setIfAbsent(key, token, timings.leaseSeconds);
    if (won === null) return { by: 'me', value: await steps.work() };
    if (won) {
      const stop = renewing(cache, key, token, timings, clock);
      try {
        // The holder before may have written its result between this run's look and its lease.
        const landed = await steps.ready();
        if (landed !== undefined) return { by: 'other', value: landed };
        return { by: 'me', value: await steps.work() };
      } finally {
        stop();
        // Only this run's own lease: one that expired and was taken by another run is left to it.
        if ((await cache.get<unknown>(key)) === token) await cache.delete(key);
      }
    }
    if (!told && steps.waiting) {
      told = true;
      await steps.waiting();
    }
    const outcome = await wait(cache, key, timings, clock, steps.ready, until);
    if ('found' in outcome) return { by: 'other', value: outcome.found };
    if ('looks' in outcome) return { by: 'waited', looks: outcome.looks };
  }
};
