/**
 * An agency with 300 events against a service whose public catalog ignores `page` and continues by a cursor
 * (`catalog-cursor`), with the app taught that in `src/connect/dialect.ts` alone (`catalog`): the Event
 * dropdown's "Load more" reads the catalog from its start, each page from the continuation the page before
 * named, and reaches every older published event once, past pages that hold only another organizer's events; Find Event walks the catalog by the same
 * continuations to the oldest event; an event past the newest 100 is taken by ID.
 */
import {
  AGENCY_TENANT,
  type Deviation,
  type RunningSandbox,
  agencySlug,
  sandboxContext,
  startSandbox,
} from '../../sandbox';
import { DeviationSet } from '../../sandbox/deviations';
import { LIST_LIMIT_MAX } from '../../src/connect';
import type * as Dialects from '../../src/connect/dialect';
import eventList from '../../src/triggers/eventList';
import findAgenda from '../../src/searches/findAgenda';
import findEvent from '../../src/searches/findEvent';
import { functionOf } from '../../scripts/lib/app';
import { appTester, meta } from '../support/app';
import { type Choice, everyDropdownPage } from '../support/dropdown';
import { useGenerousTimeLimits } from '../support/limits';

jest.mock('../../src/connect/dialect', () => {
  const actual = jest.requireActual<typeof Dialects>('../../src/connect/dialect');
  const played = jest.requireActual<typeof import('../support/serviceDialect')>('../support/serviceDialect');
  const base = played.dialectOf(actual, played.playedSwitches());
  const catalog = { member: actual.besideRecords(base, 'next'), cursor: 'cursor' };
  return { ...actual, DIALECT: { ...base, catalog } };
});

useGenerousTimeLimits();

// A catalog cursor needs a member beside the events: not played where a list is a bare array (`bare-arrays`).
const playable = JSON.stringify(new DeviationSet(['catalog-cursor']).listBody([], { next: 'c_1' })).includes(
  'c_1',
);
const play = playable ? it : it.skip;

const EVENTS = 300;
/** Published events of another organizer, all in one place of the catalog. */
const OTHERS = 250;
/** The agency makes every tenth event a draft (`sandbox/seed-agency.ts`): 5, 15, 25, … */
const isDraft = (n: number) => n % 10 === 5;

let sandbox: RunningSandbox;
let authData: Record<string, string>;
/** The agency's events by number (1 = the oldest), as the sandbox holds them. */
const ids = new Map<number, string>();

beforeAll(async () => {
  if (!playable) return;
  const deviations: Deviation[] = ['catalog-cursor'];
  sandbox = await startSandbox({ deviations, agency: EVENTS });
  authData = {
    apiKey: AGENCY_TENANT.apiKey,
    baseUrl: sandbox.url,
    frontUrl: sandbox.url,
    embedUrl: sandbox.url,
  };
  const { state } = sandboxContext(sandbox.app);
  for (const event of state.eventsBySlug.values()) {
    const n = /^meridian-meetup-(\d{4})$/.exec(event.slug)?.[1];
    if (n) ids.set(Number(n), event.id);
  }
  // Another organizer's events, all starting just after the agency's 150th: in the catalog (soonest first) at
  // least one whole page between the agency's older events holds none of them.
  const other = [...state.tenants.values()].find((tenant) => tenant.id !== AGENCY_TENANT.id);
  const after = state.eventsBySlug.get(agencySlug(150))?.startsAt as string;
  for (let i = 0; i < OTHERS; i++) {
    state.createEvent(
      other as NonNullable<typeof other>,
      {
        title: `Other Organizer Night ${i}`,
        startsAt: after,
        endsAt: after,
        timezone: 'Europe/Paris',
        venueName: 'Elsewhere',
        status: 'published',
      },
      { emit: false },
    );
  }
});

afterAll(() => sandbox?.close());

const run = <T>(operation: ReturnType<typeof functionOf>, inputData: Record<string, unknown>, extra = {}) =>
  appTester(operation, { authData, inputData, meta: meta(extra) }) as Promise<T>;
const dropdownPage = (page: number) =>
  run<Choice[]>(functionOf('triggers', eventList.key), {}, { isFillingDynamicDropdown: true, page });

play('the catalog answers no page number: page 2 repeats page 1, a cursor names the next', async () => {
  const answer = await fetch(`${sandbox.url}/api/v1/public/events?page=2&limit=2`);
  expect(JSON.stringify(await answer.json())).toMatch(/"next":"c_2"/);
});

play(
  '"Load more" pages the newest 100, then every older published event by the catalog\'s cursor, each once, then ends, past pages of another organizer\'s events only',
  async () => {
    const [, ...older] = await everyDropdownPage(dropdownPage);
    const olderPublished = [...Array(EVENTS - LIST_LIMIT_MAX).keys()]
      .map((i) => i + 1)
      .filter((n) => !isDraft(n));
    expect(new Set(older.flat().map((choice) => choice.id))).toEqual(
      new Set(olderPublished.map((n) => ids.get(n))),
    );
  },
);

play('Find Event walks the catalog by its cursor to the oldest event, by title and by slug', async () => {
  for (const query of ['Meridian Meetup 0001', agencySlug(1)]) {
    const found = await run<Array<{ id: string; isOwnEvent: boolean }>>(
      functionOf('searches', findEvent.key),
      {
        query,
      },
    );
    expect([query, found.map((event) => event.id)]).toEqual([query, [ids.get(1)]]);
    expect(found[0]?.isOwnEvent).toBe(true);
  }
});

play(
  'takes the oldest event by ID and by slug, its record read from the catalog past the newest 100',
  async () => {
    for (const eventId of [ids.get(1) as string, agencySlug(1)]) {
      const [agenda] = await run<Array<{ sessionCount: number; eventTitle: string }>>(
        functionOf('searches', findAgenda.key),
        { eventId },
      );
      expect(agenda?.sessionCount).toBeGreaterThan(0);
      expect(agenda?.eventTitle).toMatch(/^Meridian Meetup 0001/);
    }
  },
);
