/**
 * The attendee behind an order or payment, looked up lazily. The Connect interface has no "get one
 * registration", so finding the registration an order names means reading its event's registrations: costly
 * on a big event. Order and payment items therefore carry dehydration pointers (`z.dehydrate`) instead of
 * the attendee's fields; Zapier runs `hydrateAttendee` only when a later step uses one of them, each field in
 * its own invocation, in any order and possibly all at once.
 *
 * One order's attendee costs at most one lookup, however many of its fields are resolved:
 * - the result is kept for the account for 10 minutes, per registration;
 * - a lookup in progress is shared: the first hydration claims the event's lookup in the cache (`nx`), the
 *   others wait for its result (polling the cache, for at most `ATTENDEE_LIMITS.waitMs`; then, or when the cache
 *   fails, they look up themselves: losing the cache costs requests, never a result);
 * - several orders of one event share one pass: a hydration that finds the event's lookup taken adds its
 *   registration to the event's "wanted" list (a slot of its own, taken with `nx`); the pass starts a
 *   moment after its claim with every wanted registration, reads the list again as it goes (one asked for
 *   meanwhile is collected if it comes later in the answer), keeps only those records and stores each
 *   result under its own registration. 100 orders replayed at once cost about one pass of the event; an
 *   order the pass missed gets the next one;
 * - a lookup that fails is shared too, for `FAILURE_TTL_SECONDS`: the fields that waited for it fail with
 *   the same error (a throttled one stays throttled, so Zapier runs them again later).
 *
 * A pass reads the registrations made from a day before the earliest of its orders on (a registration is
 * almost always made just before its order), then, for what it has not found, the whole event. The
 * submissions endpoint has a lower bound (`since`) but no upper one, no order and no limit, so the end of
 * what is read cannot be bounded by the request: the read is stopped instead as soon as every registration
 * looked for is in hand (the request is cancelled, so the rest is never downloaded). Only when a
 * registration is not found is the whole event read to its end (that is the proof that it is gone).
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
import { trimmed } from '../mappers/text';
import { type AccountCache, accountCache } from '../memory';

/**
 * Time limits, read at each lookup (tests that do not test them set generous ones): the reads of one lookup
 * (all windows), how long a hydration waits for another one's lookup before looking up itself, and a
 * hydration's time in all (Zapier stops an invocation at 30 s).
 */
export const ATTENDEE_LIMITS = { lookupMs: 20_000, waitMs: 22_000, hydrationMs: 27_000 };
/** The first window starts this long before the earliest order of the pass. */
const BEFORE_ORDER_MS = 24 * 3600 * 1000;
/** At most this many registrations in one event's wanted list (and so in the memory of one pass). */
export const MAX_WANTED = 500;
const RESULT_TTL_SECONDS = 600;
/** A failed lookup is shared this long with the hydrations that waited for it (then tried anew). */
const FAILURE_TTL_SECONDS = 15;
const WANTED_TTL_SECONDS = 120;
/** Slots of the wanted list read at once. */
const WANTED_BATCH = 50;
/** Slots read past the count last written. */
const WANTED_MARGIN = 4;
/** How long the hydration that runs a pass lets others of the same moment join it before it starts. */
const GATHER_MS = 250;
/** How often a pass reads the wanted list again while the answer arrives. */
const PICKUP_MS = 1_000;
/** The claim of an event's lookup outlives the lookup a little, in case its end is never written. */
const claimTtlSeconds = () => Math.ceil((ATTENDEE_LIMITS.lookupMs + 5_000) / 1000);
const FIRST_POLL_MS = 100;
const MAX_POLL_MS = 1_000;

/** Time as the lookup sees it; tests drive it. */
export interface LookupClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: LookupClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** One read of the event's registrations by a lookup (for tests and the benchmark). */
export interface LookupRead {
  since: string;
  bytes: number;
  items: number;
  /** False when the read stopped before the end of the answer (everything looked for was found). */
  complete: boolean;
}

export interface LookupOptions {
  clock?: LookupClock;
  onRead?: (read: LookupRead) => void;
}

export interface AttendeeLookup {
  orderId: string;
  eventId: string;
  submissionId: string;
  /** The order's `createdAt`: the first window starts a day before it. */
  orderCreatedAt?: string | null;
}

/** What is kept per registration: its attendee, or why there is none (the note names each order itself). */
type Known = { attendee: Attendee } | { missing: 'event' | 'registration' };
/** A failed lookup, as the hydrations that waited for it rethrow it (of the same kind). */
type SharedFailure =
  | { kind: 'error'; reason: string; code: string | null }
  | { kind: 'throttled'; message: string; delay: number | null }
  | { kind: 'expired'; message: string };
/** The event's wanted list: registration and its order's time. */
type Wanted = Array<[string, number | null]>;

