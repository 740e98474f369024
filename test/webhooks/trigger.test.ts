/**
 * Every instant trigger, table-driven: perform from a signed delivery, performList, the exact subscribe body,
 * unsubscribe and unsubscribe of a gone hook; then what the factory does once for all of them (kind and
 * event filters, delivery-id dedupe, enrichment, errors a user can act on).
 */
import nock from 'nock';
import type { Bundle, ZObject } from 'zapier-platform-core';
import { type Event, type Order, type Submission, paths } from '../../src/connect';
import { DIALECT } from '../../src/connect/testing';
import { DELIVERY_MEMORY_SECONDS, instantKindOf } from '../../src/webhooks';
import { paymentItemId } from '../../src/items';
import { SAMPLE_EVENT, toEventChangeItem, toEventItem } from '../../src/mappers/event';
import { SAMPLE_ORDER, toOrderItem } from '../../src/mappers/order';
import {
  NO_EVENT_CONTEXT,
  SAMPLE_SUBMISSION,
  eventContextOf,
  toSubmissionItem,
} from '../../src/mappers/submission';
import { functionOf, instantTriggerKeys, instantTriggers } from '../../scripts/lib/app';
import {
  BASE_URL,
  SENTINEL_KEY,
  appTester,
  attendeePointerFields,
  authData,
  caught,
  errorMessage,
  hookOperation,
  testerCache,
} from '../support/app';
import { deliveryBody, hookBundle, signedDelivery } from '../support/deliveries';
import { serviceHooks } from '../support/serviceHooks';
import { wireError, wireList, wireObject, wireRequestBody } from '../../sandbox/wire';

type Fn = (z: ZObject, bundle: Bundle) => Promise<unknown>;
const op = hookOperation;

const SECRET = 'whsec_sub_91b2';
const TARGET_URL = 'https://hooks.zapier.com/hooks/standard/1/abc/';

// --- Test data: one published event, one draft, registrations and orders of the published one ----------
const EVENT: Event = { ...SAMPLE_EVENT };
const DRAFT: Event = {
  ...SAMPLE_EVENT,
  id: '0b7e2a14-5c3d-4e6f-8a9b-1c2d3e4f5a6b',
  slug: 'side-meetup',
  title: 'Side Meetup',
  status: 'draft',
  createdAt: '2026-11-02T09:00:00.000Z',
  updatedAt: '2026-11-02T09:00:00.000Z',
};
const OTHER_EVENT_ID = '11111111-2222-4333-8444-555555555555';

const registration = (id: string, minute: number, extra: Partial<Submission> = {}): Submission => ({
  ...SAMPLE_SUBMISSION,
  submissionId: id,
  eventId: EVENT.id,
  createdAt: `2026-11-21T14:0${minute}:00.000Z`,
  ...extra,
});
const PENDING = registration('sub_pending', 1, { status: 'pending', qrCode: null, approvedAt: null });
const APPROVED = registration('sub_approved', 2);
const CHECKED_IN = registration('sub_checked', 3, { checkedInAt: '2026-12-01T08:01:12.000Z' });

const order = (id: string, status: string, minute: number, extra: Partial<Order> = {}): Order => ({
  ...SAMPLE_ORDER,
  id,
  status,
  paymentId: `pay_${id}`,
  createdAt: `2026-11-21T15:0${minute}:00.000Z`,
  ...extra,
});
const PAID = order('ord_paid', 'paid', 1);
const PAID_AGAIN = order('ord_paid2', 'paid', 2); // a second payment of the same registration
const FAILED = order('ord_failed', 'failed', 3);
const REFUNDED = order('ord_refunded', 'refunded', 4);
const PENDING_ORDER = order('ord_pending', 'pending', 5);

// The shared lists the service answers. A fixture added for a new trigger goes at the end of its list: each
// case's listed items are derived from the list (those its trigger keeps, newest first, three at most, as
// performList gives them), so no other case's expectations move.
const EVENTS = [EVENT, DRAFT];
const REGISTRATIONS = [PENDING, CHECKED_IN, APPROVED];
const ORDERS = [PAID, REFUNDED, PENDING_ORDER, FAILED, PAID_AGAIN];
const listedOf = <T extends { createdAt: string }, I>(
  all: T[],
  keep: (r: T) => boolean,
  toItem: (r: T) => I,
) =>
  all
    .filter(keep)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    .slice(0, 3)
    .map(toItem);

