// The read endpoints of the interface document against the contract: bodies, limits, paging, visibility,
// entitlements and every error row that applies to them.

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
  NORTHWIND,
  NOW,
  listed,
  record,
  submissionsOf,
} from './helpers';
import { wireList } from '../../sandbox/wire';
import { recordsOf } from '../../src/connect/testing';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let app: FastifyInstance;
let techweek: string;
let lumenEvent: string;

beforeAll(async () => {
  app = makeApp().app;
  techweek = await eventId(app, 'techweek-paris-2026');
  lumenEvent = await eventId(app, 'lumen-design-conference-2026', LUMEN.apiKey);
});
afterAll(() => app.close());

describe('authentication', () => {
  const keyed = (): [string, string][] => [
    ['GET', `/connect/v1/events/${techweek}/floor-plans`],
    ['GET', `/connect/v1/events/${techweek}/floor-plans/plan_main`],
    ['GET', '/api/v1/integrations/zapier/events'],
    ['GET', `/api/v1/integrations/zapier/submissions?eventId=${techweek}&since=2026-01-01T00:00:00.000Z`],
    ['GET', '/api/v1/integrations/zapier/orders?companyId=cmp_northwind'],
    ['POST', '/api/v1/checkin'],
    ['POST', '/api/v1/integrations/zapier/hooks'],
    ['DELETE', '/api/v1/integrations/zapier/hooks/hook_x'],
    ['GET', '/_sandbox/tenant'],
  ];

  it('answers 401 INVALID_API_KEY without a key or with an unknown one, on every keyed route', async () => {
    for (const [method, url] of keyed()) {
      for (const key of [null, 'sk_sandbox_unknown', '']) {
        const res = await call(app, method as 'GET', url, {
          key,
          body: method === 'POST' ? { code: 'x' } : undefined,
        });
        expectError(res, 401, 'INVALID_API_KEY');
      }
    }
  });

  it('needs no key for the catalog and the widgets', async () => {
    for (const url of [
      '/api/v1/public/events',
      '/widgets/event/techweek-paris-2026',
      '/widgets/event/techweek-paris-2026/agenda',
    ]) {
      expect((await call(app, 'GET', url, { key: null })).statusCode).toBe(200);
    }
  });
});

