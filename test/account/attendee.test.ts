/**
 * The attendee behind an order: found, not found, and a failing lookup, through the hydrator Zapier calls
 * when a later step uses an attendee field; and the pointers order items carry instead of the fields.
 */
import nock from 'nock';
import type { Bundle, ZObject } from 'zapier-platform-core';
import { type Submission, paths } from '../../src/connect';
import { ALL_TIME } from '../../src/account/registrations';
import { attendeePointers, hydrateAttendee } from '../../src/account/attendee';
import { SAMPLE_ORDER } from '../../src/mappers/order';
import { SAMPLE_SUBMISSION } from '../../src/mappers/submission';
import { App, BASE_URL, appTester, authData, caught, errorMessage } from '../support/app';
import { wireError, wireList } from '../../sandbox/wire';

const ORDER = { ...SAMPLE_ORDER, createdAt: '2026-11-21T14:07:30.000Z' };
const DAY_BEFORE = '2026-11-20T14:07:30.000Z';
const EVENT_ID = ORDER.eventId as string;
const ADA: Submission = { ...SAMPLE_SUBMISSION, submissionId: ORDER.submissionId as string };
const OTHER: Submission = { ...SAMPLE_SUBMISSION, submissionId: 'sub_other', email: 'bob@example.com' };

const lookup = {
  orderId: ORDER.id,
  eventId: EVENT_ID,
  submissionId: ADA.submissionId,
  orderCreatedAt: ORDER.createdAt,
};
/** One hydration of `field`, as Zapier runs it for a later step (cache kept between calls of one test). */
const hydrate = (field: string, clearCache = false) =>
  appTester(hydrateAttendee as never, { authData: authData(), inputData: { ...lookup, field } }, clearCache);

const window = (since: string, data: Submission[] | null, status = 200) =>
  nock(BASE_URL)
    .get(paths.submissions())
    .query({ eventId: EVENT_ID, since })
    .reply(status, data ? wireList(data) : wireError(status === 404 ? 'NOT_FOUND' : 'INTERNAL', 'x'));

afterEach(() => nock.cleanAll());

it('is registered in the app, so Zapier can resolve the pointers', () => {
  expect(App.hydrators?.attendee).toBe(hydrateAttendee);
});

it('an order item carries one pointer per attendee field, and no request is made for them', async () => {
  const pointers = (await appTester(((z: ZObject) => attendeePointers(z, ORDER)) as never, {
    authData: authData(),
  })) as Record<string, string>;
  expect(Object.keys(pointers)).toEqual([
    'attendeeFound',
    'attendeeFirstName',
    'attendeeLastName',
    'attendeeFullName',
    'attendeeEmail',
    'attendeeNote',
  ]);
  const payload = JSON.parse(/^hydrate\|\|\|(.*)\|\|\|hydrate$/.exec(pointers.attendeeEmail ?? '')![1]!);
  expect(payload).toEqual({
    type: 'method',
    method: 'hydrators.attendee',
    bundle: { ...lookup, field: 'attendeeEmail' },
  });
  expect(nock.pendingMocks()).toEqual([]);
});

it('an order that names no registration has empty attendee fields at once', async () => {
  const fields = await appTester(
    ((z: ZObject) => attendeePointers(z, { ...ORDER, submissionId: null })) as never,
    {
      authData: authData(),
    },
  );
  expect(fields).toEqual({
    attendeeFound: false,
    attendeeFirstName: null,
    attendeeLastName: null,
    attendeeFullName: null,
    attendeeEmail: null,
    attendeeNote: `Order ${ORDER.id} names no registration, so it has no attendee.`,
  });
});

it('registration found: the fields resolve from the registrations made since a day before the order, read once', async () => {
  const scope = window(DAY_BEFORE, [OTHER, ADA]);
  expect(await hydrate('attendeeEmail', true)).toBe('ada@example.com');
  expect(await hydrate('attendeeFirstName')).toBe('Ada');
  expect(await hydrate('attendeeFullName')).toBe('Ada Lovelace');
  expect(await hydrate('attendeeFound')).toBe(true);
  expect(await hydrate('attendeeNote')).toBe('');
  scope.done();
});

it('registration found only in the whole event: the narrow window first, then the whole event', async () => {
  const narrow = window(DAY_BEFORE, [OTHER]);
  const whole = window(ALL_TIME, [OTHER, ADA]);
  expect(await hydrate('attendeeLastName', true)).toBe('Lovelace');
  narrow.done();
  whole.done();
});

it('registration not found: empty fields, Attendee Found false and a note that says why; the Zap goes on', async () => {
  window(DAY_BEFORE, [OTHER]);
  window(ALL_TIME, [OTHER]);
  expect(await hydrate('attendeeEmail', true)).toBeNull();
  expect(await hydrate('attendeeFound')).toBe(false);
  expect(await hydrate('attendeeNote')).toBe(
    `Registration ${ADA.submissionId} of order ${ORDER.id} is not among the registrations of its event (it may have been deleted).`,
  );
});

it('event gone: empty fields with a note naming the event', async () => {
  window(DAY_BEFORE, null, 404);
  expect(await hydrate('attendeeNote', true)).toBe(
    `The event ${EVENT_ID} of order ${ORDER.id} no longer exists (it may have been deleted), so its registration ${ADA.submissionId} cannot be read.`,
  );
});

it('lookup failing: the step using the field stops with a message naming the order and what to do', async () => {
  window(DAY_BEFORE, null, 500);
  const error = await caught(() => hydrate('attendeeEmail', true));
  expect(errorMessage(error)).toBe(
    `The attendee of order ${ORDER.id} (registration ${ADA.submissionId}) could not be read: The service had a problem while fetching the registrations of this event (HTTP 500, INTERNAL: x). This is usually temporary: a trigger checks again at its next poll and misses nothing; a stopped action or search can be replayed from the Zap history. Replay this Zap run from the Zap history once the service answers again.`,
  );
});

it('a pointer without its ids resolves to empty values instead of failing', async () => {
  const bundle = { authData: authData(), inputData: { field: 'attendeeFound' } } as unknown as Bundle;
  expect(await appTester(hydrateAttendee as never, bundle)).toBe(false);
});
