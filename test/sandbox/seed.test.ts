// Seed data: deterministic for a fixed clock, relative to it, realistic and covering every status.

import type { FastifyInstance } from 'fastify';
import { SCALE_EVENT_SLUG, SEED_TENANTS } from '../../sandbox';
import { call, Clock, eventsOf, json, makeApp, NOW, submissionsOf } from './helpers';
import { recordsOf } from '../../src/connect/testing';

/** Everything a tenant can read through Connect, in a stable order. */
async function snapshot(app: FastifyInstance): Promise<unknown> {
  const out: Record<string, unknown> = {};
  for (const t of SEED_TENANTS) {
    const events = [...(await eventsOf(app, t.apiKey)).values()].sort((a, b) => (a.id < b.id ? -1 : 1));
    const perEvent: Record<string, unknown> = {};
    for (const e of events) {
      perEvent[e.slug] = {
        submissions: (await submissionsOf(app, e.id, t.apiKey)).sort((a, b) =>
          a.submissionId < b.submissionId ? -1 : 1,
        ),
        plans: (await call(app, 'GET', `/connect/v1/events/${e.id}/floor-plans`, { key: t.apiKey })).body,
        agenda: (await call(app, 'GET', `/widgets/event/${e.slug}/agenda`, { key: null })).body,
      };
    }
    out[t.id] = {
      events,
      perEvent,
      orders: json(
        await call(app, 'GET', `/api/v1/integrations/zapier/orders?companyId=${t.companyId}&limit=100`, {
          key: t.apiKey,
        }),
      ),
    };
  }
  out.catalog = json(await call(app, 'GET', '/api/v1/public/events?limit=100', { key: null }));
  return out;
}

describe('seed', () => {
  it('is deterministic for a fixed clock', async () => {
    const a = makeApp().app;
    const b = makeApp().app;
    expect(JSON.stringify(await snapshot(a))).toBe(JSON.stringify(await snapshot(b)));
    await Promise.all([a.close(), b.close()]);
  });

  it('is relative to the start time: a later clock shifts the timestamps, not the data', async () => {
    const later = makeApp({ clock: new Clock(NOW + 86_400_000) }).app;
    const base = makeApp().app;
    const a = [...(await eventsOf(base)).values()];
    const b = [...(await eventsOf(later)).values()];
    expect(b.map((e) => e.id)).toEqual(a.map((e) => e.id));
    expect(
      b.map((e) => Date.parse(e.createdAt) - Date.parse(a.find((x) => x.id === e.id)?.createdAt ?? '')),
    ).toEqual(b.map(() => 86_400_000));
    await Promise.all([later.close(), base.close()]);
  });

  describe('content', () => {
    let app: FastifyInstance;
    beforeAll(() => {
      app = makeApp().app;
    });
    afterAll(() => app.close());

    it('has three organizers with fake keys and the documented offers', () => {
      expect(SEED_TENANTS.map((t) => [t.name, t.entitlements])).toEqual([
        ['Northwind Events', { venue: true, agenda: true, qrScan: true }],
        ['Lumen Conferences', { venue: true, agenda: true, qrScan: false }],
        ['Harbor Meetups', { venue: false, agenda: false, qrScan: true }],
      ]);
      for (const t of SEED_TENANTS) {
        expect(t.apiKey).toMatch(/^sk_sandbox_/);
        expect(t.webhookSecret).toMatch(/^whsec_/);
        expect(t.companyId).toMatch(/^cmp_/);
      }
      expect(new Set(SEED_TENANTS.map((t) => t.apiKey)).size).toBe(3);
    });

    it('has draft and published events with real venues and time zones', async () => {
      for (const t of SEED_TENANTS) {
        const events = [...(await eventsOf(app, t.apiKey)).values()] as unknown as Record<string, string>[];
        expect(new Set(events.map((e) => e.status))).toEqual(new Set(['draft', 'published']));
        for (const e of events) {
          expect(() => new Intl.DateTimeFormat('en', { timeZone: e.timezone })).not.toThrow();
          expect(e.venueName?.length).toBeGreaterThan(3);
        }
      }
    });

    it('has hundreds of submissions in every status, with custom answers and shared milliseconds', async () => {
      const all = [];
      for (const t of SEED_TENANTS) {
        for (const e of (await eventsOf(app, t.apiKey)).values())
          all.push(...(await submissionsOf(app, e.id, t.apiKey)));
      }
      expect(all.length).toBeGreaterThan(400);
      expect(new Set(all.map((s) => s.status))).toEqual(new Set(['pending', 'approved', 'rejected']));
      expect(all.some((s) => s.checkedInAt !== null)).toBe(true);
      const keys = new Set(all.flatMap((s) => s.answers.map((a) => a.key)));
      for (const k of ['company', 'jobTitle', 'diet', 'country', 'marketingOptIn']) expect(keys).toContain(k);
      const diets = all.flatMap((s) => s.answers.filter((a) => a.key === 'diet').map((a) => a.value));
      expect(diets.every((d) => Array.isArray(d))).toBe(true);
      expect(diets.some((d) => (d as string[]).length > 0)).toBe(true);
      const perMs = new Map<string, number>();
      for (const s of all)
        perMs.set(`${s.eventId}${s.createdAt}`, (perMs.get(`${s.eventId}${s.createdAt}`) ?? 0) + 1);
      expect([...perMs.values()].filter((n) => n >= 5).length).toBeGreaterThanOrEqual(2);
      expect(all.some((s) => Date.parse(s.createdAt) > NOW - 3600_000)).toBe(true);
    });

    it('has orders in every status with line items', async () => {
      const statuses = new Set<string>();
      for (const t of SEED_TENANTS) {
        const data = recordsOf<{ status: string; items: unknown[] }>(
          'order',
          json(
            await call(app, 'GET', `/api/v1/integrations/zapier/orders?companyId=${t.companyId}&limit=100`, {
              key: t.apiKey,
            }),
          ),
        );
        for (const o of data) {
          statuses.add(o.status);
          expect(o.items.length).toBeGreaterThan(0);
        }
      }
      expect(statuses).toEqual(new Set(['pending', 'paid', 'failed', 'refunded']));
    });
  });

  it('seed: false keeps the tenants but no data', async () => {
    const { app } = makeApp({ seed: false });
    expect(recordsOf('event', json(await call(app, 'GET', '/api/v1/integrations/zapier/events')))).toEqual(
      [],
    );
    expect(json(await call(app, 'GET', '/api/v1/public/events', { key: null })).total).toBe(0);
    await app.close();
  });

  it('scale: one extra event whose submissions spread over the last 24 hours', async () => {
    const { app } = makeApp({ scale: 3000 });
    const event = (await eventsOf(app)).get(SCALE_EVENT_SLUG);
    expect(event?.status).toBe('published');
    const subs = await submissionsOf(app, event?.id ?? '');
    expect(subs).toHaveLength(3000);
    const times = subs.map((s) => Date.parse(s.createdAt));
    expect(Math.min(...times)).toBeGreaterThanOrEqual(NOW - 86_400_000);
    expect(Math.max(...times)).toBeLessThanOrEqual(NOW);
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(23 * 3600_000);
    expect(subs.filter((s) => s.status === 'approved').length).toBeGreaterThan(2000);
    const lastHour = await submissionsOf(
      app,
      event?.id ?? '',
      undefined,
      new Date(NOW - 3600_000).toISOString(),
    );
    expect(lastHour.length).toBeGreaterThan(90);
    expect(lastHour.length).toBeLessThan(160);
    await app.close();
  });
});
