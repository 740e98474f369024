/**
 * The item rules: how the records of one noun become Zap items, shared by every trigger of that noun, instant
 * or polling (the noun's mapper, the event context added to registrations and payments, the id Zapier
 * dedupes on, the sample and the output fields). A delivery's `data` is read (by the noun's `RecordReading`) first.
 */
import type { Bundle, PlainOutputField, ZObject } from 'zapier-platform-core';
import {
  type Event,
  type Order,
  type RecordReading,
  type Submission,
  eventReading,
  orderReading,
  registrationReading,
} from '../connect';
import { contextDeadline, eventContext } from '../account/events';
import { recentSubmissions } from '../account/recent';
import { isEventUuid } from '../fields/event';
import {
  type EventChangeItem,
  type EventItem,
  eventChangeOutputFields,
  eventChangeSample,
  eventOutputFields,
  eventSample,
  toEventChangeItem,
  toEventItem,
} from '../mappers/event';
import { type OrderItem, SAMPLE_ORDER, orderOutputFields, toOrderItem } from '../mappers/order';
import { attendeePointers } from '../account/attendee';
import { type AttendeeFieldKey, attendeeFields, attendeeOf, attendeeOutputFields } from '../mappers/attendee';
import {
  type EventContext,
  NO_EVENT_CONTEXT,
  SAMPLE_SUBMISSION,
  SAMPLE_SUBMISSION_EVENT,
  type SubmissionItem,
  answerOutputFields,
  submissionOutputFields,
  submissionSample,
  toSubmissionItem,
} from '../mappers/submission';
import { staticSample } from '../mappers/sample';
import { mapEach } from '../mappers/each';
import { trimmed as text } from '../mappers/text';

type DynamicOutputFields = (z: ZObject, bundle: Bundle) => Promise<PlainOutputField[]>;

/** How the records of one noun become Zap items; shared by every trigger of that noun. */
export interface ItemRule<D, I extends { id: string }> extends RecordReading<D> {
  /** The record in a user's words, for log lines and messages: "registration". */
  what: string;
  /** The event a record belongs to, for the chosen-event check. */
  eventIdOf: (record: D) => string | null | undefined;
  /** Records as items (enrichment included); `kind` is the delivery's kind, `null` for recent test data. */
  toItems: (z: ZObject, bundle: Bundle, records: D[], kind: string | null) => Promise<I[]>;
  sample: I;
  outputFields: Array<PlainOutputField | DynamicOutputFields>;
}

/**
 * The event context of each event id (one cached lookup each, all within one deadline); a failed lookup adds
 * no context.
 */
const eventContexts = async (
  z: ZObject,
  bundle: Bundle,
  eventIds: Array<string | null | undefined>,
): Promise<Map<string, EventContext>> => {
  const contexts = new Map<string, EventContext>();
  const deadline = contextDeadline();
  for (const eventId of new Set(eventIds)) {
    if (eventId) contexts.set(eventId, await eventContext(z, bundle, eventId, deadline));
  }
  return contexts;
};

/** Each record mapped on its own: one that throws is left out with a log line, its siblings kept. */
const eachOf =
  <R>(z: ZObject, records: readonly R[], noun: string, idOf: (record: R) => unknown) =>
  <I>(map: (record: R) => I): I[] =>
    mapEach(records, { noun, what: `these ${noun}s`, idOf, log: (line) => z.console.log(line) }, map);

const contextOf = (contexts: Map<string, EventContext>, eventId: string | null | undefined) =>
  (eventId && contexts.get(eventId)) || NO_EVENT_CONTEXT;

/** Output fields of the event context added to registration and payment items. */
const EVENT_CONTEXT_KEYS: ReadonlyArray<string> = Object.keys(NO_EVENT_CONTEXT);
const eventContextOutputFields = submissionOutputFields.filter((f) => EVENT_CONTEXT_KEYS.includes(f.key));

/** Labelled output fields for the custom answers of recent registrations (best effort). */
const recentAnswerFields: DynamicOutputFields = async (z, bundle) => {
  try {
    const eventId = text(bundle.inputData?.eventId);
    const { submissions } = await recentSubmissions(z, bundle, {
      eventId: isEventUuid(eventId) ? eventId : null,
      limit: 20,
    });
    return answerOutputFields(submissions.flatMap((s) => s.answers ?? []));
  } catch {
    return [];
  }
};

