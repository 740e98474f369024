/**
 * Every operation's static sample is what its noun's mapper makes of the noun's sample record (the same path
 * as perform), and `staticSample` names each sample once. The bundle carries these samples as values;
 * scripts/check-build.ts compares the built zip's samples with these.
 */
import { SAMPLE_AGENDA, toAgendaItem } from '../../src/mappers/agenda';
import { SAMPLE_CHECK_IN, toCheckInItem } from '../../src/mappers/checkIn';
import { toEmbedItem } from '../../src/mappers/embed';
import { SAMPLE_EVENT, eventLabel, toEventChangeItem, toEventItem } from '../../src/mappers/event';
import { SAMPLE_FLOOR_PLAN, floorPlanLabel, toFloorPlanItem } from '../../src/mappers/floorPlan';
import { attendeeFields, attendeeOf } from '../../src/mappers/attendee';
import { SAMPLE_ORDER, toOrderItem } from '../../src/mappers/order';
import { builtSamples, staticSample } from '../../src/mappers/sample';
import { SAMPLE_SUBMISSION, SAMPLE_SUBMISSION_EVENT, toSubmissionItem } from '../../src/mappers/submission';
import { paymentItemId } from '../../src/items';
import { registrationLabel } from '../../src/triggers/registrationList';
import { App } from '../support/app';
import { instantTriggerKeys } from '../../scripts/lib/app';

const event = toEventItem(SAMPLE_EVENT);
const submission = toSubmissionItem(SAMPLE_SUBMISSION, SAMPLE_SUBMISSION_EVENT);
const attendee = attendeeFields(attendeeOf(SAMPLE_SUBMISSION));
const order = { ...toOrderItem(SAMPLE_ORDER), ...SAMPLE_SUBMISSION_EVENT, ...attendee };
const payment = {
  ...toOrderItem(SAMPLE_ORDER, paymentItemId(SAMPLE_ORDER)),
  ...SAMPLE_SUBMISSION_EVENT,
  ...attendee,
};
const floorPlan = toFloorPlanItem(SAMPLE_FLOOR_PLAN, { title: 'TechWeek 2026' }, '2026-11-30T10:00:00.000Z');

const expected: Record<string, unknown> = {
  'triggers.event_list': { ...event, label: eventLabel(SAMPLE_EVENT) },
  'triggers.registration_list': { ...submission, label: registrationLabel(SAMPLE_SUBMISSION) },
  'triggers.floor_plan_list': { ...floorPlan, label: floorPlanLabel(floorPlan) },
  'triggers.new_submission': submission,
  'triggers.new_order': order,
  'triggers.new_event': event,
  'triggers.event_changed': toEventChangeItem(SAMPLE_EVENT, 'EVENT_PUBLISHED'),
  'searches.find_event': { ...event, isOwnEvent: true },
  'searches.find_registration': submission,
  'searches.find_order': order,
  'searches.find_agenda': toAgendaItem(
    SAMPLE_AGENDA,
    { title: 'TechWeek 2026', slug: 'techweek-2026', timezone: 'Europe/Paris' },
    '2026-11-30T10:00:00.000Z',
  ),
  'searches.find_floor_plan': floorPlan,
  'creates.check_in_attendee': toCheckInItem(
    SAMPLE_CHECK_IN,
    { title: 'TechWeek 2026', slug: 'techweek-2026' },
    {
      replayed: false,
      scanId: 'zapier-checkin-v1-3b1f0c9e8d7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c',
    },
  ),
  'creates.generate_embed_code': toEmbedItem({
    kind: 'agenda',
    embedUrl: 'https://embed.example.com',
    eventId: '7d0c6f1e-2f6a-4a7e-9a51-3f0e1b2c4d5e',
    eventSlug: 'techweek-2026',
    eventTitle: 'TechWeek 2026',
    eventIsPublished: true,
    theme: 'light',
    language: 'en',
  }),
};

/** An instant trigger's sample, by its noun, unless `expected` names it: one a new kind adds is covered too. */
const byNoun: Record<string, unknown> = {
  Registration: submission,
  Attendee: submission,
  Payment: payment,
  Event: event,
};

const operations = (['triggers', 'searches', 'creates'] as const).flatMap((kind) =>
  Object.entries(App[kind] ?? {}).map(
    ([key, definition]) => [`${kind}.${key}`, definition.operation] as const,
  ),
);
const instant = new Set(instantTriggerKeys().map((key) => `triggers.${key}`));
for (const [path] of operations) {
  const noun = path.startsWith('triggers.')
    ? App.triggers?.[path.slice('triggers.'.length)]?.noun
    : undefined;
  if (instant.has(path) && !(path in expected) && noun) expected[path] = byNoun[noun];
}

describe('static samples', () => {
  it('cover every operation of the app', () => {
    expect(operations.map(([path]) => path).sort()).toEqual(Object.keys(expected).sort());
  });

  it.each(operations)('%s: the sample is the mapper output for the sample record', (path, operation) => {
    expect(operation.sample).toEqual(expected[path]);
  });

  it('are plain JSON data, so the bundle can carry them as values', () => {
    for (const [key, value] of builtSamples()) {
      expect([key, JSON.parse(JSON.stringify(value))]).toEqual([key, value]);
    }
  });

  it('builds a sample with its function and refuses a second sample of the same name', () => {
    const build = jest.fn(() => ({ id: 'x' }));
    expect(staticSample('test-only-sample', build)).toEqual({ id: 'x' });
    expect(build).toHaveBeenCalledTimes(1);
    expect(() => staticSample('test-only-sample', () => ({ id: 'y' }))).toThrow(
      'Two static samples are named "test-only-sample".',
    );
  });
});
