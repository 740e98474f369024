/** The Event field: search-powered, and its value read as an event ID, a slug or a public page link. */
import type { ZObject } from 'zapier-platform-core';
import { eventField, eventOfLink, requiredEventInput } from '../../src/fields/event';
import findEvent from '../../src/searches/findEvent';
import { App, appTester, caught, errorMessage } from '../support/app';

const ID = '7d0c6f1e-2f6a-4a7e-9a51-3f0e1b2c4d5e';
const read = (value: unknown) =>
  appTester((z: ZObject) => requiredEventInput(z, { inputData: { eventId: value } }));

it('names Find Event as its search, required or not', () => {
  expect(eventField({ required: true }).search).toBe(`${findEvent.key}.id`);
  expect(eventField({ required: false }).search).toBe(`${findEvent.key}.id`);
});

/** The Event field of every operation that has one, with its help. */
const eventFields = () =>
  Object.values({ ...App.triggers, ...App.searches, ...App.creates }).flatMap((operation) =>
    (operation.operation.inputFields ?? [])
      .filter((field): field is { key: string; helpText?: string } =>
        Boolean(field && typeof field === 'object' && 'key' in field && field.key === 'eventId'),
      )
      .map((field) => [operation.key, field.helpText ?? ''] as const),
  );

it("every Event field's help says, as the others do, that its search finds older events", () => {
  const fields = eventFields();
  expect(fields.length).toBeGreaterThanOrEqual(8);
  for (const [operation, help] of fields) {
    expect([operation, help]).toEqual([
      operation,
      expect.stringMatching(
        /\(older ones are found with the search\)|\(its search finds older ones\)|\*\*Load more\*\* shows older/,
      ),
    ]);
    expect([operation, help]).toEqual([
      operation,
      expect.not.stringMatching(/100 newest events\.$|The list shows your/),
    ]);
  }
});

it.each<[string, unknown]>([
  [ID, { id: ID }],
  [` ${ID.toUpperCase()} `, { id: ID.toUpperCase() }],
  ['techweek-2026', { slug: 'techweek-2026' }],
  ['https://front.example/e/techweek-2026', { slug: 'techweek-2026' }],
  ['https://front.example/e/techweek-2026/?utm_source=mail#agenda', { slug: 'techweek-2026' }],
  [`https://front.example/embed/${ID}/map/plan_main?list=1`, { id: ID }],
])('reads %j as %j', async (value, expected) => {
  await expect(read(value)).resolves.toEqual(expected);
});

it.each(['TechWeek 2026', 'https://front.example/', 'ftp://front.example/e/x', '..'])(
  'refuses %j before any request, saying what it takes',
  async (value) => {
    expect(errorMessage(await caught(() => read(value)))).toMatch(
      /is not an event ID, slug or public page link\. Choose the event in the Event field \(its search finds any of your events by title\)/,
    );
  },
);

it('reads nothing from a link that names neither an ID nor a slug', () => {
  expect(eventOfLink('https://front.example/')).toBeNull();
  expect(eventOfLink('not a link')).toBeNull();
});
