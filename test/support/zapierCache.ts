/**
 * `z.cache` as Zapier runs it, for app-tester tests: core's in-memory test cache ignores `nx` and TTL, so
 * coordination built on them ("one read at a time", claims) is tested against this store instead. It answers
 * core's own cache RPC (`zcache_get`, `zcache_set` with TTL and `nx`, `zcache_delete`) through nock, so the app
 * code under test runs unchanged. Expiry follows `Date.now()` (a test may move the clock).
 */
import nock from 'nock';
import { testerCache } from './app';

const RPC_HOST = 'https://rpc.zapier.com';
const RPC_PATH = '/cli';

interface Stored {
  value: string;
  /** Epoch ms, or `null` for no expiry. */
  expires: number | null;
}

interface RpcBody {
  id: string;
  method: string;
  params: unknown[];
}

export interface ZapierCache {
  /** Entries alive now, by key. */
  keys(): string[];
  /** Every entry lost at once (an eviction, an outage that wiped it). */
  clear(): void;
  /** `set` calls refused because of `nx`. */
  refusedByNx(): number;
  /** Puts core's test cache back. */
  restore(): void;
}

/** Replaces the app tester's cache with one that honours `nx` and TTL, until `restore()`. */
export const zapierCache = (tester: unknown): ZapierCache => {
  const store = new Map<string, Stored>();
  let refused = 0;
  const alive = (key: string): Stored | undefined => {
    const entry = store.get(key);
    if (entry && entry.expires !== null && entry.expires <= Date.now()) store.delete(key);
    return store.get(key);
  };
  const answer = (method: string, params: unknown[]): unknown => {
    const [key, value, ttl, , nx] = params as [string, string, number | null, unknown, boolean | null];
    if (method === 'zcache_get') return alive(key)?.value ?? null;
    if (method === 'zcache_delete') return store.delete(key);
    if (method === 'zcache_set') {
      if (nx && alive(key)) {
        refused += 1;
        return false;
      }
      store.set(key, { value, expires: typeof ttl === 'number' ? Date.now() + ttl * 1000 : null });
      return true;
    }
    throw new Error(`unexpected cache call ${method}`);
  };
  const saved = testerCache(tester).zcacheTestObj;
  const previousKey = process.env.ZAPIER_DEPLOY_KEY;
  // Not a plain object: core then sends its cache calls as RPC, answered here.
  testerCache(tester).zcacheTestObj = new (class RpcCache {})() as unknown as typeof saved;
  process.env.ZAPIER_DEPLOY_KEY = 'test-deploy-key';
  const scope = nock(RPC_HOST)
    .persist()
    .post(RPC_PATH)
    .reply((_uri, body) => {
      const call = (typeof body === 'string' ? JSON.parse(body) : body) as RpcBody;
      return [200, { id: call.id, result: answer(call.method, call.params) }];
    });
  return {
    keys: () => [...store.keys()].filter((key) => alive(key)),
    clear: () => store.clear(),
    refusedByNx: () => refused,
    restore: () => {
      scope.persist(false);
      nock.removeInterceptor({
        hostname: 'rpc.zapier.com',
        proto: 'https',
        port: 443,
        method: 'POST',
        path: RPC_PATH,
      });
      testerCache(tester).zcacheTestObj = saved;
      if (previousKey === undefined) delete process.env.ZAPIER_DEPLOY_KEY;
      else process.env.ZAPIER_DEPLOY_KEY = previousKey;
    },
  };
};