describe('GET /api/v1/integrations/zapier/events', () => {
  it('lists the tenant’s events (draft and published) in the contract shape', async () => {
    const res = await call(app, 'GET', '/api/v1/integrations/zapier/events');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const data = listed(res, 'event');
    expect(data.map((e: { slug: string }) => e.slug).sort()).toEqual([
      'cloud-native-meetup-12',
      'data-ai-summit-lyon',
      'northwind-partner-day-2027',
      'techweek-paris-2026',
    ]);
    for (const e of data) {
      expect(Object.keys(e)).toEqual([
        'id',
        'slug',
        'title',
        'status',
        'startsAt',
        'endsAt',
        'timezone',
        'venueName',
        'url',
        'createdAt',
        'updatedAt',
      ]);
      expect(e.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(['draft', 'published']).toContain(e.status);
      for (const k of ['startsAt', 'endsAt', 'createdAt', 'updatedAt']) expect(e[k]).toMatch(ISO_MS);
      expect(e.url).toBe(`https://front.example/e/${e.slug}`);
    }
  });

  it('defaults limit to 20, clamps it to 100 and keeps the newest by createdAt', async () => {
    const { app: own, clock } = makeApp();
    for (let i = 0; i < 120; i++) {
      clock.advance(1000);
      const res = await call(own, 'POST', '/_sandbox/events', { body: { title: `Workshop ${i}` } });
      expect(res.statusCode).toBe(201);
    }
    const all = listed(await call(own, 'GET', '/api/v1/integrations/zapier/events?limit=1000'), 'event');
    expect(all).toHaveLength(100);
    const byDefault = listed(await call(own, 'GET', '/api/v1/integrations/zapier/events'), 'event');
    expect(byDefault).toHaveLength(20);
    const two = listed(await call(own, 'GET', '/api/v1/integrations/zapier/events?limit=2'), 'event');
    expect(two.map((e: { title: string }) => e.title).sort()).toEqual(['Workshop 118', 'Workshop 119']);
    const titles = new Set(all.map((e: { title: string }) => e.title));
    expect(titles.has('Workshop 20')).toBe(true);
    expect(titles.has('Workshop 19')).toBe(false);
    // The seeded events are older than the ones just made, so a cut list drops them.
    expect(byDefault.some((e: { slug: string }) => e.slug === 'techweek-paris-2026')).toBe(false);
    await own.close();
  });

  it.each(['0', '-1', 'abc', '1.5', ''])(
    'rejects limit=%s with 400 naming the field (empty = default)',
    async (limit) => {
      const res = await call(app, 'GET', `/api/v1/integrations/zapier/events?limit=${limit}`);
      if (limit === '') expect(res.statusCode).toBe(200);
      else expectError(res, 400, 'VALIDATION_ERROR', { field: 'limit' });
    },
  );

  it('rejects a repeated limit', async () => {
    const res = await call(app, 'GET', '/api/v1/integrations/zapier/events?limit=1&limit=2');
    expectError(res, 400, 'VALIDATION_ERROR', { field: 'limit' });
  });

  it('never shows another tenant’s events', async () => {
    const lumen = await eventsOf(app, LUMEN.apiKey);
    expect([...lumen.keys()].sort()).toEqual([
      'healthtech-forum-amsterdam',
      'lumen-design-conference-2026',
      'lumen-leadership-retreat',
    ]);
  });
});

describe('GET /api/v1/integrations/zapier/submissions', () => {
  const url = (q: string): string => `/api/v1/integrations/zapier/submissions?${q}`;

  it('returns the submissions created at or after since, in the contract shape', async () => {
    const since = new Date(NOW - 60 * 60 * 1000).toISOString();
    const res = await call(app, 'GET', url(`eventId=${techweek}&since=${since}`));
    expect(res.statusCode).toBe(200);
    const data = listed(res, 'submission');
    expect(data.length).toBeGreaterThan(3);
    for (const s of data) {
      expect(Object.keys(s)).toEqual([
        'submissionId',
        'eventId',
        'status',
        'email',
        'firstName',
        'lastName',
        'answers',
        'ticketType',
        'qrCode',
        'createdAt',
        'approvedAt',
        'checkedInAt',
      ]);
      expect(s.eventId).toBe(techweek);
      expect(s.createdAt >= since).toBe(true);
      expect(s.submissionId).toMatch(/^sub_[0-9A-Z]{16}$/);
      if (s.status === 'approved')
        expect(s.qrCode).toBe(`EVT1:${techweek.slice(0, 8)}:${s.submissionId}:${s.qrCode.slice(-4)}`);
      else expect(s.qrCode).toBeNull();
    }
  });

  it('includes a submission whose createdAt equals since (inclusive boundary)', async () => {
    const all = await submissionsOf(app, techweek);
    const pick = all[Math.floor(all.length / 2)];
    const from = await submissionsOf(app, techweek, NORTHWIND.apiKey, pick?.createdAt);
    expect(from.map((s) => s.submissionId)).toContain(pick?.submissionId);
    expect(from.every((s) => s.createdAt >= (pick?.createdAt ?? ''))).toBe(true);
  });

  it('accepts an offset timestamp, even with an unencoded "+"', async () => {
    const a = await call(app, 'GET', url(`eventId=${techweek}&since=2026-11-22T11:00:00.000+02:00`));
    const b = await call(app, 'GET', url(`eventId=${techweek}&since=2026-11-22T09:00:00.000Z`));
    expect(a.statusCode).toBe(200);
    expect(json(a)).toEqual(json(b));
  });

  it.each([
    ['since=2026-11-22T09:00:00.000Z', 'eventId'],
    ['eventId=EVENT', 'since'],
    ['eventId=EVENT&since=', 'since'],
    ['eventId=EVENT&since=2026-11-22', 'since'],
    ['eventId=EVENT&since=2026-11-22T09:00:00', 'since'],
    ['eventId=EVENT&since=2026-02-30T09:00:00.000Z', 'since'],
    ['eventId=EVENT&since=yesterday', 'since'],
    ['eventId=EVENT&since=2026-11-22T09:00:00.000Z&limit=zero', 'limit'],
  ])('%s → 400 VALIDATION_ERROR field %s', async (q, field) => {
    const res = await call(app, 'GET', url(q.replace('EVENT', techweek)));
    expectError(res, 400, 'VALIDATION_ERROR', { field });
  });

  it('answers 404 NOT_FOUND for an unknown event and for another tenant’s event', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', lumenEvent]) {
      const res = await call(app, 'GET', url(`eventId=${id}&since=2026-01-01T00:00:00.000Z`));
      expectError(res, 404, 'NOT_FOUND');
    }
  });

  it('keeps submissions that share one createdAt millisecond apart and returns them all', async () => {
    const all = await submissionsOf(app, techweek);
    const counts = new Map<string, number>();
    for (const s of all) counts.set(s.createdAt, (counts.get(s.createdAt) ?? 0) + 1);
    expect(Math.max(...counts.values())).toBeGreaterThanOrEqual(5);
    expect(new Set(all.map((s) => s.submissionId)).size).toBe(all.length);
  });

  it('keeps the newest when an optional limit cuts the list', async () => {
    const all = await submissionsOf(app, techweek);
    const res = await call(app, 'GET', url(`eventId=${techweek}&since=2000-01-01T00:00:00.000Z&limit=5`));
    const cut: { createdAt: string }[] = listed(res, 'submission');
    expect(cut).toHaveLength(5);
    const newest = all
      .map((s) => s.createdAt)
      .sort()
      .slice(-5);
    expect(cut.map((s) => s.createdAt).sort()).toEqual(newest);
  });
});

