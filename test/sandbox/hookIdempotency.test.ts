// POST /api/v1/integrations/zapier/hooks with an Idempotency-Key (contract §5): a turn-on sent again answers
// the subscription it made while that one exists, so an answer lost on the way leaves no second subscription.

import type { FastifyInstance } from 'fastify';
import { call, expectError, json, makeApp } from './helpers';

const HOOKS = '/api/v1/integrations/zapier/hooks';
const TARGET = 'https://hooks.zapier.com/hooks/standard/1/idem/';
const BODY = { targetUrl: TARGET, event: 'FORM_SUBMISSION', eventId: null };

let app: FastifyInstance;
beforeEach(() => {
  ({ app } = makeApp());
});
afterEach(() => app.close());

const subscribe = (key: string | null, body: unknown = BODY) =>
  call(app, 'POST', HOOKS, { body, headers: key === null ? {} : { 'idempotency-key': key } });
const live = async (): Promise<string[]> =>
  (json(await call(app, 'GET', '/_sandbox/hooks')).data as Array<{ id: string }>).map((hook) => hook.id);

describe('Idempotency-Key on POST …/hooks', () => {
  it('the same key and body answer the subscription already made (201, Idempotent-Replayed), with its current secret', async () => {
    const first = await subscribe('zap-hook-1');
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await subscribe('zap-hook-1');
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(json(again)).toEqual(json(first));
    expect(await live()).toEqual([json(first).id]);
  });

  it('another body with the same key is 422 IDEMPOTENCY_KEY_REUSED, and makes nothing', async () => {
    await subscribe('zap-hook-2');
    expectError(
      await subscribe('zap-hook-2', { ...BODY, event: 'PAYMENT_SUCCESS' }),
      422,
      'IDEMPOTENCY_KEY_REUSED',
    );
    expect(await live()).toHaveLength(1);
  });

  it('once the subscription it made is deleted, the key makes a new one (a Zap turned off, then on)', async () => {
    const first = json(await subscribe('zap-hook-3'));
    expect((await call(app, 'DELETE', `${HOOKS}/${first.id}`)).statusCode).toBe(204);
    const next = await subscribe('zap-hook-3');
    expect(next.statusCode).toBe(201);
    expect(next.headers['idempotent-replayed']).toBeUndefined();
    expect(json(next).id).not.toBe(first.id);
    expect(await live()).toEqual([json(next).id]);
  });

  it('a malformed key is refused before the body is read (400 VALIDATION_ERROR naming the header)', async () => {
    const res = await subscribe('k'.repeat(256), { targetUrl: 'not a url', event: 'NOT_A_KIND' });
    expectError(res, 400, 'VALIDATION_ERROR', { field: 'Idempotency-Key' });
    expect(await live()).toEqual([]);
  });

  it('without a key, each request makes a subscription, as before', async () => {
    await subscribe(null);
    await subscribe(null);
    expect(await live()).toHaveLength(2);
  });

  it('a slow answer: the subscription exists before the answer comes, and the request sent again gets it', async () => {
    await call(app, 'POST', '/_sandbox/faults', {
      body: { route: `POST ${HOOKS}`, kind: 'slow', delayMs: 3_000, count: 1 },
    });
    const late = subscribe('zap-hook-4');
    let made: string[] = [];
    while (made.length === 0) {
      await new Promise((done) => setTimeout(done, 10));
      made = await live();
    }
    const again = await subscribe('zap-hook-4');
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(json(again).id).toBe(made[0]);
    expect(json(await late).id).toBe(made[0]);
    expect(await live()).toEqual(made);
  });

  it('keys of POST …/hooks and of check-in do not meet: the same key serves both', async () => {
    expect((await subscribe('shared-key')).statusCode).toBe(201);
    const checkIn = await call(app, 'POST', '/api/v1/checkin', {
      body: { code: 'NOT-A-TICKET' },
      headers: { 'idempotency-key': 'shared-key' },
    });
    expect(checkIn.statusCode).not.toBe(422);
  });
});