const context = eventContextOf(EVENT);
const regItem = (s: Submission) => toSubmissionItem(s, context);
const payItem = (o: Order) => ({
  ...toOrderItem(o, paymentItemId(o)),
  ...context,
  ...attendeePointerFields(o),
});

interface Fixture {
  /** A delivery kind the trigger runs for, and its data. */
  type: string;
  data: unknown;
  expected: unknown;
  /** Mocks the polling endpoints performList reads. */
  mockList: () => void;
  listed: unknown[];
}

interface Case extends Fixture {
  key: string;
  /** The kind sent when subscribing. */
  kind: string;
}

const mockEvents = (events: Event[] = EVENTS) =>
  nock(BASE_URL).get(paths.events()).query({ limit: '100' }).reply(200, wireList(events)).persist();
const mockRegistrations = () => {
  mockEvents();
  nock(BASE_URL)
    .get(paths.submissions())
    .query((q) => q.eventId === EVENT.id && typeof q.since === 'string')
    .reply(200, wireList(REGISTRATIONS))
    .persist();
};
const mockOrders = () => {
  mockEvents();
  nock(BASE_URL)
    .get(paths.orders())
    .query({ companyId: 'cmp_42', limit: '100' })
    .reply(200, wireList(ORDERS))
    .persist();
};

/** A delivery of each webhook kind, and what its trigger makes of it (a kind a new trigger declares needs one). */
const BY_KIND: Record<string, Fixture> = {
  FORM_SUBMISSION: {
    type: 'FORM_SUBMISSION',
    data: PENDING,
    expected: regItem(PENDING),
    mockList: mockRegistrations,
    listed: listedOf(REGISTRATIONS, () => true, regItem),
  },
  FORM_SUBMISSION_APPROVED: {
    type: 'FORM_SUBMISSION_APPROVED',
    data: APPROVED,
    expected: regItem(APPROVED),
    mockList: mockRegistrations,
    listed: listedOf(REGISTRATIONS, (s) => s.status === 'approved', regItem),
  },
  ATTENDANT_CHECKED_IN: {
    type: 'ATTENDANT_CHECKED_IN',
    data: CHECKED_IN,
    expected: regItem(CHECKED_IN),
    mockList: mockRegistrations,
    listed: listedOf(REGISTRATIONS, (s) => s.checkedInAt != null, regItem),
  },
  PAYMENT_SUCCESS: {
    type: 'PAYMENT_SUCCESS',
    data: PAID,
    expected: payItem(PAID),
    mockList: mockOrders,
    listed: listedOf(ORDERS, (o) => o.status === 'paid', payItem),
  },
  PAYMENT_FAILED: {
    type: 'PAYMENT_FAILED',
    data: FAILED,
    expected: payItem(FAILED),
    mockList: mockOrders,
    listed: listedOf(ORDERS, (o) => o.status === 'failed', payItem),
  },
  PAYMENT_REFUNDED: {
    type: 'PAYMENT_REFUNDED',
    data: REFUNDED,
    expected: payItem(REFUNDED),
    mockList: mockOrders,
    listed: listedOf(ORDERS, (o) => o.status === 'refunded', payItem),
  },
  EVENT_PUBLISHED: {
    type: 'EVENT_PUBLISHED',
    data: EVENT,
    expected: toEventItem(EVENT),
    mockList: () => mockEvents(),
    listed: listedOf(EVENTS, (e) => e.status === 'published', toEventItem),
  },
  'EVENT_*': {
    type: 'EVENT_UPDATED',
    data: EVENT,
    expected: toEventChangeItem(EVENT, 'EVENT_UPDATED'),
    mockList: () => mockEvents(),
    listed: listedOf(
      EVENTS,
      () => true,
      (e) => toEventChangeItem(e),
    ),
  },
};

/** Every instant trigger of the app, with the delivery fixture of the kind it declares. */
const CASES: Case[] = instantTriggers().map(({ key, kind }) => {
  const fixture = BY_KIND[kind];
  if (!fixture) throw new Error(`no delivery fixture for ${kind}, the kind of ${key}: add one to BY_KIND`);
  return { key, kind, ...fixture };
});

