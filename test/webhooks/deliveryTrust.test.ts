/**
 * Instant triggers run exactly once, only for this Zap, and a rotated secret costs nothing: the 72 h age
 * limit, `hookId`, rotation with a rate-limited refresh of the current secret (counted), own keys only,
 * event scope, the depth limit and the turn-on rollback.
 */
import nock from 'nock';
import type { Bundle, ZObject } from 'zapier-platform-core';
import { type Order, type Submission, paths } from '../../src/connect';
import { DELIVERY_MAX_AGE_MS } from '../../src/webhooks';
import { DEFAULT_SECRET_TIMINGS, type ReceiveOptions, type SecretTimings } from '../../src/webhooks';
import { systemClock } from '../../src/memory';
import { virtualClock } from '../support/clock';
import { accountFingerprint } from '../../src/memory';
import { SAMPLE_EVENT } from '../../src/mappers/event';
import { SAMPLE_ORDER } from '../../src/mappers/order';
import { SAMPLE_SUBMISSION } from '../../src/mappers/submission';
import { App, BASE_URL, appTester, authData, caught, errorMessage, testerCache } from '../support/app';
import { hookBundle, newRegistrationOn, signedDelivery } from '../support/deliveries';
import { type ServiceHooks, serviceHooks } from '../support/serviceHooks';
import { type ZapierCache, zapierCache } from '../support/zapierCache';
import { wireError, wireList } from '../../sandbox/wire';

type Fn = (z: ZObject, bundle: Bundle) => Promise<unknown>;
const op = (key: string) =>
  (App.triggers as unknown as Record<string, { operation: Record<string, Fn> }>)[key]!.operation;

const OLD_SECRET = 'whsec_old_1a2b3c';
const NEW_SECRET = 'whsec_new_4d5e6f';
const TARGET_URL = 'https://hooks.zapier.com/hooks/standard/1/abc/';
const HOUR = 3600 * 1000;

let counter = 0;
const body = (
  type: string,
  data: unknown,
  extra: { createdAt?: string | null; hookId?: string | null; id?: string } = {},
): string => {
  const envelope: Record<string, unknown> = {
    id: extra.id ?? `dlv_${++counter}`,
    type,
    createdAt: extra.createdAt === undefined ? new Date().toISOString() : extra.createdAt,
    hookId: extra.hookId === undefined ? 'hook_1' : extra.hookId,
    data,
  };
  for (const key of Object.keys(envelope)) if (envelope[key] === null) delete envelope[key];
  return JSON.stringify(envelope);
};
const registration = (extra: Partial<Submission> = {}): Submission => ({ ...SAMPLE_SUBMISSION, ...extra });

const deliver = (
  key: string,
  payload: string,
  options: {
    /** The secret(s) the delivery is signed with (several during a rotation). */
    secret?: string | string[];
    inputData?: Record<string, unknown>;
    subscribeData?: Record<string, unknown>;
  } = {},
) =>
  appTester(
    (key === 'new_registration' && newRegistration
      ? newRegistration.operation.perform
      : op(key).perform!) as Fn,
    hookBundle(signedDelivery(payload, options.secret ?? OLD_SECRET), {
      authData: authData(),
      subscribeData: { id: 'hook_1', secret: OLD_SECRET, kind: 'x', eventId: null, ...options.subscribeData },
      inputData: options.inputData ?? {},
    }),
  ) as Promise<Array<Record<string, unknown>>>;

/** New Registration as the app declares it, with a clock and secret timings of the test's own. */
const newRegistrationWith = (options: {
  clock?: ReceiveOptions['clock'];
  timings?: Partial<SecretTimings>;
}) => newRegistrationOn(options.clock, options.timings) as { operation: Record<string, Fn> };
/** When set, `deliver` runs New Registration through this one instead of the app's. */
let newRegistration: { operation: Record<string, Fn> } | null = null;
/** A wait for another delivery's read that no slow machine can outlast. */
const patientLease = { ...DEFAULT_SECRET_TIMINGS.lease, waitMs: 10 * 60_000 };

const logs: string[] = [];
let logSpy: jest.SpyInstance;
let hooks: ServiceHooks;
beforeEach(() => {
  testerCache(appTester).zcacheTestObj = {};
  // The service still signs every subscription with the secret it was given, until a test rotates it.
  hooks = serviceHooks(OLD_SECRET);
  logs.length = 0;
  logSpy = jest.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    logs.push(args.map(String).join(' '));
  });
  nock(BASE_URL)
    .get(paths.events())
    .query(true)
    .reply(200, wireList([SAMPLE_EVENT]))
    .persist();
});
afterEach(() => {
  newRegistration = null;
  logSpy.mockRestore();
  jest.restoreAllMocks();
  nock.cleanAll();
});

