/**
 * The attendee lookup's memory: per event, a compact index of the registrations the last pass read (id →
 * first name, last name, email) with the bounds of what it proves, the lease of the pass in progress, and
 * a note that orders wait for it (with the earliest of their orders, so that the pass reads far enough
 * back for all of them, and keeps them past its byte cap). Every value is a typed record: another version's or a corrupt one reads as missing.
 */
import * as zod from 'zod';
import { built, lazy } from '../lazy';
import { type AccountCache, type CacheRecord, type LeaseTimings, cacheRecord } from '../memory';
import { type Attendee, noAttendee } from '../mappers/attendee';
import { ALL_TIME } from './registrations';
import { SharedFailure } from './attendeeFailure';

export interface AttendeeLookup {
  orderId: string;
  eventId: string;
  submissionId: string;
  /** The order's `createdAt`: the first window starts a day before it. */
  orderCreatedAt?: string | null;
}

/** The lookup's time limits and lifetimes: a value (tests build their own from these). */
export interface AttendeeTimings {
  /** The reads of one pass, all windows. */
  lookupMs: number;
  /** A hydration in all (Zapier stops an invocation at 30 s). */
  hydrationMs: number;
  /** The lease of a pass and how the others wait for it. */
  lease: LeaseTimings;
}

const LOOKUP_MS = 20_000;
const HYDRATION_MS = 27_000;
/** A waiter whose wait ends keeps this long to read alone. */
const OWN_READ_MS = 12_000;
const RENEW_MS = 3_000;

export const ATTENDEE_TIMINGS: Readonly<AttendeeTimings> = Object.freeze({
  lookupMs: LOOKUP_MS,
  hydrationMs: HYDRATION_MS,
  lease: Object.freeze({
    // A dead holder stops renewing: its lease is gone three renewals later.
    leaseSeconds: (3 * RENEW_MS) / 1000,
    renewMs: RENEW_MS,
    waitMs: HYDRATION_MS - OWN_READ_MS,
    firstLookMs: 100,
    maxLookMs: 1_000,
  }),
});

export const ALL_TIME_MS = Date.parse(ALL_TIME);
/** The first window starts this long before the order. */
export const BEFORE_ORDER_MS = 24 * 3600 * 1000;
/** The index is kept at most this many bytes of JSON; past it, only the pass's own registration is added. */
export const MAX_INDEX_BYTES = 256 * 1024;
const INDEX_TTL_SECONDS = 600;
/** A failed pass is shared this long. */
export const FAILURE_MS = 15_000;

/** First name, last name, email. */
export type Person = [string | null, string | null, string | null];

const flat = (text: string | null) => (text ?? '').replace(/[\t\n\r]/g, ' ');

/** `people` in the index's form. */
export const packPeople = (people: Record<string, Person>): string =>
  Object.entries(people)
    .map(([id, [first, last, email]]) => `\n${flat(id)}\t${flat(first)}\t${flat(last)}\t${flat(email)}`)
    .join('');

/** The registration `id` in the index's `people`. */
export const personIn = (people: string, id: string): Person | undefined => {
  const at = people.indexOf(`\n${flat(id)}\t`);
  if (at < 0) return undefined;
  const end = people.indexOf('\n', at + 1);
  const [, first, last, email] = people.slice(at + 1, end < 0 ? undefined : end).split('\t');
  const orNull = (text: string | undefined) => (text ? text : null);
  return [orNull(first), orNull(last), orNull(email)];
};

export const EventIndex = lazy(() =>
  zod.object({
    v: zod.literal(1),
    /** Tells this index from the one before (also written alone, as the event's stamp). */
    stamp: zod.string(),
    /** The window read: registrations made from `since` (epoch ms) to `readAt` (the service's time). */
    since: zod.number(),
    readAt: zod.number(),
    /** The window was read to its end and every registration of it is in `people`. */
    complete: zod.boolean(),
    /** The event no longer exists. */
    gone: zod.boolean(),
    /** One line a registration, `id⇥first⇥last⇥email` (empty: none): cheap to check and to search. */
    people: zod.string(),
    /** Registrations proven absent from the whole event. */
    missing: zod.array(zod.string()),
    /** The last pass failed: shared until `until` (epoch ms, the app's clock). */
    failed: zod.object({ failure: built(SharedFailure), until: zod.number() }).optional(),
  }),
);
export type EventIndex = zod.infer<typeof EventIndex>;

