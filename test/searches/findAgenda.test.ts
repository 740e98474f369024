import nock from 'nock';
import findAgenda from '../../src/searches/findAgenda';
import type { Bundle, ZObject } from 'zapier-platform-core';
import { paths } from '../../src/connect';
import { AGENDA_TTL_SECONDS } from '../../src/account/plansAndAgendas';
import { SAMPLE_EVENT } from '../../src/mappers/event';
import { type AgendaItem, SAMPLE_AGENDA } from '../../src/mappers/agenda';
import { BASE_URL, appTester, authData, caught, errorMessage, meta } from '../support/app';
import { functionOf } from '../../scripts/lib/app';
import { wireError, wireList } from '../../sandbox/wire';

const perform = functionOf('searches', findAgenda.key);
const EVENT_ID = SAMPLE_EVENT.id;
const SLUG = SAMPLE_EVENT.slug;
const T0 = Date.parse('2026-11-30T10:00:00.000Z');

/** `clear` empties Zapier's test cache first; later calls in a test share it. */
const run = (inputData: Record<string, unknown> = {}, clear = false) =>
  appTester(
    perform,
    { authData: authData(), inputData: { eventId: EVENT_ID, ...inputData }, meta: meta() },
    clear,
  ) as Promise<AgendaItem[]>;

const events = (data = [SAMPLE_EVENT]) =>
  nock(BASE_URL).get(paths.events()).query(true).reply(200, wireList(data)).persist();
const agendaCall = (body: unknown = SAMPLE_AGENDA, status = 200) =>
  nock(BASE_URL, { badheaders: ['x-api-key'] })
    .get(paths.agendaWidget(SLUG))
    .reply(status, JSON.stringify(body), { 'Content-Type': 'application/json' });

let now = T0;
beforeEach(() => {
  now = T0;
  jest.spyOn(Date, 'now').mockImplementation(() => now);
});
afterEach(() => {
  jest.restoreAllMocks();
  nock.cleanAll();
});

it('returns the agenda as one item with sessions as line items and when it was read', async () => {
  events();
  agendaCall();
  const [item] = await run({}, true);
  expect(item).toMatchObject({
    id: SAMPLE_AGENDA.eventId,
    eventTitle: SAMPLE_EVENT.title,
    sessionCount: 2,
    firstSessionTitle: 'Opening keynote',
    lastSessionTitle: 'Designing for failure',
    dataAsOf: new Date(T0).toISOString(),
  });
  expect(item?.sessions.map((s) => s.id)).toEqual(['ses_1', 'ses_2']);
});

describe('the cache', () => {
  it(`answers from the cache for ${AGENDA_TTL_SECONDS / 60} minutes, then asks the service again`, async () => {
    events();
    const first = agendaCall();
    await run({}, true);
    expect(first.isDone()).toBe(true);

    now = T0 + (AGENDA_TTL_SECONDS - 1) * 1000;
    const [hit] = await run();
    expect(hit?.dataAsOf).toBe(new Date(T0).toISOString());

    now = T0 + (AGENDA_TTL_SECONDS + 1) * 1000;
    const second = agendaCall({ ...SAMPLE_AGENDA, sessions: SAMPLE_AGENDA.sessions.slice(0, 1) });
    const [fresh] = await run();
    expect(second.isDone()).toBe(true);
    expect(fresh).toMatchObject({ sessionCount: 1, dataAsOf: new Date(now).toISOString() });
  });

  it('is scoped to the account: another API key does not see it', async () => {
    events();
    agendaCall();
    await run({}, true);
    const other = agendaCall();
    await appTester(perform, {
      authData: authData({ apiKey: 'sk_other' }),
      inputData: { eventId: EVENT_ID },
      meta: meta(),
    });
    expect(other.isDone()).toBe(true);
  });

  it('does not keep "not published" answers: a published agenda shows up at once', async () => {
    events();
    agendaCall(wireError('NOT_FOUND', 'no'), 404);
    await expect(run({}, true)).resolves.toEqual([]);
    agendaCall();
    await expect(run()).resolves.toHaveLength(1);
  });

  it('falls back to the service when the cache fails', async () => {
    events();
    agendaCall();
    agendaCall();
    const broken = (z: ZObject, bundle: Bundle) => {
      const fail = () => Promise.reject(new Error('cache down'));
      Object.assign(z, { cache: { get: fail, set: fail, delete: fail } });
      return perform(z, bundle);
    };
    const bundle = { authData: authData(), inputData: { eventId: EVENT_ID }, meta: meta() };
    await expect(appTester(broken, bundle, true)).resolves.toHaveLength(1);
    await expect(appTester(broken, bundle)).resolves.toHaveLength(1);
    expect(nock.pendingMocks().filter((m) => m.includes('/widgets/'))).toEqual([]);
  });
});

describe('filters', () => {
  it('keeps one day (also from a mapped date-time, read in the agenda time zone) or one track', async () => {
    events();
    agendaCall();
    expect((await run({ track: 'cloud' }, true))[0]?.sessions.map((s) => s.id)).toEqual(['ses_2']);
    expect((await run({ day: '2026-12-01' }))[0]?.sessionCount).toBe(2);
    expect((await run({ day: '2026-12-01T00:30:00+01:00' }))[0]?.sessionCount).toBe(2);
  });

  it('returns [] when no session matches', async () => {
    events();
    agendaCall();
    await expect(run({ day: '2026-12-02' }, true)).resolves.toEqual([]);
  });

  it('refuses a day that is not a date', async () => {
    events();
    agendaCall();
    expect(errorMessage(await caught(() => run({ day: 'Monday' }, true)))).toMatch(
      /^"Monday" in Day is not a date/,
    );
  });

  it.each(['Dec 20', '20/12/2026', '2026/12/01', '1', 'December 1, 2026'])(
    'refuses "%s", which read leniently names another day or nothing, before any request, saying the form',
    async (day) => {
      const message = errorMessage(await caught(() => run({ day }, true)));
      expect(message).toBe(
        `"${day}" in Day is not a date. Write the day as YYYY-MM-DD, for example 2026-12-01 (or map a date and time from an earlier step), or leave Day empty for the whole agenda.`,
      );
      expect(nock.pendingMocks()).toEqual([]);
    },
  );

  it('refuses a day that does not exist', async () => {
    expect(errorMessage(await caught(() => run({ day: '2026-02-30' }, true)))).toMatch(
      /^"2026-02-30" in Day is not a date \(February 2026 has no day 30\)\. Write the day as YYYY-MM-DD/,
    );
  });
});

it('says so for an event that is not among yours', async () => {
  events([]);
  expect(errorMessage(await caught(() => run({}, true)))).toBe(
    `The event in the Event field (ID ${EVENT_ID}) is not among the events of the connected account: it may have been deleted, or it belongs to another organizer account. Choose the event again in the Event field, or map an event ID of this account from an earlier step.`,
  );
});

it("says when the organizer's plan does not include the agenda", async () => {
  events();
  agendaCall(wireError('ENTITLEMENT_REQUIRED', 'x', { entitlement: 'agenda' }), 403);
  expect(errorMessage(await caught(() => run({}, true)))).toMatch(
    /^Your plan does not include the Agenda feature, so the service refused the request for the agenda of "techweek-2026"\. Ask the owner of the organizer account to add Agenda to the plan/,
  );
});