describe('freshness: the service retries for 72 h, so an older delivery is a replay', () => {
  it.each([
    ['1 minute', 60 * 1000, 1],
    ['72 hours', 72 * HOUR, 1],
    ['72 hours and 10 minutes (clock skew margin)', 72 * HOUR + 10 * 60 * 1000, 1],
    ['72 hours and 16 minutes', 72 * HOUR + 16 * 60 * 1000, 0],
    ['97 hours (after the dedupe memory)', 97 * HOUR, 0],
  ])('a delivery created %s ago', async (_label, age, runs) => {
    const createdAt = new Date(Date.now() - age).toISOString();
    const items = await deliver('new_registration', body('FORM_SUBMISSION', registration(), { createdAt }));
    expect(items).toHaveLength(runs);
    if (!runs)
      expect(logs.join('\n')).toContain('more than 72 hours ago: the service retries for 72 hours only');
    expect(DELIVERY_MAX_AGE_MS).toBe(72 * HOUR + 15 * 60 * 1000);
  });

  it('a delivery without a creation time is dropped, saying why', async () => {
    const items = await deliver(
      'new_registration',
      body('FORM_SUBMISSION', registration(), { createdAt: null }),
    );
    expect(items).toEqual([]);
    expect(logs.join('\n')).toContain('has no creation time');
  });

  it.each([
    ['a day ahead', 24 * HOUR],
    ['in 2099', Date.UTC(2099, 0, 1) - Date.now()],
    ['16 minutes ahead', 16 * 60 * 1000],
  ])('a correctly signed delivery dated %s runs nothing and reads nothing', async (_label, ahead) => {
    const createdAt = new Date(Date.now() + ahead).toISOString();
    const items = await deliver('new_registration', body('FORM_SUBMISSION', registration(), { createdAt }));
    expect(items).toEqual([]);
    expect(logs.join('\n')).toContain('the service never sends a delivery dated in the future');
    expect(hooks.reads()).toBe(0);
  });

  it('a delivery dated within the clock-skew margin ahead runs, and is remembered until it could no longer pass the age check', async () => {
    const createdAt = new Date(Date.now() + 10 * 60 * 1000).toISOString();
    const payload = body('FORM_SUBMISSION', registration(), { createdAt, id: 'dlv_ahead' });
    expect(await deliver('new_registration', payload)).toHaveLength(1);
    const [, stored] = Object.entries(testerCache(appTester).zcacheTestObj as Record<string, string>).find(
      ([k]) => k.includes('dlv_ahead'),
    )!;
    const expiresIn = (JSON.parse(stored) as { e: number }).e - Date.now();
    expect(expiresIn).toBeGreaterThan(10 * 60 * 1000 + DELIVERY_MAX_AGE_MS);
  });
});

describe('hookId: a delivery is meant for its own subscription only', () => {
  it('runs for this subscription, drops one made for another, and accepts none named', async () => {
    expect(await deliver('payment_succeeded', body('PAYMENT_SUCCESS', SAMPLE_ORDER))).toHaveLength(1);
    expect(
      await deliver('payment_succeeded', body('PAYMENT_SUCCESS', SAMPLE_ORDER, { hookId: 'hook_other' })),
    ).toEqual([]);
    expect(logs.join('\n')).toContain(
      "was made for subscription hook_other, not for this Zap's subscription hook_1",
    );
    expect(
      await deliver('payment_succeeded', body('PAYMENT_SUCCESS', SAMPLE_ORDER, { hookId: null })),
    ).toHaveLength(1);
  });

  it('with the account-level secret shared by all subscriptions, another Zap’s delivery still does not run', async () => {
    hooks.current.set('hook_b', null);
    const payload = body('FORM_SUBMISSION', registration(), { hookId: 'hook_a' });
    const zapB = await appTester(
      op('new_registration').perform!,
      hookBundle(signedDelivery(payload, 'whsec_account_x9'), {
        authData: authData({ webhookSecret: 'whsec_account_x9' }),
        subscribeData: { id: 'hook_b', secret: null, kind: 'FORM_SUBMISSION', eventId: null },
      }),
    );
    expect(zapB).toEqual([]);
  });
});

