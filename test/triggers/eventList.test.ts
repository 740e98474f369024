import nock from 'nock';
import { paths } from '../../src/connect';
import { SAMPLE_EVENT } from '../../src/mappers/event';
import { eventField } from '../../src/fields/event';
import { EVENT_LIST_TRIGGER_KEY } from '../../src/fields/keys';
import eventList from '../../src/triggers/eventList';
import { App, BASE_URL, appTester, authData, meta } from '../support/app';
import { catalogByNumber } from '../support/wireDialect';
import { T0, iso } from './fixtures';
import { functionOf } from '../../scripts/lib/app';
import { wireList } from '../../sandbox/wire';

afterEach(() => nock.cleanAll());

it('feeds the Event dropdown: newest first, labelled with title, day and status', async () => {
  nock(BASE_URL)
    .get(paths.events())
    .query({ limit: '100' })
    .reply(
      200,
      wireList([
        { ...SAMPLE_EVENT, id: 'e-old', createdAt: iso(T0 - 1000) },
        {
          ...SAMPLE_EVENT,
          id: 'e-new',
          title: 'Expo 2027',
          status: 'draft',
          startsAt: null,
          createdAt: iso(T0),
        },
      ]),
    );
  const items = (await appTester(functionOf('triggers', eventList.key), {
    authData: authData(),
    meta: meta({ isFillingDynamicDropdown: true }),
  })) as Array<{ id: string; label: string }>;
  expect(items.map((item) => [item.id, item.label])).toEqual([
    ['e-new', 'Expo 2027 (draft)'],
    ['e-old', 'TechWeek 2026 — 1 Dec 2026 (published)'],
  ]);
});

it('every operation that takes an event uses the one shared dropdown field', () => {
  const operations = [
    ...Object.values(App.triggers),
    ...Object.values(App.searches),
    ...Object.values(App.creates),
  ];
  const eventInputs = operations.flatMap((op) =>
    (op.operation.inputFields ?? [])
      .filter((f) => typeof f === 'object' && f !== null)
      .filter((f) => f.key === 'eventId')
      .map((f) => [op.key, f.dynamic]),
  );
  expect(eventInputs.length).toBeGreaterThanOrEqual(1);
  for (const [key, dynamic] of eventInputs)
    expect([key, dynamic]).toEqual([key, `${EVENT_LIST_TRIGGER_KEY}.id.label`]);
  expect(eventField({ required: true }).dynamic).toBe('event_list.id.label');
});

