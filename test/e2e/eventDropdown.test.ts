/**
 * An agency with 300 events, against the sandbox, which clamps the events list at 100 as the contract lets a
 * service do (and, in one block, refuses a larger limit). The events list shows the newest 100 only; every
 * event of the account is still reached: the Event dropdown's "Load more" pages through the older published
 * ones (from the public catalog, each checked with the service), Find Event finds any of them by title, slug
 * or public link, the operations that take an event work for the oldest one, and another organizer's event
 * is never answered or accepted.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { envLines } from '../../sandbox/cli';
import { simulate } from '../../scripts/simulate';
import { LIST_LIMIT_MAX } from '../../src/connect';
import { pageAfter } from '../../src/connect/continuation';
import { DIALECT, memberAt } from '../../src/connect/dialect';
import eventList from '../../src/triggers/eventList';
import findAgenda from '../../src/searches/findAgenda';
import findEvent from '../../src/searches/findEvent';
import findFloorPlan from '../../src/searches/findFloorPlan';
import embedCode from '../../src/creates/embedCode';
import {
  AGENCY_TENANT,
  type Deviation,
  type RunningSandbox,
  SEED_TENANTS,
  agencySlug,
  sandboxCall,
  sandboxContext,
  startSandbox,
} from '../../sandbox';
import { functionOf } from '../../scripts/lib/app';
import { App as AppDefinition, appTester, caught, errorMessage, meta } from '../support/app';
import { useGenerousTimeLimits } from '../support/limits';
import { recordsOf } from '../../src/connect/testing';
import { FIND_REGISTRATION_KEY } from '../../src/fields/keys';
import { type Choice, everyDropdownPage } from '../support/dropdown';
import { catalogByNumber } from '../support/wireDialect';

useGenerousTimeLimits();

const EVENTS = 300;
/** The agency makes every tenth event a draft (`sandbox/seed-agency.ts`): 5, 15, 25, … */
const isDraft = (n: number) => n % 10 === 5;

interface Found {
  id: string;
  slug: string;
  title: string;
  isOwnEvent: boolean;
}
interface EventJson {
  id: string;
  slug: string;
  url: string;
  title: string;
  startsAt: string;
}

