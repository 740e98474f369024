// Hook subscriptions and webhook delivery (contract.md §5): validation, every kind from the state change
// that emits it, signatures checked independently on the raw bytes, retries with identical bytes, 410,
// the account-level secret, rotation, filtering by kind and event, tenant isolation and the delivery log.

import type { FastifyInstance } from 'fastify';
import type { DeliveryLogEntry } from '../../sandbox';
import { EVENT_STATUSES } from '../../sandbox/types';
import { signatureOf, wireDeliveryBody } from '../../sandbox/wire';
import { GENEROUS_MS } from '../support/limits';
import {
  call,
  deliveriesIdle,
  eventId,
  expectError,
  HARBOR,
  json,
  LUMEN,
  makeApp,
  newSubmission,
  NORTHWIND,
  Receiver,
  record,
  signatureCount,
  signatureMatches,
  subscribe,
} from './helpers';

const HOOKS = '/api/v1/integrations/zapier/hooks';
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let app: FastifyInstance;
let receiver: Receiver;

beforeEach(async () => {
  // No receiver here is slow but the one of the timeout's own test: no delivery may time out however busy
  // the machine, so a retry is only ever the answer's doing.
  app = makeApp({ delivery: { baseDelayMs: 20, timeoutMs: GENEROUS_MS, maxAttempts: 4 } }).app;
  receiver = await new Receiver().start();
});
afterEach(async () => {
  await app.close();
  await receiver.close();
});

const deliveries = async (key: string = NORTHWIND.apiKey): Promise<DeliveryLogEntry[]> =>
  json(await call(app, 'GET', '/_sandbox/deliveries', { key })).data;

describe('subscriptions', () => {
  it('creates a subscription: 201 with id, event, eventId, targetUrl, a whsec_ secret and createdAt', async () => {
    const techweek = await eventId(app, 'techweek-paris-2026');
    const res = await call(app, 'POST', HOOKS, {
      body: {
        targetUrl: 'https://hooks.zapier.com/hooks/standard/1/abc/',
        event: 'FORM_SUBMISSION',
        eventId: techweek,
      },
    });
    expect(res.statusCode).toBe(201);
    expect(record(res, 'hook')).toEqual({
      id: expect.stringMatching(/^hook_/),
      event: 'FORM_SUBMISSION',
      eventId: techweek,
      targetUrl: 'https://hooks.zapier.com/hooks/standard/1/abc/',
      secret: expect.stringMatching(/^whsec_[0-9a-f]{32}$/),
      createdAt: expect.stringMatching(ISO_MS),
    });
    const all = await call(app, 'POST', HOOKS, {
      body: { targetUrl: 'https://x.example/h', event: 'EVENT_*' },
    });
    expect(record(all, 'hook')).toMatchObject({ event: 'EVENT_*', eventId: null });
  });

  it('gives no per-hook secret to an organizer that signs with its account-level secret', async () => {
    const res = await call(app, 'POST', HOOKS, {
      key: HARBOR.apiKey,
      body: { targetUrl: 'https://x.example/h', event: 'FORM_SUBMISSION', eventId: null },
    });
    expect(res.statusCode).toBe(201);
    expect(json(res)).not.toHaveProperty('secret');
  });

  it.each([
    [{ event: 'FORM_SUBMISSION' }, 'targetUrl'],
    [{ targetUrl: 'http://hooks.example.com/x', event: 'FORM_SUBMISSION' }, 'targetUrl'],
    [{ targetUrl: 'ftp://127.0.0.1/x', event: 'FORM_SUBMISSION' }, 'targetUrl'],
    [{ targetUrl: 'not a url', event: 'FORM_SUBMISSION' }, 'targetUrl'],
    [{ targetUrl: 'https://x.example/h' }, 'event'],
    [{ targetUrl: 'https://x.example/h', event: 'SOMETHING_ELSE' }, 'event'],
    [{ targetUrl: 'https://x.example/h', event: 'EVENT_RENAMED' }, 'event'],
    [{ targetUrl: 'https://x.example/h', event: 'FORM_SUBMISSION', eventId: 12 }, 'eventId'],
  ])('%j → 400 field %s', async (body, field) => {
    expectError(await call(app, 'POST', HOOKS, { body }), 400, 'VALIDATION_ERROR', { field });
  });

  it('accepts http for loopback hosts only', async () => {
    for (const targetUrl of ['http://127.0.0.1:9/x', 'http://localhost:9/x', 'http://[::1]:9/x']) {
      expect(
        (await call(app, 'POST', HOOKS, { body: { targetUrl, event: 'PAYMENT_SUCCESS' } })).statusCode,
      ).toBe(201);
    }
  });

  it('answers 404 for an eventId of another tenant or an unknown one', async () => {
    const lumenEvent = await eventId(app, 'lumen-design-conference-2026', LUMEN.apiKey);
    for (const id of [lumenEvent, '00000000-0000-4000-8000-000000000000']) {
      const res = await call(app, 'POST', HOOKS, {
        body: { targetUrl: 'https://x.example', event: 'FORM_SUBMISSION', eventId: id },
      });
      expectError(res, 404, 'NOT_FOUND', { field: 'eventId' });
    }
  });

  it('deletes with 204; an unknown or another tenant’s id is 404', async () => {
    const hook = await subscribe(app, 'https://x.example/h', 'FORM_SUBMISSION');
    expectError(await call(app, 'DELETE', `${HOOKS}/${hook.id}`, { key: LUMEN.apiKey }), 404, 'NOT_FOUND');
    const del = await call(app, 'DELETE', `${HOOKS}/${hook.id}`);
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    expectError(await call(app, 'DELETE', `${HOOKS}/${hook.id}`), 404, 'NOT_FOUND');
  });
});