const keysOf = (eventId: string) => ({
  known: (submissionId: string) => `attendee-of:${eventId}:${submissionId}`,
  failed: (submissionId: string) => `attendee-failed:${eventId}:${submissionId}`,
  lookup: `attendee-lookup:${eventId}`,
  /** Slot `n` of the event's wanted list: one registration each, taken with `nx` (no write is lost). */
  wanted: (n: number) => `attendee-wanted:${eventId}:${n}`,
  /** How many slots are in use, as last seen (a hint: where to start taking one, how far to read). */
  wantedCount: `attendee-wanted-count:${eventId}`,
});

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

const orderTime = (lookup: AttendeeLookup): number | null => {
  const ms = Date.parse(lookup.orderCreatedAt ?? '');
  return Number.isFinite(ms) ? ms : null;
};

const failureText = (lookup: AttendeeLookup, reason: string) =>
  `The attendee of order ${lookup.orderId} (registration ${lookup.submissionId}) could not be read: ${reason} Replay this Zap run from the Zap history once the service answers again.`;

/** Errors that keep their kind (Zapier retries a throttled call, and asks to reconnect for an expired key). */
const keepsItsKind = (error: unknown): error is Error =>
  error instanceof Error && ['ThrottledError', 'ExpiredAuthError'].includes(error.name);

const rethrown = (z: ZObject, lookup: AttendeeLookup, error: unknown): Error => {
  if (keepsItsKind(error)) return error;
  return new z.errors.Error(
    failureText(lookup, errorText(error)),
    connectErrorCode(error) ?? 'ATTENDEE_LOOKUP_FAILED',
    502,
  );
};

const sharedFailureOf = (error: unknown): SharedFailure => {
  if (error instanceof Error && error.name === 'ThrottledError') {
    try {
      const { message, delay } = JSON.parse(error.message) as { message?: unknown; delay?: unknown };
      if (typeof message === 'string') {
        return { kind: 'throttled', message, delay: typeof delay === 'number' ? delay : null };
      }
    } catch {
      // not core's JSON form: shared as an ordinary failure
    }
  }
  if (error instanceof Error && error.name === 'ExpiredAuthError') {
    return { kind: 'expired', message: error.message };
  }
  return { kind: 'error', reason: errorText(error), code: connectErrorCode(error) ?? null };
};

/** The error a hydration throws for a failure shared by the pass it waited for. */
const sharedError = (z: ZObject, lookup: AttendeeLookup, failure: SharedFailure): Error => {
  if (failure.kind === 'throttled')
    return new z.errors.ThrottledError(failure.message, failure.delay ?? undefined);
  if (failure.kind === 'expired') return new z.errors.ExpiredAuthError(failure.message);
  return new z.errors.Error(
    failureText(lookup, failure.reason),
    failure.code ?? 'ATTENDEE_LOOKUP_FAILED',
    502,
  );
};

const isSharedFailure = (value: unknown): value is SharedFailure => {
  if (typeof value !== 'object' || value === null) return false;
  const failure = value as Record<string, unknown>;
  return failure.kind === 'error' ? typeof failure.reason === 'string' : typeof failure.message === 'string';
};

const attendeeOfKnown = (known: Known, lookup: AttendeeLookup): Attendee => {
  if ('attendee' in known) return known.attendee;
  return noAttendee(
    known.missing === 'event'
      ? `The event ${lookup.eventId} of order ${lookup.orderId} no longer exists (it may have been deleted), so its registration ${lookup.submissionId} cannot be read.`
      : `Registration ${lookup.submissionId} of order ${lookup.orderId} is not among the registrations of its event (it may have been deleted).`,
  );
};

const isKnown = (value: unknown): value is Known =>
  typeof value === 'object' && value !== null && ('attendee' in value || 'missing' in value);

interface Context {
  z: ZObject;
  bundle: Pick<Bundle, 'authData'>;
  cache: AccountCache;
  keys: ReturnType<typeof keysOf>;
  lookup: AttendeeLookup;
  clock: LookupClock;
  onRead?: (read: LookupRead) => void;
  /** When this hydration started. */
  start: number;
}

const knownOf = async (ctx: Context, submissionId: string): Promise<Known | undefined> => {
  const value = await ctx.cache.get<unknown>(ctx.keys.known(submissionId));
  return isKnown(value) ? value : undefined;
};

const isWanted = (item: unknown): item is [string, number | null] =>
  Array.isArray(item) && typeof item[0] === 'string' && (typeof item[1] === 'number' || item[1] === null);

/**
 * The registrations in the event's wanted list: the slots up to the count last written (and a few more, for
 * takers that have not written it yet), read in parallel batches. A slot past them (the list wrapped around,
 * or a count written out of order) is missed by this pass: its hydration asks again for the next one.
 */
