// The agency organizer (`agency: N`): N events over two years, past the newest 100 reachable only through the
// catalog; deterministic; the three seed organizers and their answers unchanged by it.

import { AGENCY_TENANT, agencySlug, sandboxContext } from '../../sandbox';
import { call, makeApp } from './helpers';
import { recordsOf } from '../../src/connect/testing';

const json = async <T>(response: Promise<{ statusCode: number; body: string }>): Promise<T> => {
  const answer = await response;
  expect(answer.statusCode).toBe(200);
  return JSON.parse(answer.body) as T;
};

describe('the agency organizer', () => {
  const { app } = makeApp({ agency: 1000 });
  afterAll(() => app.close());

  it('holds 1,000 events, one draft in ten, the oldest published with an agenda and floor plans', async () => {
    const tenant = sandboxContext(app).state.tenantsByKey.get(AGENCY_TENANT.apiKey);
    const events = [...(tenant?.events.values() ?? [])];
    expect(events).toHaveLength(1000);
    expect(events.filter((e) => e.status === 'draft')).toHaveLength(100);
    const oldest = events.find((e) => e.slug === agencySlug(1));
    expect(oldest?.status).toBe('published');
    expect(tenant?.agendas.get(oldest?.id ?? '')?.length).toBeGreaterThan(0);
    const plans = recordsOf<{ id: string }>(
      'floorPlan',
      await json(
        call(app, 'GET', `/connect/v1/events/${oldest?.id}/floor-plans`, { key: AGENCY_TENANT.apiKey }),
      ),
    );
    expect(plans.map((p) => p.id).sort()).toEqual(['plan_expo', 'plan_main']);
  });

  it('lists its newest 100 with a key, and its 900 published ones in the catalog among the others', async () => {
    const newest = recordsOf<{ slug: string }>(
      'event',
      await json(
        call(app, 'GET', '/api/v1/integrations/zapier/events?limit=1000', { key: AGENCY_TENANT.apiKey }),
      ),
    );
    expect(newest).toHaveLength(100);
    expect(newest.map((e) => e.slug)).toContain(agencySlug(1000));
    expect(newest.map((e) => e.slug)).not.toContain(agencySlug(900));
    let seen = 0;
    let total = 0;
    for (let page = 1; ; page++) {
      const answer = await json<{ total: number }>(
        call(app, 'GET', `/api/v1/public/events?page=${page}&limit=100`, { key: null }),
      );
      total = answer.total;
      const events = recordsOf<{ slug: string }>('event', answer);
      seen += events.filter((e) => e.slug.startsWith('meridian-meetup-')).length;
      if (events.length < 100) break;
    }
    expect(seen).toBe(900);
    expect(total).toBeGreaterThan(900);
  });

  it('finds its own events by ID, slug or words through the simulation API, drafts and old ones included', async () => {
    const found = await json<{ data: Array<{ slug: string; status: string }> }>(
      call(app, 'GET', `/_sandbox/events?q=${agencySlug(5)}`, { key: AGENCY_TENANT.apiKey }),
    );
    expect(found.data[0]).toMatchObject({ slug: agencySlug(5), status: 'draft' });
    const none = await json<{ data: unknown[] }>(call(app, 'GET', `/_sandbox/events?q=${agencySlug(5)}`, {}));
    expect(none.data).toEqual([]);
  });
});

it('leaves the seed organizers as they are: their events answer the same with or without the agency', async () => {
  const read = async (agency: number) => {
    const { app } = makeApp({ agency });
    try {
      return (await call(app, 'GET', '/api/v1/integrations/zapier/events?limit=100')).body;
    } finally {
      await app.close();
    }
  };
  expect(await read(1000)).toBe(await read(0));
});
