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

  it('remembers an event the service does not list, so polls do not look it up again and again', async () => {
    const scope = nock(BASE_URL).get(paths.events()).query(true).twice().reply(200, wireList([]));
    await expect(run('00000000-0000-4000-8000-000000000000')).resolves.toEqual(NO_EVENT_CONTEXT);
    await expect(run('00000000-0000-4000-8000-000000000000')).resolves.toEqual(NO_EVENT_CONTEXT);
    scope.done();
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
