import nock from 'nock';
import type { Bundle, ZObject } from 'zapier-platform-core';
import findEvent from '../../src/searches/findEvent';
import { EVENTS_LIMIT_MAX, type Event, paths } from '../../src/connect';
import { SAMPLE_EVENT } from '../../src/mappers/event';
import { setRunLimits } from '../support/limits';
import { BASE_URL, appTester, authData, caught, errorMessage, meta } from '../support/app';
import { catalogSaysTotal } from '../support/wireDialect';
import { functionOf } from '../../scripts/lib/app';
import { wireList } from '../../sandbox/wire';

const perform = functionOf('searches', findEvent.key);
const run = (inputData: Record<string, unknown>) =>
  appTester(perform, { authData: authData(), inputData, meta: meta() }, true) as Promise<
    Array<Record<string, unknown>>
  >;

let n = 0;
const event = (title: string, slug: string, overrides: Partial<Event> = {}): Event => {
  n += 1;
  const { description: _d, coverImageUrl: _c, ...base } = SAMPLE_EVENT;
  return {
    ...base,
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    title,
    slug,
    createdAt: new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString(),
    ...overrides,
  };
};

const own = (events: Event[]) =>
  // As many of your events as the service lists: the largest limit the app asks.
  nock(BASE_URL)
    .get(paths.events())
    .query({ limit: String(EVENTS_LIMIT_MAX) })
    .reply(200, wireList(events));
const widget = (e: Event, extra: Record<string, unknown> = {}) =>
  nock(BASE_URL, { badheaders: ['x-api-key'] })
    .get(paths.eventWidget(e.slug))
    .reply(200, {
      ...e,
      description: `About ${e.title}`,
      coverImageUrl: `https://img.example/${e.slug}.jpg`,
      ...extra,
    });
const catalogPage = (page: number, data: Event[], total: number) =>
  nock(BASE_URL, { badheaders: ['x-api-key'] })
    .get(paths.publicEvents())
    .query({ page: String(page), limit: '100' })
    .reply(200, wireList(data, { page, limit: 100, total }));

afterEach(() => nock.cleanAll());

describe('in your events', () => {
  it('matches title or slug text without case, accents or punctuation, best match first, enriched when published', async () => {
    const contains = event('Grand Café TechWeek Paris', 'grand-cafe-techweek-paris');
    const exactSlug = event('Something else', 'techweek-paris', { status: 'draft' });
    const starts = event('TechWeek Paris 2026', 'tw-paris-2026');
    const other = event('Data Summit', 'data-summit');
    own([contains, other, exactSlug, starts]);
    widget(contains);
    widget(starts);
    const results = await run({ query: '  TECHWEEK  pâris ' });
    expect(results.map((r) => r.title)).toEqual([
      'Something else',
      'TechWeek Paris 2026',
      'Grand Café TechWeek Paris',
    ]);
    expect(results[0]).toMatchObject({
      status: 'draft',
      description: null,
      coverImageUrl: null,
      isOwnEvent: true,
    });
    expect(results[1]).toMatchObject({
      description: 'About TechWeek Paris 2026',
      coverImageUrl: 'https://img.example/tw-paris-2026.jpg',
      isPublished: true,
    });
    expect(nock.isDone()).toBe(true);
  });

  it('returns [] when nothing matches, and never reads the catalog when your list holds all of your events', async () => {
    own([event('Data Summit', 'data-summit')]);
    const catalog = catalogPage(1, [], 0);
    await expect(run({ query: 'techweek' })).resolves.toEqual([]);
    expect(catalog.isDone()).toBe(false);
  });

  it('a widget that fails leaves the description empty instead of failing the search', async () => {
    const e = event('TechWeek', 'techweek');
    own([e]);
    nock(BASE_URL).get(paths.eventWidget('techweek')).reply(500, 'oops');
    const [result] = await run({ query: 'techweek' });
    expect(result).toMatchObject({ title: 'TechWeek', description: null });
  });

  it('refuses a search text without letters or digits', async () => {
    const error = await caught(() => run({ query: ' -- ' }));
    expect(errorMessage(error)).toMatch(
      /^Type a word of the event's title or slug .*has no letters or digits/,
    );
  });
});

