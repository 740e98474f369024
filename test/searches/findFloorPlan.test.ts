import nock from 'nock';
import findFloorPlan from '../../src/searches/findFloorPlan';
import type { Bundle, ZObject } from 'zapier-platform-core';
import { type FloorPlan, paths } from '../../src/connect';
import { FLOOR_PLAN_TTL_SECONDS } from '../../src/account/plansAndAgendas';
import { SAMPLE_EVENT } from '../../src/mappers/event';
import { SAMPLE_FLOOR_PLAN } from '../../src/mappers/floorPlan';
import { BASE_URL, appTester, authData, caught, errorMessage, meta } from '../support/app';
import { functionOf } from '../../scripts/lib/app';
import { wireError, wireList } from '../../sandbox/wire';

const perform = functionOf('searches', findFloorPlan.key);
const EVENT_ID = SAMPLE_EVENT.id;
const T0 = Date.parse('2026-11-30T10:00:00.000Z');

const run = (inputData: Record<string, unknown> = {}, clear = false) =>
  appTester(
    perform,
    { authData: authData(), inputData: { eventId: EVENT_ID, ...inputData }, meta: meta() },
    clear,
  ) as Promise<Array<Record<string, unknown>>>;

const events = () =>
  nock(BASE_URL)
    .get(paths.events())
    .query(true)
    .reply(200, wireList([SAMPLE_EVENT]))
    .persist();
const SIDE: FloorPlan = { ...SAMPLE_FLOOR_PLAN, id: 'plan_side', name: 'Annex', booths: [] };
const list = (data: FloorPlan[] = [SAMPLE_FLOOR_PLAN, SIDE]) =>
  nock(BASE_URL).get(paths.floorPlans(EVENT_ID)).reply(200, wireList(data));
const one = (plan: FloorPlan | null, planId = 'plan_main') =>
  nock(BASE_URL)
    .get(paths.floorPlan(EVENT_ID, planId))
    .reply(plan ? 200 : 404, plan ?? wireError('NOT_FOUND', 'no'));

let now = T0;
beforeEach(() => {
  now = T0;
  jest.spyOn(Date, 'now').mockImplementation(() => now);
});
afterEach(() => {
  jest.restoreAllMocks();
  nock.cleanAll();
});

it("returns the event's published plans, by name, with booth counts", async () => {
  events();
  list();
  const results = await run({}, true);
  expect(results.map((r) => r.name)).toEqual(['Annex', 'Main hall']);
  expect(results[1]).toMatchObject({
    id: 'plan_main',
    eventTitle: SAMPLE_EVENT.title,
    boothCount: 3,
    availableCount: 1,
    heldCount: 1,
    bookedCount: 1,
    availableBooths: 'B12',
    dataAsOf: new Date(T0).toISOString(),
  });
});

it('returns the chosen plan only', async () => {
  events();
  one(SAMPLE_FLOOR_PLAN);
  expect((await run({ planId: 'plan_main' }, true)).map((r) => r.id)).toEqual(['plan_main']);
});

it('returns [] for an unknown plan or an event without published plans', async () => {
  events();
  one(null, 'plan_x');
  list();
  await expect(run({ planId: 'plan_x' }, true)).resolves.toEqual([]);
  list([]);
  await expect(run({}, true)).resolves.toEqual([]);
});

/** Runs the search and gathers its log lines. */
const logged = async (inputData: Record<string, unknown>) => {
  const lines: string[] = [];
  const listening = (z: ZObject, bundle: Bundle) => {
    Object.assign(z.console, { log: (line: unknown) => lines.push(String(line)) });
    return perform(z, bundle);
  };
  const results = (await appTester(
    listening,
    { authData: authData(), inputData: { eventId: EVENT_ID, ...inputData }, meta: meta() },
    true,
  )) as unknown[];
  return { results, lines };
};

it('a plan ID that no published plan has finds nothing, and the log says why, with the plans the event has', async () => {
  events();
  one(null, 'plan_nope');
  list();
  const { results, lines } = await logged({ planId: 'plan_nope' });
  expect(results).toEqual([]);
  expect(lines).toContain(
    `Find Floor Plan found nothing: "plan_nope" is not a published floor plan of event ${EVENT_ID}. Either no plan has this ID (check the Floor Plan field), or the plan was never published (publish it in the dashboard); the service answers the same for both. Its published plans: "Main hall" (plan_main), "Annex" (plan_side).`,
  );
});

