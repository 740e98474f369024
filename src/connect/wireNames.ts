/**
 * The field names of the wire (docs/connect-contract.md §3–5), one table per resource: app field name →
 * the name the service sends (`wire.ts` applies them). Every table is computed from a dialect
 * (`dialect.ts`): its naming rule, and the names it gives otherwise. The app's tables are those of
 * `DIALECT`; the conformance kit computes the tables of the dialect it found a service to speak.
 */
import { AS_IS, DIALECT, type Dialect, wireFieldName } from './dialect';
import type { WireField, WireNames } from './wire';

/** The fields of each record, by its noun: a name, or a name and the noun of the records it holds. */
const FIELDS = {
  event: [
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
  ],
  /** The event widget: the event's fields and two more. */
  eventWidget: ['@event', 'description', 'coverImageUrl'],
  answer: ['key', 'label', 'value'],
  submission: [
    'submissionId',
    'eventId',
    'status',
    'email',
    'firstName',
    'lastName',
    ['answers', 'answer'],
    'ticketType',
    'qrCode',
    'createdAt',
    'approvedAt',
    'checkedInAt',
  ],
  orderItem: ['name', 'quantity', 'unitAmount'],
  order: [
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
    ['items', 'orderItem'],
  ],
  booth: ['id', 'label', 'status', 'x', 'y', 'w', 'h'],
  floorPlan: ['id', 'eventId', 'name', 'version', 'publishedAt', 'width', 'height', ['booths', 'booth']],
  speaker: ['name'],
  agendaSession: ['id', 'title', 'startsAt', 'endsAt', 'room', 'track', ['speakers', 'speaker']],
  agenda: ['eventId', 'slug', 'timezone', ['sessions', 'agendaSession']],
  /** The check-in request (§4): by QR code, or by event and registration, with an optional time. */
  checkInRequest: ['code', 'eventId', 'submissionId', 'checkInTime'],
  attendee: ['firstName', 'lastName', 'email'],
  checkInResult: ['result', 'submissionId', 'eventId', 'checkInTime', ['attendee', 'attendee']],
  /** A webhook subscription (§5), as the service answers it, and the subscribe request. */
  hook: ['id', 'event', 'eventId', 'targetUrl', 'secret', 'secretRotatedAt', 'createdAt'],
  /** A delivery's envelope (§5): the record it carries is read by its own table. */
  delivery: ['id', 'type', 'createdAt', 'hookId', 'data'],
} as const satisfies Record<string, ReadonlyArray<string | readonly [string, string]>>;

/**
 * The fields that hold an enumeration, by record noun: which of the dialect's spellings (`dialect.ts`) they
 * are written in. Their values are respelled where their names are renamed (`wire.ts`).
 */
const SPELLED: Partial<Record<keyof typeof FIELDS, Readonly<Record<string, keyof Dialect['spellings']>>>> = {
  event: { status: 'status' },
  submission: { status: 'status' },
  order: { status: 'status' },
  booth: { status: 'status' },
  hook: { event: 'kind' },
  delivery: { type: 'kind' },
};

/** A record's noun (`submission`). */
export type RecordNoun = keyof typeof FIELDS;

export type WireTables = Readonly<Record<RecordNoun, WireNames>>;

/** Every table of `dialect` (`@event` includes the event's fields). */
export const wireTables = (dialect: Dialect): WireTables => {
  const tables = {} as Record<RecordNoun, WireNames>;
  const table = (noun: RecordNoun): WireNames => {
    if (tables[noun]) return tables[noun];
    const out: Record<string, WireField> = {};
    for (const field of FIELDS[noun] as ReadonlyArray<string | readonly [string, RecordNoun]>) {
      if (typeof field === 'string' && field.startsWith('@'))
        Object.assign(out, table(field.slice(1) as RecordNoun));
      else if (typeof field === 'string') {
        const spelled = SPELLED[noun]?.[field];
        const values = spelled === undefined ? AS_IS : dialect.spellings[spelled];
        const name = wireFieldName(dialect, noun, field);
        out[field] = values === AS_IS ? name : { name, values };
      } else out[field[0]] = { name: wireFieldName(dialect, noun, field[0]), fields: table(field[1]) };
    }
    return (tables[noun] = out);
  };
  for (const noun of Object.keys(FIELDS) as RecordNoun[]) table(noun);
  return tables;
};

/** The app's tables: those of the dialect it reads and writes. */
export const WIRE_TABLES = wireTables(DIALECT);

export const EVENT_NAMES = WIRE_TABLES.event;
export const EVENT_WIDGET_NAMES = WIRE_TABLES.eventWidget;
export const ANSWER_NAMES = WIRE_TABLES.answer;
export const SUBMISSION_NAMES = WIRE_TABLES.submission;
export const ORDER_ITEM_NAMES = WIRE_TABLES.orderItem;
export const ORDER_NAMES = WIRE_TABLES.order;
export const BOOTH_NAMES = WIRE_TABLES.booth;
export const FLOOR_PLAN_NAMES = WIRE_TABLES.floorPlan;
export const AGENDA_SESSION_NAMES = WIRE_TABLES.agendaSession;
export const AGENDA_NAMES = WIRE_TABLES.agenda;
export const CHECK_IN_REQUEST_NAMES = WIRE_TABLES.checkInRequest;
export const CHECK_IN_RESULT_NAMES = WIRE_TABLES.checkInResult;
export const HOOK_NAMES = WIRE_TABLES.hook;
export const DELIVERY_NAMES = WIRE_TABLES.delivery;