describe('past your newest 100, in the public catalog', () => {
  const filler = (count: number, prefix = 'Meetup') =>
    Array.from({ length: count }, (_, i) => event(`${prefix} ${i}`, `${prefix.toLowerCase()}-${n}-${i}`));
  /** The service's answer to the ownership read of `e`: the account's own event, or not-found. */
  const owner = (e: Event, own: boolean) =>
    nock(BASE_URL)
      .get(paths.submissions())
      .query((q) => q.eventId === e.id && typeof q.since === 'string')
      .reply(own ? 200 : 404, own ? wireList([]) : { error: { code: 'NOT_FOUND', message: 'Not found' } });
  /** A z whose log lines are kept. */
  const logged = async (inputData: Record<string, unknown>) => {
    const lines: string[] = [];
    const results = (await appTester(
      (z: ZObject, bundle: Bundle) =>
        perform(
          Object.assign(Object.create(z) as ZObject, {
            console: { ...z.console, log: (line: string) => lines.push(line) },
          }),
          bundle,
        ),
      { authData: authData(), inputData, meta: meta() },
    )) as Array<Record<string, unknown>>;
    return { results, lines };
  };

  it("finds your older published events by title and never answers another organizer's", async () => {
    const mine = event('TechWeek Paris', 'techweek-paris');
    const theirs = event('TechWeek Berlin', 'techweek-berlin');
    own(filler(100, 'Recent'));
    catalogPage(1, [...filler(98), theirs, mine], 150);
    catalogPage(2, filler(50), 150);
    owner(mine, true);
    owner(theirs, false);
    widget(mine);
    const results = await run({ query: 'techweek' });
    expect(results.map((r) => [r.title, r.isOwnEvent])).toEqual([['TechWeek Paris', true]]);
    expect(nock.isDone()).toBe(true);
  });

  it('finds one by its exact slug or public link at once, without reading the catalog', async () => {
    const mine = event('TechWeek Paris', 'techweek-paris');
    for (const query of ['techweek-paris', `https://front.example/e/techweek-paris`]) {
      own(filler(100, 'Recent'));
      widget(mine);
      owner(mine, true);
      widget(mine);
      const catalog = catalogPage(1, [], 0);
      const results = await run({ query });
      expect(results.map((r) => r.id)).toEqual([mine.id]);
      expect(catalog.isDone()).toBe(false);
      nock.cleanAll();
    }
  });

  it("answers [] for another organizer's slug or link", async () => {
    const theirs = event('TechWeek Berlin', 'techweek-berlin');
    own(filler(100, 'Recent'));
    widget(theirs);
    owner(theirs, false);
    await expect(run({ query: 'https://front.example/e/techweek-berlin' })).resolves.toEqual([]);
    expect(nock.isDone()).toBe(true);
  });

  it("answers [] for another organizer's exact slug from that one event: its owner asked once, no catalog read", async () => {
    const theirs = event('Summit Lyon', 'summit-lyon-2026');
    own(filler(100, 'Recent'));
    widget(theirs);
    const asked = owner(theirs, false);
    const catalog = catalogPage(1, [theirs], 1);
    const { results, lines } = await logged({ query: 'summit-lyon-2026' });
    expect(results).toEqual([]);
    expect(asked.isDone()).toBe(true);
    expect(catalog.isDone()).toBe(false);
    expect(lines).toContainEqual(
      expect.stringMatching(/"summit-lyon-2026" names one event, and it is another organizer's event/),
    );
  });

  it('answers the slug of one of your newest 100 from your list, without reading the catalog or a time-limit line', async () => {
    const mine = event('TechWeek Paris', 'techweek-paris');
    own([...filler(99, 'Recent'), mine]);
    widget(mine);
    const catalog = catalogPage(1, filler(100), 1000);
    const { results, lines } = await logged({ query: 'techweek-paris' });
    expect(results.map((r) => r.id)).toEqual([mine.id]);
    expect(catalog.isDone()).toBe(false);
    expect(lines.filter((line) => /time limit/.test(line))).toEqual([]);
  });

  // How far the catalog goes is read from its `total`, which a dialect whose lists hold no members beside their
  // records (a bare array, `{ items, next }`) cannot say: its log lines then say how far the search read only.
  const total = catalogSaysTotal();

  it('on a catalog of 100,000 events, gives up at its time limit with [] and a log line saying how far it read', async () => {
    // On a clock of its own: each catalog page takes 20 s of it, against a search limit of a minute, however
    // fast or busy the machine (the limit is read from `Date.now()`).
    const restore = setRunLimits({ searchMs: 60_000 });
    let now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockImplementation(() => now);
    try {
      own(filler(100, 'Recent'));
      nock(BASE_URL, { badheaders: ['x-api-key'] })
        .get(paths.publicEvents())
        .query((q) => q.limit === '100')
        .times(1000)
        .reply(200, (uri) => {
          now += 20_000;
          const page = Number(new URL(uri, BASE_URL).searchParams.get('page'));
          return wireList(filler(100), { page, limit: 100, total: 100_000 });
        });
      const { results, lines } = await logged({ query: 'never such a title' });
      expect(results).toEqual([]);
      expect(lines).toContainEqual(
        expect.stringMatching(
          total
            ? /^Find Event searched [\d,]+ pages? of the public catalog \([\d,]+ of 100,000 events\) for "never such a title" \(pages 1 to [\d,]+ of about 1000\) and stopped at its time limit/
            : /^Find Event searched [\d,]+ pages? of the public catalog \([\d,]+ events\) for "never such a title" \(pages 1 to [\d,]+\) and stopped at its time limit/,
        ),
      );
    } finally {
      clock.mockRestore();
      restore();
    }
  });

  it("asks the service about at most 200 matches a search, most of them other organizers', and says so", async () => {
    own(filler(100, 'Recent'));
    for (let page = 1; page <= 3; page++) catalogPage(page, filler(100, 'Techweek'), 100_000);
    const asked = nock(BASE_URL)
      .get(paths.submissions())
      .query(true)
      .times(300)
      .reply(404, { error: { code: 'NOT_FOUND', message: 'Not found' } });
    const { results, lines } = await logged({ query: 'techweek' });
    expect(results).toEqual([]);
    expect(asked.pendingMocks()).toHaveLength(1);
    expect(lines).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^Find Event asked the service about 200 events matching "techweek" in 2 pages of the public catalog \\(200${total ? ' of 100,000' : ''} events\\), most of them other organizers', and stopped there`,
        ),
      ),
    );
  });

  it('stops at a short page, and when the total is reached', async () => {
    own(filler(100, 'Recent'));
    catalogPage(1, filler(30), 30);
    const second = catalogPage(2, filler(1), 30);
    await expect(run({ query: 'nothing like this' })).resolves.toEqual([]);
    expect(second.isDone()).toBe(false);
  });
});
