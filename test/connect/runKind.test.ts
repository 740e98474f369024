/**
 * A temporary failure says what follows it in the run that met it: a poll checks again at its next poll, but
 * a search, a dropdown, a trigger's test and a webhook's run do not, and never say so. An ownership read
 * names what it asked, not "the registrations of this event".
 */
import nock from 'nock';
import { type Event, LIST_LIMIT_MAX, paths } from '../../src/connect';
import { SAMPLE_EVENT } from '../../src/mappers/event';
import { BASE_URL, appTester, authData, caught, errorMessage, hookOperation, meta } from '../support/app';
import { functionOf } from '../../scripts/lib/app';
import { wireError, wireList } from '../../sandbox/wire';

const event = (n: number): Event => {
  const { description: _d, coverImageUrl: _c, ...base } = SAMPLE_EVENT;
  return {
    ...base,
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    slug: `event-${n}`,
    title: `Event ${n}`,
    createdAt: new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString(),
  };
};
/** The account's newest events: as many as the events list answers, so older ones are looked for. */
const NEWEST = Array.from({ length: LIST_LIMIT_MAX }, (_, i) => event(1000 - i));
const OLDER = event(7);

const newest = () => nock(BASE_URL).get(paths.events()).query(true).reply(200, wireList(NEWEST)).persist();
const ownershipFails = () =>
  nock(BASE_URL)
    .get(paths.submissions())
    .query(true)
    .reply(500, wireError('INTERNAL', 'database unavailable'))
    .persist();
const catalog = () =>
  nock(BASE_URL)
    .get(paths.publicEvents())
    .query(true)
    .reply(200, wireList([OLDER], { page: 1, limit: 100, total: 1 }))
    .persist();

afterEach(() => nock.cleanAll());

const failure = async (run: () => Promise<unknown>): Promise<string> => errorMessage(await caught(run));

const OWNERSHIP = new RegExp(
  `^The service had a problem while fetching the answer to whether event ${OLDER.id} is one of your events \\(HTTP 500, INTERNAL: database unavailable\\)\\.`,
);

it('a search: the ownership read is named, and the advice is to run the step again, not a poll', async () => {
  newest();
  ownershipFails();
  const message = await failure(() =>
    appTester(functionOf('searches', 'find_agenda'), {
      authData: authData(),
      inputData: { eventId: OLDER.id },
      meta: meta(),
    }),
  );
  expect(message).toMatch(OWNERSHIP);
  expect(message).toMatch(/test the step again in a few minutes, or replay a stopped Zap run/);
  expect(message).not.toMatch(/poll|registrations/);
});

it("Find Event's catalog search says the same", async () => {
  newest();
  catalog();
  ownershipFails();
  const message = await failure(() =>
    appTester(functionOf('searches', 'find_event'), {
      authData: authData(),
      inputData: { query: 'Event 7' },
      meta: meta(),
    }),
  );
  expect(message).toMatch(OWNERSHIP);
  expect(message).not.toMatch(/poll|registrations/);
});

it("the Event dropdown's Load more: load the list again", async () => {
  newest();
  catalog();
  ownershipFails();
  const message = await failure(() =>
    appTester(functionOf('triggers', 'event_list'), {
      authData: authData(),
      inputData: {},
      meta: meta({ isFillingDynamicDropdown: true, page: 1 }),
    }),
  );
  expect(message).toMatch(OWNERSHIP);
  expect(message).toMatch(/load the list again in a few minutes\.$/);
  expect(message).not.toMatch(/poll|registrations/);
});

it("an instant trigger's test: test the trigger again", async () => {
  nock(BASE_URL).get(paths.events()).query(true).reply(500, wireError('INTERNAL', 'down')).persist();
  const message = await failure(() =>
    appTester(hookOperation('event_published').performList, {
      authData: authData(),
      inputData: {},
      meta: meta(),
    }),
  );
  expect(message).toMatch(/^The service had a problem while fetching the list of your events \(HTTP 500/);
  expect(message).toMatch(/test the trigger again in a few minutes\.$/);
  expect(message).not.toMatch(/poll/);
});

it('a polling trigger: it checks again at its next poll', async () => {
  nock(BASE_URL).get(paths.events()).query(true).reply(500, wireError('INTERNAL', 'down')).persist();
  const message = await failure(() =>
    appTester(functionOf('triggers', 'new_event'), { authData: authData(), inputData: {}, meta: meta() }),
  );
  expect(message).toMatch(/this trigger checks again at its next poll and misses nothing\.$/);
  expect(message).not.toMatch(/search|Zap history/);
});