describe('delivery', () => {
  it('POSTs {id, type, createdAt, hookId, data} signed with HMAC-SHA256 of the raw body and the hook secret', async () => {
    const hook = await subscribe(app, `${receiver.url}/zap`, 'FORM_SUBMISSION');
    const sub = await newSubmission(app, 'pending');
    const [got] = await receiver.waitFor(1);
    expect(got?.path).toBe('/zap');
    expect(got?.headers['content-type']).toBe('application/json');
    expect(got?.body).toEqual({
      id: expect.stringMatching(/^dlv_/),
      type: 'FORM_SUBMISSION',
      createdAt: expect.stringMatching(ISO_MS),
      hookId: hook.id,
      data: { ...sub, visibleAt: undefined },
    });
    // The bytes as the service writes a delivery, its members in their order.
    const raw = got?.raw.toString('utf8') ?? '';
    expect(raw).toBe(wireDeliveryBody(got?.body));
    // The header as the service signs those bytes, at the delivery's time.
    expect(got?.headers['x-connect-signature']).toBe(
      signatureOf(raw, hook.secret, Date.parse(got?.body.createdAt)),
    );
    expect(signatureMatches(got!, hook.secret)).toBe(true);
    expect(signatureMatches(got!, NORTHWIND.webhookSecret)).toBe(false);
  });

  it('emits every kind from the state change that causes it, with the contract’s data', async () => {
    const kinds = [
      'FORM_SUBMISSION',
      'FORM_SUBMISSION_APPROVED',
      'PAYMENT_SUCCESS',
      'PAYMENT_FAILED',
      'PAYMENT_REFUNDED',
      'ATTENDANT_CHECKED_IN',
      'EVENT_CREATED',
      'EVENT_UPDATED',
      'EVENT_PUBLISHED',
      'EVENT_UNPUBLISHED',
      'EVENT_DELETED',
    ];
    const secrets = new Map<string, string>();
    for (const kind of kinds)
      secrets.set(kind, (await subscribe(app, `${receiver.url}/${kind}`, kind)).secret);

    const created = json(await call(app, 'POST', '/_sandbox/events', { body: { title: 'Hook Day' } }));
    await call(app, 'PATCH', `/_sandbox/events/${created.id}`, { body: { venueName: 'Hall 7' } });
    await call(app, 'POST', `/_sandbox/events/${created.id}/publish`);
    const sub = json(
      await call(app, 'POST', '/_sandbox/submissions', {
        body: { eventId: created.id, email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' },
      }),
    );
    await call(app, 'POST', `/_sandbox/submissions/${sub.submissionId}/approve`);
    const paid = json(
      await call(app, 'POST', '/_sandbox/orders', {
        body: { submissionId: sub.submissionId, outcome: 'paid' },
      }),
    );
    await call(app, 'POST', '/_sandbox/orders', {
      body: { submissionId: sub.submissionId, outcome: 'failed' },
    });
    await call(app, 'POST', `/_sandbox/orders/${paid.id}/refund`);
    const approved = json(await call(app, 'GET', `/_sandbox/submissions/${sub.submissionId}`));
    await call(app, 'POST', '/api/v1/checkin', { body: { code: approved.qrCode } });
    await call(app, 'POST', '/api/v1/checkin', { body: { code: approved.qrCode } }); // no second webhook
    await call(app, 'POST', `/_sandbox/events/${created.id}/unpublish`);
    await call(app, 'DELETE', `/_sandbox/events/${created.id}`);

    await receiver.waitFor(kinds.length);
    expect(await deliveriesIdle(app)).toBe(true);
    expect(receiver.received.map((r) => r.body.type).sort()).toEqual([...kinds].sort());
    for (const r of receiver.received) {
      expect(r.path).toBe(`/${r.body.type}`);
      expect(signatureMatches(r, secrets.get(r.body.type) ?? '')).toBe(true);
    }
    const by = (t: string) => receiver.ofType(t)[0]?.body.data;
    expect(by('EVENT_CREATED')).toMatchObject({ id: created.id, status: 'draft', title: 'Hook Day' });
    expect(by('EVENT_UPDATED')).toMatchObject({ id: created.id, venueName: 'Hall 7' });
    expect(by('EVENT_PUBLISHED')).toMatchObject({ id: created.id, status: 'published' });
    expect(by('EVENT_UNPUBLISHED')).toMatchObject({ id: created.id, status: 'draft' });
    expect(by('EVENT_DELETED')).toMatchObject({ id: created.id });
    expect(by('FORM_SUBMISSION')).toMatchObject({
      submissionId: sub.submissionId,
      status: 'pending',
      qrCode: null,
    });
    expect(by('FORM_SUBMISSION_APPROVED')).toMatchObject({ status: 'approved', qrCode: approved.qrCode });
    expect(by('PAYMENT_SUCCESS')).toMatchObject({
      id: paid.id,
      status: 'paid',
      paymentId: expect.stringMatching(/^pay_/),
    });
    expect(by('PAYMENT_FAILED')).toMatchObject({ status: 'failed', submissionId: sub.submissionId });
    expect(by('PAYMENT_REFUNDED')).toMatchObject({ id: paid.id, status: 'refunded' });
    expect(by('ATTENDANT_CHECKED_IN')).toMatchObject({
      submissionId: sub.submissionId,
      checkedInAt: expect.stringMatching(ISO_MS),
    });
  });

  it.each(Object.entries(EVENT_STATUSES))(
    'an event put in status %s by its verb sends its kind with the event, once',
    async (status, { verb, kind }) => {
      const { secret } = await subscribe(app, `${receiver.url}/${kind}`, kind);
      const other = status === 'published' ? 'draft' : 'published';
      const created = json(
        await call(app, 'POST', '/_sandbox/events', { body: { title: 'Status Day', status: other } }),
      );
      const moved = json(await call(app, 'POST', `/_sandbox/events/${created.id}/${verb}`));
      await call(app, 'POST', `/_sandbox/events/${created.id}/${verb}`); // already in it: nothing more
      expect(moved).toMatchObject({ id: created.id, status });
      await receiver.waitFor(1);
      expect(await deliveriesIdle(app)).toBe(true);
      expect(receiver.received.map((r) => r.body.type)).toEqual([kind]);
      expect(receiver.received[0]?.body.data).toMatchObject({ id: created.id, status });
      expect(signatureMatches(receiver.received[0]!, secret)).toBe(true);
    },
  );

  it('EVENT_* receives the whole lifecycle family; an eventId filter keeps other events out', async () => {
    await subscribe(app, `${receiver.url}/family`, 'EVENT_*');
    const techweek = await eventId(app, 'techweek-paris-2026');
    await subscribe(app, `${receiver.url}/techweek`, 'FORM_SUBMISSION', techweek);
    await subscribe(app, `${receiver.url}/all`, 'FORM_SUBMISSION', null);

    const e = json(
      await call(app, 'POST', '/_sandbox/events', { body: { title: 'Family', status: 'published' } }),
    );
    await call(app, 'PATCH', `/_sandbox/events/${e.id}`, { body: { title: 'Family 2' } });
    await newSubmission(app, 'pending', NORTHWIND.apiKey, 'techweek-paris-2026');
    await newSubmission(app, 'pending', NORTHWIND.apiKey, 'data-ai-summit-lyon');
    await receiver.waitFor(6);
    await deliveriesIdle(app);
    const paths = (p: string) => receiver.received.filter((r) => r.path === p).map((r) => r.body.type);
    expect(paths('/family')).toEqual(
      expect.arrayContaining(['EVENT_CREATED', 'EVENT_PUBLISHED', 'EVENT_UPDATED']),
    );
    expect(paths('/family')).toHaveLength(3);
    expect(paths('/techweek')).toEqual(['FORM_SUBMISSION']);
    expect(paths('/all')).toEqual(['FORM_SUBMISSION', 'FORM_SUBMISSION']);
  });

  it('never delivers one tenant’s changes to another tenant’s subscriptions', async () => {
    await subscribe(app, `${receiver.url}/lumen`, 'FORM_SUBMISSION', null, LUMEN.apiKey);
    await subscribe(app, `${receiver.url}/northwind`, 'FORM_SUBMISSION', null, NORTHWIND.apiKey);
    await newSubmission(app, 'pending');
    await receiver.waitFor(1);
    await deliveriesIdle(app);
    expect(receiver.received.map((r) => r.path)).toEqual(['/northwind']);
    expect(await deliveries(LUMEN.apiKey)).toEqual([]);
  });

  it('retries failures with the identical body and signature, and logs every attempt', async () => {
    const hook = await subscribe(app, `${receiver.url}/flaky`, 'FORM_SUBMISSION');
    receiver.answerWith(500, 503);
    await newSubmission(app, 'pending');
    const got = await receiver.waitFor(3);
    await deliveriesIdle(app);
    expect(new Set(got.map((r) => r.raw.toString('hex'))).size).toBe(1);
    expect(new Set(got.map((r) => r.headers['x-connect-signature'])).size).toBe(1);
    expect(got.every((r) => signatureMatches(r, hook.secret))).toBe(true);

    const log = await deliveries();
    expect(log.map((e) => [e.attempt, e.state, e.statusCode])).toEqual([
      [1, 'failed', 500],
      [2, 'failed', 503],
      [3, 'delivered', 200],
    ]);
    for (const e of log) {
      expect(e).toMatchObject({
        deliveryId: got[0]?.body.id,
        subscriptionId: hook.id,
        type: 'FORM_SUBMISSION',
        targetUrl: `${receiver.url}/flaky`,
        error: null,
        queuedAt: expect.stringMatching(ISO_MS),
        startedAt: expect.stringMatching(ISO_MS),
        finishedAt: expect.stringMatching(ISO_MS),
      });
    }
  });

  it('treats no answer within the timeout as a failure and retries', async () => {
    // The first answer comes long after the timeout; a later one comes at once. On a machine so busy that
    // an immediate answer took 2 s, that attempt would time out too and the next one deliver: the test
    // holds either way.
    const slowApp = makeApp({ delivery: { baseDelayMs: 10, timeoutMs: 2_000 } }).app;
    try {
      await subscribe(slowApp, `${receiver.url}/slow`, 'FORM_SUBMISSION');
      receiver.answerWith({ status: 200, delayMs: 6_000 });
      await newSubmission(slowApp, 'pending');
      await receiver.waitFor(2);
      expect(await deliveriesIdle(slowApp)).toBe(true);
      const log: DeliveryLogEntry[] = json(await call(slowApp, 'GET', '/_sandbox/deliveries')).data;
      expect(log[0]).toMatchObject({
        attempt: 1,
        state: 'failed',
        statusCode: null,
        error: expect.stringMatching(/2000 ms/),
      });
      const last = log[log.length - 1];
      expect(last).toMatchObject({ attempt: log.length, state: 'delivered', statusCode: 200 });
      expect(log.slice(0, -1).every((entry) => entry.state === 'failed')).toBe(true);
    } finally {
      await slowApp.close();
    }
  });

  it('gives up after maxAttempts, and retries a receiver that cannot be reached', async () => {
    await subscribe(app, 'http://127.0.0.1:9/closed-port', 'FORM_SUBMISSION');
    await newSubmission(app, 'pending');
    expect(await deliveriesIdle(app)).toBe(true);
    const log = await deliveries();
    expect(log.map((e) => e.state)).toEqual(['failed', 'failed', 'failed', 'exhausted']);
    expect(log.every((e) => e.statusCode === null && typeof e.error === 'string')).toBe(true);
  });

  it('ends the subscription when the receiver answers 410', async () => {
    const hook = await subscribe(app, `${receiver.url}/gone`, 'FORM_SUBMISSION');
    receiver.answerWith(410);
    await newSubmission(app, 'pending');
    await receiver.waitFor(1);
    await deliveriesIdle(app);
    const hooks = json(await call(app, 'GET', '/_sandbox/hooks')).data;
    expect(hooks.map((h: { id: string }) => h.id)).not.toContain(hook.id);
    expect((await deliveries()).map((e) => e.state)).toEqual(['gone']);
    await newSubmission(app, 'pending');
    await new Promise((r) => setTimeout(r, 50));
    expect(receiver.received).toHaveLength(1);
    expectError(await call(app, 'DELETE', `${HOOKS}/${hook.id}`), 404, 'NOT_FOUND');
  });

  it('stops retrying once the subscription is deleted', async () => {
    const hook = await subscribe(app, `${receiver.url}/deleted`, 'FORM_SUBMISSION');
    receiver.answerWith(500);
    await newSubmission(app, 'pending');
    await receiver.waitFor(1);
    await call(app, 'DELETE', `${HOOKS}/${hook.id}`);
    expect(await deliveriesIdle(app)).toBe(true);
    await new Promise((r) => setTimeout(r, 60));
    expect(receiver.received).toHaveLength(1);
  });

  it('signs with the account-level secret when the subscription has none', async () => {
    const hook = await subscribe(app, `${receiver.url}/acct`, 'FORM_SUBMISSION', null, HARBOR.apiKey);
    expect(hook.secret).toBeUndefined();
    await newSubmission(app, 'pending', HARBOR.apiKey, 'harbor-ai-night-sf');
    const [got] = await receiver.waitFor(1);
    expect(signatureMatches(got!, HARBOR.webhookSecret)).toBe(true);
  });

  it('signs with both secrets during a rotation (comma-separated), then with the new one only', async () => {
    const hook = await subscribe(app, `${receiver.url}/rot`, 'FORM_SUBMISSION');
    const rotated = json(await call(app, 'POST', '/_sandbox/secrets/rotate', { body: { hookId: hook.id } }));
    expect(rotated).toEqual({
      hookId: hook.id,
      secret: expect.stringMatching(/^whsec_/),
      previousSecret: hook.secret,
      previousSecretExpiresAt: expect.stringMatching(ISO_MS),
    });
    await newSubmission(app, 'pending');
    const [during] = await receiver.waitFor(1);
    // Both secrets sign it, current first, as the service writes the header at the delivery's time.
    expect(signatureCount(during!)).toBe(2);
    expect(during?.headers['x-connect-signature']).toBe(
      signatureOf(
        during!.raw.toString('utf8'),
        [rotated.secret, hook.secret],
        Date.parse(during?.body.createdAt),
      ),
    );
    expect(signatureMatches(during!, rotated.secret)).toBe(true);
    expect(signatureMatches(during!, hook.secret)).toBe(true);

    await call(app, 'POST', '/_sandbox/secrets/expire-previous', { body: { hookId: hook.id } });
    await newSubmission(app, 'pending');
    const after = (await receiver.waitFor(2))[1];
    expect(signatureCount(after!)).toBe(1);
    expect(signatureMatches(after!, rotated.secret)).toBe(true);
    expect(signatureMatches(after!, hook.secret)).toBe(false);
  });

  it('rotates the account-level secret for subscriptions without their own', async () => {
    await subscribe(app, `${receiver.url}/acct-rot`, 'FORM_SUBMISSION', null, HARBOR.apiKey);
    const rotated = json(
      await call(app, 'POST', '/_sandbox/secrets/rotate', { key: HARBOR.apiKey, body: {} }),
    );
    expect(rotated.previousSecret).toBe(HARBOR.webhookSecret);
    await newSubmission(app, 'pending', HARBOR.apiKey, 'harbor-ai-night-sf');
    const [got] = await receiver.waitFor(1);
    expect(signatureMatches(got!, HARBOR.webhookSecret)).toBe(true);
    expect(signatureMatches(got!, rotated.secret)).toBe(true);
    const tenant = json(await call(app, 'GET', '/_sandbox/tenant', { key: HARBOR.apiKey }));
    expect(tenant.webhookSecret).toBe(rotated.secret);
  });

  it('fans one change out to many subscriptions at once', async () => {
    for (let i = 0; i < 50; i++) await subscribe(app, `${receiver.url}/fan/${i}`, 'FORM_SUBMISSION');
    await newSubmission(app, 'pending');
    const got = await receiver.waitFor(50);
    expect(new Set(got.map((r) => r.body.id)).size).toBe(50);
    expect(new Set(got.map((r) => r.path)).size).toBe(50);
    const log = await deliveries();
    expect(log).toHaveLength(50);
    expect(log.every((e) => typeof e.startDelayMs === 'number')).toBe(true);
  });
});
