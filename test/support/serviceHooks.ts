/**
 * The service's side of `GET …/hooks/:id` (contract §5) for unit tests, through nock: each subscription's
 * current secret as the organizer sets it, reads counted per subscription, and the service's clock in the
 * `Date` header. A delivery verified by a secret reads the subscription when that secret was not confirmed
 * in the last few minutes, so every test that runs a hook trigger's `perform` answers these reads.
 */
import nock from 'nock';
import { paths } from '../../src/connect';
import { BASE_URL } from './app';
import { wireError } from '../../sandbox/wire';

export interface ServiceHooks {
  /** The current secret of each subscription (`null`: the account-level one); others answer `fallback`. */
  current: Map<string, string | null>;
  /** Subscriptions the service no longer has: 404. */
  gone: Set<string>;
  /** When set, every read answers this status with a contract error body. */
  failWith: number | null;
  /** When each subscription's current secret took effect (`secretRotatedAt`); absent unless set. */
  rotatedAt: Map<string, string>;
  /** Offset of the service's clock (its `Date` header) from this machine's, in milliseconds. */
  clockOffsetMs: number;
  /** How long each answer takes, in milliseconds. */
  delayMs: number;
  /** While set, reads never answer (an endpoint that hangs) until `release()`. */
  hang: boolean;
  /** Answers every hanging read (as the service would once it is back). */
  release(): void;
  /** Reads of one subscription, or of all of them. */
  reads(hookId?: string): number;
  /** When each read arrived (`Date.now()`, which a test may drive), in order. */
  readTimes: number[];
}

const PREFIX = paths.hook('HOOK').replace(/HOOK$/, '');

export const serviceHooks = (fallback: string | null, baseUrl = BASE_URL): ServiceHooks => {
  const counts = new Map<string, number>();
  const hanging: Array<() => void> = [];
  const hooks: ServiceHooks = {
    current: new Map(),
    gone: new Set(),
    failWith: null,
    rotatedAt: new Map(),
    clockOffsetMs: 0,
    delayMs: 0,
    hang: false,
    release: () => hanging.splice(0).forEach((answer) => answer()),
    reads: (hookId) =>
      hookId === undefined ? [...counts.values()].reduce((a, b) => a + b, 0) : (counts.get(hookId) ?? 0),
    readTimes: [],
  };
  nock(baseUrl)
    .persist()
    .get((uri) => uri.startsWith(PREFIX) && !uri.slice(PREFIX.length).includes('/'))
    .reply((uri, _body, callback) => {
      const id = decodeURIComponent(uri.slice(PREFIX.length).split('?')[0] ?? '');
      counts.set(id, (counts.get(id) ?? 0) + 1);
      hooks.readTimes.push(Date.now());
      const answer = (): [number, Record<string, unknown>, Record<string, string>] => {
        const date = { Date: new Date(Date.now() + hooks.clockOffsetMs).toUTCString() };
        if (hooks.failWith !== null) {
          return [hooks.failWith, wireError('INTERNAL', 'The service is down.'), date];
        }
        if (hooks.gone.has(id)) return [404, wireError('NOT_FOUND', 'No such hook.'), date];
        const secret = hooks.current.has(id) ? hooks.current.get(id)! : fallback;
        const rotated = hooks.rotatedAt.get(id);
        const hook = {
          id,
          event: 'FORM_SUBMISSION',
          eventId: null,
          targetUrl: 'https://hooks.example/x',
          secret,
          ...(rotated ? { secretRotatedAt: rotated } : {}),
        };
        return [200, hook, date];
      };
      if (hooks.hang) hanging.push(() => callback(null, answer()));
      else if (hooks.delayMs > 0) setTimeout(() => callback(null, answer()), hooks.delayMs);
      else callback(null, answer());
    });
  return hooks;
};
