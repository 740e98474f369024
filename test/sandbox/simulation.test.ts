// The simulation API (/_sandbox/*): state changes, fault injection of every kind, list shuffling, late
// visibility, floor-plan publishing, tenants and their isolation.

import type { FastifyInstance } from 'fastify';
import {
  call,
  eventId,
  eventsOf,
  expectError,
  HARBOR,
  json,
  LUMEN,
  makeApp,
  newSubmission,
  NORTHWIND,
  NOW,
  listed,
  record,
  submissionsOf,
  type Clock,
} from './helpers';
import { recordsOf } from '../../src/connect/testing';

const SUBMISSIONS = '/api/v1/integrations/zapier/submissions';

let app: FastifyInstance;
let clock: Clock;

beforeEach(() => {
  ({ app, clock } = makeApp());
});
afterEach(() => app.close());

describe('faults', () => {
  const fault = (body: Record<string, unknown>, key: string = NORTHWIND.apiKey) =>
    call(app, 'POST', '/_sandbox/faults', { body, key });

  it('429: the next N responses are RATE_LIMITED with Retry-After, then normal again', async () => {
    const techweek = await eventId(app, 'techweek-paris-2026');
    const url = `${SUBMISSIONS}?eventId=${techweek}&since=2026-11-22T09:00:00.000Z`;
    const set = await fault({ route: `GET ${SUBMISSIONS}`, kind: '429', count: 2, retryAfter: 7 });
    expect(set.statusCode).toBe(201);
    expect(json(set)).toMatchObject({ kind: '429', remaining: 2, retryAfter: 7, scope: 'tenant' });
    for (let i = 0; i < 2; i++) {
      const res = await call(app, 'GET', url);
      expectError(res, 429, 'RATE_LIMITED');
      expect(res.headers['retry-after']).toBe('7');
    }
    expect((await call(app, 'GET', url)).statusCode).toBe(200);
  });

  it('500: an INTERNAL error body', async () => {
    await fault({ route: 'GET /api/v1/integrations/zapier/events', kind: '500' });
    expectError(await call(app, 'GET', '/api/v1/integrations/zapier/events'), 500, 'INTERNAL');
    expect((await call(app, 'GET', '/api/v1/integrations/zapier/events')).statusCode).toBe(200);
  });

  it('non-json: a 5xx with an HTML body (status selectable)', async () => {
    await fault({ route: 'POST /api/v1/checkin', kind: 'non-json' });
    await fault({ route: 'POST /api/v1/checkin', kind: 'non-json', status: 502 });
    const res = await call(app, 'POST', '/api/v1/checkin', { body: { code: 'x' } });
    expect(res.statusCode).toBe(500);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(() => JSON.parse(res.body)).toThrow();
    expect((await call(app, 'POST', '/api/v1/checkin', { body: { code: 'x' } })).statusCode).toBe(502);
    expectError(await call(app, 'POST', '/api/v1/checkin', { body: { code: 'x' } }), 404, 'TICKET_NOT_FOUND');
  });

  it('slow: holds the response for delayMs, then answers normally', async () => {
    await fault({ route: 'GET /api/v1/integrations/zapier/orders', kind: 'slow', delayMs: 120 });
    const started = Date.now();
    const res = await call(app, 'GET', '/api/v1/integrations/zapier/orders?companyId=cmp_northwind');
    expect(res.statusCode).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
  });

  it('applies to one tenant on keyed routes and globally on keyless routes', async () => {
    await fault({ route: 'GET /api/v1/integrations/zapier/events', kind: '500', count: 5 });
    expect(
      (await call(app, 'GET', '/api/v1/integrations/zapier/events', { key: LUMEN.apiKey })).statusCode,
    ).toBe(200);
    expect((await call(app, 'GET', '/api/v1/integrations/zapier/events')).statusCode).toBe(500);

    const set = await fault({ route: 'GET /api/v1/public/events', kind: '429' }, LUMEN.apiKey);
    expect(json(set).scope).toBe('global');
    expectError(await call(app, 'GET', '/api/v1/public/events', { key: null }), 429, 'RATE_LIMITED');
    expect((await call(app, 'GET', '/api/v1/public/events', { key: null })).statusCode).toBe(200);
  });

  it('targets one concrete path of a parametrised route, or all of them by pattern', async () => {
    await fault({ route: 'GET /widgets/event/techweek-paris-2026', kind: '500' });
    expect((await call(app, 'GET', '/widgets/event/data-ai-summit-lyon', { key: null })).statusCode).toBe(
      200,
    );
    expect((await call(app, 'GET', '/widgets/event/techweek-paris-2026', { key: null })).statusCode).toBe(
      500,
    );
    await fault({ route: 'GET /widgets/event/:slug/agenda', kind: '500', count: 2 });
    expect(
      (await call(app, 'GET', '/widgets/event/data-ai-summit-lyon/agenda', { key: null })).statusCode,
    ).toBe(500);
    expect(
      (await call(app, 'GET', '/widgets/event/techweek-paris-2026/agenda', { key: null })).statusCode,
    ).toBe(500);
  });

  it('lists and clears faults', async () => {
    await fault({ route: 'GET /api/v1/integrations/zapier/events', kind: '500', count: 3 });
    expect(json(await call(app, 'GET', '/_sandbox/faults')).data).toEqual([
      { route: 'GET /api/v1/integrations/zapier/events', kind: '500', remaining: 3, status: 500 },
    ]);
    expect((await call(app, 'DELETE', '/_sandbox/faults')).statusCode).toBe(204);
    expect(json(await call(app, 'GET', '/_sandbox/faults')).data).toEqual([]);
    expect((await call(app, 'GET', '/api/v1/integrations/zapier/events')).statusCode).toBe(200);
  });

  it.each([
    [{ kind: '500' }, 'route'],
    [{ route: 'GET /api/v1/nothing', kind: '500' }, 'route'],
    [{ route: '/api/v1/checkin', kind: '500' }, 'route'],
    [{ route: 'GET /_sandbox/tenant', kind: '500' }, 'route'],
    [{ route: 'POST /api/v1/checkin' }, 'kind'],
    [{ route: 'POST /api/v1/checkin', kind: '418' }, 'kind'],
    [{ route: 'POST /api/v1/checkin', kind: '500', count: 0 }, 'count'],
    [{ route: 'POST /api/v1/checkin', kind: '429', retryAfter: -1 }, 'retryAfter'],
    [{ route: 'POST /api/v1/checkin', kind: 'slow', delayMs: 'long' }, 'delayMs'],
  ])('%j → 400 field %s', async (body, field) => {
    expectError(await fault(body), 400, 'VALIDATION_ERROR', { field });
  });
});

