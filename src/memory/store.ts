/**
 * The account's key/value store on top of `z.cache`, used only as an optimisation or a memory of what was
 * already seen. Keys are scoped to the connected account (Zapier's `['auth']` scope, and a fingerprint of the
 * base URL and key so that local test runners, which ignore scopes, behave the same). Expiry is checked
 * here too. Every failure of the cache is swallowed: callers fall back to the API or process the item.
 */
import { createHash } from 'node:crypto';
import type { Bundle, ZObject } from 'zapier-platform-core';

const SCOPE = ['auth'];
const VERSION = 'v1';

interface Entry<T> {
  v: T;
  /** Expiry, epoch milliseconds. */
  e: number;
}

type CacheWithScope = {
  get: (key: string, scope?: string[]) => Promise<unknown>;
  set: (key: string, value: unknown, ttl?: number, scope?: string[], nx?: boolean) => Promise<boolean | null>;
  delete: (key: string, scope?: string[]) => Promise<boolean>;
};

/** A short, one-way fingerprint of the connected account; never reveals the key. */
export const accountFingerprint = (authData: Bundle['authData']): string =>
  createHash('sha256')
    .update(`${authData.baseUrl ?? process.env.CONNECT_BASE_URL ?? ''}\n${authData.apiKey ?? ''}`)
    .digest('hex')
    .slice(0, 16);

/** What `lookup` answers when the cache failed (threw, timed out) on every attempt: not known, not absent. */
export const CACHE_FAILED: unique symbol = Symbol('the cache failed');

export interface AccountCache {
  get<T>(key: string): Promise<T | undefined>;
  /**
   * As `get`, but a failure of the cache is `CACHE_FAILED`, not `undefined`: for a caller that would write
   * over what it read, where "nothing there" and "not known" differ.
   */
  lookup<T>(key: string): Promise<T | undefined | typeof CACHE_FAILED>;
  set<T>(key: string, value: T, ttlSeconds: number): Promise<boolean>;
  delete(key: string): Promise<void>;
  /**
   * Stores `value` only if `key` holds nothing (the cache's `nx`): `true` when stored, `false` when the key
   * was already taken, `null` when the cache failed (the caller then goes on without it). A cache that
   * ignores `nx` (core's test runner) stores every time.
   */
  setIfAbsent<T>(key: string, value: T, ttlSeconds: number): Promise<boolean | null>;
  /** Cached value of `load()` for `ttlSeconds`; `bypass` skips the read (and refreshes the entry). */
  remember<T>(key: string, ttlSeconds: number, load: () => Promise<T>, bypass?: boolean): Promise<T>;
  /**
   * Marks `key` as seen for `ttlSeconds`. Resolves `true` the first time and `false` for a repeat; when the
   * cache fails it resolves `true` (a duplicate is better than a loss).
   */
  claim(key: string, ttlSeconds: number): Promise<boolean>;
}

/** `raw` with each call that fails (throws, times out) made again, up to `attempts` calls in all. */
const retrying = (raw: CacheWithScope, attempts: number): CacheWithScope => {
  const tried =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await call(...args);
        } catch (error) {
          if (attempt >= attempts) throw error;
        }
      }
    };
  return {
    get: tried((key: string, scope?: string[]) => raw.get(key, scope)),
    set: tried((key: string, value: unknown, ttl?: number, scope?: string[], nx?: boolean) =>
      raw.set(key, value, ttl, scope, nx),
    ),
    delete: tried((key: string, scope?: string[]) => raw.delete(key, scope)),
  };
};

/**
 * The account's cache. `attempts`: how many times a call that fails (throws, times out) is made before it
 * counts as failed; a key that holds nothing costs one call.
 */
export const accountCache = (
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  now: () => number = Date.now,
  attempts = 1,
): AccountCache => {
  const cache = retrying(z.cache as unknown as CacheWithScope, attempts);
  const fullKey = (key: string) => `${VERSION}:${accountFingerprint(bundle.authData)}:${key}`;

  const lookup = async <T>(key: string): Promise<T | undefined | typeof CACHE_FAILED> => {
    try {
      const entry = (await cache.get(fullKey(key), SCOPE)) as Entry<T> | null;
      if (!entry || typeof entry !== 'object' || typeof entry.e !== 'number' || entry.e <= now())
        return undefined;
      return entry.v;
    } catch {
      return CACHE_FAILED;
    }
  };
  const get = async <T>(key: string): Promise<T | undefined> => {
    const value = await lookup<T>(key);
    return value === CACHE_FAILED ? undefined : value;
  };

  const set = async <T>(key: string, value: T, ttlSeconds: number, nx = false): Promise<boolean> => {
    try {
      const ttl = Math.max(1, Math.ceil(ttlSeconds));
      const entry: Entry<T> = { v: value, e: now() + ttl * 1000 };
      const stored = await cache.set(fullKey(key), entry, ttl, SCOPE, nx || undefined);
      return stored !== false;
    } catch {
      return false;
    }
  };

  return {
    get,
    lookup,
    set: (key, value, ttlSeconds) => set(key, value, ttlSeconds),
    setIfAbsent: async (key, value, ttlSeconds) => {
      try {
        const ttl = Math.max(1, Math.ceil(ttlSeconds));
        const entry: Entry<typeof value> = { v: value, e: now() + ttl * 1000 };
        return (await cache.set(fullKey(key), entry, ttl, SCOPE, true)) !== false;
      } catch {
        return null;
      }
    },
    delete: async (key) => {
      try {
        await cache.delete(fullKey(key), SCOPE);
      } catch {
        // an optimisation only
      }
    },
    remember: async (key, ttlSeconds, load, bypass = false) => {
      if (!bypass) {
        const hit = await get<Awaited<ReturnType<typeof load>>>(key);
        if (hit !== undefined) return hit;
      }
      const value = await load();
      await set(key, value, ttlSeconds);
      return value;
    },
    claim: async (key, ttlSeconds) => {
      try {
        const seen = await cache.get(fullKey(key), SCOPE);
        if (seen && typeof seen === 'object' && (seen as Entry<unknown>).e > now()) return false;
        const entry: Entry<number> = { v: 1, e: now() + ttlSeconds * 1000 };
        const stored = await cache.set(fullKey(key), entry, Math.ceil(ttlSeconds), SCOPE, !seen || undefined);
        return stored !== false;
      } catch {
        return true;
      }
    },
  };
};