describe('GET /api/v1/integrations/zapier/orders', () => {
  const url = (q: string): string => `/api/v1/integrations/zapier/orders?${q}`;

  it('returns the company’s orders newest first, in the contract shape', async () => {
    const res = await call(app, 'GET', url('companyId=cmp_northwind&limit=100'));
    expect(res.statusCode).toBe(200);
    const data = listed(res, 'order');
    expect(data).toHaveLength(100);
    const sorted = [...data].sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1));
    expect(data.map((o: { createdAt: string }) => o.createdAt)).toEqual(sorted.map((o) => o.createdAt));
    for (const o of data) {
      expect(o).toEqual({
        id: expect.stringMatching(/^ord_/),
        companyId: 'cmp_northwind',
        eventId: expect.any(String),
        submissionId: expect.stringMatching(/^sub_/),
        status: expect.stringMatching(/^(pending|paid|failed|refunded)$/),
        currency: 'EUR',
        totalAmount: o.items.reduce(
          (s: number, i: { quantity: number; unitAmount: number }) => s + i.quantity * i.unitAmount,
          0,
        ),
        items: expect.arrayContaining([
          { name: expect.any(String), quantity: expect.any(Number), unitAmount: expect.any(Number) },
        ]),
        paymentId: o.status === 'pending' ? null : expect.stringMatching(/^pay_/),
        createdAt: expect.stringMatching(ISO_MS),
        updatedAt: expect.stringMatching(ISO_MS),
      });
    }
    expect(listed(await call(app, 'GET', url('companyId=cmp_northwind')), 'order')).toHaveLength(20);
  });

  it('answers 400 without companyId and 404 for another tenant’s or an unknown company', async () => {
    expectError(await call(app, 'GET', url('limit=5')), 400, 'VALIDATION_ERROR', { field: 'companyId' });
    expectError(await call(app, 'GET', url('companyId=cmp_lumen')), 404, 'NOT_FOUND');
    expectError(await call(app, 'GET', url('companyId=cmp_nobody')), 404, 'NOT_FOUND');
    expectError(await call(app, 'GET', url('companyId=cmp_northwind&limit=-3')), 400, 'VALIDATION_ERROR', {
      field: 'limit',
    });
  });

  it('serves each tenant its own company only', async () => {
    const res = await call(app, 'GET', url('companyId=cmp_harbor&limit=100'), { key: HARBOR.apiKey });
    const data = listed(res, 'order');
    expect(data.length).toBeGreaterThan(0);
    expect(
      data.every(
        (o: { companyId: string; currency: string }) => o.companyId === 'cmp_harbor' && o.currency === 'USD',
      ),
    ).toBe(true);
  });
});