it('an event without a published plan finds nothing, and the log says so', async () => {
  events();
  list([]);
  const { results, lines } = await logged({});
  expect(results).toEqual([]);
  expect(lines).toContain(
    `Find Floor Plan: event ${EVENT_ID} has no published floor plan (a plan drawn in the dashboard is served once it is published), so nothing was found.`,
  );
});

it("the Floor Plan field's help says what a plan that is not found gives", () => {
  const field = (findFloorPlan.operation.inputFields ?? []).find((f) => f.key === 'planId');
  expect(field?.helpText).toMatch(
    /A plan ID that no plan has, or a plan drawn but never published, finds nothing .*the step's log in the Zap history then says so and lists the event's published plans\./,
  );
});

it('says so for an event that is not among yours, with or without a plan', async () => {
  const gone = () =>
    nock(BASE_URL).get(paths.floorPlans(EVENT_ID)).reply(404, wireError('NOT_FOUND', 'Event not found'));
  const message = `The event in the Event field (ID ${EVENT_ID}) is not among the events of the connected account: it may have been deleted, or it belongs to another organizer account. Choose the event again in the Event field, or map an event ID of this account from an earlier step.`;
  gone();
  expect(errorMessage(await caught(() => run({}, true)))).toBe(message);
  one(null, 'plan_x');
  gone();
  expect(errorMessage(await caught(() => run({ planId: 'plan_x' }, true)))).toBe(message);
});

it('says when the plan does not include venue floor plans', async () => {
  nock(BASE_URL)
    .get(paths.floorPlans(EVENT_ID))
    .reply(403, wireError('ENTITLEMENT_REQUIRED', 'x', { entitlement: 'venue' }));
  expect(errorMessage(await caught(() => run({}, true)))).toMatch(
    /^Your plan does not include the Venue Floor Plans feature, so the service refused the request for the floor plans of this event\./,
  );
});

describe('the cache', () => {
  const booked = {
    ...SAMPLE_FLOOR_PLAN,
    booths: SAMPLE_FLOOR_PLAN.booths.map((b) => ({ ...b, status: 'booked' })),
  };

  it(`answers from the cache for ${FLOOR_PLAN_TTL_SECONDS / 60} minutes, then asks again`, async () => {
    events();
    one(SAMPLE_FLOOR_PLAN);
    await run({ planId: 'plan_main' }, true);
    now = T0 + (FLOOR_PLAN_TTL_SECONDS - 1) * 1000;
    expect((await run({ planId: 'plan_main' }))[0]).toMatchObject({
      availableCount: 1,
      dataAsOf: new Date(T0).toISOString(),
    });
    now = T0 + (FLOOR_PLAN_TTL_SECONDS + 1) * 1000;
    one(booked);
    expect((await run({ planId: 'plan_main' }))[0]).toMatchObject({ availableCount: 0, bookedCount: 3 });
  });

  it('"Bypass Cache" reads the service again and refreshes the cache for later runs', async () => {
    events();
    one(SAMPLE_FLOOR_PLAN);
    await run({ planId: 'plan_main' }, true);
    one(booked);
    now = T0 + 1000;
    expect((await run({ planId: 'plan_main', bypassCache: true }))[0]).toMatchObject({ bookedCount: 3 });
    expect((await run({ planId: 'plan_main' }))[0]).toMatchObject({
      bookedCount: 3,
      dataAsOf: new Date(T0 + 1000).toISOString(),
    });
    expect(nock.pendingMocks().filter((m) => m.includes('floor-plans'))).toEqual([]);
  });

  it('falls back to the service when the cache fails', async () => {
    events();
    list();
    const broken = (z: ZObject, bundle: Bundle) => {
      const fail = () => Promise.reject(new Error('cache down'));
      Object.assign(z, { cache: { get: fail, set: fail, delete: fail } });
      return perform(z, bundle);
    };
    const results = (await appTester(
      broken,
      { authData: authData(), inputData: { eventId: EVENT_ID }, meta: meta() },
      true,
    )) as unknown[];
    expect(results).toHaveLength(2);
  });
});