const MINUTE = 60 * 1000;
/** A registration delivery dated `offsetMs` from `t`. */
const dated = (t: number, offsetMs = 0) =>
  body('FORM_SUBMISSION', registration(), { createdAt: new Date(t + offsetMs).toISOString() });
/** Moves this machine's clock (and the service's, which follows it) to `t`. */
const clockAt = (t: number) => jest.spyOn(Date, 'now').mockReturnValue(t);

describe('confirmation: the secret a delivery is verified with has been read as current within minutes', () => {
  it('the first delivery reads the current secret once; the next ones within 5 minutes read nothing', async () => {
    const t = Date.now();
    for (let i = 0; i < 5; i += 1) expect(await deliver('new_registration', dated(t))).toHaveLength(1);
    expect(hooks.reads('hook_1')).toBe(1);
    clockAt(t + 5 * MINUTE + 1000);
    expect(await deliver('new_registration', dated(t + 5 * MINUTE))).toHaveLength(1);
    expect(hooks.reads('hook_1')).toBe(2);
  });

  it('while the service cannot be read, a secret confirmed within the hour still verifies; an older one is an error to replay', async () => {
    const t = Date.now();
    expect(await deliver('new_registration', dated(t))).toHaveLength(1);
    hooks.failWith = 503;
    clockAt(t + 30 * MINUTE);
    expect(await deliver('new_registration', dated(t, 30 * MINUTE))).toHaveLength(1);
    expect(logs.join('\n')).toMatch(/its current secret could not be confirmed .*confirmed 30 minutes ago/);
    clockAt(t + 61 * MINUTE);
    const error = await caught(() => deliver('new_registration', dated(t, 61 * MINUTE)));
    expect(errorMessage(error)).toMatch(
      /could not be checked against the subscription's current signing secret/,
    );
    // While the subscription's reads back off, a replay reads nothing and says the same.
    hooks.failWith = null;
    expect(errorMessage(await caught(() => deliver('new_registration', dated(t, 61 * MINUTE))))).toMatch(
      /could not be checked against the subscription's current signing secret/,
    );
    expect(hooks.reads()).toBe(3);
    // Once the service answers, after the backoff, the secret is confirmed again and deliveries run.
    clockAt(t + 62 * MINUTE);
    expect(await deliver('new_registration', dated(t, 62 * MINUTE))).toHaveLength(1);
    expect(hooks.reads()).toBe(4);
  });

  it('a delivery that cannot be confirmed because the service is down is an error the user sees, never a silent loss', async () => {
    hooks.failWith = 503;
    const error = await caught(() => deliver('new_registration', dated(Date.now())));
    expect(errorMessage(error)).toMatch(
      /could not be checked against the subscription's current signing secret, which could not be read: The service had a problem/,
    );
    expect(errorMessage(error)).toContain('replay this run');
    expect(error.message).not.toContain(OLD_SECRET);
  });
});

