/**
 * The attendee behind an order or payment, looked up lazily. The Connect interface has no "get one
 * registration", so finding the registration an order names means reading its event's registrations: costly
 * on a big event. Order and payment items therefore carry dehydration pointers (`z.dehydrate`) instead of
 * the attendee's fields; Zapier runs `hydrateAttendee` only when a later step uses one of them.
 *
 * The lookup is bounded: first the registrations made from a day before the order on (a registration is
 * almost always made just before its order), then the whole event; at most `ATTENDEE_LIMITS.lookupMs` in all. The
 * answer is read as a stream and only the registration looked for is kept, so memory stays flat whatever
 * the size of the event. Its result is kept for the account for 10 minutes, so the several attendee fields
 * of one order cost one lookup.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import {
  type Order,
  type SubmissionPerson,
  connectErrorCode,
  errorText,
  isNotFound,
  readSubmissionPeople,
} from '../connect';
import {
  ATTENDEE_FIELD_OF,
  type Attendee,
  type AttendeeFieldKey,
  type AttendeeFields,
  attendeeOf,
  noAttendee,
} from '../mappers/attendee';
import { ALL_TIME } from './registrations';
import { accountCache } from './store';

/** Time for the whole lookup (all windows); a hydration has Zapier's 30 s. Read at each lookup (tests set it). */
export const ATTENDEE_LIMITS = { lookupMs: 20_000 };
/** The first window starts this long before the order. */
const BEFORE_ORDER_MS = 24 * 3600 * 1000;
const ATTENDEE_TTL_SECONDS = 600;

export interface AttendeeLookup {
  orderId: string;
  eventId: string;
  submissionId: string;
  /** The order's `createdAt`: the first window starts a day before it. */
  orderCreatedAt?: string | null;
}

const lookupOf = (inputData: Record<string, unknown>): AttendeeLookup | null => {
  const text = (key: string) => (typeof inputData[key] === 'string' ? (inputData[key] as string).trim() : '');
  const [orderId, eventId, submissionId] = ['orderId', 'eventId', 'submissionId'].map(text);
  if (!eventId || !submissionId) return null;
  return {
    orderId: orderId || '(unknown)',
    eventId,
    submissionId,
    orderCreatedAt: text('orderCreatedAt') || null,
  };
};

const rethrown = (z: ZObject, lookup: AttendeeLookup, error: unknown): Error => {
  if (error instanceof Error && ['ThrottledError', 'ExpiredAuthError'].includes(error.name)) return error;
  return new z.errors.Error(
    `The attendee of order ${lookup.orderId} (registration ${lookup.submissionId}) could not be read: ${errorText(error)} Replay this Zap run from the Zap history once the service answers again.`,
    connectErrorCode(error) ?? 'ATTENDEE_LOOKUP_FAILED',
    502,
  );
};

/** The attendee of `lookup`'s registration (cached 10 minutes for the account). */
export const findAttendee = async (
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  lookup: AttendeeLookup,
  now: () => number = Date.now,
): Promise<Attendee> => {
  const cache = accountCache(z, bundle, now);
  const key = `attendee:${lookup.eventId}:${lookup.submissionId}`;
  const cached = await cache.get<Attendee>(key);
  if (cached) return cached;

  const remember = async (attendee: Attendee) => {
    await cache.set(key, attendee, ATTENDEE_TTL_SECONDS);
    return attendee;
  };
  const deadline = now() + ATTENDEE_LIMITS.lookupMs;
  const orderMs = Date.parse(lookup.orderCreatedAt ?? '');
  const windows = Number.isFinite(orderMs)
    ? [new Date(orderMs - BEFORE_ORDER_MS).toISOString(), ALL_TIME]
    : [ALL_TIME];

  for (const since of windows) {
    const timeoutMs = deadline - now();
    if (timeoutMs <= 0) break;
    let match: SubmissionPerson | null = null;
    try {
      await readSubmissionPeople(z, bundle, { eventId: lookup.eventId, since, timeoutMs }, (person) => {
        if (person.submissionId === lookup.submissionId) match = person;
      });
    } catch (error) {
      if (isNotFound(error)) {
        return remember(
          noAttendee(
            `The event ${lookup.eventId} of order ${lookup.orderId} no longer exists (it may have been deleted), so its registration ${lookup.submissionId} cannot be read.`,
          ),
        );
      }
      throw rethrown(z, lookup, error);
    }
    if (match) return remember(attendeeOf(match));
  }
  if (deadline - now() <= 0) {
    throw rethrown(
      z,
      lookup,
      new Error(`the search took longer than ${ATTENDEE_LIMITS.lookupMs / 1000} seconds.`),
    );
  }
  return remember(
    noAttendee(
      `Registration ${lookup.submissionId} of order ${lookup.orderId} is not among the registrations of its event (it may have been deleted).`,
    ),
  );
};

/**
 * The hydrator (registered in the app's `hydrators`): one attendee field of one order. `inputData` holds the
 * order's ids and `field`, the item key asked for.
 */
export const hydrateAttendee = async (z: ZObject, bundle: Bundle): Promise<unknown> => {
  const inputData = (bundle.inputData ?? {}) as Record<string, unknown>;
  const field = inputData.field as AttendeeFieldKey;
  const lookup = lookupOf(inputData);
  if (!lookup || !Object.hasOwn(ATTENDEE_FIELD_OF, field)) {
    return field === 'attendeeFound' ? false : null;
  }
  const attendee = await findAttendee(z, bundle, lookup);
  return attendee[ATTENDEE_FIELD_OF[field]];
};

/**
 * The attendee fields of an order's item: one dehydration pointer per field, resolved only when a later step
 * uses it. An order that names no registration gets its empty fields at once.
 */
export const attendeePointers = (
  z: ZObject,
  order: Order,
): AttendeeFields | Record<AttendeeFieldKey, string> => {
  if (!order.eventId || !order.submissionId) {
    const none = noAttendee(`Order ${order.id} names no registration, so it has no attendee.`);
    return {
      attendeeFound: false,
      attendeeFirstName: none.firstName,
      attendeeLastName: none.lastName,
      attendeeFullName: none.fullName,
      attendeeEmail: none.email,
      attendeeNote: none.note,
    };
  }
  const base = {
    orderId: order.id,
    eventId: order.eventId,
    submissionId: order.submissionId,
    orderCreatedAt: order.createdAt,
  };
  const pointers = {} as Record<AttendeeFieldKey, string>;
  for (const field of Object.keys(ATTENDEE_FIELD_OF) as AttendeeFieldKey[]) {
    pointers[field] = z.dehydrate(hydrateAttendee, { ...base, field });
  }
  return pointers;
};