describe.each<[string, Deviation[]]>([
  ['a service that clamps the limit to 100, as the contract says', []],
  ['a service that refuses a limit above 100 (limit-rejected)', ['limit-rejected']],
])('an agency with 300 events, on %s', (_name, deviations) => {
  let sandbox: RunningSandbox;
  let authData: Record<string, string>;
  /** The agency's events by number (1 = the oldest). */
  const events = new Map<number, EventJson>();
  /** A published event of another organizer whose title and slug look like the agency's oldest. */
  let foreign: EventJson;

  beforeAll(async () => {
    sandbox = await startSandbox({ deviations, agency: EVENTS });
    authData = {
      apiKey: AGENCY_TENANT.apiKey,
      baseUrl: sandbox.url,
      frontUrl: sandbox.url,
      embedUrl: sandbox.url,
    };
    // The catalog page after page, by number or by the continuation each page names (the run's dialect).
    const first = `${sandbox.url}/api/v1/public/events?page=1&limit=100`;
    for (
      let page = 1, address: string | null = first;
      address && events.size < EVENTS - EVENTS / 10;
      page++
    ) {
      const { pathname, search } = new URL(address);
      const answer = await sandboxCall(sandbox.url, '', 'GET', `${pathname}${search}`);
      const read = recordsOf<EventJson>('event', answer);
      if (read.length === 0) break;
      for (const event of read) {
        const n = /^meridian-meetup-(\d{4})$/.exec(event.slug)?.[1];
        if (n) events.set(Number(n), event);
      }
      const signs = { member: (at: string) => memberAt(answer, at), link: null };
      address =
        DIALECT.catalog == null
          ? `${sandbox.url}/api/v1/public/events?page=${page + 1}&limit=100`
          : pageAfter(DIALECT.catalog, first, signs);
    }
    foreign = await sandboxCall<EventJson>(sandbox.url, SEED_TENANTS[0].apiKey, 'POST', '/_sandbox/events', {
      title: 'Meridian Meetup 0001 lookalike',
      slug: 'meridian-meetup-0001-lookalike',
      status: 'published',
    });
  });

  afterAll(() => sandbox?.close());

  const run = <T>(operation: ReturnType<typeof functionOf>, inputData: Record<string, unknown>, extra = {}) =>
    appTester(operation, { authData, inputData, meta: meta(extra) }) as Promise<T>;
  const dropdownPage = (page: number) =>
    run<Choice[]>(functionOf('triggers', eventList.key), {}, { isFillingDynamicDropdown: true, page });
  const find = (query: string) => run<Found[]>(functionOf('searches', findEvent.key), { query });
  const oldest = () => events.get(1) as EventJson;

  it('the sandbox holds the account: 270 published events seen in the catalog, the oldest among them', () => {
    expect(events.size).toBe(EVENTS - EVENTS / 10);
    expect(oldest().slug).toBe(agencySlug(1));
  });

  it('"Load more" pages the newest 100, then every older published event, each once, then ends', async () => {
    expect(App().triggers[eventList.key]?.operation.canPaginate).toBe(true);
    const [first = [], ...older] = await everyDropdownPage(dropdownPage);
    expect(first[0]?.label).toMatch(/^Meridian Meetup 0300 /);
    // Past the newest 100: every older published event, drafts only among the newest.
    const olderPublished = [...Array(EVENTS - LIST_LIMIT_MAX).keys()]
      .map((i) => i + 1)
      .filter((n) => !isDraft(n));
    expect(new Set(older.flat().map((choice) => choice.id))).toEqual(
      new Set(olderPublished.map((n) => events.get(n)?.id)),
    );
    expect(older.flat().map((choice) => choice.id)).toContain(oldest().id);
    const numberOf = (choice: Choice) => Number(/^Meridian Meetup (\d{4}) /.exec(choice.label)?.[1]);
    const numbers = older.flat().map(numberOf);
    if (!catalogByNumber()) {
      // A catalog that continues by a cursor is read from its start (docs/connect-contract.md §8): the oldest
      // come on the first page past the newest 100, newest first within each page.
      expect(older[0]?.map(numberOf)).toContain(1);
      for (const page of older) expect(page.map(numberOf)).toEqual(page.map(numberOf).sort((a, b) => b - a));
      return;
    }
    // Newest first past the first page too: pages from the catalog's later end (the catalog is in order of
    // start, and two events made 17 hours apart may start the same day, on either side of a page boundary,
    // whatever the time of day the sandbox started), each page newest first.
    const starts = numbers.map((n) => events.get(n)?.startsAt ?? '');
    expect(starts).toEqual([...starts].sort().reverse());
    for (const page of older) expect(page.map(numberOf)).toEqual(page.map(numberOf).sort((a, b) => b - a));
    expect(events.get(numbers[0] ?? 0)?.startsAt).toBe(events.get(EVENTS - LIST_LIMIT_MAX)?.startsAt);
    expect(events.get(numbers.at(-1) ?? 0)?.startsAt).toBe(oldest().startsAt);
  });

  it('Find Event finds the oldest event by part of its title, by its slug and by its public link', async () => {
    for (const query of ['Meridian Meetup 0001', agencySlug(1), oldest().url]) {
      const found = await find(query);
      expect([query, found.map((event) => event.id)]).toEqual([query, [oldest().id]]);
      expect(found[0]).toMatchObject({ slug: agencySlug(1), isOwnEvent: true });
    }
    const byTitle = await find('Meetup 0250');
    expect(byTitle.map((event) => event.slug)).toEqual([agencySlug(250)]);
  });

  it("never answers another organizer's event, by title, slug or link", async () => {
    for (const query of ['lookalike', foreign.slug, foreign.url]) {
      await expect(find(query)).resolves.toEqual([]);
    }
    const both = await find('meridian meetup 0001');
    expect(both.map((event) => event.id)).toEqual([oldest().id]);
  });

  it('reads the agenda, the floor plans and both embed codes of the oldest event, mapped by ID', async () => {
    const eventId = oldest().id;
    const [agenda] = await run<Array<{ sessionCount: number; eventTitle: string }>>(
      functionOf('searches', findAgenda.key),
      { eventId },
    );
    expect(agenda?.sessionCount).toBeGreaterThan(0);
    const plans = await run<Array<{ id: string; eventTitle: string | null }>>(
      functionOf('searches', findFloorPlan.key),
      { eventId },
    );
    expect(plans.map((plan) => plan.id).sort()).toEqual(['plan_expo', 'plan_main']);
    expect(plans[0]?.eventTitle).toBe(oldest().title);
    const agendaEmbed = await run<{ html: string; eventSlug: string }>(functionOf('creates', embedCode.key), {
      embedType: 'agenda',
      eventId,
    });
    expect(agendaEmbed.html).toContain(`data-event-slug="${agencySlug(1)}"`);
    const mapEmbed = await run<{ html: string }>(functionOf('creates', embedCode.key), {
      embedType: 'map',
      eventId,
      planId: 'plan_main',
    });
    expect(mapEmbed.html).toContain(`/embed/${eventId}/map/plan_main`);
  });

  it('takes the oldest event by slug and by public link: agenda, floor plans, the Floor Plan dropdown, embed code', async () => {
    for (const eventId of [agencySlug(1), oldest().url]) {
      const [agenda] = await run<Array<{ sessionCount: number }>>(functionOf('searches', findAgenda.key), {
        eventId,
      });
      expect(agenda?.sessionCount).toBeGreaterThan(0);
      const plans = await run<Array<{ id: string }>>(functionOf('searches', findFloorPlan.key), { eventId });
      expect(plans.map((plan) => plan.id).sort()).toEqual(['plan_expo', 'plan_main']);
      const choices = await run<Array<{ id: string }>>(functionOf('triggers', 'floor_plan_list'), {
        eventId,
      });
      expect(choices.map((plan) => plan.id).sort()).toEqual(['plan_expo', 'plan_main']);
      const embed = await run<{ html: string }>(functionOf('creates', embedCode.key), {
        embedType: 'agenda',
        eventId,
      });
      expect(embed.html).toContain(`data-event-slug="${agencySlug(1)}"`);
    }
  });

  it("refuses another organizer's event, saying so, and an unknown ID, saying it may be either", async () => {
    const bySlug = await caught(() => run(functionOf('searches', findAgenda.key), { eventId: foreign.slug }));
    expect(errorMessage(bySlug)).toMatch(
      /^The event in the Event field \(slug "meridian-meetup-0001-lookalike"\) is not one of the connected account's events: the service shows it in its public catalog, so it belongs to another organizer account\./,
    );
    const byId = await caught(() =>
      run(functionOf('creates', embedCode.key), { embedType: 'agenda', eventId: foreign.id }),
    );
    expect(errorMessage(byId)).toMatch(
      new RegExp(
        `^The event in the Event field \\(ID ${foreign.id}\\) is not one of the connected account's events: the service answers that this account has no event with this ID, and it answers the same for another organizer's event and for a deleted one, so which of the two it is cannot be told from an ID\\.`,
      ),
    );
    expect(errorMessage(byId)).not.toMatch(/public catalog/);
  });

  it('a draft past the newest 100 is accepted by ID: no agenda (a log line says why), no agenda embed (a message says why)', async () => {
    const draft = [...sandboxContext(sandbox.app).state.eventsBySlug.values()].find(
      (event) => event.slug === agencySlug(5),
    );
    expect(draft?.status).toBe('draft');
    const eventId = draft?.id as string;
    await expect(run(functionOf('searches', findAgenda.key), { eventId })).resolves.toEqual([]);
    const embed = errorMessage(
      await caught(() => run(functionOf('creates', embedCode.key), { embedType: 'agenda', eventId })),
    );
    expect(embed).toMatch(
      new RegExp(
        `^The agenda embed needs the event's slug, and it could not be read for event ${eventId}: it is one of your events, but not among your 100 newest, and the public catalog does not show it \\(its 3 pages, 2\\d\\d events, were all read\\): it is a draft, and a draft has no public page\\. Publish the event in the dashboard, then run this step again\\.$`,
      ),
    );
  });

  it('registrations of the oldest event carry its title and dates: polled, in the editor and found', async () => {
    const eventId = oldest().id;
    const email = `ada.${deviations.length}@example.com`;
    await sandboxCall(sandbox.url, AGENCY_TENANT.apiKey, 'POST', '/_sandbox/submissions', {
      eventId,
      email,
      firstName: 'Ada',
      lastName: 'Lovelace',
    });
    type Item = { email: string; eventTitle: string | null; eventStartsAt: string | null };
    const newSubmission = functionOf('triggers', 'new_submission');
    const polled = await run<Item[]>(newSubmission, { eventId });
    const sample = await run<Item[]>(newSubmission, { eventId }, { isLoadingSample: true });
    const found = await run<Item[]>(functionOf('searches', FIND_REGISTRATION_KEY), { eventId, email });
    for (const items of [polled, sample, found]) {
      expect(items.find((item) => item.email === email)).toMatchObject({
        eventTitle: oldest().title,
        eventStartsAt: expect.stringMatching(/^\d{4}-/),
      });
    }
  });

  it("an old draft's agenda embed by slug says the same one thing that works, not to map its ID", async () => {
    const bySlug = errorMessage(
      await caught(() =>
        run(functionOf('creates', embedCode.key), { embedType: 'agenda', eventId: agencySlug(5) }),
      ),
    );
    expect(bySlug).toBe(
      `No published event has the slug "${agencySlug(5)}", and none of your 100 newest events has it. Check the slug or link (it is the last part of the event's public page address). If it is a draft older than your 100 newest, publish it in the dashboard first: a draft has no public page, and this step needs it.`,
    );
    // Floor plans are read by the event's ID: there, mapping the ID is what works.
    const plans = errorMessage(
      await caught(() => run(functionOf('searches', findFloorPlan.key), { eventId: agencySlug(5) })),
    );
    expect(plans).toMatch(/If it is a draft older than your 100 newest, map its event ID instead/);
  });

  it('`npm run simulate -- publish <slug>` publishes a draft past the newest 100; Find Event then finds it', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'agency-'));
    try {
      const envFile = path.join(dir, '.env');
      writeFileSync(envFile, `${envLines(sandbox.url, 4, EVENTS).join('\n')}\n`);
      const lines: string[] = [];
      await simulate(['publish', agencySlug(15)], (line) => lines.push(line), envFile);
      expect(lines).toEqual([
        expect.stringMatching(new RegExp(`^Published Meridian Meetup 0015 for .* \\(${agencySlug(15)}, `)),
        '  sends EVENT_PUBLISHED',
      ]);
      const found = await find(agencySlug(15));
      expect(found.map((event) => event.slug)).toEqual([agencySlug(15)]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an older event deleted since it was last used is refused, saying it no longer exists', async () => {
    const second = events.get(2) as EventJson;
    await expect(run(functionOf('searches', findAgenda.key), { eventId: second.id })).resolves.toEqual([]);
    await sandboxCall(sandbox.url, AGENCY_TENANT.apiKey, 'DELETE', `/_sandbox/events/${second.id}`);
    const gone = await caught(() => run(functionOf('searches', findAgenda.key), { eventId: second.id }));
    expect(errorMessage(gone)).toMatch(
      new RegExp(
        `^The event in the Event field \\(ID ${second.id}\\) no longer exists: it was one of the connected account's events, and the service now answers that it has no such event \\(it was deleted\\)\\.`,
      ),
    );
  });
});

describe('every Event field', () => {
  it('is search-powered by Find Event, on every operation that takes an event', () => {
    const fields = Object.values({ ...App().triggers, ...App().searches, ...App().creates }).flatMap(
      (operation) =>
        (operation.operation.inputFields ?? [])
          .filter((field): field is { key: string; dynamic?: string; search?: string } =>
            Boolean(field && typeof field === 'object' && 'key' in field && field.key === 'eventId'),
          )
          .map((field) => ({ operation: operation.key, dynamic: field.dynamic, search: field.search })),
    );
    expect(fields.length).toBeGreaterThanOrEqual(8);
    for (const field of fields) {
      expect(field).toEqual({
        operation: field.operation,
        dynamic: 'event_list.id.label',
        search: `${findEvent.key}.id`,
      });
    }
  });
});

/** The app's definition, as Zapier reads it. */
function App() {
  return AppDefinition as unknown as {
    triggers: Record<string, { key: string; operation: { canPaginate?: boolean; inputFields?: unknown[] } }>;
    searches: Record<string, { key: string; operation: { inputFields?: unknown[] } }>;
    creates: Record<string, { key: string; operation: { inputFields?: unknown[] } }>;
  };
}
