/**
 * Reads of a subscription's current secret when the service's answer is odd or the service is down: a far
 * `Date` header, `secretRotatedAt` in other ISO 8601 forms (or in the same whole second as the `Date`), an
 * endpoint that fails or hangs while many deliveries arrive together. And a delivery's body is parsed once.
 */
import nock from 'nock';
import type { Bundle, ZObject } from 'zapier-platform-core';
import { type Submission, paths, readTimestamp } from '../../src/connect';
import * as json from '../../src/connect/json';
import * as signature from '../../src/connect/signature';
import { SAMPLE_EVENT } from '../../src/mappers/event';
import { SAMPLE_SUBMISSION } from '../../src/mappers/submission';
import { type Clock, systemClock } from '../../src/memory';
import {
  CLOCK_SKEW_MARGIN_MS,
  DEFAULT_SECRET_TIMINGS,
  SECRET_BUDGET_MS,
  type SecretTimings,
} from '../../src/webhooks';
import { BASE_URL, appTester, authData, caught, errorMessage, testerCache } from '../support/app';
import { virtualClock } from '../support/clock';
import { hookBundle, newRegistrationOn, signedDelivery } from '../support/deliveries';
import { type ServiceHooks, serviceHooks } from '../support/serviceHooks';
import { type ZapierCache, zapierCache } from '../support/zapierCache';
import { wireList } from '../../sandbox/wire';

type Fn = (z: ZObject, bundle: Bundle) => Promise<unknown>;

// The body's parse and the HMAC, wrapped so that a test can count their calls (a module's exports are
// read-only, so they cannot be spied on in place).
jest.mock('../../src/connect/json', () => {
  const actual = jest.requireActual<typeof import('../../src/connect/json')>('../../src/connect/json');
  return { ...actual, parseJsonSafely: jest.fn(actual.parseJsonSafely) };
});
jest.mock('../../src/connect/signature', () => {
  const actual = jest.requireActual<typeof import('../../src/connect/signature')>(
    '../../src/connect/signature',
  );
  return { ...actual, signedWith: jest.fn(actual.signedWith) };
});

const OLD_SECRET = 'whsec_old_7a8b9c';
const NEW_SECRET = 'whsec_new_0d1e2f';
const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Far ahead of any run of this suite. */
const YEAR_2100 = Date.UTC(2100, 0, 1);

let counter = 0;
const dated = (t: number, data: Partial<Submission> = {}) =>
  JSON.stringify({
    id: `dlv_reads_${++counter}`,
    type: 'FORM_SUBMISSION',
    createdAt: new Date(t).toISOString(),
    hookId: 'hook_1',
    data: { ...SAMPLE_SUBMISSION, ...data },
  });

const newRegistration = (clock: Clock = systemClock, timings: Partial<SecretTimings> = {}): Fn =>
  newRegistrationOn(clock, timings).operation.perform as Fn;

let perform: Fn;
const deliver = (payload: string, secret: string | string[] = OLD_SECRET) =>
  appTester(
    perform,
    hookBundle(signedDelivery(payload, secret), {
      authData: authData(),
      subscribeData: { id: 'hook_1', secret: OLD_SECRET, kind: 'FORM_SUBMISSION', eventId: null },
      inputData: {},
    }),
  ) as Promise<unknown[]>;
const clockAt = (t: number) => jest.spyOn(Date, 'now').mockReturnValue(t);

const logs: string[] = [];
let hooks: ServiceHooks;
let cache: ZapierCache;
beforeEach(() => {
  testerCache(appTester).zcacheTestObj = {};
  cache = zapierCache(appTester);
  perform = newRegistration();
  hooks = serviceHooks(OLD_SECRET);
  logs.length = 0;
  jest.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    logs.push(args.map(String).join(' '));
  });
  nock(BASE_URL)
    .get(paths.events())
    .query(true)
    .reply(200, wireList([SAMPLE_EVENT]))
    .persist();
});
afterEach(() => {
  hooks.release();
  cache.restore();
  jest.restoreAllMocks();
  nock.cleanAll();
});

/** Confirms OLD_SECRET at `t`, then rotates to NEW_SECRET in the service, dated `rotatedAt` if given. */
const rotateAfterConfirming = async (t: number, rotatedAt?: string) => {
  expect(await deliver(dated(t))).toHaveLength(1);
  hooks.current.set('hook_1', NEW_SECRET);
  if (rotatedAt !== undefined) hooks.rotatedAt.set('hook_1', rotatedAt);
};

