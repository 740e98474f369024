import nock from 'nock';
import { paths } from '../../src/connect';
import { SAMPLE_EVENT } from '../../src/mappers/event';
import { eventField } from '../../src/fields/event';
import { EVENT_LIST_TRIGGER_KEY } from '../../src/fields/keys';
import eventList from '../../src/triggers/eventList';
import { App, BASE_URL, appTester, authData, meta } from '../support/app';
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
