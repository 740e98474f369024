/** The cache stand-in lives beside the scripts that also use it. */
import type { ZObject } from 'zapier-platform-core';
import { type AccountCache, accountCache } from '../../src/memory';
import { FakeCache } from '../../scripts/lib/fakeCache';

export { FakeCache };

/** An account's cache over a `FakeCache` (which honours `nx` and TTL), both on a clock standing at `now`. */
export const accountCacheAt = (now: number): { cache: FakeCache; account: AccountCache } => {
  const cache = new FakeCache(() => now);
  const z = { cache: cache.api } as unknown as ZObject;
  return { cache, account: accountCache(z, { authData: { apiKey: 'k' } }, () => now) };
};
