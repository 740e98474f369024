/**
 * "One at a time, others wait" over a cache that honours `nx` and TTL, on a virtual clock: one run works,
 * the others get its result; a failed or dead holder costs one bounded wait, never a result; waiters look at
 * the store less and less often; a failing cache makes each run work alone.
 */
import type { ZObject } from 'zapier-platform-core';
import { type AccountCache, type LeaseTimings, accountCache, oneAtATime } from '../../src/memory';
import { FakeCache } from '../support/cache';
import { authData } from '../support/app';
import { type VirtualClock, virtualClock } from '../support/clock';

const timings: LeaseTimings = { leaseSeconds: 30, waitMs: 10_000, firstLookMs: 100, maxLookMs: 2_000 };

const setup = () => {
  const clock = virtualClock();
  const fake = new FakeCache(() => clock.now());
  let calls = 0;
  const api = {
    get: (...args: Parameters<FakeCache['api']['get']>) => ((calls += 1), fake.api.get(...args)),
    set: (...args: Parameters<FakeCache['api']['set']>) => ((calls += 1), fake.api.set(...args)),
    delete: (...args: Parameters<FakeCache['api']['delete']>) => ((calls += 1), fake.api.delete(...args)),
  };
  const cache = accountCache({ cache: api } as unknown as ZObject, { authData: authData() }, () =>
    clock.now(),
  );
  return { clock, fake, cache, calls: () => calls };
};

/** Work that takes `ms` of the clock, then writes its result under `result`. */
const steps = (cache: AccountCache, clock: VirtualClock, ms: number, counter: { works: number }) => ({
  ready: () => cache.get<string>('result'),
  work: async () => {
    counter.works += 1;
    await clock.sleep(ms);
    await cache.set('result', `value ${counter.works}`, 60);
    return `value ${counter.works}`;
  },
});

it('lets one of 50 concurrent runs work; the 49 others get its result with a few looks each', async () => {
  const { clock, cache, calls } = setup();
  const counter = { works: 0 };
  const outcomes = await Promise.all(
    Array.from({ length: 50 }, () =>
      oneAtATime(cache, 'lease', timings, clock, steps(cache, clock, 3_000, counter)),
    ),
  );
  expect(counter.works).toBe(1);
  expect(outcomes.filter((outcome) => outcome.by === 'me')).toHaveLength(1);
  expect(outcomes.filter((outcome) => outcome.by === 'other')).toHaveLength(49);
  expect(outcomes.every((outcome) => outcome.by !== 'waited' && outcome.value === 'value 1')).toBe(true);
  // 3 s of waiting with looks at 0.1, 0.3, 0.7, 1.5, 3.1 s: a handful of calls a run, not a loop.
  expect(calls() / 50).toBeLessThan(15);
});

it('looks less and less often: a 10 s wait for a holder that never ends is 9 looks (0.1, 0.3, 0.7, 1.5, 3.1, 5.1, 7.1, 9.1, 10 s)', async () => {
  const { clock, cache } = setup();
  await cache.setIfAbsent('lease', 'someone else', 30);
  const counter = { works: 0 };
  const outcome = await oneAtATime(cache, 'lease', timings, clock, steps(cache, clock, 0, counter));
  expect(outcome).toEqual({ by: 'waited', looks: expect.any(Number) });
  expect(outcome.by === 'waited' && outcome.looks).toBe(9);
  expect(counter.works).toBe(0);
});

it('hands the work on when the holder fails: its lease is released and a waiter works', async () => {
  const { clock, cache } = setup();
  const counter = { works: 0 };
  const failing = {
    ready: () => cache.get<string>('result'),
    work: async () => {
      await clock.sleep(500);
      throw new Error('the service failed');
    },
  };
  const first = oneAtATime(cache, 'lease', timings, clock, failing);
  const second = oneAtATime(cache, 'lease', timings, clock, steps(cache, clock, 100, counter));
  await expect(first).rejects.toThrow('the service failed');
  expect(await second).toEqual({ by: 'me', value: 'value 1' });
});

it('hands the work on when the holder died: its lease expires and a waiter works within its bound', async () => {
  const { clock, cache } = setup();
  await cache.setIfAbsent('lease', 'a run that died', 5);
  const counter = { works: 0 };
  const outcome = await oneAtATime(cache, 'lease', timings, clock, steps(cache, clock, 100, counter));
  expect(outcome).toEqual({ by: 'me', value: 'value 1' });
});

it('does not release a lease that expired and was taken by another run', async () => {
  const { clock, cache } = setup();
  const counter = { works: 0 };
  const slow = oneAtATime(cache, 'lease', { ...timings, leaseSeconds: 1 }, clock, {
    ready: () => cache.get<string>('result'),
    work: async () => {
      await clock.sleep(2_000); // outlives its lease
      await cache.setIfAbsent('lease', 'the next holder', 30);
      return 'slow';
    },
  });
  expect(await slow).toEqual({ by: 'me', value: 'slow' });
  expect(await cache.get('lease')).toBe('the next holder');
  expect(counter.works).toBe(0);
});

it('lets each run work alone when the cache fails', async () => {
  const { clock, fake, cache } = setup();
  fake.broken = true;
  const counter = { works: 0 };
  const outcomes = await Promise.all(
    Array.from({ length: 3 }, () =>
      oneAtATime(cache, 'lease', timings, clock, steps(cache, clock, 100, counter)),
    ),
  );
  expect(counter.works).toBe(3);
  expect(outcomes.every((outcome) => outcome.by === 'me')).toBe(true);
});

it('keeps a short lease alive while its holder works (renewed), and tells the holder once that others wait', async () => {
  const { clock, cache } = setup();
  const counter = { works: 0 };
  const renewed = { ...timings, leaseSeconds: 3, renewMs: 1_000, waitMs: 60_000 };
  let told = 0;
  const wave = Array.from({ length: 5 }, () =>
    oneAtATime(cache, 'lease', renewed, clock, {
      ...steps(cache, clock, 20_000, counter),
      waiting: async () => {
        told += 1;
      },
    }),
  );
  const outcomes = await Promise.all(wave);
  // The work takes 20 s, far past the 3 s lease: without renewal a waiter would have worked too.
  expect(counter.works).toBe(1);
  expect(outcomes.filter((outcome) => outcome.by === 'other')).toHaveLength(4);
  expect(told).toBe(4);
});