const wantedList = async (ctx: Context): Promise<Wanted> => {
  const hint = await ctx.cache.get<unknown>(ctx.keys.wantedCount);
  const end = Math.min(
    MAX_WANTED,
    (typeof hint === 'number' && hint > 0 ? Math.floor(hint) : 0) + WANTED_MARGIN,
  );
  const list: Wanted = [];
  for (let from = 0; from < end; from += WANTED_BATCH) {
    const slots = await Promise.all(
      Array.from({ length: Math.min(WANTED_BATCH, end - from) }, (_, i) =>
        ctx.cache.get<unknown>(ctx.keys.wanted(from + i)),
      ),
    );
    list.push(...slots.filter(isWanted));
  }
  return list;
};

/**
 * Adds this hydration's registration to the event's wanted list, so that a pass run by another hydration
 * collects it too. The cache has no atomic "add to a list", so each registration takes a slot of its own
 * with `nx`, starting where the last one was taken: concurrent hydrations never overwrite each other. Slots
 * expire after `WANTED_TTL_SECONDS`; a full list only means this registration is looked up in a pass of its
 * own.
 */
const want = async (ctx: Context): Promise<void> => {
  const entry: [string, number | null] = [ctx.lookup.submissionId, orderTime(ctx.lookup)];
  const hint = await ctx.cache.get<unknown>(ctx.keys.wantedCount);
  const first = typeof hint === 'number' && hint >= 0 && hint < MAX_WANTED ? Math.floor(hint) : 0;
  for (let i = 0; i < MAX_WANTED; i++) {
    const n = (first + i) % MAX_WANTED;
    const taken = await ctx.cache.setIfAbsent(ctx.keys.wanted(n), entry, WANTED_TTL_SECONDS);
    if (taken === null) return; // the cache fails: no pass will collect it anyway
    if (taken) {
      await ctx.cache.set(ctx.keys.wantedCount, n + 1, WANTED_TTL_SECONDS);
      return;
    }
  }
};

/** The wanted registrations that have no result yet (with this hydration's own first), at most `MAX_WANTED`. */
const targetsOf = async (ctx: Context): Promise<Map<string, number | null>> => {
  const targets = new Map<string, number | null>([[ctx.lookup.submissionId, orderTime(ctx.lookup)]]);
  const others = new Map<string, number | null>();
  for (const [id, ms] of await wantedList(ctx)) if (!targets.has(id)) others.set(id, ms);
  const settled = await Promise.all([...others.keys()].map((id) => knownOf(ctx, id)));
  [...others].forEach(([id, ms], i) => {
    if (!settled[i] && targets.size < MAX_WANTED) targets.set(id, ms);
  });
  return targets;
};

/**
 * One pass through the event's registrations for `targets` (registration → its order's time), stopping as
 * soon as all are found. Each result is stored per registration as soon as its window has been read; a
 * failure is stored briefly for the registrations that found no result, so that those waiting for them
 * rethrow it rather than read again. Returns the result of this hydration's registration.
 *
 * With `collecting` (the pass the others wait for), the wanted list is read again every `PICKUP_MS` while
 * the answer arrives: a registration asked for meanwhile is collected too if it comes later in the answer.
 * It never keeps the read going (what was read before it joined is not read again), and is concluded
 * missing by no pass but its own.
 */
