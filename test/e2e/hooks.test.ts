/**
 * End to end against the sandbox: every instant trigger subscribes through the app, a real state change in
 * the sandbox causes each kind, the sandbox delivers it over HTTP to a local receiver standing in for
 * Zapier, and the delivery, in Zapier's `rawRequest` form, goes through the trigger's `perform`: verified,
 * deduplicated and mapped. Then performList reads the same records back in exactly the live shape.
 */
import { deliveriesIdle, startSandbox, type RunningSandbox } from '../../sandbox';
import { EVENT_STATUSES } from '../../sandbox/types';
import { wireDeliveryBody } from '../../sandbox/wire';
import {
  deliveryOf,
  findSignatureHeader,
  signatureDigests,
  verifySignature,
} from '../../src/connect/testing';
import { instantTriggers } from '../../scripts/lib/app';
import { appTester, caught, errorMessage, hookOperation, testerCache } from '../support/app';
import { type HookReceiver, hookBundle, signedDelivery, startHookReceiver } from '../support/deliveries';
import { HARBOR, NORTHWIND, type Tenant, authOf as sandboxAuth, simulate } from '../support/sandbox';
import { GENEROUS_MS, useGenerousTimeLimits } from '../support/limits';
import { playedSwitches } from '../support/serviceDialect';

useGenerousTimeLimits();

type Item = Record<string, unknown>;
const op = hookOperation;

let sandbox: RunningSandbox;
let receiver: HookReceiver;
const logs: string[] = [];
let logSpy: jest.SpyInstance;

beforeAll(async () => {
  [sandbox, receiver] = await Promise.all([
    startSandbox({
      port: 0,
      delivery: { baseDelayMs: 20, maxDelayMs: 100, maxAttempts: 5, timeoutMs: 60_000 },
    }),
    startHookReceiver(),
  ]);
  testerCache(appTester).zcacheTestObj = {};
  logSpy = jest.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    logs.push(args.map(String).join(' '));
  });
});

afterAll(async () => {
  logSpy.mockRestore();
  await Promise.all([sandbox?.close(), receiver?.close()]);
});

const authOf = (tenant: Tenant, extra: Record<string, string> = {}) => sandboxAuth(sandbox, tenant, extra);

/** A simulation call on the sandbox (a state change made in the service's dashboard or apps). */
const sim = <T = Item>(tenant: Tenant, method: string, path: string, body?: unknown): Promise<T> =>
  simulate<T>(sandbox, tenant, method, path, body);

/** Feeds every delivery received at the trigger's target URL, from `from` on, to its perform. */
const performAll = async (
  key: string,
  subscribeData: Item,
  auth: Record<string, string>,
  options: { from?: number; inputData?: Item; path?: string } = {},
): Promise<Item[][]> => {
  const path = `/hooks/${options.path ?? key}`;
  const deliveries = receiver.received.filter((d) => d.path === path).slice(options.from ?? 0);
  const runs: Item[][] = [];
  for (const delivery of deliveries) {
    runs.push(
      (await appTester(
        op(key).perform,
        hookBundle(delivery, {
          authData: auth,
          subscribeData: subscribeData as { id: string },
          inputData: options.inputData ?? {},
        }),
      )) as Item[],
    );
  }
  return runs;
};

const countAt = (key: string) => receiver.received.filter((d) => d.path === `/hooks/${key}`).length;