describe("the service's clock cannot keep a retired secret open", () => {
  it('a read whose Date header is far ahead (2100) dates the rotation no later than this clock plus the skew margin', async () => {
    const t = Date.now();
    await rotateAfterConfirming(t);
    hooks.clockOffsetMs = YEAR_2100 - t;
    // A delivery signed with the old secret makes the app read the subscription and learn the rotation. It
    // is dated 6 minutes after the last confirmation of the old secret, so after the rotation as this app's
    // clock bounds it (5 minutes after that confirmation): halted, not run.
    clockAt(t + 6 * MINUTE);
    const halted = await caught(() => deliver(dated(t + 6 * MINUTE)));
    expect(halted.name).toBe('HaltedError');
    expect(errorMessage(halted)).not.toContain(OLD_SECRET);
    expect(hooks.reads()).toBe(2);
    // A retry dated before that bound still runs.
    expect(await deliver(dated(t + 4 * MINUTE))).toHaveLength(1);
    // Within the skew margin of that read, a retry signed with the old secret may still be genuine (halted);
    // a day later one signed with it is not (with the Date trusted, the old secret would open everything to
    // 2100).
    clockAt(t + DAY);
    expect(await deliver(dated(t + DAY))).toEqual([]);
    expect(logs.join('\n')).toContain('signed only with a secret the organizer has replaced');
    expect(await deliver(dated(t + 6 * MINUTE + CLOCK_SKEW_MARGIN_MS + MINUTE))).toEqual([]);
    // Genuine deliveries, signed with the new secret, run.
    expect(await deliver(dated(t + DAY), NEW_SECRET)).toHaveLength(1);
  });
});

