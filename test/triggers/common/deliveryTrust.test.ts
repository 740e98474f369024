/**
 * Instant triggers run exactly once, only for this Zap, and a rotated secret costs nothing: the 72 h age
 * limit, `hookId`, rotation with a rate-limited refresh of the current secret (counted), own keys only,
 * event scope, the depth limit and the turn-on rollback.
 */
import nock from 'nock';
import type { Bundle, ZObject } from 'zapier-platform-core';
import { type Order, type Submission, paths } from '../../../src/connect';
import { DELIVERY_MAX_AGE_MS } from '../../../src/triggers/common/instant';
import { SAMPLE_EVENT } from '../../../src/mappers/event';
import { SAMPLE_ORDER } from '../../../src/mappers/order';
import { SAMPLE_SUBMISSION } from '../../../src/mappers/submission';
import { App, BASE_URL, appTester, authData, caught, errorMessage, testerCache } from '../../support/app';
import { hookBundle, signedDelivery } from '../../../scripts/lib/hookRequest';

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
    op(key).perform!,
    hookBundle(signedDelivery(payload, options.secret ?? OLD_SECRET), {
      authData: authData(),
      subscribeData: { id: 'hook_1', secret: OLD_SECRET, kind: 'x', eventId: null, ...options.subscribeData },
      inputData: options.inputData ?? {},
    }),
  ) as Promise<Array<Record<string, unknown>>>;

const logs: string[] = [];
let logSpy: jest.SpyInstance;
beforeEach(() => {
  testerCache(appTester).zcacheTestObj = {};
  logs.length = 0;
  logSpy = jest.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    logs.push(args.map(String).join(' '));
  });
  nock(BASE_URL)
    .get(paths.events())
    .query(true)
    .reply(200, { data: [SAMPLE_EVENT] })
    .persist();
});
afterEach(() => {
  logSpy.mockRestore();
  jest.restoreAllMocks();
  nock.cleanAll();
});