describe('shuffle', () => {
  it('shuffles list order when on; the same items either way', async () => {
    const url = '/api/v1/integrations/zapier/orders?companyId=cmp_northwind&limit=50';
    const plain = listed(await call(app, 'GET', url), 'order').map((o: { id: string }) => o.id);
    expect(json(await call(app, 'POST', '/_sandbox/config', { body: { shuffle: true } }))).toEqual({
      shuffle: true,
    });
    const orders: string[][] = [];
    for (let i = 0; i < 3; i++)
      orders.push(listed(await call(app, 'GET', url), 'order').map((o: { id: string }) => o.id));
    for (const o of orders) expect([...o].sort()).toEqual([...plain].sort());
    expect(orders.some((o) => o.join() !== plain.join())).toBe(true);

    await call(app, 'POST', '/_sandbox/config', { body: { shuffle: false } });
    expect(listed(await call(app, 'GET', url), 'order').map((o: { id: string }) => o.id)).toEqual(plain);
    expectError(
      await call(app, 'POST', '/_sandbox/config', { body: { shuffle: 'yes' } }),
      400,
      'VALIDATION_ERROR',
      {
        field: 'shuffle',
      },
    );
  });
});

describe('submissions', () => {
  const body = (eventId: string, extra: Record<string, unknown> = {}) => ({
    eventId,
    email: 'late@example.com',
    firstName: 'Late',
    lastName: 'Comer',
    answers: [
      { key: 'company', label: 'Company', value: 'Acme' },
      { key: 'diet', label: 'Dietary needs', value: ['vegan', 'nut allergy'] },
    ],
    ...extra,
  });

  it('creates a pending submission with answers and ticketType', async () => {
    const techweek = await eventId(app, 'techweek-paris-2026');
    const res = await call(app, 'POST', '/_sandbox/submissions', {
      body: body(techweek, { ticketType: 'VIP' }),
    });
    expect(res.statusCode).toBe(201);
    expect(json(res)).toMatchObject({
      eventId: techweek,
      status: 'pending',
      ticketType: 'VIP',
      qrCode: null,
      approvedAt: null,
      checkedInAt: null,
      createdAt: new Date(NOW).toISOString(),
      answers: [
        { key: 'company', label: 'Company', value: 'Acme' },
        { key: 'diet', label: 'Dietary needs', value: ['vegan', 'nut allergy'] },
      ],
    });
  });

  it('approves (QR EVT1:<8>:<id>:<4 hex>, approvedAt) and rejects', async () => {
    const sub = await newSubmission(app, 'pending');
    clock.advance(1000);
    const approved = json(await call(app, 'POST', `/_sandbox/submissions/${sub.submissionId}/approve`));
    expect(approved).toMatchObject({ status: 'approved', approvedAt: new Date(NOW + 1000).toISOString() });
    expect(approved.qrCode).toMatch(
      new RegExp(`^EVT1:${sub.eventId.slice(0, 8)}:${sub.submissionId}:[0-9a-f]{4}$`),
    );
    const rejected = json(await call(app, 'POST', `/_sandbox/submissions/${sub.submissionId}/reject`));
    expect(rejected).toMatchObject({ status: 'rejected', qrCode: null });
    expectError(await call(app, 'POST', '/_sandbox/submissions/sub_nope/approve'), 404, 'NOT_FOUND');
  });

  it('shows a late submission only once visibleAt has passed (up to two minutes after createdAt)', async () => {
    const techweek = await eventId(app, 'techweek-paris-2026');
    const createdAt = new Date(NOW - 10_000).toISOString();
    const visibleAt = new Date(NOW + 80_000).toISOString();
    const sub = json(
      await call(app, 'POST', '/_sandbox/submissions', { body: body(techweek, { createdAt, visibleAt }) }),
    );
    const since = new Date(NOW - 60_000).toISOString();
    const ids = async () =>
      (await submissionsOf(app, techweek, NORTHWIND.apiKey, since)).map((s) => s.submissionId);
    expect(await ids()).not.toContain(sub.submissionId);
    clock.advance(79_999);
    expect(await ids()).not.toContain(sub.submissionId);
    clock.advance(1);
    expect(await ids()).toContain(sub.submissionId);
    // It carries its original createdAt: a poller whose cursor moved past it must look back.
    expect(
      (await submissionsOf(app, techweek, NORTHWIND.apiKey, new Date(NOW).toISOString())).map(
        (s) => s.submissionId,
      ),
    ).not.toContain(sub.submissionId);
  });

  it('lets a test backdate createdAt', async () => {
    const techweek = await eventId(app, 'techweek-paris-2026');
    const createdAt = '2026-11-01T08:00:00.000Z';
    const sub = json(
      await call(app, 'POST', '/_sandbox/submissions', { body: body(techweek, { createdAt }) }),
    );
    expect(sub.createdAt).toBe(createdAt);
    const list = await submissionsOf(app, techweek, NORTHWIND.apiKey, createdAt);
    expect(list.map((s) => s.submissionId)).toContain(sub.submissionId);
  });

  it('also has seeded submissions that are not visible yet', async () => {
    const techweek = await eventId(app, 'techweek-paris-2026');
    const since = new Date(NOW - 60_000).toISOString();
    const before = await submissionsOf(app, techweek, NORTHWIND.apiKey, since);
    clock.advance(2 * 60_000);
    const after = await submissionsOf(app, techweek, NORTHWIND.apiKey, since);
    expect(after.length - before.length).toBe(3);
  });

  it.each([
    [{ email: 'a@example.com', firstName: 'A', lastName: 'B' }, 'eventId'],
    [{ eventId: 'EVENT', firstName: 'A', lastName: 'B' }, 'email'],
    [{ eventId: 'EVENT', email: 'not-an-email', firstName: 'A', lastName: 'B' }, 'email'],
    [{ eventId: 'EVENT', email: 'a@example.com', lastName: 'B' }, 'firstName'],
    [{ eventId: 'EVENT', email: 'a@example.com', firstName: 'A' }, 'lastName'],
    [{ eventId: 'EVENT', email: 'a@example.com', firstName: 'A', lastName: 'B', status: 'maybe' }, 'status'],
    [{ eventId: 'EVENT', email: 'a@example.com', firstName: 'A', lastName: 'B', answers: 'x' }, 'answers'],
    [
      {
        eventId: 'EVENT',
        email: 'a@example.com',
        firstName: 'A',
        lastName: 'B',
        answers: [{ key: 'k', value: {} }],
      },
      'answers[0].value',
    ],
    [
      { eventId: 'EVENT', email: 'a@example.com', firstName: 'A', lastName: 'B', createdAt: 'now' },
      'createdAt',
    ],
    [
      {
        eventId: 'EVENT',
        email: 'a@example.com',
        firstName: 'A',
        lastName: 'B',
        visibleAt: '2026-11-22T10:02:00.001Z',
      },
      'visibleAt',
    ],
    [
      {
        eventId: 'EVENT',
        email: 'a@example.com',
        firstName: 'A',
        lastName: 'B',
        visibleAt: '2026-11-22T09:59:59.000Z',
      },
      'visibleAt',
    ],
  ])('%j → 400 field %s', async (raw, field) => {
    const techweek = await eventId(app, 'techweek-paris-2026');
    const b = JSON.parse(JSON.stringify(raw).replace('EVENT', techweek));
    expectError(await call(app, 'POST', '/_sandbox/submissions', { body: b }), 400, 'VALIDATION_ERROR', {
      field,
    });
  });

  it('404s a submission for another tenant’s event', async () => {
    const lumenEvent = await eventId(app, 'lumen-design-conference-2026', LUMEN.apiKey);
    expectError(
      await call(app, 'POST', '/_sandbox/submissions', { body: body(lumenEvent) }),
      404,
      'NOT_FOUND',
    );
  });
});

