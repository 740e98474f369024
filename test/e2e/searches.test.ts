/**
 * End to end against the sandbox: each search finds what the sandbox holds (events of the account and of the
 * public catalog, registrations, orders, agendas, floor plans), floor plans are cached until bypassed, and
 * the embed code carries the event's real slug.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { startSandbox, type RunningSandbox } from '../../sandbox';
import generateEmbedCode from '../../src/creates/embedCode';
import findAgenda from '../../src/searches/findAgenda';
import findEvent from '../../src/searches/findEvent';
import findFloorPlan from '../../src/searches/findFloorPlan';
import findOrder from '../../src/searches/findOrder';
import findRegistration from '../../src/searches/findRegistration';
import floorPlanList from '../../src/triggers/floorPlanList';
import { appTester, caught, errorMessage, meta } from '../support/app';
import { HARBOR, NORTHWIND, type Tenant, authOf as sandboxAuth, simulate } from '../support/sandbox';
import { functionOf } from '../../scripts/lib/app';
import { useGenerousTimeLimits } from '../support/limits';
import { recordsOf } from '../../src/connect/testing';

useGenerousTimeLimits();

type Item = Record<string, unknown>;
type Perform = (z: ZObject, bundle: Bundle) => Promise<unknown>;

let sandbox: RunningSandbox;
let techweek: { id: string; slug: string; title: string };

const authOf = (tenant: Tenant, extra: Record<string, string> = {}) => sandboxAuth(sandbox, tenant, extra);

const sim = <T = Item>(tenant: Tenant, method: string, path: string, body?: unknown): Promise<T> =>
  simulate<T>(sandbox, tenant, method, path, body);

const search = (perform: Perform, inputData: Item, tenant: Tenant = NORTHWIND) =>
  appTester(perform, { authData: authOf(tenant), inputData, meta: meta() }) as Promise<Item[]>;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  const events = await sim(NORTHWIND, 'GET', '/api/v1/integrations/zapier/events?limit=100');
  techweek = recordsOf<typeof techweek>('event', events).find((e) => e.slug === 'techweek-paris-2026')!;
});

afterAll(() => sandbox?.close());

describe('Find Event', () => {
  it('finds your event by title words, enriched from its public page', async () => {
    const [first] = await search(functionOf('searches', findEvent.key), { query: 'TechWeek Paris' });
    expect(first).toMatchObject({
      id: techweek.id,
      slug: 'techweek-paris-2026',
      isOwnEvent: true,
      description: expect.stringMatching(/^Three days of talks/),
      coverImageUrl: 'https://cdn.sandbox.example/covers/techweek-paris-2026.jpg',
    });
  });

  it('finds drafts of your own, without a public description', async () => {
    const [draft] = await search(functionOf('searches', findEvent.key), { query: 'northwind-partner-day' });
    expect(draft).toMatchObject({ status: 'draft', isPublished: false, description: null });
  });

  it("never answers another organizer's event, by title or by slug", async () => {
    for (const query of ['lumen design', 'lumen-design-conference-2026']) {
      await expect(search(functionOf('searches', findEvent.key), { query })).resolves.toEqual([]);
    }
  });
});

describe('Find Registration and Find Order', () => {
  let registration: { submissionId: string };
  let order: { id: string; paymentId: string };

  beforeAll(async () => {
    registration = await sim(NORTHWIND, 'POST', '/_sandbox/submissions', {
      eventId: techweek.id,
      email: 'Find.Me@Example.com',
      firstName: 'Findable',
      lastName: 'Person',
      status: 'approved',
      answers: [{ key: 'company', label: 'Company', value: 'Acme' }],
    });
    order = await sim(NORTHWIND, 'POST', '/_sandbox/orders', {
      submissionId: registration.submissionId,
      outcome: 'paid',
    });
  });

  it('finds the registration by email and by ID, with the event and answers', async () => {
    const [byEmail] = await search(functionOf('searches', findRegistration.key), {
      eventId: techweek.id,
      email: ' find.me@example.com ',
    });
    expect(byEmail).toMatchObject({
      submissionId: registration.submissionId,
      eventTitle: techweek.title,
      fullName: 'Findable Person',
      isApproved: true,
      answers__company: 'Acme',
    });
    const byId = await search(functionOf('searches', findRegistration.key), {
      eventId: techweek.id,
      submissionIdText: registration.submissionId,
    });
    expect(byId.map((r) => r.email)).toEqual(['Find.Me@Example.com']);
    await expect(
      search(functionOf('searches', findRegistration.key), {
        eventId: techweek.id,
        email: 'nobody@nowhere.example',
      }),
    ).resolves.toEqual([]);
  });

  it('finds the order by order ID, payment ID, registration ID and email', async () => {
    const find = (inputData: Item) => search(functionOf('searches', findOrder.key), inputData);
    for (const input of [
      { orderIdText: order.id },
      { orderIdText: order.paymentId },
      { submissionIdText: registration.submissionId },
      { email: 'FIND.ME@example.com' },
    ]) {
      const results = await find(input);
      expect([input, results.map((o) => o.orderId)]).toEqual([input, [order.id]]);
    }
    await expect(find({ orderIdText: 'ord_does_not_exist' })).resolves.toEqual([]);
  });
});

describe('Find Event Agenda', () => {
  it("returns the event's sessions in order, filtered by track or day", async () => {
    const [agenda] = await search(functionOf('searches', findAgenda.key), { eventId: techweek.id });
    const sessions = agenda?.sessions as Array<{ startsAt: string; track: string; day: string }>;
    expect(agenda).toMatchObject({ eventSlug: 'techweek-paris-2026', firstSessionTitle: 'Opening keynote' });
    expect(agenda?.sessionCount).toBe(sessions.length);
    expect(sessions.map((s) => s.startsAt)).toEqual([...sessions.map((s) => s.startsAt)].sort());

    const [main] = await search(functionOf('searches', findAgenda.key), {
      eventId: techweek.id,
      track: 'main',
    });
    expect((main?.sessions as Array<{ track: string }>).every((s) => s.track === 'Main')).toBe(true);
    const firstDay = sessions[0]?.day;
    const [day] = await search(functionOf('searches', findAgenda.key), {
      eventId: techweek.id,
      day: firstDay,
    });
    expect(day?.sessionCount).toBe(sessions.filter((s) => s.day === firstDay).length);
    expect(day?.sessionCount).toBeLessThan(sessions.length);
  });
});

describe('Find Floor Plan', () => {
  it('lists only published plans, with booth counts that add up', async () => {
    const plans = await search(functionOf('searches', findFloorPlan.key), { eventId: techweek.id });
    expect(plans.map((p) => p.id)).toEqual(['plan_expo', 'plan_main']);
    for (const plan of plans) {
      expect(plan.boothCount).toBe(
        (plan.availableCount as number) + (plan.heldCount as number) + (plan.bookedCount as number),
      );
    }
    const choices = (await appTester(functionOf('triggers', floorPlanList.key), {
      authData: authOf(NORTHWIND),
      inputData: { eventId: techweek.id },
      meta: meta({ isFillingDynamicDropdown: true }),
    })) as Array<{ id: string; label: string }>;
    expect(choices.map((c) => c.label)).toEqual([
      expect.stringMatching(/^Expo level 2 — v1, \d+ of 18 booths available$/),
      expect.stringMatching(/^Main hall — v3, \d+ of 32 booths available$/),
    ]);
  });

  it('answers from the cache after a booking until "Bypass Cache" is chosen', async () => {
    const input = { eventId: techweek.id, planId: 'plan_main' };
    const [before] = await search(functionOf('searches', findFloorPlan.key), input);
    const booths = before?.booths as Array<{ id: string; status: string }>;
    const free = booths.find((b) => b.status === 'available')!;
    await sim(NORTHWIND, 'POST', `/_sandbox/events/${techweek.id}/floor-plans/plan_main/booths/${free.id}`, {
      status: 'booked',
    });
    await sim(NORTHWIND, 'POST', `/_sandbox/events/${techweek.id}/floor-plans/plan_main/publish`);

    const [cached] = await search(functionOf('searches', findFloorPlan.key), input);
    expect(cached).toMatchObject({ version: before?.version, dataAsOf: before?.dataAsOf });
    const [fresh] = await search(functionOf('searches', findFloorPlan.key), { ...input, bypassCache: true });
    expect(fresh?.version).toBe((before?.version as number) + 1);
    expect(
      (fresh?.booths as Array<{ id: string; status: string }>).find((b) => b.id === free.id)?.status,
    ).toBe('booked');
    expect((fresh?.availableCount as number) < (before?.availableCount as number)).toBe(true);
  });

  it('an unknown plan is no result, and a plan without venue floor plans says so', async () => {
    await expect(
      search(functionOf('searches', findFloorPlan.key), { eventId: techweek.id, planId: 'plan_annex' }),
    ).resolves.toEqual([]);
    const harborEvents = await sim(HARBOR, 'GET', '/api/v1/integrations/zapier/events');
    const error = await caught(() =>
      search(
        functionOf('searches', findFloorPlan.key),
        { eventId: recordsOf<{ id: string }>('event', harborEvents)[0]?.id },
        HARBOR,
      ),
    );
    expect(errorMessage(error)).toMatch(/^Your plan does not include the Venue Floor Plans feature/);
  });
});

describe('Generate Embed Code', () => {
  it("uses the event's real slug for the agenda, and the map of a published plan", async () => {
    const auth = authOf(NORTHWIND, {
      frontUrl: 'https://front.sandbox.example',
      embedUrl: 'https://embed.sandbox.example',
    });
    const run = (inputData: Item) =>
      appTester(functionOf('creates', generateEmbedCode.key), { authData: auth, inputData, meta: meta() });
    const agenda = await run({ embedType: 'agenda', eventId: techweek.id });
    expect(agenda.html).toContain('data-event-slug="techweek-paris-2026"');
    expect(agenda.html).toContain(
      '<script async src="https://embed.sandbox.example/embed/v1/service-embed.js">',
    );
    const map = await run({ embedType: 'map', eventId: techweek.id, planId: 'plan_main' });
    expect(map.html).toContain(
      `src="https://front.sandbox.example/embed/${techweek.id}/map/plan_main?list=1"`,
    );
    expect(map.html).toContain(`title="Floor plan — ${techweek.title}"`);
    expect(JSON.stringify([agenda, map])).not.toContain(NORTHWIND.apiKey);
  });
});