const logs: string[] = [];
let logSpy: jest.SpyInstance;

beforeEach(() => {
  testerCache(appTester).zcacheTestObj = {};
  // Each subscription's current secret is still the one it was given.
  serviceHooks(SECRET);
  logs.length = 0;
  logSpy = jest.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    logs.push(args.map(String).join(' '));
  });
});
afterEach(() => {
  logSpy.mockRestore();
  nock.cleanAll();
});

const subscribeData = (extra: Record<string, unknown> = {}) => ({
  id: 'hook_1',
  secret: SECRET,
  kind: 'x',
  eventId: null,
  ...extra,
});

const deliver = (
  key: string,
  delivery: ReturnType<typeof signedDelivery>,
  options: {
    inputData?: Record<string, unknown>;
    subscribeData?: { id: string } & Record<string, unknown>;
    auth?: object;
  } = {},
) =>
  appTester(
    op(key).perform,
    hookBundle(delivery, {
      authData: { ...authData(), ...options.auth },
      subscribeData: options.subscribeData ?? subscribeData(),
      inputData: options.inputData ?? {},
    }),
  ) as Promise<Array<Record<string, unknown>>>;

it('has a delivery for the kind of every instant trigger of the app, and for no other kind', () => {
  expect(CASES.map((c) => c.key).sort()).toEqual(instantTriggerKeys().sort());
  for (const c of CASES) expect(instantKindOf(c.key)).toBe(c.kind);
  expect(Object.keys(BY_KIND).sort()).toEqual([...new Set(CASES.map((c) => c.kind))].sort());
});

describe.each(CASES.map((c) => [c.key, c] as const))('%s', (key, c) => {
  it('perform maps a signed delivery with the noun’s mapper (enriched), and the sample has its shape', async () => {
    mockEvents();
    const items = await deliver(key, signedDelivery(deliveryBody(c.type, c.data), SECRET));
    expect(items).toEqual([c.expected]);
    expect(Object.keys(op(key).sample).sort()).toEqual(Object.keys(items[0]!).sort());
  });

  it('performList returns recent real records of exactly the live shape', async () => {
    c.mockList();
    const items = (await appTester(op(key).performList, { authData: authData(), inputData: {} })) as Array<
      Record<string, unknown>
    >;
    expect(items).toEqual(c.listed);
    for (const item of items)
      expect(Object.keys(item).sort()).toEqual(Object.keys(c.expected as object).sort());
  });

  it('subscribes with the exact body and keeps hook id, secret, kind and event', async () => {
    const scope = nock(BASE_URL, { reqheaders: { 'x-api-key': SENTINEL_KEY } })
      .post(
        paths.hooks(),
        wireRequestBody({ targetUrl: TARGET_URL, event: c.kind, eventId: EVENT.id }) as nock.DataMatcherMap,
      )
      .reply(
        201,
        wireObject({
          id: 'hook_7',
          event: c.kind,
          eventId: EVENT.id,
          targetUrl: TARGET_URL,
          secret: SECRET,
          createdAt: '2026-11-22T10:00:00.000Z',
        }),
      );
    const data = await appTester(op(key).performSubscribe, {
      authData: authData(),
      inputData: { eventId: EVENT.id },
      targetUrl: TARGET_URL,
    });
    scope.done();
    expect(data).toEqual({ id: 'hook_7', secret: SECRET, kind: c.kind, eventId: EVENT.id });
  });

  it('subscribes for every event when none is chosen', async () => {
    const scope = nock(BASE_URL)
      .post(
        paths.hooks(),
        wireRequestBody({ targetUrl: TARGET_URL, event: c.kind, eventId: null }) as nock.DataMatcherMap,
      )
      .reply(
        201,
        wireObject({ id: 'hook_8', event: c.kind, eventId: null, targetUrl: TARGET_URL, secret: SECRET }),
      );
    const data = await appTester(op(key).performSubscribe, {
      authData: authData(),
      inputData: {},
      targetUrl: TARGET_URL,
    });
    scope.done();
    expect(data).toEqual({ id: 'hook_8', secret: SECRET, kind: c.kind, eventId: null });
  });

  it('unsubscribes its own hook', async () => {
    const scope = nock(BASE_URL).delete(paths.hook('hook_7')).reply(204);
    await expect(
      appTester(op(key).performUnsubscribe, {
        authData: authData(),
        subscribeData: subscribeData({ id: 'hook_7' }),
      }),
    ).resolves.toEqual({ id: 'hook_7', unsubscribed: true });
    scope.done();
  });

  it('unsubscribes a hook that is already gone (404) without an error', async () => {
    const scope = nock(BASE_URL)
      .delete(paths.hook('hook_gone'))
      .reply(404, wireError('NOT_FOUND', 'Subscription not found'));
    await expect(
      appTester(op(key).performUnsubscribe, {
        authData: authData(),
        subscribeData: subscribeData({ id: 'hook_gone' }),
      }),
    ).resolves.toEqual({ id: 'hook_gone', unsubscribed: true });
    scope.done();
  });
});