/** The service's `GET …/hooks/hook_1`, answering `secret`; returns a counter of the requests it got. */
const currentSecret = (secret: string | null, delayMs = 0) => {
  const count = { requests: 0 };
  nock(BASE_URL)
    .get(paths.hook('hook_1'))
    .delay(delayMs)
    .reply(() => {
      count.requests++;
      return [200, { id: 'hook_1', event: 'FORM_SUBMISSION', eventId: null, targetUrl: TARGET_URL, secret }];
    })
    .persist();
  return count;
};

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

  it('a delivery dated ahead of the clock is remembered until it could no longer pass the age check', async () => {
    const createdAt = new Date(Date.now() + 48 * HOUR).toISOString();
    const payload = body('FORM_SUBMISSION', registration(), { createdAt, id: 'dlv_ahead' });
    expect(await deliver('new_registration', payload)).toHaveLength(1);
    const [, stored] = Object.entries(testerCache(appTester).zcacheTestObj as Record<string, string>).find(
      ([k]) => k.includes('dlv_ahead'),
    )!;
    const expiresIn = (JSON.parse(stored) as { e: number }).e - Date.now();
    expect(expiresIn).toBeGreaterThan(48 * HOUR + DELIVERY_MAX_AGE_MS);
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

describe('rotation: a secret rotated and retired costs nothing, a forgery still runs nothing', () => {
  it('10 of 10 deliveries signed only with the new secret run, with one refresh request', async () => {
    const service = currentSecret(NEW_SECRET);
    const runs = [];
    for (let i = 0; i < 10; i++) {
      runs.push(
        (await deliver('new_registration', body('FORM_SUBMISSION', registration()), { secret: NEW_SECRET }))
          .length,
      );
    }
    expect(runs).toEqual(Array(10).fill(1));
    expect(service.requests).toBe(1);
    expect(logs.join('\n')).toContain('Subscription hook_1: its signing secret was rotated');
  });

  it('10 deliveries arriving at once while the secret is being fetched all run, with one refresh request', async () => {
    const service = currentSecret(NEW_SECRET, 1500);
    const one = () =>
      deliver('new_registration', body('FORM_SUBMISSION', registration()), { secret: NEW_SECRET });
    const first = one();
    // The others arrive while the first one's request for the current secret is still on its way.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const runs = await Promise.all([first, ...Array.from({ length: 9 }, one)]);
    expect(runs.map((r) => r.length)).toEqual(Array(10).fill(1));
    expect(service.requests).toBe(1);
  });

  it('10 forgeries run nothing and cost one refresh request a minute; those inside the minute are halted', async () => {
    const service = currentSecret(NEW_SECRET);
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
    expect(service.requests).toBe(1);
    // A minute later, one more request may be made.
    const later = Date.now() + 61 * 1000;
    jest.spyOn(Date, 'now').mockReturnValue(later);
    await forgery();
    expect(service.requests).toBe(2);
  });

  it('a forgery just before a rotation cannot make the first genuine delivery vanish: it is halted, and the next runs', async () => {
    // The forgery makes the app check the secret: still the old one.
    let secret = OLD_SECRET;
    let requests = 0;
    nock(BASE_URL)
      .get(paths.hook('hook_1'))
      .reply(() => {
        requests++;
        return [
          200,
          { id: 'hook_1', event: 'FORM_SUBMISSION', eventId: null, targetUrl: TARGET_URL, secret },
        ];
      })
      .persist();
    expect(
      await deliver('new_registration', body('FORM_SUBMISSION', registration()), { secret: 'whsec_forged' }),
    ).toEqual([]);
    // Seconds later the organizer rotates and retires the old secret; a genuine delivery arrives.
    secret = NEW_SECRET;
    const genuine = () =>
      deliver('new_registration', body('FORM_SUBMISSION', registration()), { secret: NEW_SECRET });
    const error = await caught(genuine);
    expect(error.name).toBe('HaltedError');
    expect(errorMessage(error)).toMatch(
      /If the organizer rotated this subscription's secret in the last minute/,
    );
    expect(requests).toBe(1);
    jest.spyOn(Date, 'now').mockReturnValue(Date.now() + 61 * 1000);
    expect(await genuine()).toHaveLength(1);
    expect(requests).toBe(2);
  });

  it('once the rotation is known, the retired secret verifies only deliveries dated before it', async () => {
    const service = currentSecret(NEW_SECRET);
    const rotatedAt = Date.now();
    expect(
      await deliver(
        'new_registration',
        body('FORM_SUBMISSION', registration(), { createdAt: new Date(rotatedAt).toISOString() }),
        { secret: NEW_SECRET },
      ),
    ).toHaveLength(1);
    // A retry of a delivery made before the rotation keeps its old signature: it runs.
    const before = body('FORM_SUBMISSION', registration(), {
      createdAt: new Date(rotatedAt - 10 * 60 * 1000).toISOString(),
    });
    expect(await deliver('new_registration', before, { secret: OLD_SECRET })).toHaveLength(1);
    // Anything dated after it and signed only with the old secret was not sent by the service.
    const after = body('FORM_SUBMISSION', registration(), {
      createdAt: new Date(rotatedAt + 1000).toISOString(),
    });
    expect(await deliver('new_registration', after, { secret: OLD_SECRET })).toEqual([]);
    expect(logs.join('\n')).toContain(
      'it is signed only with the secret this Zap was given, which the organizer has rotated',
    );
    expect(logs.join('\n')).not.toContain(OLD_SECRET);
    expect(service.requests).toBe(1);
  });

  it('after a second rotation, the first secret still vouches only for what is dated before the first', async () => {
    let secret = NEW_SECRET;
    nock(BASE_URL)
      .get(paths.hook('hook_1'))
      .reply(() => [
        200,
        { id: 'hook_1', event: 'FORM_SUBMISSION', eventId: null, targetUrl: TARGET_URL, secret },
      ])
      .persist();
    const t = Date.now();
    const at = (offsetMs: number) =>
      body('FORM_SUBMISSION', registration(), { createdAt: new Date(t + offsetMs).toISOString() });
    expect(await deliver('new_registration', at(0), { secret: NEW_SECRET })).toHaveLength(1);
    // A minute later the organizer rotates again.
    secret = 'whsec_third_7a8b9c';
    jest.spyOn(Date, 'now').mockReturnValue(t + 61_000);
    expect(await deliver('new_registration', at(60_000), { secret })).toHaveLength(1);
    // Signed with the first secret and dated between the two rotations: not sent by the service.
    expect(await deliver('new_registration', at(30_000), { secret: OLD_SECRET })).toEqual([]);
    expect(await deliver('new_registration', at(-30_000), { secret: OLD_SECRET })).toHaveLength(1);
  });

  it('a delivery signed with both secrets (a rotation in progress) makes the app learn the new one at once', async () => {
    const service = currentSecret(NEW_SECRET);
    const startedAt = Date.now();
    const during = body('FORM_SUBMISSION', registration(), { createdAt: new Date(startedAt).toISOString() });
    const both = await deliver('new_registration', during, { secret: [OLD_SECRET, NEW_SECRET] });
    expect(both).toHaveLength(1);
    expect(service.requests).toBe(1);
    expect(logs.join('\n')).toContain('its signing secret is being rotated; the new one was fetched');
    // The old secret alone no longer opens the Zap for anything newer, before the old one is even retired.
    const forged = body('FORM_SUBMISSION', registration(), {
      createdAt: new Date(startedAt + 1000).toISOString(),
    });
    expect(await deliver('new_registration', forged, { secret: OLD_SECRET })).toEqual([]);
    // Later overlapping deliveries run without another request.
    const next = body('FORM_SUBMISSION', registration(), {
      createdAt: new Date(startedAt + 2000).toISOString(),
    });
    const again = await deliver('new_registration', next, { secret: [OLD_SECRET, NEW_SECRET] });
    expect(again).toHaveLength(1);
    expect(service.requests).toBe(1);
  });

  it('when the cache fails, every rotated delivery still runs, with at most one refresh request each', async () => {
    const service = currentSecret(NEW_SECRET);
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
      expect(service.requests).toBe(5);
    } finally {
      testerCache(appTester).zcacheTestObj = saved;
    }
  });

  it('a subscription the service no longer has drops the delivery, saying so', async () => {
    nock(BASE_URL)
      .get(paths.hook('hook_1'))
      .reply(404, { error: { code: 'NOT_FOUND', message: 'Subscription not found' } });
    expect(
      await deliver('new_registration', body('FORM_SUBMISSION', registration()), { secret: NEW_SECRET }),
    ).toEqual([]);
    expect(logs.join('\n')).toContain('subscription hook_1 no longer exists in the service');
  });

  it('a refresh that fails is an error the user sees, never a silent loss', async () => {
    nock(BASE_URL)
      .get(paths.hook('hook_1'))
      .reply(503, { error: { code: 'INTERNAL', message: 'down' } });
    const error = await caught(() =>
      deliver('new_registration', body('FORM_SUBMISSION', registration()), { secret: NEW_SECRET }),
    );
    expect(errorMessage(error)).toMatch(
      /the subscription's current secret could not be fetched to check it again: The service had a problem/,
    );
    expect(error.message).not.toContain(OLD_SECRET);
  });

  it('a rotated account-level secret says to reconnect with the new one', async () => {
    currentSecret(null);
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
      .reply(503, { error: { code: 'INTERNAL', message: 'down' } });
    const error = await subscribe();
    expect(errorMessage(error)).toContain('Removing subscription hook_bad failed too');
    expect(errorMessage(error)).toContain('delete it in the dashboard');
  });
});
