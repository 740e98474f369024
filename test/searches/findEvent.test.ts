import nock from 'nock';
import findEvent from '../../src/searches/findEvent';
import { EVENTS_LIMIT_MAX, type Event, paths } from '../../src/connect';
import { SAMPLE_EVENT } from '../../src/mappers/event';
import { MAX_CATALOG_PAGES } from '../../src/searches/findEvent';
import { BASE_URL, appTester, authData, caught, errorMessage, meta } from '../support/app';
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
    .reply(200, { data, page, limit: 100, total });

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

  it('returns [] when nothing matches and never reads the catalog unless asked', async () => {
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

describe('in the public catalog', () => {
  const filler = (count: number) =>
    Array.from({ length: count }, (_, i) => event(`Meetup ${i}`, `meetup-${n}-${i}`));

  it('pages through the catalog and adds matches after your own, without duplicates', async () => {
    const mine = event('TechWeek Paris', 'techweek-paris');
    const theirs = event('TechWeek Berlin', 'techweek-berlin');
    own([mine]);
    catalogPage(1, [...filler(99), mine], 150);
    catalogPage(2, [theirs, ...filler(49)], 150);
    widget(mine);
    widget(theirs);
    const results = await run({ query: 'techweek', includeCatalog: true });
    expect(results.map((r) => [r.title, r.isOwnEvent])).toEqual([
      ['TechWeek Paris', true],
      ['TechWeek Berlin', false],
    ]);
    expect(nock.isDone()).toBe(true);
  });

  it(`reads at most ${MAX_CATALOG_PAGES} pages however large the catalog is`, async () => {
    own([]);
    const pages = Array.from({ length: MAX_CATALOG_PAGES + 2 }, (_, i) =>
      catalogPage(i + 1, filler(100), 100_000),
    );
    await expect(run({ query: 'techweek', includeCatalog: 'true' })).resolves.toEqual([]);
    expect(pages.map((p) => p.isDone())).toEqual([...Array(MAX_CATALOG_PAGES).fill(true), false, false]);
  });

  it('stops at a short page, and when the total is reached', async () => {
    own([]);
    catalogPage(1, filler(30), 30);
    const second = catalogPage(2, filler(1), 30);
    await expect(run({ query: 'nothing-like-this', includeCatalog: 'yes' })).resolves.toEqual([]);
    expect(second.isDone()).toBe(false);
  });
});
