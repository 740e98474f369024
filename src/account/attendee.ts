/**
 * The attendee behind an order or payment, looked up lazily. The Connect interface has no "get one
 * registration", so finding the registration an order names means reading its event's registrations: costly
 * on a big event. Order and payment items therefore carry dehydration pointers (`z.dehydrate`) instead of
 * the attendee's fields; Zapier runs `hydrateAttendee` only when a later step uses one of them, each field in
 * its own invocation, in any order and possibly all at once (a wave of payments: hundreds at once).
 *
 * One pass per event at a time, the others wait (`oneAtATime`): the pass reads the event's registrations
 * from a day before the order and keeps what it read as the event's index for 10 minutes (attendeeIndex.ts);
 * every waiting order then finds its registration in it, or learns that it needs the next pass (made after
 * the read, or older than the window: then the whole event). A failed pass is shared for 15 seconds with
 * those that waited for it, of the same kind. A dead pass holder stops renewing its lease and is waited for
 * only until it lapses; a failing cache makes each hydration read alone (requests, never a lost result).
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import type { Order } from '../connect';
import {
  ATTENDEE_FIELD_OF,
  type Attendee,
  type AttendeeFieldKey,
  type AttendeeFields,
  noAttendee,
} from '../mappers/attendee';
import { trimmed } from '../mappers/text';
import { type Clock, accountCache, oneAtATime, systemClock } from '../memory';
import {
  ATTENDEE_TIMINGS,
  type AttendeeLookup,
  type AttendeeTimings,
  type EventMemory,
  type Known,
  MAX_WAITING,
  type Wanted,
  attendeeOfKnown,
  eventMemory,
  verdictOf,
  wantedOf,
} from './attendeeIndex';
import { busyError, failureError } from './attendeeFailure';
import { type LookupRead, type PassContext, runPass } from './attendeePass';

export { ATTENDEE_TIMINGS, type AttendeeLookup, type AttendeeTimings } from './attendeeIndex';
export { LOOKUP_BUSY, LOOKUP_FAILED } from './attendeeFailure';
export type { LookupRead } from './attendeePass';

export interface LookupOptions {
  clock?: Clock;
  timings?: AttendeeTimings;
  onRead?: (read: LookupRead) => void;
}

const lookupOf = (inputData: Record<string, unknown>): AttendeeLookup | null => {
  const text = (key: string) => trimmed(inputData[key]);
  const [orderId, eventId, submissionId] = ['orderId', 'eventId', 'submissionId'].map(text);
  if (!eventId || !submissionId) return null;
  return {
    orderId: orderId || '(unknown)',
    eventId,
    submissionId,
    orderCreatedAt: text('orderCreatedAt') || null,
  };
};

/**
 * Tells the pass in progress that this order waits: its registration, and where its window starts (the
 * earliest is kept). The cache has no atomic "add": after a moment (a random part of a first look, so that
 * concurrent writers land one after another) the note is read back and written again if a concurrent
 * writer dropped this order; after a few rounds, one still dropped gets the next pass.
 */
const sayWaiting = async (memory: EventMemory, wanted: Wanted, clock: Clock, pauseMs: number) => {
  for (let round = 0; round < 6; round++) {
    const seen = (await memory.waiting.read()) ?? { since: wanted.since, ids: [] };
    if (seen.since <= wanted.since && seen.ids.includes(wanted.id)) return;
    if (seen.ids.length >= MAX_WAITING) return;
    const ids = seen.ids.includes(wanted.id) ? seen.ids : [...seen.ids, wanted.id];
    await memory.waiting.write({ since: Math.min(seen.since, wanted.since), ids });
    await clock.sleep(Math.random() * pauseMs);
  }
};

/** The attendee of `lookup`'s registration: from the event's index, or a pass of its own (see above). */
export const findAttendee = async (
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  lookup: AttendeeLookup,
  options: LookupOptions = {},
): Promise<Attendee> => {
  const clock = options.clock ?? systemClock;
  const timings = options.timings ?? ATTENDEE_TIMINGS;
  const cache = accountCache(z, bundle, () => clock.now());
  const memory = eventMemory(cache, lookup.eventId, timings);
  const start = clock.now();
  const wanted = wantedOf(lookup, start);
  const ctx: PassContext = { z, bundle, lookup, memory, clock, timings, start, onRead: options.onRead };
  /** The window the next pass must read for this order, as the index last told. */
  let next = wanted.since;
  /** The stamp of the index last read: a look reads the index again only when the stamp changed. */
  let seen: string | undefined;
  const ready = async (looking = true): Promise<Known | undefined> => {
    if (looking && seen !== undefined && (await memory.stamp.read()) === seen) return undefined;
    const index = await memory.index.read();
    seen = index?.stamp;
    const verdict = verdictOf(index, wanted, clock.now());
    if ('failure' in verdict) throw failureError(z, lookup, verdict.failure);
    if ('known' in verdict) return verdict.known;
    next = verdict.next;
    return undefined;
  };
  const known = await ready(false);
  if (known) return attendeeOfKnown(known, lookup);
  const outcome = await oneAtATime(cache, memory.leaseKey, timings.lease, clock, {
    ready: () => ready(),
    work: () => runPass(ctx, wanted, next),
    waiting: () => sayWaiting(memory, wanted, clock, timings.lease.firstLookMs),
  });
  if (outcome.by !== 'waited') return attendeeOfKnown(outcome.value, lookup);
  // The pass in progress outlasted the wait: read alone, if there is time left.
  if (clock.now() >= start + timings.hydrationMs) throw busyError(z, lookup);
  return attendeeOfKnown(await runPass(ctx, wanted, next), lookup);
};

/**
 * A hydrator (registered in the app's `hydrators`): one attendee field of one order. `inputData` holds the
 * order's ids and `field`, the item key asked for. `options` are for tests and the benchmark.
 */
export const attendeeHydrator =
  (options: LookupOptions = {}) =>
  async (z: ZObject, bundle: Bundle): Promise<unknown> => {
    const inputData = (bundle.inputData ?? {}) as Record<string, unknown>;
    const field = inputData.field as AttendeeFieldKey;
    const lookup = lookupOf(inputData);
    if (!lookup || !Object.hasOwn(ATTENDEE_FIELD_OF, field)) {
      return field === 'attendeeFound' ? false : null;
    }
    const attendee = await findAttendee(z, bundle, lookup, options);
    return attendee[ATTENDEE_FIELD_OF[field]];
  };

export const hydrateAttendee = attendeeHydrator();

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
