/**
 * `z.cache` as Zapier runs it, for app-tester tests: core's in-memory test cache ignores `nx` and TTL, so
 * coordination built on them ("one read at a time", claims) is tested against `FakeCache` (./cache.ts)
 * instead. It answers core's own cache RPC (`zcache_get`, `zcache_set` with TTL and `nx`, `zcache_delete`)
 * through nock, so the app code under test runs unchanged. Expiry follows `Date.now()` (a test may move it).
 */
import nock from 'nock';
import { testerCache } from './app';
import { FakeCache } from './cache';

const RPC_HOST = 'https://rpc.zapier.com';
const RPC_PATH = '/cli';

interface RpcCall {
  id: string;
  method: string;
  params: unknown[];
}

export interface ZapierCache {
  /** The store behind it: its keys, its `nx` claims, `evict()` to lose everything at once. */
  readonly store: FakeCache;
  /** Puts core's test cache back. */
  restore(): void;
}

/** Replaces the app tester's cache with one that honours `nx` and TTL, until `restore()`. */
export const zapierCache = (tester: unknown): ZapierCache => {
  const store = new FakeCache(() => Date.now());
  const answer = (method: string, params: unknown[]): Promise<unknown> => {
    const [key, value, ttl, scope, nx] = params as [string, string, number | null, unknown, boolean | null];
    if (method === 'zcache_get') return store.api.get(key);
    if (method === 'zcache_set') return store.api.set(key, value, ttl, scope, nx);
    if (method === 'zcache_delete') return store.api.delete(key);
    return Promise.reject(new Error(`unexpected cache call ${method}`));
  };
  const saved = testerCache(tester).zcacheTestObj;
  const previousKey = process.env.ZAPIER_DEPLOY_KEY;
  // Not a plain object: core then sends its cache calls as RPC, answered here.
  testerCache(tester).zcacheTestObj = new (class RpcCache {})() as unknown as typeof saved;
  process.env.ZAPIER_DEPLOY_KEY = 'test-deploy-key';
  const scope = nock(RPC_HOST)
    .persist()
    .post(RPC_PATH)
    .reply((_uri, body, callback) => {
      const call = (typeof body === 'string' ? JSON.parse(body) : body) as RpcCall;
      answer(call.method, call.params).then(
        (result) => callback(null, [200, { id: call.id, result }]),
        (error: unknown) => callback(error as Error, [500, {}]),
      );
    });
  return {
    store,
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