describe('exactly-once Zap runs from at-least-once delivery', () => {
  it('a delivery retried three times runs the Zap once', async () => {
    mockEvents();
    const delivery = signedDelivery(deliveryBody('FORM_SUBMISSION', PENDING, 'dlv_retried'), SECRET);
    const runs = [];
    for (let attempt = 0; attempt < 4; attempt++) runs.push(await deliver('new_registration', delivery));
    expect(runs.map((r) => r.length)).toEqual([1, 0, 0, 0]);
    expect(logs.join('\n')).toContain('delivery dlv_retried was already processed');
  });

  it('remembers delivery ids longer than the 72 h retry window, per account', async () => {
    mockEvents();
    expect(DELIVERY_MEMORY_SECONDS).toBeGreaterThanOrEqual(72 * 3600);
    await deliver(
      'new_registration',
      signedDelivery(deliveryBody('FORM_SUBMISSION', PENDING, 'dlv_ttl'), SECRET),
    );
    const entries = Object.entries(testerCache(appTester).zcacheTestObj as Record<string, string>).filter(
      ([k]) => k.includes('dlv_ttl'),
    );
    expect(entries).toHaveLength(1);
    const [cacheKey, stored] = entries[0]!;
    expect(cacheKey).not.toContain(SENTINEL_KEY);
    const expiresIn = (JSON.parse(stored) as { e: number }).e - Date.now();
    expect(expiresIn).toBeGreaterThan(72 * 3600 * 1000);
  });

  it('different deliveries of one registration each run', async () => {
    mockEvents();
    const first = await deliver(
      'new_registration',
      signedDelivery(deliveryBody('FORM_SUBMISSION', PENDING), SECRET),
    );
    const second = await deliver(
      'new_registration',
      signedDelivery(deliveryBody('FORM_SUBMISSION', PENDING), SECRET),
    );
    expect([first.length, second.length]).toEqual([1, 1]);
  });

  it('two Zaps (two subscriptions) each run once for deliveries with the same id', async () => {
    mockEvents();
    const delivery = signedDelivery(deliveryBody('PAYMENT_SUCCESS', PAID, 'dlv_shared'), SECRET);
    const zapA = await deliver('payment_succeeded', delivery, {
      subscribeData: subscribeData({ id: 'hook_a' }),
    });
    const zapB = await deliver('payment_succeeded', delivery, {
      subscribeData: subscribeData({ id: 'hook_b' }),
    });
    const zapAAgain = await deliver('payment_succeeded', delivery, {
      subscribeData: subscribeData({ id: 'hook_a' }),
    });
    expect([zapA.length, zapB.length, zapAAgain.length]).toEqual([1, 1, 0]);
  });

  it('processes every delivery when the cache itself fails (a duplicate is better than a loss)', async () => {
    mockEvents();
    const delivery = signedDelivery(deliveryBody('FORM_SUBMISSION', PENDING, 'dlv_no_cache'), SECRET);
    const saved = testerCache(appTester).zcacheTestObj;
    // Not a plain object: core then calls its real cache service, which is unreachable here.
    testerCache(appTester).zcacheTestObj = new (class BrokenCache {})() as unknown as typeof saved;
    try {
      const first = await deliver('new_registration', delivery);
      const second = await deliver('new_registration', delivery);
      expect([first, second]).toEqual([[regItem(PENDING)], [regItem(PENDING)]]);
    } finally {
      testerCache(appTester).zcacheTestObj = saved;
    }
  });
});

