/**
 * The account store's `setIfAbsent`, on a cache that honours `nx` and TTL as Zapier's does: it tells a key
 * that was free from one that was taken, and both from a cache that fails.
 */
import type { ZObject } from 'zapier-platform-core';
import { accountCache } from '../../src/memory';
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