const pass = async (
  ctx: Context,
  targets: Map<string, number | null>,
  collecting = false,
): Promise<Known> => {
  const { z, bundle, cache, keys, lookup, clock } = ctx;
  const deadline = Math.min(clock.now() + ATTENDEE_LIMITS.lookupMs, ctx.start + ATTENDEE_LIMITS.hydrationMs);
  const found = new Map<string, Attendee>();
  const settled = new Map<string, Known>();
  /** The targets not found yet: the read stops when there are none. */
  const pending = new Set(targets.keys());
  /** Registrations asked for during the pass. */
  const joined = new Set<string>();
  let lookedAt = clock.now();
  let looking: Promise<void> | null = null;
  const lookAgain = () => {
    if (!collecting || looking || clock.now() - lookedAt < PICKUP_MS) return;
    lookedAt = clock.now();
    looking = wantedList(ctx)
      .then((list) => {
        for (const [id] of list) {
          if (!targets.has(id) && !found.has(id) && joined.size < MAX_WANTED) joined.add(id);
        }
      })
      .finally(() => {
        looking = null;
      });
  };
  const store = async () => {
    const fresh = [...found].filter(([id]) => !settled.has(id));
    for (const [id, attendee] of fresh) settled.set(id, { attendee });
    await Promise.all(
      fresh.map(([id, attendee]) => cache.set(keys.known(id), { attendee }, RESULT_TTL_SECONDS)),
    );
  };
  /** Settles the targets not found (and, for an event that is gone, those that joined too). */
  const settleRest = async (known: Known) => {
    const rest = [...pending, ...('missing' in known && known.missing === 'event' ? joined : [])].filter(
      (id) => !settled.has(id),
    );
    for (const id of rest) settled.set(id, known);
    await Promise.all(rest.map((id) => cache.set(keys.known(id), known, RESULT_TTL_SECONDS)));
  };
  const visit = (person: SubmissionPerson) => {
    const id = person.submissionId;
    if ((pending.has(id) || joined.has(id)) && !found.has(id)) {
      found.set(id, attendeeOf(person));
      pending.delete(id);
    }
  };
  const stopWhen = () => {
    lookAgain();
    return pending.size === 0;
  };
  const times = [...targets.values()];
  const earliest = times.every((ms): ms is number => ms !== null) ? Math.min(...times) : null;
  const windows = [
    ...(earliest !== null && earliest - BEFORE_ORDER_MS > Date.parse(ALL_TIME)
      ? [new Date(earliest - BEFORE_ORDER_MS).toISOString()]
      : []),
    ALL_TIME,
  ];

  try {
    for (const since of windows) {
      if (pending.size === 0) break;
      const timeoutMs = deadline - clock.now();
      if (timeoutMs <= 0) {
        throw new Error(`the search took longer than ${ATTENDEE_LIMITS.lookupMs / 1000} seconds.`);
      }
      const read = await readSubmissionPeople(
        z,
        bundle,
        { eventId: lookup.eventId, since, timeoutMs, stopWhen },
        visit,
      );
      await looking;
      ctx.onRead?.({ since, bytes: read.bytes, items: read.items, complete: read.complete });
      await store();
      if (since === ALL_TIME && read.complete) await settleRest({ missing: 'registration' });
    }
  } catch (error) {
    await store();
    if (isNotFound(error)) {
      await settleRest({ missing: 'event' });
    } else {
      const failure = sharedFailureOf(error);
      const unsettled = [...pending].filter((id) => !settled.has(id));
      await Promise.all(unsettled.map((id) => cache.set(keys.failed(id), failure, FAILURE_TTL_SECONDS)));
      const mine = settled.get(lookup.submissionId);
      if (mine) return mine;
      throw rethrown(z, lookup, error);
    }
  }
  const mine = settled.get(lookup.submissionId);
  if (mine) return mine;
  // Not reachable: a pass ends with every target settled, or throws.
  throw rethrown(z, lookup, new Error('the search ended without an answer.'));
};

/** The attendee of `lookup`'s registration, with at most one lookup per registration (see above). */
export const findAttendee = async (
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  lookup: AttendeeLookup,
  options: LookupOptions = {},
): Promise<Attendee> => {
  const clock = options.clock ?? systemClock;
  const ctx: Context = {
    z,
    bundle,
    cache: accountCache(z, bundle, () => clock.now()),
    keys: keysOf(lookup.eventId),
    lookup,
    clock,
    onRead: options.onRead,
    start: clock.now(),
  };
  const { cache, keys } = ctx;
  const id = lookup.submissionId;
  const alone = () => pass(ctx, new Map([[id, orderTime(lookup)]]));
  let pause = FIRST_POLL_MS;
  for (let round = 0; ; round++) {
    const known = await knownOf(ctx, id);
    if (known) return attendeeOfKnown(known, lookup);
    // A lookup in progress: wait for it (it may be for other registrations; then the next pass is ours).
    const running = round > 0 && (await cache.get<unknown>(keys.lookup)) !== undefined;
    if (!running) {
      const failed = await cache.get<unknown>(keys.failed(id));
      if (isSharedFailure(failed)) throw sharedError(z, lookup, failed);
      const claimed = await cache.setIfAbsent(keys.lookup, { since: clock.now() }, claimTtlSeconds());
      if (claimed === null) return attendeeOfKnown(await alone(), lookup);
      if (claimed) {
        try {
          // A pass may have ended between the first read and the claim.
          const settledMeanwhile = await knownOf(ctx, id);
          if (settledMeanwhile) return attendeeOfKnown(settledMeanwhile, lookup);
          // Orders looked up at the same moment (a Zap history replayed) join this pass.
          await clock.sleep(GATHER_MS);
          return attendeeOfKnown(await pass(ctx, await targetsOf(ctx), true), lookup);
        } finally {
          await cache.delete(keys.lookup);
        }
      }
      // Another hydration runs a pass: ask to be collected by it (it waits a moment for such requests) or,
      // when it has already started reading, by the next one. A request of an earlier round may have been
      // past what that pass read: asking again costs a slot, never a result.
      await want(ctx);
    }
    if (clock.now() - ctx.start >= ATTENDEE_LIMITS.waitMs) return attendeeOfKnown(await alone(), lookup);
    await clock.sleep(pause);
    pause = Math.min(MAX_POLL_MS, pause * 2);
  }
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