describe('rotation: a secret rotated and retired costs one read, a retired one stays retired, a forgery runs nothing', () => {
  it('10 of 10 deliveries signed only with the new secret run, with one read', async () => {
    hooks.current.set('hook_1', NEW_SECRET);
    const runs = [];
    for (let i = 0; i < 10; i++) {
      runs.push(
        (await deliver('new_registration', body('FORM_SUBMISSION', registration()), { secret: NEW_SECRET }))
          .length,
      );
    }
    expect(runs).toEqual(Array(10).fill(1));
    expect(hooks.reads()).toBe(1);
    expect(logs.join('\n')).toContain('Subscription hook_1: its signing secret was rotated');
  });

  describe('with a cache that honours nx and TTL, as Zapier’s does', () => {
    let cache: ZapierCache;
    beforeEach(() => {
      cache = zapierCache(appTester);
      // A delivery waits for the read under way however slow this machine is (the bound is tested apart).
      newRegistration = newRegistrationWith({ timings: { lease: patientLease } });
    });
    afterEach(() => cache.restore());

    it('a read left unfinished by a delivery that died holds the next one only for its bound: it then reads itself and runs', async () => {
      const virtual = virtualClock(Date.now());
      // The waits are virtual; the read's own bound races a real answer, so it runs on real time.
      const readTimeoutMs = DEFAULT_SECRET_TIMINGS.readTimeoutMs;
      const clock = {
        now: () => virtual.now(),
        get sleeps() {
          return virtual.sleeps;
        },
        sleep: (ms: number, signal?: AbortSignal) =>
          ms === readTimeoutMs ? systemClock.sleep(ms, signal) : virtual.sleep(ms, signal),
      };
      const leaseTimings = { ...DEFAULT_SECRET_TIMINGS.lease, waitMs: 300, firstLookMs: 37, maxLookMs: 37 };
      newRegistration = newRegistrationWith({ clock, timings: { lease: leaseTimings, readTimeoutMs } });
      // The lease of a read that never finished (its invocation was stopped), as the account cache stores it.
      const lease = `v1:${accountFingerprint(authData())}:hook-secrets-read:hook_1`;
      await cache.store.api.set(
        lease,
        JSON.stringify({ v: 'dead', e: clock.now() + 30_000 }),
        30,
        null,
        true,
      );
      const start = clock.now();
      expect(await deliver('new_registration', dated(start))).toHaveLength(1);
      // It looked for the other read's result until its bound (on its own clock), then read itself.
      expect(clock.now() - start).toBeGreaterThanOrEqual(300);
      expect(clock.sleeps).toBeGreaterThanOrEqual(9);
      expect(hooks.reads()).toBe(1);
    });

    it('ten deliveries arriving together after a rotation all run once, for one read of the new secret', async () => {
      const t = Date.now();
      // A secret already confirmed as current: what a busy subscription knows when the organizer rotates.
      expect(await deliver('new_registration', dated(t))).toHaveLength(1);
      expect(hooks.reads()).toBe(1);
      hooks.current.set('hook_1', NEW_SECRET);
      hooks.delayMs = 300;
      const runs = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          deliver('new_registration', body('FORM_SUBMISSION', registration(), { id: `dlv_burst_${i}` }), {
            secret: NEW_SECRET,
          }),
        ),
      );
      expect(runs.map((items) => items.length)).toEqual(Array(10).fill(1));
      expect(hooks.reads()).toBe(2);
      expect(cache.store.claimsOf('hook-secrets-read').lost).toBeGreaterThan(0);
      // Each ran once: the same deliveries again run nothing.
      const again = await deliver(
        'new_registration',
        body('FORM_SUBMISSION', registration(), { id: 'dlv_burst_3' }),
        { secret: NEW_SECRET },
      );
      expect(again).toEqual([]);
    });

    it('ten deliveries arriving together when nothing was known before also wait for the one read', async () => {
      hooks.current.set('hook_1', NEW_SECRET);
      hooks.delayMs = 300;
      const runs = await Promise.all(
        Array.from({ length: 10 }, () =>
          deliver('new_registration', body('FORM_SUBMISSION', registration()), { secret: NEW_SECRET }),
        ),
      );
      expect(runs.map((items) => items.length)).toEqual(Array(10).fill(1));
      expect(hooks.reads()).toBe(1);
    });

    it('ten deliveries signed with the confirmed secret arriving together when it is stale make one read', async () => {
      const t = Date.now();
      expect(await deliver('new_registration', dated(t))).toHaveLength(1);
      clockAt(t + 6 * MINUTE);
      hooks.delayMs = 300;
      const runs = await Promise.all(
        Array.from({ length: 10 }, () => deliver('new_registration', dated(t, 6 * MINUTE))),
      );
      expect(runs.map((items) => items.length)).toEqual(Array(10).fill(1));
      expect(hooks.reads()).toBe(2);
    });

    it('the cache emptied after a rotation: a delivery signed with the old secret and dated now runs nothing', async () => {
      const t = Date.now();
      expect(await deliver('new_registration', dated(t))).toHaveLength(1);
      hooks.current.set('hook_1', NEW_SECRET);
      expect(await deliver('new_registration', dated(t, 1000), { secret: NEW_SECRET })).toHaveLength(1);
      expect(hooks.reads()).toBe(2);
      // Days later the cache has lost everything (expiry, eviction).
      cache.store.evict();
      clockAt(t + 2 * 24 * HOUR);
      const error = await caught(() => deliver('new_registration', dated(t, 2 * 24 * HOUR)));
      expect(error.name).toBe('HaltedError');
      expect(errorMessage(error)).toMatch(
        /signed only with a signing secret that the organizer has since replaced/,
      );
      expect(errorMessage(error)).not.toContain(OLD_SECRET);
      expect(hooks.reads()).toBe(3);
      // And stays refused: dated now or before, the old secret opens nothing it cannot date.
      await expect(
        caught(() => deliver('new_registration', dated(t, 2 * 24 * HOUR - HOUR))),
      ).resolves.toMatchObject({
        name: 'HaltedError',
      });
      expect(await deliver('new_registration', dated(t, 2 * 24 * HOUR), { secret: NEW_SECRET })).toHaveLength(
        1,
      );
    });

    it('when the service dates its rotation (secretRotatedAt), even an emptied cache keeps genuine retries and refuses the rest', async () => {
      const t = Date.now();
      hooks.current.set('hook_1', NEW_SECRET);
      hooks.rotatedAt.set('hook_1', new Date(t - HOUR).toISOString());
      // A retry of a delivery made before the rotation, signed with the old secret: it runs.
      expect(await deliver('new_registration', dated(t, -2 * HOUR))).toHaveLength(1);
      cache.store.evict();
      expect(await deliver('new_registration', dated(t, -90 * MINUTE))).toHaveLength(1);
      // Dated after the rotation and signed only with the old secret: not sent by the service.
      expect(await deliver('new_registration', dated(t, -30 * MINUTE))).toEqual([]);
      expect(await deliver('new_registration', dated(t))).toEqual([]);
      expect(logs.join('\n')).toContain('it is signed only with a secret the organizer has replaced');
    });
  });

  it('the 2099 bait (old secret plus a junk signature) moves nothing: old-secret deliveries dated now or +300 days run nothing', async () => {
    const t = Date.now();
    expect(await deliver('new_registration', dated(t))).toHaveLength(1);
    hooks.current.set('hook_1', NEW_SECRET);
    expect(await deliver('new_registration', dated(t, 1000), { secret: NEW_SECRET })).toHaveLength(1);
    const junk = 'whsec_junk_000000';
    const bait = body('FORM_SUBMISSION', registration(), { createdAt: '2099-01-01T00:00:00.000Z' });
    expect(await deliver('new_registration', bait, { secret: [OLD_SECRET, junk] })).toEqual([]);
    expect(await deliver('new_registration', dated(t, 2 * MINUTE))).toEqual([]);
    expect(await deliver('new_registration', dated(t, 300 * 24 * HOUR))).toEqual([]);
    // A genuine retry of a delivery made before the rotation still runs.
    expect(await deliver('new_registration', dated(t, -10 * MINUTE))).toHaveLength(1);
    expect(hooks.reads()).toBe(2);
  });

  it('a bait dated now that starts the learning of a rotation dates it by the service’s clock, not by itself', async () => {
    const t = Date.now();
    expect(await deliver('new_registration', dated(t))).toHaveLength(1);
    hooks.current.set('hook_1', NEW_SECRET);
    clockAt(t + 2 * MINUTE);
    const junk = 'whsec_junk_000000';
    // Several signatures make the app read the current secret at once; the rotation is then dated by that read.
    expect(
      await deliver('new_registration', dated(t, 2 * MINUTE - 1000), { secret: [OLD_SECRET, junk] }),
    ).toHaveLength(1);
    expect(hooks.reads()).toBe(2);
    // Everything the old secret signs after that read is refused, however it is dated.
    for (const offset of [3 * MINUTE, HOUR, 300 * 24 * HOUR]) {
      expect(await deliver('new_registration', dated(t, offset))).toEqual([]);
    }
  });

  it('10 forgeries run nothing and cost one read a minute; those inside the minute are halted', async () => {
    hooks.current.set('hook_1', NEW_SECRET);
    const forgery = () =>
      deliver('new_registration', body('FORM_SUBMISSION', registration()), { secret: 'whsec_forged' });
    expect(await forgery()).toEqual([]);
    expect(logs.join('\n')).toContain(
      "matches neither the secret this Zap was given nor the subscription's current secret",
    );
    for (let i = 0; i < 9; i++) {
      const error = await caught(forgery);
      expect(error.name).toBe('HaltedError');
      expect(errorMessage(error)).toMatch(/checked less than 60 seconds ago, so nothing ran/);
      expect(errorMessage(error)).not.toContain(NEW_SECRET);
      expect(errorMessage(error)).not.toContain(OLD_SECRET);
    }
    expect(hooks.reads()).toBe(1);
    // A minute later, one more read may be made.
    clockAt(Date.now() + 61 * 1000);
    await forgery();
    expect(hooks.reads()).toBe(2);
  });

  it('a forgery just before a rotation cannot make the first genuine delivery vanish: it is halted, and the next runs', async () => {
    expect(
      await deliver('new_registration', body('FORM_SUBMISSION', registration()), { secret: 'whsec_forged' }),
    ).toEqual([]);
    // Seconds later the organizer rotates and retires the old secret; a genuine delivery arrives.
    hooks.current.set('hook_1', NEW_SECRET);
    const genuine = () =>
      deliver('new_registration', body('FORM_SUBMISSION', registration()), { secret: NEW_SECRET });
    const error = await caught(genuine);
    expect(error.name).toBe('HaltedError');
    expect(errorMessage(error)).toMatch(
      /If the organizer rotated this subscription's secret in the last minute/,
    );
    expect(hooks.reads()).toBe(1);
    clockAt(Date.now() + 61 * 1000);
    expect(await genuine()).toHaveLength(1);
    expect(hooks.reads()).toBe(2);
  });

  it('once the rotation is known, the retired secret verifies only deliveries dated before it', async () => {
    const t = Date.now();
    expect(await deliver('new_registration', dated(t, -MINUTE))).toHaveLength(1);
    hooks.current.set('hook_1', NEW_SECRET);
    expect(await deliver('new_registration', dated(t), { secret: NEW_SECRET })).toHaveLength(1);
    // A retry of a delivery made before the rotation keeps its old signature: it runs.
    expect(await deliver('new_registration', dated(t, -10 * MINUTE))).toHaveLength(1);
    // Anything dated after it and signed only with the old secret was not sent by the service.
    expect(await deliver('new_registration', dated(t, 1000))).toEqual([]);
    expect(logs.join('\n')).toContain('it is signed only with a secret the organizer has replaced');
    expect(logs.join('\n')).not.toContain(OLD_SECRET);
    expect(hooks.reads()).toBe(2);
  });

  it('after a second rotation, the first secret still vouches only for what is dated before the first', async () => {
    // Every step at a time of the test's choosing: the second rotation is read 61 s after the first one's
    // read (a read for an unknown signature is allowed once a minute), however slow this machine is.
    const t = Date.now();
    clockAt(t);
    expect(await deliver('new_registration', dated(t, -MINUTE))).toHaveLength(1);
    hooks.current.set('hook_1', NEW_SECRET);
    expect(await deliver('new_registration', dated(t), { secret: NEW_SECRET })).toHaveLength(1);
    // A minute later the organizer rotates again.
    const third = 'whsec_third_7a8b9c';
    hooks.current.set('hook_1', third);
    clockAt(t + 61_000);
    expect(await deliver('new_registration', dated(t, 60_000), { secret: third })).toHaveLength(1);
    // Signed with the first secret and dated between the two rotations: not sent by the service.
    expect(await deliver('new_registration', dated(t, 30_000))).toEqual([]);
    expect(await deliver('new_registration', dated(t, -30_000))).toHaveLength(1);
    // The second secret vouches for what is dated before the second rotation.
    expect(await deliver('new_registration', dated(t, 30_000), { secret: NEW_SECRET })).toHaveLength(1);
    expect(await deliver('new_registration', dated(t, 62_000), { secret: NEW_SECRET })).toEqual([]);
  });

  it('a delivery signed with both secrets (a rotation in progress) makes the app learn the new one at once', async () => {
    const t = Date.now();
    expect(await deliver('new_registration', dated(t, -2 * MINUTE))).toHaveLength(1);
    clockAt(t + 2 * MINUTE);
    hooks.current.set('hook_1', NEW_SECRET);
    const both = await deliver('new_registration', dated(t, 2 * MINUTE), {
      secret: [OLD_SECRET, NEW_SECRET],
    });
    expect(both).toHaveLength(1);
    expect(hooks.reads()).toBe(2);
    expect(logs.join('\n')).toContain('its signing secret was rotated; the current one was read');
    // The old secret alone no longer opens the Zap for anything newer, before the old one is even retired.
    expect(await deliver('new_registration', dated(t, 2 * MINUTE + 1000))).toEqual([]);
    // Later overlapping deliveries run without another read.
    const again = await deliver('new_registration', dated(t, 2 * MINUTE + 2000), {
      secret: [OLD_SECRET, NEW_SECRET],
    });
    expect(again).toHaveLength(1);
    expect(hooks.reads()).toBe(2);
  });

  it('when the cache fails, every rotated delivery still runs, with at most one read each', async () => {
    hooks.current.set('hook_1', NEW_SECRET);
    const saved = testerCache(appTester).zcacheTestObj;
    testerCache(appTester).zcacheTestObj = new (class BrokenCache {})() as unknown as typeof saved;
    try {
      const runs = [];
      for (let i = 0; i < 5; i++) {
        runs.push(
          (await deliver('new_registration', body('FORM_SUBMISSION', registration()), { secret: NEW_SECRET }))
            .length,
        );
      }
      expect(runs).toEqual([1, 1, 1, 1, 1]);
      expect(hooks.reads()).toBe(5);
    } finally {
      testerCache(appTester).zcacheTestObj = saved;
    }
  });

  it('a subscription the service no longer has drops the delivery, saying so', async () => {
    hooks.gone.add('hook_1');
    expect(
      await deliver('new_registration', body('FORM_SUBMISSION', registration()), { secret: NEW_SECRET }),
    ).toEqual([]);
    expect(logs.join('\n')).toContain('subscription hook_1 no longer exists in the service');
  });

  it('a read that fails is an error the user sees, never a silent loss', async () => {
    hooks.failWith = 503;
    const error = await caught(() =>
      deliver('new_registration', body('FORM_SUBMISSION', registration()), { secret: NEW_SECRET }),
    );
    expect(errorMessage(error)).toMatch(/which could not be read: The service had a problem/);
    expect(error.message).not.toContain(OLD_SECRET);
  });

  it('a rotated account-level secret says to reconnect with the new one', async () => {
    hooks.current.set('hook_1', null);
    const items = await appTester(
      op('new_registration').perform!,
      hookBundle(signedDelivery(body('FORM_SUBMISSION', registration()), 'whsec_account_new'), {
        authData: authData({ webhookSecret: 'whsec_account_old' }),
        subscribeData: { id: 'hook_1', secret: null, kind: 'FORM_SUBMISSION', eventId: null },
      }),
    );
    expect(items).toEqual([]);
    expect(logs.join('\n')).toContain('reconnect the account with the new one');
  });
});