describe('which deliveries run the Zap', () => {
  beforeEach(() => mockEvents());

  it('drops a delivery of another kind, saying so', async () => {
    const items = await deliver(
      'new_registration',
      signedDelivery(deliveryBody('FORM_SUBMISSION_APPROVED', APPROVED, 'dlv_kind'), SECRET),
    );
    expect(items).toEqual([]);
    expect(logs.join('\n')).toContain(
      'New Registration: delivery dropped because delivery dlv_kind is of kind FORM_SUBMISSION_APPROVED',
    );
  });

  it('drops a delivery for another event than the chosen one, checked again in perform', async () => {
    const delivery = () => signedDelivery(deliveryBody('FORM_SUBMISSION', PENDING), SECRET);
    await expect(
      deliver('new_registration', delivery(), { inputData: { eventId: OTHER_EVENT_ID } }),
    ).resolves.toEqual([]);
    expect(logs.join('\n')).toContain(`not the chosen event ${OTHER_EVENT_ID}`);
    await expect(
      deliver('new_registration', delivery(), { subscribeData: subscribeData({ eventId: OTHER_EVENT_ID }) }),
    ).resolves.toEqual([]);
    await expect(
      deliver('new_registration', delivery(), { inputData: { eventId: EVENT.id } }),
    ).resolves.toHaveLength(1);
    // Payments and events are checked against their own event too.
    await expect(
      deliver('payment_refunded', signedDelivery(deliveryBody('PAYMENT_REFUNDED', REFUNDED), SECRET), {
        inputData: { eventId: OTHER_EVENT_ID },
      }),
    ).resolves.toEqual([]);
    await expect(
      deliver('event_published', signedDelivery(deliveryBody('EVENT_PUBLISHED', DRAFT), SECRET), {
        inputData: { eventId: EVENT.id },
      }),
    ).resolves.toEqual([]);
  });

  it.each([
    [['any'], 'EVENT_RESCHEDULED', 'rescheduled'],
    [[], 'EVENT_DELETED', 'deleted'],
    [undefined, 'EVENT_CREATED', 'created'],
    [['published', 'unpublished'], 'EVENT_UNPUBLISHED', 'unpublished'],
    ['created,deleted', 'EVENT_DELETED', 'deleted'],
    ['Updated', 'EVENT_UPDATED', 'updated'],
  ])('Event Changed with changes %j runs for %s', async (changes, type, change) => {
    const items = await deliver('event_changed', signedDelivery(deliveryBody(type, EVENT), SECRET), {
      inputData: changes === undefined ? {} : { changes },
    });
    expect(items).toEqual([toEventChangeItem(EVENT, type)]);
    expect(items[0]).toMatchObject({ change, changeKind: type });
  });

  it.each([
    [['published', 'unpublished'], 'EVENT_UPDATED'],
    ['deleted', 'EVENT_RESCHEDULED'],
    [['any'], 'FORM_SUBMISSION'],
  ])('Event Changed with changes %j drops %s', async (changes, type) => {
    const items = await deliver('event_changed', signedDelivery(deliveryBody(type, EVENT), SECRET), {
      inputData: { changes },
    });
    expect(items).toEqual([]);
  });
});