describe('every kind, caused by a real state change, delivered, verified and mapped', () => {
  const subscriptions: Record<string, Item> = {};
  const inputs: Record<string, Item> = {};
  let eventId: string;
  let submissionId: string;
  let paidOrderId: string;
  let failedOrderId: string;

  it('subscribes every instant trigger of the app (event-scoped where it makes sense)', async () => {
    const event = await sim(NORTHWIND, 'POST', '/_sandbox/events', { title: 'Hook Summit' });
    eventId = String(event.id);
    const auth = authOf(NORTHWIND);
    const plan: Record<string, Item> = {
      new_registration: { eventId },
      registration_approved: { eventId },
      attendee_checked_in: { eventId },
      payment_succeeded: { eventId },
      payment_failed: {},
      payment_refunded: {},
      event_published: {},
      event_changed: { changes: ['any'] },
    };
    // Every instant trigger of the app; one without a plan here follows every event.
    const keys = instantTriggers();
    expect(Object.keys(plan).every((key) => keys.some((t) => t.key === key))).toBe(true);
    for (const { key, kind } of keys) {
      const inputData = plan[key] ?? {};
      inputs[key] = inputData;
      subscriptions[key] = (await appTester(op(key).performSubscribe, {
        authData: auth,
        inputData,
        targetUrl: receiver.targetUrl(key),
      })) as Item;
      expect(subscriptions[key]).toEqual({
        id: expect.stringMatching(/^hook_/),
        secret: expect.stringMatching(/^whsec_/),
        kind,
        eventId: inputData.eventId ?? null,
      });
    }
    const hooks = await sim<{ data: Item[] }>(NORTHWIND, 'GET', '/_sandbox/hooks');
    expect(hooks.data).toHaveLength(keys.length);
    expect(new Set(Object.values(subscriptions).map((s) => s.id)).size).toBe(keys.length);
  });

  it('causes every kind in the sandbox and waits for the deliveries', async () => {
    await sim(NORTHWIND, 'POST', `/_sandbox/events/${eventId}/publish`);
    await sim(NORTHWIND, 'PATCH', `/_sandbox/events/${eventId}`, { title: 'Hook Summit 2026' });
    const submission = await sim(NORTHWIND, 'POST', '/_sandbox/submissions', {
      eventId,
      email: 'zoe@example.com',
      firstName: 'Zoë',
      lastName: 'Ångström 🎟️',
      answers: [{ key: 'company', label: 'Company', value: 'Analytical Engines' }],
    });
    submissionId = String(submission.submissionId);
    await sim(NORTHWIND, 'POST', `/_sandbox/submissions/${submissionId}/approve`);
    paidOrderId = String(
      (await sim(NORTHWIND, 'POST', '/_sandbox/orders', { submissionId, outcome: 'paid' })).id,
    );
    failedOrderId = String(
      (await sim(NORTHWIND, 'POST', '/_sandbox/orders', { submissionId, outcome: 'failed' })).id,
    );
    await sim(NORTHWIND, 'POST', `/_sandbox/orders/${paidOrderId}/refund`);
    await sim(NORTHWIND, 'POST', '/_sandbox/scan', { eventId, submissionId });
    // Every other status an event can be put in, each on a draft of its own (its kind, and nothing that the
    // triggers above count, but EVENT_CREATED for Event Changed).
    for (const [status, { verb }] of Object.entries(EVENT_STATUSES)) {
      if (status === 'draft' || status === 'published') continue;
      const other = await sim(NORTHWIND, 'POST', '/_sandbox/events', { title: `Hook ${status}` });
      await sim(NORTHWIND, 'POST', `/_sandbox/events/${String(other.id)}/${verb}`);
    }
    expect(await deliveriesIdle(sandbox.app, GENEROUS_MS)).toBe(true);
    for (const key of Object.keys(subscriptions)) expect([key, countAt(key) > 0]).toEqual([key, true]);
  });

  const single = async (key: string): Promise<Item> => {
    const runs = await performAll(key, subscriptions[key]!, authOf(NORTHWIND), { inputData: inputs[key] });
    const items = runs.flat();
    expect(items).toHaveLength(1);
    return items[0]!;
  };

  it('New Registration: the registration with its answers and the event', async () => {
    const item = await single('new_registration');
    expect(item).toMatchObject({
      id: submissionId,
      submissionId,
      eventId,
      status: 'pending',
      fullName: 'Zoë Ångström 🎟️',
      answers__company: 'Analytical Engines',
      eventTitle: 'Hook Summit 2026',
    });
  });

  it('Registration Approved: the approved registration with its QR code', async () => {
    const item = await single('registration_approved');
    expect(item).toMatchObject({ id: submissionId, status: 'approved', isApproved: true });
    expect(item.qrCode).toEqual(expect.any(String));
  });

  it('Attendee Checked In: the registration with its check-in time', async () => {
    const item = await single('attendee_checked_in');
    expect(item).toMatchObject({ id: submissionId, isCheckedIn: true, eventTitle: 'Hook Summit 2026' });
    expect(item.checkedInAt).toEqual(expect.any(String));
  });

  it('Payment Succeeded, Failed and Refunded: the order with amounts and the event', async () => {
    const paid = await single('payment_succeeded');
    expect(paid).toMatchObject({
      orderId: paidOrderId,
      submissionId,
      status: 'paid',
      eventTitle: 'Hook Summit 2026',
    });
    expect(paid.id).toBe(`${submissionId}:${String(paid.paymentId ?? paidOrderId)}`);
    expect(paid.totalFormatted).toMatch(/^\d+\.\d{2} EUR$/);
    const failed = await single('payment_failed');
    expect(failed).toMatchObject({ orderId: failedOrderId, status: 'failed' });
    expect(failed.id).not.toBe(paid.id);
    const refunded = await single('payment_refunded');
    expect(refunded).toMatchObject({ orderId: paidOrderId, status: 'refunded' });
  });

  it('Event Published and Event Changed: the event, and which change it was', async () => {
    const published = await single('event_published');
    expect(published).toMatchObject({ id: eventId, status: 'published', isPublished: true });
    const changes = (
      await performAll('event_changed', subscriptions.event_changed!, authOf(NORTHWIND), {
        inputData: inputs.event_changed,
      })
    ).flat();
    const ofEvent = changes.filter((c) => c.id === eventId);
    expect(ofEvent.map((c) => `${String(c.id)} ${String(c.change)}`).sort()).toEqual([
      `${eventId} published`,
      `${eventId} updated`,
    ]);
  });

  it('performList reads the same records back in exactly the live shape', async () => {
    const live: Record<string, Item> = {};
    const again = async (key: string) =>
      (await performAll(key, subscriptions[key]!, authOf(NORTHWIND), { inputData: inputs[key] })).flat();
    // Every delivery runs once (most did above): its repeats are then dropped.
    for (const key of Object.keys(subscriptions)) await again(key);
    for (const key of Object.keys(subscriptions)) expect([key, await again(key)]).toEqual([key, []]);
    // With a fresh memory they map again: these are the live items to compare with.
    testerCache(appTester).zcacheTestObj = {};
    for (const key of Object.keys(subscriptions)) live[key] = (await again(key))[0]!;
    // The paid order was refunded since: pay once more so the event has a paid order to show.
    await sim(NORTHWIND, 'POST', '/_sandbox/orders', { submissionId, outcome: 'paid' });
    for (const key of Object.keys(subscriptions)) {
      const listed = (await appTester(op(key).performList, {
        authData: authOf(NORTHWIND),
        inputData: inputs[key] ?? {},
      })) as Item[];
      expect([key, listed.length > 0]).toEqual([key, true]);
      for (const item of listed) {
        expect([key, Object.keys(item).sort()]).toEqual([key, Object.keys(live[key]!).sort()]);
      }
    }
  });

  it('a delivery the service retries three times runs the Zap once', async () => {
    const from = countAt('new_registration');
    receiver.failNext([500, 503]);
    await sim(NORTHWIND, 'POST', '/_sandbox/submissions', {
      eventId,
      email: 'retry@example.com',
      firstName: 'Re',
      lastName: 'Try',
    });
    await receiver.waitFor(from + 3, { path: '/hooks/new_registration', timeoutMs: 120_000 });
    expect(await deliveriesIdle(sandbox.app, GENEROUS_MS)).toBe(true);
    const attempts = receiver.received.filter((d) => d.path === '/hooks/new_registration').slice(from);
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((a) => a.body)).size).toBe(1);
    expect(new Set(attempts.map((a) => a.headers['x-connect-signature'])).size).toBe(1);
    const runs = await performAll('new_registration', subscriptions.new_registration!, authOf(NORTHWIND), {
      from,
      inputData: inputs.new_registration,
    });
    expect(runs.map((r) => r.length)).toEqual([1, 0, 0]);
  });

  it('keeps verifying during a rotation of the subscription secret', async () => {
    const hookId = String(subscriptions.new_registration!.id);
    await sim(NORTHWIND, 'POST', '/_sandbox/secrets/rotate', { hookId });
    const from = countAt('new_registration');
    await sim(NORTHWIND, 'POST', '/_sandbox/submissions', {
      eventId,
      email: 'rotation@example.com',
      firstName: 'Rota',
      lastName: 'Tion',
    });
    expect(await deliveriesIdle(sandbox.app, GENEROUS_MS)).toBe(true);
    const [delivery] = receiver.received.filter((d) => d.path === '/hooks/new_registration').slice(from);
    // Signed with both secrets while the old one lasts.
    expect(signatureDigests(findSignatureHeader(delivery?.headers) ?? '')).toHaveLength(2);
    const runs = await performAll('new_registration', subscriptions.new_registration!, authOf(NORTHWIND), {
      from,
      inputData: inputs.new_registration,
    });
    expect(runs.flat()).toHaveLength(1);
  });

  it('a delivery tampered with on the way is dropped', async () => {
    const [delivery] = receiver.received.filter((d) => d.path === '/hooks/new_registration');
    const tampered = { ...delivery!, body: delivery!.body.replace('zoe@example.com', 'eve@example.com') };
    expect(tampered.body).not.toBe(delivery!.body);
    // A delivery that matches no secret makes the app read the current one (no read for a mismatch was made
    // in the last minute): it still matches nothing, so it is dropped, saying why.
    const items = await appTester(
      op('new_registration').perform,
      hookBundle(tampered, {
        authData: authOf(NORTHWIND),
        subscribeData: subscriptions.new_registration as { id: string },
      }),
    );
    expect(items).toEqual([]);
    expect(logs.join('\n')).toContain(
      "the signature matches neither the secret this Zap was given nor the subscription's current secret",
    );
  });

  it('Event Changed follows a whole event lifecycle, and "Which Changes" filters it', async () => {
    const auth = authOf(NORTHWIND);
    const deletedOnly = (await appTester(op('event_changed').performSubscribe, {
      authData: auth,
      inputData: { changes: ['deleted'] },
      targetUrl: receiver.targetUrl('event_changed_deleted'),
    })) as Item;
    const from = { changed: countAt('event_changed'), published: countAt('event_published') };
    const event = await sim(NORTHWIND, 'POST', '/_sandbox/events', { title: 'Short-lived Meetup' });
    const id = String(event.id);
    await sim(NORTHWIND, 'POST', `/_sandbox/events/${id}/publish`);
    await sim(NORTHWIND, 'POST', `/_sandbox/events/${id}/unpublish`);
    await sim(NORTHWIND, 'DELETE', `/_sandbox/events/${id}`);
    expect(await deliveriesIdle(sandbox.app, GENEROUS_MS)).toBe(true);

    const any = await performAll('event_changed', subscriptions.event_changed!, auth, {
      from: from.changed,
      inputData: inputs.event_changed,
    });
    expect(
      any
        .flat()
        .map((c) => `${String(c.change)} ${String(c.changeKind)} ${String(c.id)}`)
        .sort(),
    ).toEqual([
      `created EVENT_CREATED ${id}`,
      `deleted EVENT_DELETED ${id}`,
      `published EVENT_PUBLISHED ${id}`,
      `unpublished EVENT_UNPUBLISHED ${id}`,
    ]);
    const deleted = await performAll('event_changed', deletedOnly, auth, {
      path: 'event_changed_deleted',
      inputData: { changes: ['deleted'] },
    });
    expect(deleted.map((run) => run.length).sort()).toEqual([0, 0, 0, 1]);
    expect(deleted.flat()[0]).toMatchObject({ id, change: 'deleted', title: 'Short-lived Meetup' });
    const published = await performAll('event_published', subscriptions.event_published!, auth, {
      from: from.published,
    });
    expect(published.flat().map((e) => e.id)).toEqual([id]);
    await appTester(op('event_changed').performUnsubscribe, {
      authData: auth,
      subscribeData: deletedOnly as { id: string },
    });
  });

  it('unsubscribes every trigger, and again once gone', async () => {
    for (const key of Object.keys(subscriptions)) {
      const bundle = { authData: authOf(NORTHWIND), subscribeData: subscriptions[key] as { id: string } };
      await expect(appTester(op(key).performUnsubscribe, bundle)).resolves.toMatchObject({
        unsubscribed: true,
      });
      await expect(appTester(op(key).performUnsubscribe, bundle)).resolves.toMatchObject({
        unsubscribed: true,
      });
    }
    expect((await sim<{ data: Item[] }>(NORTHWIND, 'GET', '/_sandbox/hooks')).data).toEqual([]);
  });
});

