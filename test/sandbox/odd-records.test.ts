// Odd records (docs/connect-contract.md §1): the simulation API makes one record of a list odd (an optional
// field outside its documented form, or a record without its id or createdAt), and every Connect
// representation of that record shows it, while the rest of the list stays as it was.

import type { FastifyInstance } from 'fastify';
import {
  call,
  eventId,
  expectError,
  json,
  LUMEN,
  makeApp,
  newSubmission,
  NORTHWIND,
  Receiver,
  listed,
  record,
  subscribe,
  submissionsOf,
} from './helpers';

let app: FastifyInstance;
beforeEach(() => {
  app = makeApp().app;
});
afterEach(() => app.close());

const odd = (path: string, body: object, key: string = NORTHWIND.apiKey) =>
  call(app, 'POST', `${path}/odd`, { body, key });

describe('odd submissions', () => {
  it('approvedAt "" shows in the polling list for that record only; DELETE makes it plain again', async () => {
    const event = await eventId(app, 'techweek-paris-2026');
    const target = await newSubmission(app, 'approved');
    const before = await submissionsOf(app, event);
    const res = await odd(`/_sandbox/submissions/${target.submissionId}`, { set: { approvedAt: '' } });
    expect(res.statusCode).toBe(200);
    expect(json(res)).toMatchObject({ submissionId: target.submissionId, approvedAt: '' });

    const after = await submissionsOf(app, event);
    expect(after).toHaveLength(before.length);
    const changed = after.filter((s, i) => JSON.stringify(s) !== JSON.stringify(before[i]));
    expect(changed).toEqual([
      { ...before.find((s) => s.submissionId === target.submissionId), approvedAt: '' },
    ]);

    const plain = await call(app, 'DELETE', `/_sandbox/submissions/${target.submissionId}/odd`);
    expect(json(plain).approvedAt).toMatch(/^\d{4}-/);
    expect(await submissionsOf(app, event)).toEqual(before);
  });

  it('leaves out the id or createdAt, or gives a field another type', async () => {
    const event = await eventId(app, 'techweek-paris-2026');
    const a = await newSubmission(app, 'pending');
    const b = await newSubmission(app, 'pending');
    await odd(`/_sandbox/submissions/${a.submissionId}`, { remove: ['submissionId'] });
    await odd(`/_sandbox/submissions/${b.submissionId}`, { remove: ['createdAt'], set: { firstName: 42 } });
    const list = await submissionsOf(app, event);
    const noId = list.filter((s) => s.submissionId === undefined);
    expect(noId).toHaveLength(1);
    expect(noId[0]).toMatchObject({ email: expect.any(String), createdAt: a.createdAt });
    const noCreatedAt = list.find((s) => s.submissionId === b.submissionId) as unknown as Record<
      string,
      unknown
    >;
    expect(noCreatedAt).not.toHaveProperty('createdAt');
    expect(noCreatedAt.firstName).toBe(42);
  });

  it('also reaches webhook data made after the change', async () => {
    const receiver = await new Receiver().start();
    try {
      await subscribe(app, `${receiver.url}/approved`, 'FORM_SUBMISSION_APPROVED');
      const s = await newSubmission(app, 'pending');
      await odd(`/_sandbox/submissions/${s.submissionId}`, { set: { checkedInAt: 'soon' } });
      await call(app, 'POST', `/_sandbox/submissions/${s.submissionId}/approve`);
      const [got] = await receiver.waitFor(1);
      expect(got?.body.data).toMatchObject({ submissionId: s.submissionId, checkedInAt: 'soon' });
    } finally {
      await receiver.close();
    }
  });

  it('refuses unknown fields, empty changes and a field both set and removed; 404s another tenant’s record', async () => {
    const s = await newSubmission(app, 'pending');
    const path = `/_sandbox/submissions/${s.submissionId}`;
    expectError(await odd(path, { set: { aprovedAt: '' } }), 400, 'VALIDATION_ERROR', {
      field: 'set.aprovedAt',
    });
    expectError(await odd(path, { remove: ['nope'] }), 400, 'VALIDATION_ERROR', { field: 'remove' });
    expectError(await odd(path, { remove: 'createdAt' }), 400, 'VALIDATION_ERROR', { field: 'remove' });
    expectError(await odd(path, {}), 400, 'VALIDATION_ERROR');
    expectError(await odd(path, { set: { email: 1 }, remove: ['email'] }), 400, 'VALIDATION_ERROR', {
      field: 'remove',
    });
    expectError(await odd(path, { set: { approvedAt: '' } }, LUMEN.apiKey), 404, 'NOT_FOUND');
  });
});

describe('odd orders and events', () => {
  it('an order with totalAmount as a string and no createdAt, in the orders list', async () => {
    const s = await newSubmission(app, 'approved');
    const order = json(
      await call(app, 'POST', '/_sandbox/orders', {
        body: { submissionId: s.submissionId, outcome: 'paid' },
      }),
    );
    await odd(`/_sandbox/orders/${order.id}`, { set: { totalAmount: '129.00' }, remove: ['createdAt'] });
    const list = listed(
      await call(app, 'GET', `/api/v1/integrations/zapier/orders?companyId=${NORTHWIND.companyId}&limit=100`),
      'order',
    ) as Record<string, unknown>[];
    const got = list.find((o) => o.id === order.id);
    expect(got).toMatchObject({ totalAmount: '129.00' });
    expect(got).not.toHaveProperty('createdAt');
    expect(list.filter((o) => o.id !== order.id).every((o) => typeof o.totalAmount === 'number')).toBe(true);
    expect(
      (await call(app, 'POST', '/_sandbox/orders/ord_nope/odd', { body: { remove: ['id'] } })).statusCode,
    ).toBe(404);
  });

  it('an event with an empty updatedAt, in the events list and its widget', async () => {
    const event = await eventId(app, 'techweek-paris-2026');
    await odd(`/_sandbox/events/${event}`, { set: { updatedAt: '' } });
    const list = listed(await call(app, 'GET', '/api/v1/integrations/zapier/events?limit=100'), 'event');
    expect(list.find((e: { id: string }) => e.id === event).updatedAt).toBe('');
    expect(
      record(await call(app, 'GET', '/widgets/event/techweek-paris-2026', { key: null }), 'eventWidget')
        .updatedAt,
    ).toBe('');
  });
});
