// Reading a subscription back (GET …/hooks/:id), hookId in every delivery, and secret rotation with a
// configurable overlap during which deliveries carry both signatures (docs/connect-contract.md §5).

import type { FastifyInstance } from 'fastify';
import {
  call,
  Clock,
  deliveriesIdle,
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
const HOUR = 60 * 60 * 1000;

let app: FastifyInstance;
let clock: Clock;
let receiver: Receiver;

beforeEach(async () => {
  ({ app, clock } = makeApp({ rotationOverlapMs: 2 * HOUR }));
  receiver = await new Receiver().start();
});
afterEach(async () => {
  await app.close();
  await receiver.close();
});

describe('GET /api/v1/integrations/zapier/hooks/:id', () => {
  it('answers the subscription with its current secret', async () => {
    const hook = await subscribe(app, `${receiver.url}/a`, 'PAYMENT_SUCCESS');
    const res = await call(app, 'GET', `${HOOKS}/${hook.id}`);
    expect(res.statusCode).toBe(200);
    expect(record(res, 'hook')).toEqual(hook);
    const rotated = json(await call(app, 'POST', '/_sandbox/secrets/rotate', { body: { hookId: hook.id } }));
    expect(record(await call(app, 'GET', `${HOOKS}/${hook.id}`), 'hook').secret).toBe(rotated.secret);
  });

  it('answers secret null for a subscription signed with the account-level secret', async () => {
    const hook = await subscribe(app, `${receiver.url}/b`, 'FORM_SUBMISSION', null, HARBOR.apiKey);
    const got = record(await call(app, 'GET', `${HOOKS}/${hook.id}`, { key: HARBOR.apiKey }), 'hook');
    expect(got).toEqual({ ...hook, secret: null });
    expect(Object.keys(got)).toEqual(['id', 'event', 'eventId', 'targetUrl', 'secret', 'createdAt']);
  });

  it('404s an unknown id, another tenant’s subscription and a deleted one; 401 without a key', async () => {
    const hook = await subscribe(app, `${receiver.url}/c`, 'FORM_SUBMISSION');
    expectError(await call(app, 'GET', `${HOOKS}/hook_nope`), 404, 'NOT_FOUND');
    expectError(await call(app, 'GET', `${HOOKS}/${hook.id}`, { key: LUMEN.apiKey }), 404, 'NOT_FOUND');
    expectError(await call(app, 'GET', `${HOOKS}/${hook.id}`, { key: null }), 401, 'INVALID_API_KEY');
    await call(app, 'DELETE', `${HOOKS}/${hook.id}`);
    expectError(await call(app, 'GET', `${HOOKS}/${hook.id}`), 404, 'NOT_FOUND');
  });

  it('can be made to fail like any Connect route', async () => {
    const hook = await subscribe(app, `${receiver.url}/d`, 'FORM_SUBMISSION');
    await call(app, 'POST', '/_sandbox/faults', { body: { route: `GET ${HOOKS}/:id`, kind: '500' } });
    expectError(await call(app, 'GET', `${HOOKS}/${hook.id}`), 500, 'INTERNAL');
    expect((await call(app, 'GET', `${HOOKS}/${hook.id}`)).statusCode).toBe(200);
  });
});

describe('hookId in deliveries', () => {
  it('names the subscription each delivery was made for, on every kind and every subscription', async () => {
    const a = await subscribe(app, `${receiver.url}/a`, 'FORM_SUBMISSION');
    const b = await subscribe(app, `${receiver.url}/b`, 'FORM_SUBMISSION');
    const approved = await subscribe(app, `${receiver.url}/approved`, 'FORM_SUBMISSION_APPROVED');
    const harbor = await subscribe(app, `${receiver.url}/harbor`, 'FORM_SUBMISSION', null, HARBOR.apiKey);
    await newSubmission(app, 'approved');
    await newSubmission(app, 'pending', HARBOR.apiKey, 'harbor-ai-night-sf');
    await receiver.waitFor(4);
    const byPath = new Map(receiver.received.map((r) => [r.path, r.body.hookId]));
    expect(Object.fromEntries(byPath)).toEqual({
      '/a': a.id,
      '/b': b.id,
      '/approved': approved.id,
      '/harbor': harbor.id,
    });
  });
});

describe('secret rotation', () => {
  const rotate = async (body: object, key: string = NORTHWIND.apiKey) => {
    const res = await call(app, 'POST', '/_sandbox/secrets/rotate', { body, key });
    expect(res.statusCode).toBe(200);
    return json(res);
  };

  it('signs with both secrets during the overlap, then with the new one only (sandbox clock)', async () => {
    const hook = await subscribe(app, `${receiver.url}/rot`, 'FORM_SUBMISSION');
    const rotated = await rotate({ hookId: hook.id });
    expect(rotated).toEqual({
      hookId: hook.id,
      secret: expect.stringMatching(/^whsec_[0-9a-f]{32}$/),
      previousSecret: hook.secret,
      previousSecretExpiresAt: new Date(clock.ms + 2 * HOUR).toISOString(),
    });
    expect(rotated.secret).not.toBe(hook.secret);

    await newSubmission(app, 'pending');
    const [during] = await receiver.waitFor(1);
    expect(signatureCount(during!)).toBe(2);
    expect(signatureMatches(during!, rotated.secret)).toBe(true);
    expect(signatureMatches(during!, hook.secret)).toBe(true);

    clock.advance(2 * HOUR - 1);
    await newSubmission(app, 'pending');
    const still = (await receiver.waitFor(2))[1];
    expect(signatureCount(still!)).toBe(2);

    clock.advance(1);
    await newSubmission(app, 'pending');
    const after = (await receiver.waitFor(3))[2];
    expect(signatureCount(after!)).toBe(1);
    expect(signatureMatches(after!, rotated.secret)).toBe(true);
    expect(signatureMatches(after!, hook.secret)).toBe(false);
    const listed = json(await call(app, 'GET', '/_sandbox/hooks')).data[0];
    expect(listed).toMatchObject({
      secret: rotated.secret,
      previousSecret: null,
      previousSecretExpiresAt: null,
    });
  });

  it('takes the overlap per rotation; overlapMs 0 retires the old secret at once', async () => {
    const hook = await subscribe(app, `${receiver.url}/now`, 'FORM_SUBMISSION');
    const rotated = await rotate({ hookId: hook.id, overlapMs: 0 });
    expect(rotated).toMatchObject({ previousSecret: null, previousSecretExpiresAt: null });
    await newSubmission(app, 'pending');
    const [got] = await receiver.waitFor(1);
    expect(signatureCount(got!)).toBe(1);
    expect(signatureMatches(got!, rotated.secret)).toBe(true);
    expect(signatureMatches(got!, hook.secret)).toBe(false);
  });

  it('expire-previous ends the overlap early', async () => {
    const hook = await subscribe(app, `${receiver.url}/early`, 'FORM_SUBMISSION');
    const rotated = await rotate({ hookId: hook.id, overlapMs: 10 * HOUR });
    const ended = json(
      await call(app, 'POST', '/_sandbox/secrets/expire-previous', { body: { hookId: hook.id } }),
    );
    expect(ended).toEqual({
      hookId: hook.id,
      secret: rotated.secret,
      previousSecret: null,
      previousSecretExpiresAt: null,
    });
    await newSubmission(app, 'pending');
    const [got] = await receiver.waitFor(1);
    expect(signatureMatches(got!, hook.secret)).toBe(false);
  });

  it('rotates the account-level secret the same way for subscriptions without their own', async () => {
    await subscribe(app, `${receiver.url}/acct`, 'FORM_SUBMISSION', null, HARBOR.apiKey);
    const rotated = await rotate({ overlapMs: HOUR }, HARBOR.apiKey);
    expect(rotated).toMatchObject({ hookId: null, previousSecret: HARBOR.webhookSecret });
    const tenant = json(await call(app, 'GET', '/_sandbox/tenant', { key: HARBOR.apiKey }));
    expect(tenant).toMatchObject({
      webhookSecret: rotated.secret,
      previousWebhookSecret: HARBOR.webhookSecret,
      previousWebhookSecretExpiresAt: rotated.previousSecretExpiresAt,
    });
    clock.advance(HOUR);
    await newSubmission(app, 'pending', HARBOR.apiKey, 'harbor-ai-night-sf');
    const [got] = await receiver.waitFor(1);
    expect(signatureMatches(got!, rotated.secret)).toBe(true);
    expect(signatureMatches(got!, HARBOR.webhookSecret)).toBe(false);
  });

  it('keeps a retry’s signature identical even when the overlap ends meanwhile', async () => {
    await app.close();
    ({ app, clock } = makeApp({ rotationOverlapMs: HOUR, delivery: { baseDelayMs: 150 } }));
    const hook = await subscribe(app, `${receiver.url}/retry`, 'FORM_SUBMISSION');
    await rotate({ hookId: hook.id });
    receiver.answerWith(500);
    await newSubmission(app, 'pending');
    await receiver.waitFor(1);
    clock.advance(HOUR); // the old secret is retired before the retry is sent
    await receiver.waitFor(2);
    expect(await deliveriesIdle(app)).toBe(true);
    const [first, retry] = receiver.received;
    expect(retry?.raw.equals(first!.raw)).toBe(true);
    expect(retry?.headers['x-connect-signature']).toBe(first?.headers['x-connect-signature']);
    expect(signatureCount(retry!)).toBe(2);
    const next = await newSubmission(app, 'pending');
    const fresh = (await receiver.waitFor(3))[2];
    expect(fresh?.body.data.submissionId).toBe(next.submissionId);
    expect(signatureCount(fresh!)).toBe(1);
  });

  it('validates the request: unknown hook 404, account-signed hook 400, overlapMs a whole number', async () => {
    const own = await subscribe(app, `${receiver.url}/v`, 'FORM_SUBMISSION');
    const acct = await subscribe(app, `${receiver.url}/w`, 'FORM_SUBMISSION', null, HARBOR.apiKey);
    const post = (body: object, key: string = NORTHWIND.apiKey) =>
      call(app, 'POST', '/_sandbox/secrets/rotate', { body, key });
    expectError(await post({ hookId: 'hook_nope' }), 404, 'NOT_FOUND', { field: 'hookId' });
    expectError(await post({ hookId: acct.id }, HARBOR.apiKey), 400, 'VALIDATION_ERROR', { field: 'hookId' });
    expectError(await post({ hookId: own.id, overlapMs: -1 }), 400, 'VALIDATION_ERROR', {
      field: 'overlapMs',
    });
    expectError(await post({ hookId: own.id, overlapMs: '1h' }), 400, 'VALIDATION_ERROR', {
      field: 'overlapMs',
    });
  });
});
