import nock from 'nock';
import type { Bundle } from 'zapier-platform-core';
import { eventContext } from '../../src/account/events';
import { paths } from '../../src/connect';
import { SAMPLE_EVENT } from '../../src/mappers/event';
import { NO_EVENT_CONTEXT } from '../../src/mappers/submission';
import { BASE_URL, appTester, authData, testerCache } from '../support/app';
import { wireList } from '../../sandbox/wire';

describe('eventContext', () => {
  const run = (eventId: string) =>
    appTester((z: Parameters<typeof eventContext>[0], b: Bundle) => eventContext(z, b, eventId), {
      authData: authData(),
    });

  beforeEach(() => {
    testerCache(appTester).zcacheTestObj = {};
  });
  afterEach(() => nock.cleanAll());

  it('looks the event up once and remembers its title and dates', async () => {
    const scope = nock(BASE_URL)
      .get(paths.events())
      .query({ limit: '100' })
      .reply(200, wireList([SAMPLE_EVENT]));
    const expected = {
      eventTitle: 'TechWeek 2026',
      eventSlug: 'techweek-2026',
      eventStartsAt: '2026-12-01T08:00:00.000Z',
      eventEndsAt: '2026-12-03T18:00:00.000Z',
    };
    await expect(run(SAMPLE_EVENT.id)).resolves.toEqual(expected);
    await expect(run(SAMPLE_EVENT.id)).resolves.toEqual(expected);
    scope.done();
  });

  it("remembers an event the service says is not the account's, so polls do not look it up again and again", async () => {
    const eventId = '00000000-0000-4000-8000-000000000000';
    const scope = nock(BASE_URL).get(paths.events()).query(true).reply(200, wireList([]));
    const owner = nock(BASE_URL)
      .get(paths.submissions())
      .query((q) => q.eventId === eventId)
      .reply(404, { error: { code: 'NOT_FOUND', message: 'Not found' } });
    await expect(run(eventId)).resolves.toEqual(NO_EVENT_CONTEXT);
    await expect(run(eventId)).resolves.toEqual(NO_EVENT_CONTEXT);
    scope.done();
    owner.done();
  });

  it('adds the title and dates of events older than the newest 100, reading the events list once for all', async () => {
    const at = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString();
    const eventAt = (n: number, title: string) => ({
      ...SAMPLE_EVENT,
      id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
      slug: `meetup-${n}`,
      title,
      createdAt: at(n),
      startsAt: '2025-03-01T09:00:00.000Z',
      endsAt: '2025-03-01T18:00:00.000Z',
    });
    const newest = Array.from({ length: 100 }, (_, i) => eventAt(1000 + i, `Recent ${i}`));
    const older = [eventAt(1, 'Meetup One'), eventAt(2, 'Meetup Two')];
    const list = nock(BASE_URL).get(paths.events()).query(true).reply(200, wireList(newest));
    const owner = nock(BASE_URL)
      .get(paths.submissions())
      .query((q) => older.some((e) => e.id === q.eventId))
      .twice()
      .reply(200, wireList([]));
    const catalog = nock(BASE_URL)
      .get(paths.publicEvents())
      .query({ page: '1', limit: '100' })
      .twice()
      .reply(200, wireList(older, { page: 1, limit: 100, total: 2 }));
    for (let delivery = 0; delivery < 5; delivery++) {
      await expect(run(older[0]!.id)).resolves.toEqual({
        eventTitle: 'Meetup One',
        eventSlug: 'meetup-1',
        eventStartsAt: '2025-03-01T09:00:00.000Z',
        eventEndsAt: '2025-03-01T18:00:00.000Z',
      });
      await expect(run(older[1]!.id)).resolves.toMatchObject({ eventTitle: 'Meetup Two' });
      await expect(run(newest[3]!.id)).resolves.toMatchObject({ eventTitle: 'Recent 3' });
    }
    list.done();
    owner.done();
    catalog.done();
  });

  it('does not remember a failed lookup', async () => {
    nock(BASE_URL).get(paths.events()).query(true).reply(500, 'oops');
    await expect(run(SAMPLE_EVENT.id)).resolves.toEqual(NO_EVENT_CONTEXT);
    nock(BASE_URL)
      .get(paths.events())
      .query(true)
      .reply(200, wireList([SAMPLE_EVENT]));
    await expect(run(SAMPLE_EVENT.id)).resolves.toMatchObject({ eventTitle: 'TechWeek 2026' });
  });
});