describe('orders', () => {
  it('creates paid and failed orders with line items and refunds a paid one', async () => {
    const sub = await newSubmission(app, 'approved');
    const paid = await call(app, 'POST', '/_sandbox/orders', {
      body: {
        submissionId: sub.submissionId,
        outcome: 'paid',
        currency: 'EUR',
        items: [
          { name: 'VIP ticket', quantity: 1, unitAmount: 34900 },
          { name: 'Gala dinner', quantity: 2, unitAmount: 8500 },
        ],
      },
    });
    expect(paid.statusCode).toBe(201);
    const order = json(paid);
    expect(order).toMatchObject({
      status: 'paid',
      totalAmount: 51900,
      companyId: 'cmp_northwind',
      eventId: sub.eventId,
    });
    expect(order.paymentId).toMatch(/^pay_/);
    const failed = json(
      await call(app, 'POST', '/_sandbox/orders', {
        body: { submissionId: sub.submissionId, outcome: 'failed' },
      }),
    );
    expect(failed).toMatchObject({
      status: 'failed',
      items: [{ name: 'Standard ticket', quantity: 1, unitAmount: 12900 }],
    });

    const refunded = await call(app, 'POST', `/_sandbox/orders/${order.id}/refund`);
    expect(json(refunded)).toMatchObject({ id: order.id, status: 'refunded' });
    expectError(await call(app, 'POST', `/_sandbox/orders/${order.id}/refund`), 409, 'CONFLICT');
    expectError(await call(app, 'POST', `/_sandbox/orders/${failed.id}/refund`), 409, 'CONFLICT');
    expectError(
      await call(app, 'POST', `/_sandbox/orders/${order.id}/refund`, { key: LUMEN.apiKey }),
      404,
      'NOT_FOUND',
    );

    const listed = recordsOf<{ id: string }>(
      'order',
      json(await call(app, 'GET', '/api/v1/integrations/zapier/orders?companyId=cmp_northwind&limit=2')),
    );
    expect(listed.map((o) => o.id).sort()).toEqual([order.id, failed.id].sort());
  });

  it.each([
    [{ outcome: 'paid' }, 'submissionId'],
    [{ submissionId: 'SUB' }, 'outcome'],
    [{ submissionId: 'SUB', outcome: 'maybe' }, 'outcome'],
    [{ submissionId: 'SUB', outcome: 'paid', currency: 'euro' }, 'currency'],
    [{ submissionId: 'SUB', outcome: 'paid', items: [] }, 'items'],
    [{ submissionId: 'SUB', outcome: 'paid', items: [{ name: 'x' }] }, 'items[0].unitAmount'],
  ])('%j → 400 field %s', async (raw, field) => {
    const sub = await newSubmission(app, 'approved');
    const b = JSON.parse(JSON.stringify(raw).replace('SUB', sub.submissionId));
    expectError(await call(app, 'POST', '/_sandbox/orders', { body: b }), 400, 'VALIDATION_ERROR', { field });
  });
});