describe('a rotated and retired subscription secret costs nothing', () => {
  const KEY = 'new_registration';
  const PATH = 'rotated_registration';
  const auth = () => authOf(NORTHWIND);
  let eventId: string;
  let subscribeData: Item;
  let hookId: string;
  let newSecret: string;

  /** How many times the app read this subscription back (`GET …/hooks/:id`), as the sandbox counted. */
  const secretReads = async () =>
    (
      await sim<{ count: number }>(
        NORTHWIND,
        'GET',
        `/_sandbox/requests?route=${encodeURIComponent(`GET /api/v1/integrations/zapier/hooks/${hookId}`)}`,
      )
    ).count;
  const received = () => receiver.received.filter((d) => d.path === `/hooks/${PATH}`);
  const register = async (emails: string[]) => {
    for (const email of emails) {
      await sim(NORTHWIND, 'POST', '/_sandbox/submissions', {
        eventId,
        email,
        firstName: 'Ro',
        lastName: 'Tate',
      });
    }
    expect(await deliveriesIdle(sandbox.app, GENEROUS_MS)).toBe(true);
  };
  /** Every delivery from `from` on, fed to perform with the subscribe data of turn-on (the old secret). */
  const run = (from: number) =>
    performAll(KEY, subscribeData, auth(), { from, path: PATH, inputData: { eventId } });
  const emailsOf = (runs: Item[][]) =>
    runs
      .flat()
      .map((item) => String(item.email))
      .sort();
  const before = [1, 2, 3, 4, 5].map((i) => `before-${i}@example.com`);
  const after = [1, 2, 3, 4, 5].map((i) => `after-${i}@example.com`);

  // The app tester keeps one z.cache for all its calls, as Zapier shares the app's cache between the runs
  // of a Zap: the current secret one run fetched is there for the next runs.
  it('turns the Zap on and runs 5 registrations with the secret it was given, confirmed by one read', async () => {
    eventId = String((await sim(NORTHWIND, 'POST', '/_sandbox/events', { title: 'Rotation Summit' })).id);
    subscribeData = (await appTester(op(KEY).performSubscribe, {
      authData: auth(),
      inputData: { eventId },
      targetUrl: receiver.targetUrl(PATH),
    })) as Item;
    hookId = String(subscribeData.id);
    expect(subscribeData.secret).toEqual(expect.stringMatching(/^whsec_/));
    await register(before);
    const runs = await run(0);
    expect(runs.map((r) => r.length)).toEqual([1, 1, 1, 1, 1]);
    expect(emailsOf(runs)).toEqual(before);
    // The first delivery confirmed that the secret the Zap was given is still the current one.
    expect(await secretReads()).toBe(1);
  });

  it('after a rotation and the old secret retired, the next 5 run after one more read of the current secret', async () => {
    const rotated = await sim<Item>(NORTHWIND, 'POST', '/_sandbox/secrets/rotate', {
      hookId,
      overlapMs: 3_600_000,
    });
    expect(rotated).toMatchObject({ hookId, previousSecret: subscribeData.secret });
    newSecret = String(rotated.secret);
    expect(newSecret).not.toBe(subscribeData.secret);
    const retired = await sim<Item>(NORTHWIND, 'POST', '/_sandbox/secrets/expire-previous', { hookId });
    expect(retired).toMatchObject({ hookId, secret: newSecret, previousSecret: null });

    const from = received().length;
    await register(after);
    const deliveries = received().slice(from);
    expect(deliveries).toHaveLength(5);
    for (const delivery of deliveries) {
      // Signed with the new secret only: the secret the Zap was given verifies none of them.
      const header = findSignatureHeader(delivery.headers);
      expect(signatureDigests(header ?? '')).toHaveLength(1);
      expect(verifySignature(delivery.body, header, [newSecret])).toEqual({ ok: true });
      expect(verifySignature(delivery.body, header, [String(subscribeData.secret)]).ok).toBe(false);
      expect(deliveryOf(delivery.body)).toMatchObject({ hookId, type: 'FORM_SUBMISSION' });
    }
    const runs = await run(from);
    expect(runs.map((r) => r.length)).toEqual([1, 1, 1, 1, 1]);
    expect(emailsOf(runs)).toEqual(after);
    expect(await secretReads()).toBe(2);
    expect(logs.join('\n')).toContain(`Subscription ${hookId}: its signing secret was rotated`);
  });

  it('all 10 ran exactly once: every delivery fed again runs nothing, without another read', async () => {
    const runs = await run(0);
    expect(runs).toHaveLength(10);
    expect(runs.flat()).toEqual([]);
    expect(await secretReads()).toBe(2);
  });

  it('a forged delivery after the rotation, or one signed with the retired secret, runs nothing and reads the secret no second time', async () => {
    const [genuine] = received().slice(-1);
    const envelope = deliveryOf(genuine!.body);
    const forgeries = [
      // A genuine delivery with its body changed on the way.
      { ...genuine!, body: genuine!.body.replace(/after-\d@example\.com/, 'mallory@example.com') },
      // A new delivery signed with a secret that is not the subscription's.
      signedDelivery(
        wireDeliveryBody({
          ...envelope,
          id: 'dlv_forged_after_rotation',
          createdAt: new Date().toISOString(),
          data: { ...envelope.data, submissionId: 'sub_forged', email: 'mallory@example.com' },
        }),
        'whsec_not_the_subscriptions_secret',
      ),
    ];
    for (const forged of forgeries) {
      expect(forged.body).not.toBe(genuine!.body);
      // The secret was read less than a minute ago: a delivery that matches no secret is halted, saying so.
      const error = await caught(() =>
        appTester(
          op(KEY).perform,
          hookBundle(forged, {
            authData: auth(),
            subscribeData: subscribeData as { id: string },
            inputData: { eventId },
          }),
        ),
      );
      expect(error.name).toBe('HaltedError');
      expect(errorMessage(error)).toContain('checked less than 60 seconds ago, so nothing ran');
    }
    // Signed with the retired secret (the one the Zap was given) and dated after the rotation: the service
    // signs nothing that new with it, so it runs nothing.
    const retired = signedDelivery(
      wireDeliveryBody({ ...envelope, id: 'dlv_retired_secret', createdAt: new Date().toISOString() }),
      String(subscribeData.secret),
    );
    const logged = logs.length;
    const result = await appTester(
      op(KEY).perform,
      hookBundle(retired, {
        authData: auth(),
        subscribeData: subscribeData as { id: string },
        inputData: { eventId },
      }),
    );
    expect(result).toEqual([]);
    expect(logs.slice(logged).join('\n')).toContain(
      'it is signed only with a secret the organizer has replaced',
    );
    expect(await secretReads()).toBe(2);
    await appTester(op(KEY).performUnsubscribe, {
      authData: auth(),
      subscribeData: subscribeData as { id: string },
    });
  });
});