describe('items', () => {
  it('enriches many deliveries of one event from one cached events lookup', async () => {
    const scope = nock(BASE_URL)
      .get(paths.events())
      .query(true)
      .once()
      .reply(200, wireList([EVENT]));
    const items = [];
    for (const s of [PENDING, APPROVED, CHECKED_IN]) {
      items.push(
        ...(await deliver('new_registration', signedDelivery(deliveryBody('FORM_SUBMISSION', s), SECRET))),
      );
    }
    scope.done();
    expect(items.map((i) => i.eventTitle)).toEqual(['TechWeek 2026', 'TechWeek 2026', 'TechWeek 2026']);
  });

  it('still delivers the item, without event details, when the event lookup fails', async () => {
    nock(BASE_URL).get(paths.events()).query(true).times(2).reply(500, wireError('INTERNAL', 'boom'));
    const items = await deliver(
      'new_registration',
      signedDelivery(deliveryBody('FORM_SUBMISSION', PENDING), SECRET),
    );
    expect(items).toEqual([toSubmissionItem(PENDING, NO_EVENT_CONTEXT)]);
    expect(logs.join('\n')).toContain(`The title and dates of event ${EVENT.id} could not be added`);
  });

  it('an instant New Registration gives the same item as the polled New Form Submission', async () => {
    mockRegistrations();
    const polled = (await appTester(functionOf('triggers', 'new_submission'), {
      authData: authData(),
      inputData: { eventId: EVENT.id },
      meta: { isLoadingSample: true },
    })) as Array<Record<string, unknown>>;
    // Whichever registration the poll gives first, delivered instantly, gives the same item.
    const first = polled[0];
    const source = REGISTRATIONS.find((s) => s.submissionId === first?.id);
    expect(source).toBeDefined();
    const [instant] = await deliver(
      'new_registration',
      signedDelivery(deliveryBody('FORM_SUBMISSION', source), SECRET),
    );
    expect(first).toEqual(instant);
  });

  it('gives two payments of one registration distinct ids', async () => {
    mockEvents();
    const [a] = await deliver(
      'payment_succeeded',
      signedDelivery(deliveryBody('PAYMENT_SUCCESS', PAID), SECRET),
    );
    const [b] = await deliver(
      'payment_succeeded',
      signedDelivery(deliveryBody('PAYMENT_SUCCESS', PAID_AGAIN), SECRET),
    );
    expect(a?.id).toBe(`${PAID.submissionId}:pay_ord_paid`);
    expect(b?.id).toBe(`${PAID.submissionId}:pay_ord_paid2`);
    expect(paymentItemId({ ...PAID, paymentId: null })).toBe(`${PAID.submissionId}:ord_paid`);
    expect(paymentItemId({ ...PAID, submissionId: null, paymentId: null })).toBe('ord_paid');
  });

  it('keeps fields the service adds later', async () => {
    mockEvents();
    const [item] = await deliver(
      'new_registration',
      signedDelivery(deliveryBody('FORM_SUBMISSION', { ...PENDING, badgePrinted: true }), SECRET),
    );
    expect(item).toMatchObject({ badgePrinted: true, submissionId: 'sub_pending' });
  });

  it('labels the custom answers of recent registrations as output fields', async () => {
    mockRegistrations();
    const dynamic = op('new_registration').outputFields.filter((f): f is Fn => typeof f === 'function');
    expect(dynamic).toHaveLength(1);
    const fields = await appTester(dynamic[0]!, { authData: authData(), inputData: { eventId: EVENT.id } });
    expect(fields).toEqual([
      { key: 'answers__company', label: 'Answer: Company', type: 'string' },
      { key: 'answers__diet', label: 'Answer: Dietary needs (List, Comma-Separated)', type: 'string' },
    ]);
  });
});