describe('events', () => {
  it('creates a draft, publishes it into the catalog, unpublishes it and deletes it', async () => {
    const created = await call(app, 'POST', '/_sandbox/events', {
      body: {
        title: 'Rust Paris Meetup',
        timezone: 'Europe/Paris',
        venueName: 'Le Wagon',
        startsAt: '2026-12-10T17:00:00.000Z',
      },
    });
    expect(created.statusCode).toBe(201);
    const e = json(created);
    expect(e).toMatchObject({
      slug: 'rust-paris-meetup',
      status: 'draft',
      endsAt: '2026-12-11T01:00:00.000Z',
    });
    const catalog = async () =>
      listed(await call(app, 'GET', '/api/v1/public/events?limit=100', { key: null }), 'event').map(
        (x: { id: string }) => x.id,
      );
    expect(await catalog()).not.toContain(e.id);
    expect(json(await call(app, 'POST', `/_sandbox/events/${e.id}/publish`)).status).toBe('published');
    expect(await catalog()).toContain(e.id);
    expect((await call(app, 'GET', '/widgets/event/rust-paris-meetup', { key: null })).statusCode).toBe(200);
    await call(app, 'POST', `/_sandbox/events/${e.id}/unpublish`);
    expect(await catalog()).not.toContain(e.id);
    expectError(await call(app, 'GET', '/widgets/event/rust-paris-meetup', { key: null }), 404, 'NOT_FOUND');

    expect((await call(app, 'DELETE', `/_sandbox/events/${e.id}`)).statusCode).toBe(200);
    expect((await eventsOf(app)).has('rust-paris-meetup')).toBe(false);
    expectError(
      await call(app, 'GET', `${SUBMISSIONS}?eventId=${e.id}&since=2026-01-01T00:00:00.000Z`),
      404,
      'NOT_FOUND',
    );
    expectError(
      await call(app, 'PATCH', `/_sandbox/events/${e.id}`, { body: { title: 'x' } }),
      404,
      'NOT_FOUND',
    );
  });

  it('keeps slugs unique across the whole service', async () => {
    const a = json(await call(app, 'POST', '/_sandbox/events', { body: { title: 'TechWeek Paris 2026' } }));
    expect(a.slug).toBe('techweek-paris-2026-2');
    const clash = await call(app, 'POST', '/_sandbox/events', {
      key: HARBOR.apiKey,
      body: { title: 'Other', slug: 'techweek-paris-2026' },
    });
    expectError(clash, 400, 'VALIDATION_ERROR', { field: 'slug' });
  });

  it.each([
    [{}, 'title'],
    [{ title: '' }, 'title'],
    [{ title: 'x', slug: 'Not A Slug' }, 'slug'],
    [{ title: 'x', timezone: 'Mars/Olympus' }, 'timezone'],
    [{ title: 'x', startsAt: '2026-12-10' }, 'startsAt'],
    [{ title: 'x', startsAt: '2026-12-10T10:00:00Z', endsAt: '2026-12-10T09:00:00Z' }, 'endsAt'],
    [{ title: 'x', status: 'archived' }, 'status'],
  ])('%j → 400 field %s', async (b, field) => {
    expectError(await call(app, 'POST', '/_sandbox/events', { body: b }), 400, 'VALIDATION_ERROR', { field });
  });

  it('404s another tenant’s event on every event route', async () => {
    const lumenEvent = await eventId(app, 'lumen-design-conference-2026', LUMEN.apiKey);
    for (const [method, url] of [
      ['PATCH', `/_sandbox/events/${lumenEvent}`],
      ['POST', `/_sandbox/events/${lumenEvent}/publish`],
      ['POST', `/_sandbox/events/${lumenEvent}/unpublish`],
      ['DELETE', `/_sandbox/events/${lumenEvent}`],
      ['POST', `/_sandbox/events/${lumenEvent}/floor-plans/plan_main/publish`],
    ] as const) {
      expectError(
        await call(app, method, url, { body: method === 'PATCH' ? { title: 'x' } : undefined }),
        404,
        'NOT_FOUND',
      );
    }
  });
});

