/**
 * The account store's `setIfAbsent`, on a cache that honours `nx` and TTL as Zapier's does: it tells a key
 * that was free from one that was taken, and both from a cache that fails. And a call that fails, made again.
 */
import type { ZObject } from 'zapier-platform-core';
import { CACHE_FAILED, accountCache, cacheRecord } from '../../src/memory';
import * as zod from 'zod';
import { FakeCache } from '../support/cache';
import { SENTINEL_KEY, authData } from '../support/app';

const storeOn = (cache: FakeCache, now: () => number) =>
  accountCache({ cache: cache.api } as unknown as ZObject, { authData: authData() }, now);

it('stores a free key once: true, then false while it lives, true again once it has expired', async () => {
  let now = 1_000_000;
  const cache = new FakeCache(() => now);
  const store = storeOn(cache, () => now);
  expect(await store.setIfAbsent('claim', { by: 'first' }, 20)).toBe(true);
  expect(await store.setIfAbsent('claim', { by: 'second' }, 20)).toBe(false);
  expect(await store.get('claim')).toEqual({ by: 'first' });
  now += 20_000;
  expect(await store.get('claim')).toBeUndefined();
  expect(await store.setIfAbsent('claim', { by: 'third' }, 20)).toBe(true);
  expect(cache.keys().every((key) => !key.includes(SENTINEL_KEY))).toBe(true);
});

it('says null when the cache fails, so the caller goes on without it', async () => {
  const cache = new FakeCache();
  cache.broken = true;
  expect(await storeOn(cache, Date.now).setIfAbsent('claim', 1, 20)).toBeNull();
});

describe('a cache call that fails, made again', () => {
  /** `z.cache` whose next `failures` calls throw; it counts every call. */
  const flaky = (failures: number) => {
    const cache = new FakeCache(() => 1_000_000);
    let left = failures;
    let calls = 0;
    const wrap =
      <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
      async (...args: A): Promise<R> => {
        calls += 1;
        if (left > 0) {
          left -= 1;
          throw new Error('cache call timed out');
        }
        return call(...args);
      };
    const api = { get: wrap(cache.api.get), set: wrap(cache.api.set), delete: wrap(cache.api.delete) };
    const z = { cache: api } as unknown as ZObject;
    return { z, calls: () => calls, fail: (n: number) => (left = n) };
  };

  it('up to `attempts` times: a read or a write that fails twice still succeeds on the third call', async () => {
    const { z, calls, fail } = flaky(2);
    const store = accountCache(z, { authData: authData() }, () => 1_000_000, 3);
    expect(await store.set('key', { n: 1 }, 60)).toBe(true);
    expect(calls()).toBe(3);
    fail(2);
    expect(await store.get('key')).toEqual({ n: 1 });
    expect(calls()).toBe(6);
  });

  it('counts as failed after `attempts` calls; a key that holds nothing costs one call', async () => {
    const { z, calls, fail } = flaky(0);
    const store = accountCache(z, { authData: authData() }, () => 1_000_000, 3);
    expect(await store.get('absent')).toBeUndefined();
    expect(calls()).toBe(1);
    fail(3);
    expect(await store.set('key', 1, 60)).toBe(false);
    expect(calls()).toBe(4);
  });

  it('once only by default', async () => {
    const { z, calls } = flaky(1);
    expect(await accountCache(z, { authData: authData() }).get('key')).toBeUndefined();
    expect(calls()).toBe(1);
  });

  it('a read that failed every time is told apart from a key that holds nothing (`lookup`, `readKnown`)', async () => {
    const { z, fail } = flaky(0);
    const store = accountCache(z, { authData: authData() }, () => 1_000_000, 3);
    const record = cacheRecord(store, 'record', zod.object({ n: zod.number() }), 60);
    expect(await store.lookup('absent')).toBeUndefined();
    expect(await record.readKnown()).toBeUndefined();
    await record.write({ n: 1 });
    fail(3);
    expect(await store.lookup('record')).toBe(CACHE_FAILED);
    fail(3);
    expect(await record.readKnown()).toBe(CACHE_FAILED);
    fail(3);
    // `get` and `read` read a failure as nothing there, as before.
    expect(await record.read()).toBeUndefined();
    expect(await record.readKnown()).toEqual({ n: 1 });
    expect(await store.lookup('record')).toEqual({ n: 1 });
  });
});
