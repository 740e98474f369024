/**
 * The field names of the wire (docs/connect-contract.md §3–5), one table per resource: app field name →
 * the name the service sends (`wire.ts` applies them). Today the service's names are the app's names. A
 * service that names a field otherwise changes its entry here, and nothing outside src/connect/ changes.
 */
import type { WireNames } from './wire';

const same = <K extends string>(...names: K[]): Record<K, K> =>
  Object.fromEntries(names.map((name) => [name, name])) as Record<K, K>;

export const EVENT_NAMES: WireNames = same(
  'id',
  'slug',
  'title',
  'status',
  'startsAt',
  'endsAt',
  'timezone',
  'venueName',
  'url',
  'createdAt',
  'updatedAt',
);

/** The event widget: the event's fields and two more. */
export const EVENT_WIDGET_NAMES: WireNames = { ...EVENT_NAMES, ...same('description', 'coverImageUrl') };

export const ANSWER_NAMES: WireNames = same('key', 'label', 'value');

export const SUBMISSION_NAMES: WireNames = {
  ...same(
    'submissionId',
    'eventId',
    'status',
    'email',
    'firstName',
    'lastName',
    'ticketType',
    'qrCode',
    'createdAt',
    'approvedAt',
    'checkedInAt',
  ),
  answers: { name: 'answers', fields: ANSWER_NAMES },
};

export const ORDER_ITEM_NAMES: WireNames = same('name', 'quantity', 'unitAmount');

export const ORDER_NAMES: WireNames = {
  ...same(
    'id',
    'companyId',
    'eventId',
    'submissionId',
    'status',
    'currency',
    'totalAmount',
    'paymentId',
    'createdAt',
    'updatedAt',
  ),
  items: { name: 'items', fields: ORDER_ITEM_NAMES },
};

export const BOOTH_NAMES: WireNames = same('id', 'label', 'status', 'x', 'y', 'w', 'h');

export const FLOOR_PLAN_NAMES: WireNames = {
  ...same('id', 'eventId', 'name', 'version', 'publishedAt', 'width', 'height'),
  booths: { name: 'booths', fields: BOOTH_NAMES },
};

export const AGENDA_SESSION_NAMES: WireNames = {
  ...same('id', 'title', 'startsAt', 'endsAt', 'room', 'track'),
  speakers: { name: 'speakers', fields: same('name') },
};

export const AGENDA_NAMES: WireNames = {
  ...same('eventId', 'slug', 'timezone'),
  sessions: { name: 'sessions', fields: AGENDA_SESSION_NAMES },
};

/** The check-in request (§4): by QR code, or by event and registration, with an optional time. */
export const CHECK_IN_REQUEST_NAMES: WireNames = same('code', 'eventId', 'submissionId', 'checkInTime');

export const CHECK_IN_RESULT_NAMES: WireNames = {
  ...same('result', 'submissionId', 'eventId', 'checkInTime'),
  attendee: { name: 'attendee', fields: same('firstName', 'lastName', 'email') },
};

/** A webhook subscription (§5), as the service answers it, and the subscribe request. */
export const HOOK_NAMES: WireNames = same(
  'id',
  'event',
  'eventId',
  'targetUrl',
  'secret',
  'secretRotatedAt',
  'createdAt',
);