describe('secretRotatedAt in other ISO 8601 forms', () => {
  const at = Date.UTC(2026, 10, 22, 10, 3, 0);
  it.each([
    ['2026-11-22T10:03:00Z', at],
    ['2026-11-22T10:03:00+0000', at],
    ['2026-11-22T10:03:00+00:00', at],
    ['2026-11-22 10:03:00Z', at],
    ['2026-11-22T12:03:00+02', at],
    ['2026-11-22T10:03:00.250Z', at + 250],
    ['2026-11-22T10:03Z', at],
    ['2026-11-22T10:03:00', null],
    ['2026-11-22', null],
    ['2026-02-30T10:03:00Z', null],
    ['yesterday', null],
    [1_790_000_000_000, null],
  ])('%j reads as %j', (value, expected) => {
    expect(readTimestamp(value)).toBe(expected);
  });

  /** `ms` written in each form the service may use. */
  const forms: Array<[string, (ms: number) => string]> = [
    ['+0000', (ms) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+0000')],
    ['a space for T', (ms) => new Date(ms).toISOString().replace('T', ' ')],
    ['an offset of another zone', (ms) => new Date(ms + 2 * HOUR).toISOString().replace(/Z$/, '+02:00')],
  ];
  it.each(forms)(
    'written with %s, it dates the rotation: an old-secret retry dated before runs, one dated after does not',
    async (_label, form) => {
      const t = Date.now();
      await rotateAfterConfirming(t - 2 * HOUR, form(t - HOUR));
      cache.store.evict();
      expect(await deliver(dated(t, {}), NEW_SECRET)).toHaveLength(1);
      expect(await deliver(dated(t - 90 * MINUTE))).toHaveLength(1);
      expect(await deliver(dated(t - 30 * MINUTE))).toEqual([]);
      expect(hooks.reads()).toBe(2);
    },
  );

  it.each([
    ['no zone', (ms: number) => new Date(ms).toISOString().replace(/Z$/, '')],
    ['not a date', () => 'last Tuesday'],
    ['a number', () => 12345],
  ])(
    'written with %s, it counts as absent: the read still succeeds and the old secret is trusted no longer',
    async (_label, form) => {
      const t = Date.now();
      await rotateAfterConfirming(t - 2 * HOUR);
      hooks.rotatedAt.set('hook_1', form(t + DAY) as string);
      cache.store.evict();
      // Genuine new-secret deliveries run: the odd field fails nothing.
      expect(await deliver(dated(t), NEW_SECRET)).toHaveLength(1);
      expect(hooks.reads()).toBe(2);
      // Without a usable date and with the state lost, the old secret vouches for nothing.
      const error = await caught(() => deliver(dated(t - 30 * MINUTE)));
      expect(error.name).toBe('HaltedError');
      expect(errorMessage(error)).not.toContain(OLD_SECRET);
    },
  );

  it("in the same whole second as the read's Date header, it is the service's word on the rotation", async () => {
    // The Date header has whole seconds: a rotation 400 ms after the second it names is not in the future.
    const second = Math.floor(Date.now() / 1000) * 1000 - 10 * MINUTE;
    const rotatedAt = second + 400;
    await rotateAfterConfirming(second - HOUR, new Date(rotatedAt).toISOString());
    clockAt(second + 999);
    hooks.clockOffsetMs = -999;
    cache.store.evict();
    expect(await deliver(dated(second + 500), NEW_SECRET)).toHaveLength(1);
    // An old-secret retry dated before the rotation runs; one dated after it does not.
    expect(await deliver(dated(rotatedAt - 100))).toHaveLength(1);
    expect(await deliver(dated(rotatedAt + 1))).toEqual([]);
  });
});

describe('an outage of the subscription endpoint', () => {
  /** Waits on a virtual timeline; the read's bound races a real answer when the service is up. */
  const outageClock = () => {
    const virtual = virtualClock(Date.now());
    const clock: Clock = {
      now: () => virtual.now(),
      sleep: (ms, signal) =>
        ms === DEFAULT_SECRET_TIMINGS.readTimeoutMs && !hooks.hang
          ? systemClock.sleep(ms, signal)
          : virtual.sleep(ms, signal),
    };
    return clock;
  };

  it('30 deliveries together while the endpoint hangs make one read, each is answered within 30 s, and later ones back off', async () => {
    const clock = outageClock();
    perform = newRegistration(clock);
    const t = clock.now();
    expect(await deliver(dated(t))).toHaveLength(1);
    expect(hooks.reads()).toBe(1);
    await clock.sleep(6 * MINUTE);
    hooks.hang = true;
    const start = clock.now();
    const answered: number[] = [];
    const runs = await Promise.all(
      Array.from({ length: 30 }, () =>
        deliver(dated(start)).then((items) => {
          answered.push(clock.now() - start);
          return items.length;
        }),
      ),
    );
    // Confirmed within the hour, the secret still verifies them (with a log line), after one read.
    expect(runs).toEqual(Array(30).fill(1));
    expect(hooks.reads()).toBe(2);
    expect(Math.max(...answered)).toBeLessThanOrEqual(30_000);
    expect(logs.join('\n')).toContain('its current secret could not be confirmed');
    // During the backoff after the failure, deliveries read nothing.
    await clock.sleep(5_000);
    expect(await deliver(dated(clock.now()))).toHaveLength(1);
    expect(hooks.reads()).toBe(2);
    // After it, one delivery tries again; the interval stays the same when that fails too (it never grows).
    const interval = DEFAULT_SECRET_TIMINGS.retrySeconds * 1000;
    await clock.sleep(interval);
    expect(await deliver(dated(clock.now()))).toHaveLength(1);
    expect(hooks.reads()).toBe(3);
    await clock.sleep(interval - 1000);
    expect(await deliver(dated(clock.now()))).toHaveLength(1);
    expect(hooks.reads()).toBe(3);
    // The service answers again: the first delivery after the interval reads, and the secret is confirmed.
    hooks.release();
    hooks.hang = false;
    await clock.sleep(interval);
    expect(await deliver(dated(clock.now()))).toHaveLength(1);
    expect(hooks.reads()).toBe(4);
    expect(await deliver(dated(clock.now()))).toHaveLength(1);
    expect(hooks.reads()).toBe(4);
  });

  it('without a recently confirmed secret, 30 deliveries during a failure make one read and each is an error to replay', async () => {
    const clock = outageClock();
    perform = newRegistration(clock);
    hooks.failWith = 500;
    const start = clock.now();
    const errors = await Promise.all(Array.from({ length: 30 }, () => caught(() => deliver(dated(start)))));
    expect(new Set(errors.map((error) => errorMessage(error).split('\n')[0]))).toEqual(
      new Set([
        expect.stringContaining('replay this run from the Zap history once the service answers again'),
      ]),
    );
    expect(hooks.reads()).toBe(1);
    expect(clock.now() - start).toBeLessThanOrEqual(30_000);
  });

  it("a delivery's wait for another's read plus a read of its own fit in Zapier's 30 s", () => {
    const { lease, readTimeoutMs } = DEFAULT_SECRET_TIMINGS;
    expect(lease.waitMs + readTimeoutMs).toBe(SECRET_BUDGET_MS);
    expect(SECRET_BUDGET_MS).toBeLessThan(30_000);
    expect(lease.leaseSeconds * 1000).toBeGreaterThan(readTimeoutMs);
  });
});

describe('a delivery is read once', () => {
  it('its body is parsed once and each candidate secret checked once, even when a rotation is learnt', async () => {
    const t = Date.now();
    await rotateAfterConfirming(t - 10 * MINUTE);
    const parse = jest.mocked(json.parseJsonSafely);
    const hmac = jest.mocked(signature.signedWith);
    parse.mockClear();
    hmac.mockClear();
    const payload = dated(t);
    expect(await deliver(payload, NEW_SECRET)).toHaveLength(1);
    expect(parse.mock.calls.filter(([text]) => text === payload)).toHaveLength(1);
    // The old secret (judged before and after the read) and the new one: one HMAC each.
    expect(hmac).toHaveBeenCalledTimes(2);
    expect(hooks.reads()).toBe(2);
  });
});