/** Registrations (FORM_SUBMISSION*, ATTENDANT_CHECKED_IN): the polling triggers' mapper, id = submissionId. */
export const registrationItem: ItemRule<Submission, SubmissionItem> = {
  what: 'registration',
  ...registrationReading,
  eventIdOf: (submission) => submission.eventId,
  toItems: async (z, bundle, records) => {
    const contexts = await eventContexts(
      z,
      bundle,
      records.map((s) => s.eventId),
    );
    const note = (line: string) => z.console.log(line);
    return eachOf(
      z,
      records,
      'registration',
      (s) => s.submissionId,
    )((s) => toSubmissionItem(s, contextOf(contexts, s.eventId), s.submissionId, note));
  },
  sample: submissionSample,
  outputFields: [...submissionOutputFields, recentAnswerFields],
};

/** A payment's item id: its registration plus the payment (or order), so two payments stay distinct. */
export const paymentItemId = (order: Order): string =>
  [order.submissionId, order.paymentId || order.id].filter(Boolean).join(':');

/**
 * An order or payment as the Zap sees it: the order mapper, the event's title and dates (one cached lookup
 * per event), and the attendee's fields as dehydration pointers (read only when a later step uses them).
 */
export type PaymentItem = OrderItem & EventContext & Record<AttendeeFieldKey, unknown>;

/** A function that makes the item of each of `orders`, with `idOf` as its id; their events looked up once. */
export const orderItemMaker = async (
  z: ZObject,
  bundle: Bundle,
  orders: Order[],
  idOf: (order: Order) => string = (order) => order.id,
): Promise<(order: Order) => PaymentItem> => {
  const contexts = await eventContexts(
    z,
    bundle,
    orders.map((o) => o.eventId),
  );
  return (order) => ({
    ...toOrderItem(order, idOf(order)),
    ...contextOf(contexts, order.eventId),
    ...attendeePointers(z, order),
  });
};

/** The static sample of an order item (and of a payment item, with `id`): produced by the mappers. */
export const orderItemSample = (id: string = SAMPLE_ORDER.id): PaymentItem => ({
  ...toOrderItem(SAMPLE_ORDER, id),
  ...SAMPLE_SUBMISSION_EVENT,
  ...attendeeFields(attendeeOf(SAMPLE_SUBMISSION)),
});

/** The static sample of New Order and Find Order items. */
export const orderItemStaticSample = staticSample('order-item', () => orderItemSample());

export const orderItemOutputFields = [
  ...orderOutputFields,
  ...eventContextOutputFields,
  ...attendeeOutputFields,
];

/** Payments (PAYMENT_*): order items whose id is the registration and the payment. */
export const paymentItem: ItemRule<Order, PaymentItem> = {
  what: 'payment',
  ...orderReading,
  eventIdOf: (order) => order.eventId,
  toItems: async (z, bundle, records) =>
    eachOf(z, records, 'payment', (o) => o.id)(await orderItemMaker(z, bundle, records, paymentItemId)),
  sample: staticSample('payment', () => orderItemSample(paymentItemId(SAMPLE_ORDER))),
  outputFields: orderItemOutputFields,
};

/** Events: the event mapper given the delivery's kind (`null` for recent test data), id = event id. */
const eventRule = <I extends { id: string }>(
  map: (event: Event, kind: string | null) => I,
  sample: I,
  outputFields: PlainOutputField[],
): ItemRule<Event, I> => ({
  what: 'event',
  ...eventReading,
  eventIdOf: (event) => event.id,
  toItems: async (z, _bundle, records, kind) =>
    eachOf(z, records, 'event', (e) => e.id)((event) => map(event, kind)),
  sample,
  outputFields,
});

/** Events (EVENT_PUBLISHED, New Event). */
export const eventItem = eventRule<EventItem>((event) => toEventItem(event), eventSample, eventOutputFields);

/** Events with the change a delivery reports (the EVENT_* family). */
export const eventChangeItem = eventRule<EventChangeItem>(
  toEventChangeItem,
  eventChangeSample,
  eventChangeOutputFields,
);