describe('GET /api/v1/public/events (catalog)', () => {
  it('pages the published events of every organizer, with total', async () => {
    const catalog = async (
      q = '',
    ): Promise<{ body: unknown; events: { slug: string; status: string }[] }> => {
      const body = json(await call(app, 'GET', `/api/v1/public/events${q}`, { key: null }));
      return { body, events: recordsOf('event', body) };
    };
    const first = await catalog();
    expect(first.body).toEqual(wireList(first.events, { page: 1, limit: 20, total: 7 }));
    expect(first.events.every((e) => e.status === 'published')).toBe(true);
    const slugs = first.events.map((e) => e.slug);
    expect(slugs).toEqual(
      expect.arrayContaining(['techweek-paris-2026', 'healthtech-forum-amsterdam', 'harbor-ai-night-sf']),
    );
    expect(slugs).not.toContain('northwind-partner-day-2027');

    const pages: string[] = [];
    for (let page = 1; page <= 4; page++) {
      const { body, events } = await catalog(`?page=${page}&limit=2`);
      expect(body).toEqual(wireList(events, { page, limit: 2, total: 7 }, page < 4));
      expect(events.length).toBe(page < 4 ? 2 : 1);
      pages.push(...events.map((e) => e.slug));
    }
    expect(pages.sort()).toEqual([...slugs].sort());
    const beyond = await catalog('?page=9&limit=2');
    expect(beyond.body).toEqual(wireList([], { page: 9, limit: 2, total: 7 }));
    const clamped = await catalog('?limit=500');
    expect(clamped.body).toEqual(wireList(clamped.events, { page: 1, limit: 100, total: 7 }));
  });

  it.each([
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=x', 'page'],
    ['limit=0', 'limit'],
  ])('%s → 400 field %s', async (q, field) => {
    expectError(
      await call(app, 'GET', `/api/v1/public/events?${q}`, { key: null }),
      400,
      'VALIDATION_ERROR',
      {
        field,
      },
    );
  });
});