describe('"Load more" past the newest 100', () => {
  const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  const event = (n: number) => ({
    ...SAMPLE_EVENT,
    id: id(n),
    slug: `event-${n}`,
    title: `Event ${n}`,
    createdAt: iso(T0 - 1_000_000 + n),
  });
  const newest = Array.from({ length: 100 }, (_, i) => event(1000 + i));
  /** Dropdown page `p`; `fresh` starts from an empty cache. */
  const page = (p: number, fresh = true) =>
    appTester(
      functionOf('triggers', eventList.key),
      { authData: authData(), meta: meta({ isFillingDynamicDropdown: true, page: p }) },
      fresh,
    ) as Promise<Array<{ id: string }>>;

  it("shows a catalog page's events of the account, asking the service about each once in 10 minutes", async () => {
    nock(BASE_URL).get(paths.events()).query({ limit: '100' }).reply(200, wireList(newest));
    // Catalog page 1: three older events (one the account's, two another organizer's) and one of the newest.
    nock(BASE_URL)
      .get(paths.publicEvents())
      .query({ page: '1', limit: '100' })
      .twice()
      .reply(200, wireList([event(1), event(2), event(3), newest[0]], { page: 1, limit: 100, total: 4 }));
    const asked = nock(BASE_URL)
      .get(paths.submissions())
      .query(true)
      .times(3)
      .reply((uri) =>
        uri.includes(id(2)) ? [200, wireList([])] : [404, { error: { code: 'NOT_FOUND', message: 'x' } }],
      );
    await expect(page(1)).resolves.toEqual([expect.objectContaining({ id: id(2) })]);
    expect(asked.isDone()).toBe(true);
    // Again: the answers kept for the page are used, the service is not asked again.
    const again = nock(BASE_URL).get(paths.submissions()).query(true).reply(500, 'asked again');
    await expect(page(1, false)).resolves.toEqual([expect.objectContaining({ id: id(2) })]);
    expect(again.isDone()).toBe(false);
  });

  /** `count` published events of other organizers, numbered from `from`, created when event `near` was. */
  const others = (from: number, count: number, near: number) =>
    Array.from({ length: count }, (_, i) => ({ ...event(from + i), createdAt: event(near).createdAt }));
  /**
   * A catalog paged by number, oldest first as the sandbox's, 100 events a page: `pages[i]` is page i + 1. The
   * service answers for the account's events `own` only. Where lists hold no members beside their records (a bare
   * array, `{ items, next }`), the catalog does not say its size, and the app counts its pages.
   */
  const catalog = (pages: unknown[][], own: number[]) => {
    nock(BASE_URL).get(paths.events()).query({ limit: '100' }).reply(200, wireList(newest)).persist();
    const total = pages.flat().length;
    for (const [i, data] of [...pages, [], [], []].entries())
      nock(BASE_URL)
        .get(paths.publicEvents())
        .query({ page: String(i + 1), limit: '100' })
        .reply(200, wireList(data, { page: i + 1, limit: 100, total }))
        .persist();
    nock(BASE_URL)
      .get(paths.submissions())
      .query(true)
      .reply((uri) =>
        own.some((n) => uri.includes(id(n)))
          ? [200, wireList([])]
          : [404, { error: { code: 'NOT_FOUND', message: 'Not found' } }],
      )
      .persist();
  };

  // The end that holds the newer events is reached by page number: not where the catalog continues by a cursor from
  // its first page (`catalog-cursor`; the next test plays it, read from that first page).
  (catalogByNumber() ? it : it.skip)(
    'reads the catalog from the end that holds the newer events, past pages with none of the older ones',
    async () => {
      // Oldest first, as the sandbox's catalog: page 3 holds only the account's newest events.
      catalog(
        [
          [event(1), event(2), ...others(5000, 98, 2)],
          [event(10), event(11), ...others(6000, 98, 11)],
          newest.slice(0, 50),
        ],
        [1, 2, 10, 11],
      );
      await expect(page(1)).resolves.toEqual([
        expect.objectContaining({ id: id(11) }),
        expect.objectContaining({ id: id(10) }),
      ]);
      await expect(page(2, false)).resolves.toEqual([
        expect.objectContaining({ id: id(2) }),
        expect.objectContaining({ id: id(1) }),
      ]);
      await expect(page(3, false)).resolves.toEqual([]);
    },
  );

  it("passes over the pages that hold only other organizers' events, to the account's oldest", async () => {
    catalog(
      [
        [event(1), event(2), ...others(5000, 98, 2)],
        others(6000, 100, 3),
        others(7000, 100, 4),
        [event(10), event(11), ...others(8000, 98, 11)],
        others(9000, 100, 12),
        newest,
      ],
      [1, 2, 10, 11],
    );
    // From the end that holds the newer events; from the first page where the catalog continues by a cursor.
    const pages = [
      [id(11), id(10)],
      [id(2), id(1)],
    ];
    if (!catalogByNumber()) pages.reverse();
    for (const [i, ids] of pages.entries())
      await expect(page(i + 1, i === 0)).resolves.toEqual(ids.map((id) => expect.objectContaining({ id })));
    await expect(page(3, false)).resolves.toEqual([]);
  });

  it('has nothing past the first page for an account whose list holds all its events', async () => {
    nock(BASE_URL)
      .get(paths.events())
      .query({ limit: '100' })
      .reply(200, wireList(newest.slice(0, 40)));
    const catalog = nock(BASE_URL).get(paths.publicEvents()).query(true).reply(200, wireList([]));
    await expect(page(1)).resolves.toEqual([]);
    expect(catalog.isDone()).toBe(false);
  });
});