/** At most this many registrations named in the note of waiting orders (past it, they get the next pass). */
export const MAX_WAITING = 500;

/** Orders wait for the event's pass: their registrations, and the earliest of their windows' starts. */
const Waiting = lazy(() =>
  zod.object({ since: zod.number(), ids: zod.array(zod.string()).max(MAX_WAITING) }),
);
export type Waiting = zod.infer<typeof Waiting>;

export interface EventMemory {
  index: CacheRecord<EventIndex>;
  /** The stamp of the index: a waiter reads the (larger) index only when it changed. */
  stamp: CacheRecord<string>;
  waiting: CacheRecord<Waiting>;
  leaseKey: string;
}

export const eventMemory = (cache: AccountCache, eventId: string, timings: AttendeeTimings): EventMemory => ({
  index: cacheRecord(cache, `attendee-index:${eventId}`, EventIndex, INDEX_TTL_SECONDS),
  stamp: cacheRecord(cache, `attendee-stamp:${eventId}`, zod.string(), INDEX_TTL_SECONDS),
  waiting: cacheRecord(cache, `attendee-waiting:${eventId}`, Waiting, Math.ceil(timings.lease.waitMs / 1000)),
  leaseKey: `attendee-pass:${eventId}`,
});

/** What is known of one registration: its attendee, or why there is none. */
export type Known = { attendee: Attendee } | { missing: 'event' | 'registration' };

/** What one hydration looks for. */
export interface Wanted {
  id: string;
  /** Where its first window starts (a day before its order, or the whole event). */
  since: number;
  /** Its registration was made before this (its order's time, or when the hydration started). */
  madeBefore: number;
}

export const wantedOf = (lookup: AttendeeLookup, now: number): Wanted => {
  const ordered = Date.parse(lookup.orderCreatedAt ?? '');
  const known = Number.isFinite(ordered);
  return {
    id: lookup.submissionId,
    since: known ? Math.max(ALL_TIME_MS, ordered - BEFORE_ORDER_MS) : ALL_TIME_MS,
    madeBefore: known ? ordered : now,
  };
};

export const attendeeOfPerson = ([firstName, lastName, email]: Person): Attendee => ({
  found: true,
  firstName,
  lastName,
  fullName: [firstName, lastName].filter(Boolean).join(' ') || null,
  email,
  note: '',
});

/** The answer `index` gives `wanted`: known, a shared failure, or the window the next pass must read. */
export type Verdict = { known: Known } | { failure: SharedFailure } | { next: number };

export const verdictOf = (index: EventIndex | undefined, wanted: Wanted, now: number): Verdict => {
  if (!index) return { next: wanted.since };
  const person = personIn(index.people, wanted.id);
  if (person) return { known: { attendee: attendeeOfPerson(person) } };
  if (index.gone) return { known: { missing: 'event' } };
  if (index.missing.includes(wanted.id)) return { known: { missing: 'registration' } };
  if (index.failed && index.failed.until > now) return { failure: index.failed.failure };
  const covered = index.complete && wanted.madeBefore < index.readAt;
  if (!covered) return { next: wanted.since };
  if (index.since <= ALL_TIME_MS) return { known: { missing: 'registration' } };
  // Not in a window that starts a day before its order (or earlier): made longer ago, or gone.
  return { next: index.since <= wanted.since ? ALL_TIME_MS : wanted.since };
};

export const attendeeOfKnown = (known: Known, lookup: AttendeeLookup): Attendee => {
  if ('attendee' in known) return known.attendee;
  return noAttendee(
    known.missing === 'event'
      ? `The event ${lookup.eventId} of order ${lookup.orderId} no longer exists (it may have been deleted), so its registration ${lookup.submissionId} cannot be read.`
      : `Registration ${lookup.submissionId} of order ${lookup.orderId} is not among the registrations of its event (it may have been deleted).`,
  );
};