describe('errors a user can act on', () => {
  it('a signed delivery that is not JSON, or carries no valid record, fails the run with a clear message', async () => {
    mockEvents();
    const notJson = await caught(() =>
      deliver('new_registration', signedDelivery('<html>oops</html>', SECRET)),
    );
    expect(errorMessage(notJson)).toContain('was not JSON');
    const noEnvelope = await caught(() =>
      deliver('new_registration', signedDelivery(JSON.stringify({ hello: 'world' }), SECRET)),
    );
    expect(errorMessage(noEnvelope)).toContain('no delivery id, kind or data');
    const badRecord = await caught(() =>
      deliver(
        'new_registration',
        signedDelivery(deliveryBody('FORM_SUBMISSION', { eventId: EVENT.id }, 'dlv_bad'), SECRET),
      ),
    );
    expect(errorMessage(badRecord)).toMatch(
      /Delivery dlv_bad \(FORM_SUBMISSION\) did not carry a valid registration: its submissionId is missing or unusable/,
    );
  });

  it('refuses a typed event that is not an event ID, before any request', async () => {
    const error = await caught(() =>
      appTester(op('new_registration').performSubscribe, {
        authData: authData(),
        inputData: { eventId: 'TechWeek' },
        targetUrl: TARGET_URL,
      }),
    );
    expect(errorMessage(error)).toContain(
      '"TechWeek" is not an event ID. Choose the event in the Event field',
    );
  });

  // A service that makes each subscription's secret (contract §5); one that takes the app's (`secretSource:
  // "client"`) never leaves a subscription without one: test/connect/dialectValues.test.ts plays that.
  const serviceSecret = DIALECT.secretSource === 'service' ? it : it.skip;

  serviceSecret(
    'refuses to subscribe when no secret could verify deliveries, and removes the hook again',
    async () => {
      const scope = nock(BASE_URL)
        .post(paths.hooks())
        .reply(
          201,
          wireObject({ id: 'hook_nosecret', event: 'FORM_SUBMISSION', eventId: null, targetUrl: TARGET_URL }),
        )
        .delete(paths.hook('hook_nosecret'))
        .reply(204);
      const error = await caught(() =>
        appTester(op('new_registration').performSubscribe, {
          authData: authData(),
          inputData: {},
          targetUrl: TARGET_URL,
        }),
      );
      scope.done();
      expect(errorMessage(error)).toContain('fill in "Webhook Signing Secret"');
    },
  );

  serviceSecret('subscribes without a secret of its own when the connection has one', async () => {
    nock(BASE_URL)
      .post(paths.hooks())
      .reply(
        201,
        wireObject({
          id: 'hook_acct',
          event: 'FORM_SUBMISSION',
          eventId: null,
          targetUrl: TARGET_URL,
          secret: null,
        }),
      );
    const data = await appTester(op('new_registration').performSubscribe, {
      authData: authData({ webhookSecret: 'whsec_account' }),
      inputData: {},
      targetUrl: TARGET_URL,
    });
    expect(data).toEqual({ id: 'hook_acct', secret: null, kind: 'FORM_SUBMISSION', eventId: null });
  });

  it('two Zaps on one trigger hold two independent subscriptions', async () => {
    const subscribe = (url: string, id: string) => {
      nock(BASE_URL)
        .post(
          paths.hooks(),
          wireRequestBody({ targetUrl: url, event: 'PAYMENT_FAILED', eventId: null }) as nock.DataMatcherMap,
        )
        .reply(201, { id, event: 'PAYMENT_FAILED', eventId: null, targetUrl: url, secret: `whsec_${id}` });
      return appTester(op('payment_failed').performSubscribe, {
        authData: authData(),
        inputData: {},
        targetUrl: url,
      }) as Promise<{ id: string } & Record<string, unknown>>;
    };
    const a = await subscribe(`${TARGET_URL}a`, 'hook_a');
    const b = await subscribe(`${TARGET_URL}b`, 'hook_b');
    expect([a.id, a.secret, b.id, b.secret]).toEqual(['hook_a', 'whsec_hook_a', 'hook_b', 'whsec_hook_b']);
    // Turning off Zap A removes only its hook.
    const scope = nock(BASE_URL).delete(paths.hook('hook_a')).reply(204);
    await appTester(op('payment_failed').performUnsubscribe, { authData: authData(), subscribeData: a });
    scope.done();
    // Nothing else was asked of the service (the persistent read of a subscription's secret aside).
    expect(nock.pendingMocks().filter((mock) => !mock.startsWith('GET'))).toEqual([]);
  });

  it('payments test data needs the company: the message says how to add it', async () => {
    const error = await caught(() =>
      appTester(op('payment_succeeded').performList, {
        authData: authData({ companyId: '' }),
        inputData: {},
      }),
    );
    expect(errorMessage(error)).toContain('fill in "Company ID"');
    expect(errorMessage(error)).toContain('Live payments reach your Zap without it');
  });

  it('test data of a chosen event reads that event only', async () => {
    mockEvents();
    const scope = nock(BASE_URL)
      .get(paths.submissions())
      .query((q) => q.eventId === DRAFT.id)
      .reply(200, wireList([{ ...PENDING, eventId: DRAFT.id }]))
      .persist();
    const items = (await appTester(op('new_registration').performList, {
      authData: authData(),
      inputData: { eventId: DRAFT.id },
    })) as Array<Record<string, unknown>>;
    expect(scope.isDone()).toBe(true);
    expect(items.map((i) => [i.submissionId, i.eventTitle])).toEqual([['sub_pending', 'Side Meetup']]);
  });
});