describe('odd records: a field outside its documented form is read as absent, as in lists', () => {
  it('a registration with an empty approval date and an odd answer runs, without those, saying so', async () => {
    const odd = {
      ...registration({ submissionId: 'sub_odd' }),
      approvedAt: '',
      answers: [{ key: 'company', label: 'Company', value: 'Acme' }, { key: 42 }],
    };
    const [item] = await deliver('new_registration', body('FORM_SUBMISSION', odd));
    expect(item).toMatchObject({ submissionId: 'sub_odd', approvedAt: null, answers__company: 'Acme' });
    expect(logs.join('\n')).toMatch(
      /Odd record in delivery dlv_\d+: registration "sub_odd" kept without .*answers\[1\].*approvedAt \(Invalid ISO datetime\)/,
    );
  });

  it('a payment whose amount is unusable is an error naming the field, never a silent loss', async () => {
    const error = await caught(() =>
      deliver('payment_succeeded', body('PAYMENT_SUCCESS', { ...SAMPLE_ORDER, totalAmount: 'lots' })),
    );
    expect(errorMessage(error)).toMatch(
      /did not carry a valid payment: its totalAmount is missing or unusable/,
    );
  });
});

describe('own keys only', () => {
  it.each([
    ['"__proto__"', '"__proto__"'],
    ['an escaped "\\u005f_proto__"', '"\\u005f_proto__"'],
  ])('%s in delivered data sets nothing through the prototype', async (_label, protoKey) => {
    const evil = `${protoKey}:{"email":"attacker@evil.example","firstName":"Mallory","polluted":"yes"}`;
    const record = `{${evil},"submissionId":"sub_proto","eventId":"${SAMPLE_EVENT.id}","status":"approved","createdAt":"2026-11-21T14:05:09.123Z","answers":[{"key":"k",${protoKey}:{"value":"x"}}]}`;
    const payload = `{"id":"dlv_proto_${++counter}","type":"FORM_SUBMISSION","createdAt":"${new Date().toISOString()}","hookId":"hook_1","data":${record}}`;
    const [item] = await deliver('new_registration', payload);
    expect(item).toBeDefined();
    expect(item!.email).toBeNull();
    expect(item!.firstName).toBeNull();
    expect(item!.answers__k).toBe('');
    expect(Object.getPrototypeOf(item)).toBe(Object.prototype);
    expect(item!.polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(logs.join('\n')).toMatch(/had 2 "__proto__" field\(s\); they were ignored/);
  });

  it('"constructor" and "prototype" keys stay plain data and pollute nothing', async () => {
    const payload = body('FORM_SUBMISSION', {
      ...registration(),
      constructor: { prototype: { polluted: 'yes' } },
      prototype: { polluted: 'yes' },
    });
    const [item] = await deliver('new_registration', payload);
    expect(item!.email).toBe(SAMPLE_SUBMISSION.email);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('event scope', () => {
  const unscoped: Order = { ...SAMPLE_ORDER, eventId: null };

  it('a payment without an event does not run a Zap limited to one event', async () => {
    expect(
      await deliver('payment_succeeded', body('PAYMENT_SUCCESS', unscoped), {
        inputData: { eventId: SAMPLE_EVENT.id },
      }),
    ).toEqual([]);
    expect(logs.join('\n')).toContain(`names no event, and this Zap is limited to event ${SAMPLE_EVENT.id}`);
    expect(
      await deliver('payment_succeeded', body('PAYMENT_SUCCESS', { ...SAMPLE_ORDER, eventId: undefined }), {
        subscribeData: { eventId: SAMPLE_EVENT.id },
      }),
    ).toEqual([]);
  });

  it('runs a Zap for every event, and a Zap of its own event', async () => {
    expect(await deliver('payment_succeeded', body('PAYMENT_SUCCESS', unscoped))).toHaveLength(1);
    expect(
      await deliver('payment_succeeded', body('PAYMENT_SUCCESS', SAMPLE_ORDER), {
        inputData: { eventId: SAMPLE_ORDER.eventId },
      }),
    ).toHaveLength(1);
  });
});

describe('depth limit', () => {
  it('a 50,000-deep body is dropped with a clear log line, not a RangeError', async () => {
    const deep = `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`;
    const record = JSON.stringify(registration()).replace(/\}$/, `,"extra":${deep}}`);
    const payload = `{"id":"dlv_deep","type":"FORM_SUBMISSION","createdAt":"${new Date().toISOString()}","hookId":"hook_1","data":${record}}`;
    // zapier-platform-core itself serialises the bundle (cleanedRequest included) before perform runs, which a
    // body this deep would overflow too; what Zapier hands over there is out of the app's hands. perform
    // reads the raw body only, so the parsed copy is left out here.
    const bundle = {
      ...hookBundle(signedDelivery(payload, OLD_SECRET), {
        authData: authData(),
        subscribeData: { id: 'hook_1', secret: OLD_SECRET, kind: 'x', eventId: null },
      }),
      cleanedRequest: {},
    };
    await expect(appTester(op('new_registration').perform!, bundle)).resolves.toEqual([]);
    expect(logs.join('\n')).toContain(
      'New Registration: delivery dropped because its body nests data 50002 levels deep, more than the 64 this app reads',
    );
  });

  it('a record with ordinary nesting (answers with list values) is read', async () => {
    expect(await deliver('new_registration', body('FORM_SUBMISSION', registration()))).toHaveLength(1);
  });
});

describe('turn-on rollback: a subscribe answer the app cannot use leaves nothing in the service', () => {
  const subscribe = () =>
    caught(() =>
      appTester(op('new_registration').performSubscribe!, {
        authData: authData(),
        inputData: {},
        targetUrl: TARGET_URL,
      }),
    );
  const created = (extra: Record<string, unknown>) => ({
    id: 'hook_bad',
    event: 'FORM_SUBMISSION',
    eventId: null,
    targetUrl: TARGET_URL,
    secret: 'whsec_fine_77',
    createdAt: '2026-11-22T10:00:00.000Z',
    ...extra,
  });

  it.each([
    ['an empty secret', { secret: '' }, 'its secret is empty or not text'],
    ['a date that is not one', { createdAt: 'yesterday' }, 'createdAt is not valid'],
  ])('%s: the subscription is deleted again and the message says so', async (_label, extra, problem) => {
    const scope = nock(BASE_URL)
      .post(paths.hooks())
      .reply(201, created(extra))
      .delete(paths.hook('hook_bad'))
      .reply(204);
    const error = await subscribe();
    scope.done();
    expect(errorMessage(error)).toContain(problem);
    expect(errorMessage(error)).toContain('The subscription it had created (hook_bad) was removed again');
    expect(errorMessage(error)).not.toContain('whsec_');
  });

  it('when removing it fails too, the message says where to delete it', async () => {
    nock(BASE_URL)
      .post(paths.hooks())
      .reply(201, created({ secret: '' }))
      .delete(paths.hook('hook_bad'))
      .reply(503, wireError('INTERNAL', 'down'));
    const error = await subscribe();
    expect(errorMessage(error)).toContain('Removing subscription hook_bad failed too');
    expect(errorMessage(error)).toContain('delete it in the dashboard');
  });
});
