import nock from 'nock';
import { paths } from '../../src/connect';
import { SAMPLE_EVENT, eventSample } from '../../src/mappers/event';
import newEvent from '../../src/triggers/newEvent';
import { BASE_URL, appTester, authData, meta } from '../support/app';
import { MINUTE, T0, iso } from './fixtures';
import { functionOf } from '../../scripts/lib/app';
import { wireList } from '../../sandbox/wire';

type Item = Record<string, unknown> & { id: string };

const poll = (metaOverrides: Record<string, unknown> = {}) =>
  appTester(functionOf('triggers', newEvent.key), {
    authData: authData(),
    meta: meta(metaOverrides),
  }) as Promise<Item[]>;

const event = (id: string, createdMs: number, status = 'published') => ({
  ...SAMPLE_EVENT,
  id,
  slug: id,
  status,
  createdAt: iso(createdMs),
});

afterEach(() => nock.cleanAll());

it('asks for the 100 newest events and returns them newest first, id = event id, drafts included', async () => {
  const scope = nock(BASE_URL)
    .get(paths.events())
    .query({ limit: '100' })
    .reply(
      200,
      wireList([event('e-old', T0 - 9 * MINUTE), event('e-new', T0, 'draft'), event('e-mid', T0 - MINUTE)]),
    );
  const items = await poll();
  scope.done();
  expect(items.map((item) => [item.id, item.status])).toEqual([
    ['e-new', 'draft'],
    ['e-mid', 'published'],
    ['e-old', 'published'],
  ]);
  expect(Object.keys(items[0] ?? {}).sort()).toEqual(Object.keys(eventSample).sort());
});

it('asks for 3 events for the editor, and answers a Zap being turned on with ids only', async () => {
  const sample = nock(BASE_URL)
    .get(paths.events())
    .query({ limit: '3' })
    .reply(200, wireList([event('e-1', T0)]));
  expect(await poll({ isLoadingSample: true })).toHaveLength(1);
  sample.done();

  nock(BASE_URL)
    .get(paths.events())
    .query({ limit: '100' })
    .reply(200, wireList([event('e-1', T0), event('e-2', T0 - MINUTE)]));
  expect(await poll({ isPopulatingDedupe: true })).toEqual([{ id: 'e-1' }, { id: 'e-2' }]);
});