describe('floor plans', () => {
  it('serves a booth change only after the plan is published again, as a new version', async () => {
    const techweek = await eventId(app, 'techweek-paris-2026');
    const plan = `/connect/v1/events/${techweek}/floor-plans/plan_main`;
    const before = record(await call(app, 'GET', plan), 'floorPlan');
    const target = before.booths[0];
    const next = target.status === 'booked' ? 'available' : 'booked';
    const changed = await call(
      app,
      'POST',
      `/_sandbox/events/${techweek}/floor-plans/plan_main/booths/${target.id}`,
      {
        body: { status: next },
      },
    );
    expect(json(changed)).toMatchObject({ id: target.id, status: next, published: false });
    expect(record(await call(app, 'GET', plan), 'floorPlan')).toEqual(before);

    clock.advance(1000);
    const published = await call(app, 'POST', `/_sandbox/events/${techweek}/floor-plans/plan_main/publish`);
    expect(published.statusCode).toBe(201);
    const after = record(await call(app, 'GET', plan), 'floorPlan');
    expect(after).toMatchObject({
      version: before.version + 1,
      publishedAt: new Date(NOW + 1000).toISOString(),
    });
    expect(after.booths.find((b: { id: string }) => b.id === target.id).status).toBe(next);
  });

  it('publishing a drawn plan for the first time makes it appear', async () => {
    const techweek = await eventId(app, 'techweek-paris-2026');
    const list = `/connect/v1/events/${techweek}/floor-plans`;
    await call(app, 'POST', `/_sandbox/events/${techweek}/floor-plans/plan_annex/publish`);
    const ids = listed(await call(app, 'GET', list), 'floorPlan').map((p: { id: string }) => p.id);
    expect(ids.sort()).toEqual(['plan_annex', 'plan_expo', 'plan_main']);
    expect(record(await call(app, 'GET', `${list}/plan_annex`), 'floorPlan').version).toBe(1);
  });

  it('validates booth status and 404s unknown booths', async () => {
    const techweek = await eventId(app, 'techweek-paris-2026');
    const base = `/_sandbox/events/${techweek}/floor-plans/plan_main/booths`;
    expectError(
      await call(app, 'POST', `${base}/A01`, { body: { status: 'sold' } }),
      400,
      'VALIDATION_ERROR',
      { field: 'status' },
    );
    expectError(await call(app, 'POST', `${base}/Z99`, { body: { status: 'held' } }), 404, 'NOT_FOUND');
  });
});