describe('widgets', () => {
  it('serves the event widget: the Event plus description and coverImageUrl', async () => {
    const res = await call(app, 'GET', '/widgets/event/techweek-paris-2026', { key: null });
    expect(res.statusCode).toBe(200);
    expect(record(res, 'eventWidget')).toMatchObject({
      id: techweek,
      slug: 'techweek-paris-2026',
      status: 'published',
      timezone: 'Europe/Paris',
      description: expect.any(String),
      coverImageUrl: expect.stringMatching(/^https:\/\//),
    });
  });

  it('answers 404 for a draft or unknown slug, on both widgets', async () => {
    for (const slug of ['northwind-partner-day-2027', 'no-such-event']) {
      expectError(await call(app, 'GET', `/widgets/event/${slug}`, { key: null }), 404, 'NOT_FOUND');
      expectError(await call(app, 'GET', `/widgets/event/${slug}/agenda`, { key: null }), 404, 'NOT_FOUND');
    }
  });

  it('serves the agenda with sessions, rooms, tracks and speakers', async () => {
    const res = await call(app, 'GET', '/widgets/event/techweek-paris-2026/agenda', { key: null });
    expect(res.statusCode).toBe(200);
    const body = record(res, 'agenda');
    expect(body).toMatchObject({ eventId: techweek, slug: 'techweek-paris-2026', timezone: 'Europe/Paris' });
    expect(body.sessions.length).toBeGreaterThan(5);
    for (const s of body.sessions) {
      expect(s).toMatchObject({
        id: expect.stringMatching(/^ses_/),
        title: expect.any(String),
        startsAt: expect.stringMatching(ISO_MS),
        endsAt: expect.stringMatching(ISO_MS),
        room: expect.any(String),
        track: expect.any(String),
      });
      expect(s.speakers.length).toBeGreaterThan(0);
      expect(s.endsAt > s.startsAt).toBe(true);
    }
    expect(res.headers['cache-control']).toMatch(/max-age=300/);
  });

  it('answers 403 ENTITLEMENT_REQUIRED agenda when the owning organizer lacks the agenda feature', async () => {
    const res = await call(app, 'GET', '/widgets/event/harbor-ai-night-sf/agenda', { key: null });
    expectError(res, 403, 'ENTITLEMENT_REQUIRED', { entitlement: 'agenda' });
    expect((await call(app, 'GET', '/widgets/event/harbor-ai-night-sf', { key: null })).statusCode).toBe(200);
  });
});

describe('floor plans', () => {
  const list = (event: string): string => `/connect/v1/events/${event}/floor-plans`;

  it('lists only published snapshots, each at its latest version', async () => {
    const res = await call(app, 'GET', list(techweek));
    expect(res.statusCode).toBe(200);
    const data = listed(res, 'floorPlan');
    const byId = new Map(data.map((p: { id: string }) => [p.id, p]));
    expect([...byId.keys()].sort()).toEqual(['plan_expo', 'plan_main']);
    expect(byId.get('plan_main')).toMatchObject({ eventId: techweek, name: 'Main hall', version: 3 });
    for (const p of data) {
      expect(p).toEqual({
        id: expect.any(String),
        eventId: techweek,
        name: expect.any(String),
        version: expect.any(Number),
        publishedAt: expect.stringMatching(ISO_MS),
        width: expect.any(Number),
        height: expect.any(Number),
        booths: expect.any(Array),
      });
      for (const b of p.booths) {
        expect(b).toEqual({
          id: expect.any(String),
          label: expect.any(String),
          status: expect.stringMatching(/^(available|held|booked)$/),
          x: expect.any(Number),
          y: expect.any(Number),
          w: expect.any(Number),
          h: expect.any(Number),
        });
      }
    }
    expect(res.headers['cache-control']).toMatch(/max-age=300/);
  });

  it('serves one published plan and 404s a plan that was never published, or is unknown', async () => {
    const one = await call(app, 'GET', `${list(techweek)}/plan_main`);
    expect(one.statusCode).toBe(200);
    expect(record(one, 'floorPlan')).toMatchObject({ id: 'plan_main', version: 3 });
    expectError(await call(app, 'GET', `${list(techweek)}/plan_annex`), 404, 'NOT_FOUND');
    expectError(await call(app, 'GET', `${list(techweek)}/plan_nope`), 404, 'NOT_FOUND');
  });

  it('404s another tenant’s event (never 403) and 403s a tenant without venue', async () => {
    expectError(await call(app, 'GET', list(lumenEvent)), 404, 'NOT_FOUND');
    expectError(await call(app, 'GET', `${list(lumenEvent)}/plan_main`), 404, 'NOT_FOUND');
    expect((await call(app, 'GET', list(lumenEvent), { key: LUMEN.apiKey })).statusCode).toBe(200);
    const harborEvent = await eventId(app, 'harbor-ai-night-sf', HARBOR.apiKey);
    expectError(
      await call(app, 'GET', list(harborEvent), { key: HARBOR.apiKey }),
      403,
      'ENTITLEMENT_REQUIRED',
      {
        entitlement: 'venue',
      },
    );
    expectError(
      await call(app, 'GET', `${list(harborEvent)}/plan_main`, { key: HARBOR.apiKey }),
      403,
      'ENTITLEMENT_REQUIRED',
      { entitlement: 'venue' },
    );
  });
});

describe('protocol errors', () => {
  it('answers an unknown route with the contract’s 404 body', async () => {
    expectError(await call(app, 'GET', '/api/v1/nothing-here'), 404, 'NOT_FOUND');
    expectError(await call(app, 'PATCH', '/api/v1/checkin'), 404, 'NOT_FOUND');
  });

  it('answers malformed JSON, a wrong content type and a missing body with 400, never 500', async () => {
    const headers = { 'content-type': 'application/json' };
    const bad = await app.inject({
      method: 'POST',
      url: '/api/v1/checkin',
      headers: { ...headers, 'x-api-key': NORTHWIND.apiKey },
      payload: '{"code": ',
    });
    expectError(bad, 400, 'VALIDATION_ERROR', { field: 'body' });
    const text = await app.inject({
      method: 'POST',
      url: '/api/v1/checkin',
      headers: { 'content-type': 'text/plain', 'x-api-key': NORTHWIND.apiKey },
      payload: 'code=abc',
    });
    expectError(text, 400, 'VALIDATION_ERROR', { field: 'Content-Type' });
    const empty = await app.inject({
      method: 'POST',
      url: '/api/v1/checkin',
      headers: { ...headers, 'x-api-key': NORTHWIND.apiKey },
    });
    expectError(empty, 400, 'VALIDATION_ERROR', { field: 'body' });
    const array = await call(app, 'POST', '/api/v1/checkin', { body: [1, 2] });
    expectError(array, 400, 'VALIDATION_ERROR', { field: 'body' });
    const huge = await app.inject({
      method: 'POST',
      url: '/api/v1/checkin',
      headers: { ...headers, 'x-api-key': NORTHWIND.apiKey },
      payload: JSON.stringify({ code: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expectError(huge, 400, 'VALIDATION_ERROR', { field: 'body' });
  });
});
