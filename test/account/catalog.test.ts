/** The public catalog read page by page: where a walk stops, what it says of how far it read, whose events. */
import { Readable } from 'node:stream';
import nock from 'nock';
import { type Bundle, type ZObject, errors } from 'zapier-platform-core';
import { catalogReach, ownEvents, walkCatalog } from '../../src/account/catalog';
import { type Event, paths } from '../../src/connect';
import { EVENT_TEXT_CHARS } from '../../src/connect/api';
import { SAMPLE_EVENT } from '../../src/mappers/event';
import { wireList, wireListFrame, wireObject } from '../../sandbox/wire';
import { BASE_URL, appTester, authData } from '../support/app';
import { catalogByNumber, catalogSaysTotal } from '../support/wireDialect';

const event = (n: number): Event => {
  const { description: _d, coverImageUrl: _c, ...base } = SAMPLE_EVENT;
  return { ...base, id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, slug: `event-${n}` };
};
const page = (n: number, count: number, total?: number) =>
  nock(BASE_URL, { badheaders: ['x-api-key'] })
    .get(paths.publicEvents())
    .query({ page: String(n), limit: '100' })
    .reply(
      200,
      wireList(
        Array.from({ length: count }, (_, i) => event((n - 1) * 100 + i + 1)),
        { page: n, limit: 100, ...(total === undefined ? {} : { total }) },
      ),
    );
const run = <T>(fn: (z: ZObject, bundle: Bundle) => Promise<T>) =>
  appTester(fn, { authData: authData() }) as Promise<T>;
const later = () => Date.now() + 600_000;

afterEach(() => nock.cleanAll());

it('reads to the end (a short page, or the total), handing each page to the visitor', async () => {
  page(1, 100, 250);
  page(2, 100, 250);
  page(3, 50, 250);
  const seen: number[] = [];
  const walk = await run((z, b) =>
    walkCatalog(z, b, { deadline: later(), visit: (events, n) => void seen.push(n, events.length) }),
  );
  expect(seen).toEqual([1, 100, 2, 100, 3, 50]);
  // A catalog whose lists hold no members beside their events (a bare array, `{ items, next }`) ends at its short
  // page without saying its total.
  const total = catalogSaysTotal() ? 250 : undefined;
  expect(walk).toEqual({ pagesRead: 3, lastPage: 3, eventsRead: 250, total, complete: true });
  expect(catalogReach(walk)).toBe(`3 pages of the public catalog (250${total ? ' of 250' : ''} events)`);
});

// Page 7 asked by its number: not played where the catalog continues by a cursor from its first page.
(catalogByNumber() ? it : it.skip)(
  'stops when the visitor has enough, and reads only the pages asked',
  async () => {
    page(1, 100);
    const second = page(2, 100);
    const enough = await run((z, b) => walkCatalog(z, b, { deadline: later(), visit: () => true }));
    expect(enough).toMatchObject({ pagesRead: 1, complete: false, stopped: 'enough' });
    expect(second.isDone()).toBe(false);
    nock.cleanAll();
    page(7, 100, 100_000);
    const one = await run((z, b) =>
      walkCatalog(z, b, { deadline: later(), fromPage: 7, toPage: 7, visit: () => false }),
    );
    expect(one).toMatchObject({ pagesRead: 1, lastPage: 7, complete: false });
    expect(one.stopped).toBeUndefined();
  },
);

it('stops at its deadline, reading nothing more, and says how far it read', async () => {
  nock(BASE_URL)
    .get(paths.publicEvents())
    .query(true)
    .delay(400)
    .reply(200, wireList([event(1)], { page: 1, limit: 100 }));
  const walk = await run((z, b) => walkCatalog(z, b, { deadline: Date.now() + 300, visit: () => false }));
  expect(walk).toMatchObject({ pagesRead: 0, complete: false, stopped: 'deadline' });
  expect(catalogReach(walk)).toBe('0 pages of the public catalog (0 events)');
});

it("keeps the account's own events, as the service answers for each, in their order", async () => {
  const events = [1, 2, 3, 4].map(event);
  for (const [i, e] of events.entries()) {
    nock(BASE_URL)
      .get(paths.submissions())
      .query((q) => q.eventId === e.id)
      .reply(
        i % 2 === 0 ? 200 : 404,
        i % 2 === 0 ? wireList([]) : { error: { code: 'NOT_FOUND', message: 'x' } },
      );
  }
  const { own, unchecked } = await run((z, b) => ownEvents(z, b, events, later()));
  expect(own.map((e) => e.slug)).toEqual(['event-1', 'event-3']);
  expect(unchecked).toBe(0);
  expect(nock.isDone()).toBe(true);
});

it('leaves unchecked the events it had no time to ask about', async () => {
  const { own, unchecked } = await run((z, b) => ownEvents(z, b, [event(1), event(2)], Date.now() - 1));
  expect([own, unchecked]).toEqual([[], 2]);
});

it('reads a page of big events as it arrives, holding each event to its bounds, never the page whole', async () => {
  // 20 events each with a 1 MB description and a 200 KB field the contract does not name.
  const description = `<p>Talks</p>${'iVBORw0KGgo'.repeat(100_000)}`;
  const frame = wireListFrame();
  const asked: Array<Record<string, unknown>> = [];
  const z = {
    request: async (options: Record<string, unknown>) => {
      asked.push(options);
      const records = Array.from({ length: 20 }, (_, i) =>
        JSON.stringify(wireObject({ ...event(i + 1), description, sponsorsHtml: 'z'.repeat(200_000) })),
      );
      return {
        status: 200,
        headers: { get: (name: string) => (name === 'content-type' ? 'application/json' : null) },
        body: Readable.from([frame.open, records.join(','), frame.close].map((piece) => Buffer.from(piece))),
        get content(): string {
          throw new Error('a page read whole');
        },
      };
    },
    console: { log: () => undefined },
    errors,
  } as unknown as ZObject;
  const sizes: number[] = [];
  const walk = await walkCatalog(z, { authData: authData() } as unknown as Bundle, {
    deadline: later(),
    visit: (events) => void sizes.push(...events.map((e) => JSON.stringify(e).length)),
  });
  expect(asked[0]).toMatchObject({ raw: true });
  expect(walk).toMatchObject({ pagesRead: 1, eventsRead: 20, complete: true });
  expect(sizes).toHaveLength(20);
  expect(Math.max(...sizes)).toBeLessThan(2 * EVENT_TEXT_CHARS);
});