describe('tenants', () => {
  it('describes the tenant without its API key', async () => {
    const res = await call(app, 'GET', '/_sandbox/tenant');
    expect(json(res)).toMatchObject({
      id: 'ten_northwind',
      name: 'Northwind Events',
      companyId: 'cmp_northwind',
      entitlements: { venue: true, agenda: true, qrScan: true },
      hookSecrets: true,
      counts: { events: 4, submissions: expect.any(Number), orders: expect.any(Number), hooks: 0 },
    });
    expect(res.body).not.toContain(NORTHWIND.apiKey);
    expect(res.body).not.toContain('sk_sandbox');
  });

  it('401s the simulation API without a valid key', async () => {
    expectError(await call(app, 'GET', '/_sandbox/tenant', { key: null }), 401, 'INVALID_API_KEY');
    expectError(
      await call(app, 'POST', '/_sandbox/events', { key: 'sk_sandbox_nope', body: { title: 'x' } }),
      401,
      'INVALID_API_KEY',
    );
  });

  it('switches entitlements at runtime', async () => {
    await call(app, 'PATCH', '/_sandbox/tenant', { body: { entitlements: { qrScan: false, venue: false } } });
    expectError(
      await call(app, 'POST', '/api/v1/checkin', { body: { code: 'x' } }),
      403,
      'ENTITLEMENT_REQUIRED',
      {
        entitlement: 'qrScan',
      },
    );
    const techweek = await eventId(app, 'techweek-paris-2026');
    expectError(
      await call(app, 'GET', `/connect/v1/events/${techweek}/floor-plans`),
      403,
      'ENTITLEMENT_REQUIRED',
      {
        entitlement: 'venue',
      },
    );
    await call(app, 'PATCH', '/_sandbox/tenant', { body: { entitlements: { agenda: false } } });
    expectError(
      await call(app, 'GET', '/widgets/event/techweek-paris-2026/agenda', { key: null }),
      403,
      'ENTITLEMENT_REQUIRED',
      {
        entitlement: 'agenda',
      },
    );
    expectError(
      await call(app, 'PATCH', '/_sandbox/tenant', { body: { entitlements: { wifi: true } } }),
      400,
      'VALIDATION_ERROR',
      {
        field: 'entitlements.wifi',
      },
    );
  });

  it('creates a fresh, empty and isolated tenant (keyless route)', async () => {
    const res = await call(app, 'POST', '/_sandbox/tenants', {
      key: null,
      body: { name: 'Fresh Org', entitlements: { venue: false }, currency: 'GBP' },
    });
    expect(res.statusCode).toBe(201);
    const t = json(res);
    expect(t).toMatchObject({
      name: 'Fresh Org',
      entitlements: { venue: false, agenda: true, qrScan: true },
      currency: 'GBP',
    });
    expect(t.apiKey).toMatch(/^sk_sandbox_/);
    expect(
      listed(await call(app, 'GET', '/api/v1/integrations/zapier/events', { key: t.apiKey }), 'event'),
    ).toEqual([]);
    const e = json(
      await call(app, 'POST', '/_sandbox/events', { key: t.apiKey, body: { title: 'Fresh Event' } }),
    );
    expectError(
      await call(app, 'PATCH', `/_sandbox/events/${e.id}`, { body: { title: 'hijack' } }),
      404,
      'NOT_FOUND',
    );
    expect((await eventsOf(app)).has(e.slug)).toBe(false);
  });
});