// Not played where the app makes each subscription's secret (`client-secret`, and `CONNECT_TEST_DIALECT=every`):
// no subscription is then without one.
(playedSwitches().includes('client-secret') ? describe.skip : describe)(
  'an account whose subscriptions have no secret of their own',
  () => {
    it('refuses to subscribe without the connection’s signing secret, leaving no hook behind', async () => {
      const error = await caught(() =>
        appTester(op('new_registration').performSubscribe, {
          authData: authOf(HARBOR),
          inputData: {},
          targetUrl: receiver.targetUrl('harbor_nosecret'),
        }),
      );
      expect(errorMessage(error)).toContain('Webhook Signing Secret');
      expect((await sim<{ data: Item[] }>(HARBOR, 'GET', '/_sandbox/hooks')).data).toEqual([]);
    });

    it('verifies deliveries with the connection’s signing secret', async () => {
      const auth = authOf(HARBOR, { webhookSecret: HARBOR.webhookSecret });
      const subscribeData = (await appTester(op('new_registration').performSubscribe, {
        authData: auth,
        inputData: {},
        targetUrl: receiver.targetUrl('harbor_registration'),
      })) as Item;
      expect(subscribeData.secret).toBeNull();
      const events = await sim<Item>(HARBOR, 'POST', '/_sandbox/events', {
        title: 'Harbor Hooks',
        status: 'published',
      });
      await sim(HARBOR, 'POST', '/_sandbox/submissions', {
        eventId: events.id,
        email: 'sailor@example.com',
        firstName: 'Sal',
        lastName: 'Lor',
      });
      expect(await deliveriesIdle(sandbox.app, GENEROUS_MS)).toBe(true);
      const runs = await performAll('new_registration', subscribeData, auth, { path: 'harbor_registration' });
      expect(runs).toHaveLength(1);
      expect(runs[0]).toEqual([
        expect.objectContaining({ email: 'sailor@example.com', eventTitle: 'Harbor Hooks' }),
      ]);
      // The same delivery with the secret of another account is dropped.
      testerCache(appTester).zcacheTestObj = {};
      const wrong = await performAll(
        'new_registration',
        subscribeData,
        authOf(HARBOR, { webhookSecret: NORTHWIND.webhookSecret }),
        { path: 'harbor_registration' },
      );
      expect(wrong).toEqual([[]]);
      await appTester(op('new_registration').performUnsubscribe, {
        authData: auth,
        subscribeData: subscribeData as { id: string },
      });
    });
  },
);
