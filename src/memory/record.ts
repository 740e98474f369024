/**
 * A typed record of the account's store: one key, one schema, one lifetime. What is read back is checked
 * with the schema, so a value written by another version of the app, cut, or corrupt reads as missing (the
 * store is an optimisation or a memory of what was seen: a missing value costs work, never trust).
 */
import type { ZodType } from 'zod';
import { type AccountCache, CACHE_FAILED } from './store';

export interface CacheRecord<T> {
  /** The value, or `undefined` when there is none, it expired, the cache fails or it is not of the schema. */
  read(): Promise<T | undefined>;
  /** As `read`, but `CACHE_FAILED` when the cache failed: the value is not known (it may still be there). */
  readKnown(): Promise<T | undefined | typeof CACHE_FAILED>;
  /** `false` when the cache did not store it. */
  write(value: T): Promise<boolean>;
  /** Stores only if the key holds nothing: `true` stored, `false` taken, `null` the cache fails. */
  writeIfAbsent(value: T): Promise<boolean | null>;
  clear(): Promise<void>;
}

export const cacheRecord = <T>(
  cache: AccountCache,
  key: string,
  schema: ZodType<T>,
  ttlSeconds: number,
): CacheRecord<T> => {
  const readKnown = async () => {
    const value = await cache.lookup<unknown>(key);
    if (value === undefined || value === CACHE_FAILED) return value;
    const parsed = schema.safeParse(value);
    return parsed.success ? parsed.data : undefined;
  };
  return {
    read: async () => {
      const value = await readKnown();
      return value === CACHE_FAILED ? undefined : value;
    },
    readKnown,
    write: (value) => cache.set(key, value, ttlSeconds),
    writeIfAbsent: (value) => cache.setIfAbsent(key, value, ttlSeconds),
    clear: () => cache.delete(key),
  };
};