describe('request counts', () => {
  const HOOKS = '/api/v1/integrations/zapier/hooks';
  const counted = async (route?: string, key: string = NORTHWIND.apiKey) =>
    json(
      await call(
        app,
        'GET',
        route === undefined ? '/_sandbox/requests' : `/_sandbox/requests?route=${encodeURIComponent(route)}`,
        { key },
      ),
    );

  it('counts keyed Connect requests per route and per path, fault answers included, per tenant', async () => {
    const made = await call(app, 'POST', HOOKS, {
      body: { targetUrl: 'http://127.0.0.1:9/a', event: 'FORM_SUBMISSION' },
    });
    const other = await call(app, 'POST', HOOKS, {
      body: { targetUrl: 'http://127.0.0.1:9/b', event: 'FORM_SUBMISSION' },
    });
    const [a, b] = [json(made).id as string, json(other).id as string];
    await call(app, 'GET', `${HOOKS}/${a}`);
    await call(app, 'GET', `${HOOKS}/${a}?x=1`);
    await call(app, 'GET', `${HOOKS}/${b}`);
    await call(app, 'POST', '/_sandbox/faults', { body: { route: `GET ${HOOKS}/:id`, kind: '500' } });
    expectError(await call(app, 'GET', `${HOOKS}/${a}`), 500, 'INTERNAL');
    await call(app, 'GET', `${HOOKS}/hook_nope`);
    await call(app, 'GET', `${HOOKS}/${a}`, { key: 'sk_wrong' });
    await call(app, 'GET', `${HOOKS}/${a}`, { key: LUMEN.apiKey });

    expect(await counted(`GET ${HOOKS}/${a}`)).toEqual({ route: `GET ${HOOKS}/${a}`, count: 3 });
    expect(await counted(`GET ${HOOKS}/${b}`)).toEqual({ route: `GET ${HOOKS}/${b}`, count: 1 });
    expect(await counted(`GET ${HOOKS}/:id`)).toEqual({ route: `GET ${HOOKS}/:id`, count: 5 });
    expect(await counted(`DELETE ${HOOKS}/${a}`)).toEqual({ route: `DELETE ${HOOKS}/${a}`, count: 0 });
    expect((await counted()).data).toEqual([
      { route: `GET ${HOOKS}/:id`, count: 5 },
      { route: `POST ${HOOKS}`, count: 2 },
    ]);
    // Simulation calls are not Connect requests; another tenant counts its own.
    expect(await counted(`GET ${HOOKS}/${a}`, LUMEN.apiKey)).toEqual({
      route: `GET ${HOOKS}/${a}`,
      count: 1,
    });
    expect((await counted(undefined, HARBOR.apiKey)).data).toEqual([]);
  });

  it('refuses a route that is not a keyed Connect route', async () => {
    for (const route of ['GET /_sandbox/hooks', 'hooks', 'GET /widgets/event/techweek-paris-2026']) {
      expectError(
        await call(app, 'GET', `/_sandbox/requests?route=${encodeURIComponent(route)}`),
        400,
        'VALIDATION_ERROR',
        { field: 'route' },
      );
    }
  });
});
