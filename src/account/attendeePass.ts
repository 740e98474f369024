/**
 * One pass of the attendee lookup: a read of the event's registrations from a window's start, kept as the
 * event's index (compact, at most `MAX_INDEX_BYTES`), for the registration of the run that reads and for
 * every order waiting for it. The submissions endpoint has a lower bound (`since`) but no upper one, no
 * order and no limit: the read stops as soon as the reader's own registration is in hand when no order
 * waits (the request is cancelled, the rest never downloaded); when orders wait, it reads the window to its
 * end, so that the index answers each of them: found, or made after the read (then one more pass), or not
 * in the window (then the whole event). Only the whole event read to its end proves a registration gone.
 */
import { randomUUID } from 'node:crypto';
import type { Bundle, ZObject } from 'zapier-platform-core';
import { type SubmissionPerson, isNotFound, readSubmissionPeople } from '../connect';
import { attendeeOf } from '../mappers/attendee';
import type { Clock } from '../memory';
import {
  ALL_TIME_MS,
  type AttendeeLookup,
  type AttendeeTimings,
  type EventIndex,
  type EventMemory,
  FAILURE_MS,
  type Known,
  MAX_INDEX_BYTES,
  type Person,
  type Wanted,
  attendeeOfPerson,
  packPeople,
} from './attendeeIndex';
import { rethrown, sharedFailureOf } from './attendeeFailure';

/** One read of the event's registrations by a pass (for tests and the benchmark). */
export interface LookupRead {
  since: string;
  bytes: number;
  items: number;
  /** False when the read stopped before the end of the answer (everything looked for was found). */
  complete: boolean;
}

export interface PassContext {
  z: ZObject;
  bundle: Pick<Bundle, 'authData'>;
  lookup: AttendeeLookup;
  memory: EventMemory;
  clock: Clock;
  timings: AttendeeTimings;
  /** When the hydration started. */
  start: number;
  onRead?: (read: LookupRead) => void;
}

/**
 * What a pass looks for: its own registration and those of the orders waiting for it. The waiting note is
 * read again whenever all of them are in hand (an order that came meanwhile is then looked for too); the
 * read stops when a look brings no one new.
 */
interface Search {
  wanted: Set<string>;
  /** The wanted registrations found so far, in any window. */
  found: Record<string, Person>;
  /** The window's registrations read so far (within the cap): one wanted late may be among them. */
  people: Record<string, Person>;
  looking: boolean;
  /** How many were wanted when a look last brought no one new (-1: not yet). */
  settledAt: number;
}

const lookAgain = (ctx: PassContext, search: Search) => {
  search.looking = true;
  void ctx.memory.waiting
    .read()
    .then((seen) => {
      const before = search.wanted.size;
      for (const id of seen?.ids ?? []) {
        search.wanted.add(id);
        const person = search.people[id];
        if (person) search.found[id] = person;
      }
      search.settledAt = search.wanted.size === before ? before : -1;
    })
    .finally(() => {
      search.looking = false;
    });
};

const stopWhen = (ctx: PassContext, search: Search) => () => {
  if (search.looking) return false;
  for (const id of search.wanted) if (!(id in search.found)) return false;
  if (search.settledAt === search.wanted.size) return true;
  lookAgain(ctx, search);
  return false;
};

/** The people of one window as they arrive: all within the byte cap, past it only the wanted ones. */
const collector = (search: Search) => {
  const people: Record<string, Person> = {};
  const state = { bytes: 0, over: false };
  const visit = (person: SubmissionPerson) => {
    const id = person.submissionId;
    const wanted = search.wanted.has(id);
    if (state.over && !wanted) return;
    const { firstName, lastName, email } = attendeeOf(person);
    const entry: Person = [firstName, lastName, email];
    if (wanted) search.found[id] = entry;
    if (state.over) return;
    state.bytes += id.length + JSON.stringify(entry).length + 4;
    if (state.bytes > MAX_INDEX_BYTES) state.over = true;
    else people[id] = entry;
  };
  return { people, state, visit };
};

const readWindow = async (
  ctx: PassContext,
  search: Search,
  since: number,
  deadline: number,
): Promise<EventIndex> => {
  const timeoutMs = deadline - ctx.clock.now();
  if (timeoutMs <= 0) {
    throw new Error(`the search took longer than ${Math.round(ctx.timings.lookupMs / 1000)} seconds.`);
  }
  const { people, state, visit } = collector(search);
  search.people = people;
  const startedAt = ctx.clock.now();
  const iso = new Date(since).toISOString();
  const read = await readSubmissionPeople(
    ctx.z,
    ctx.bundle,
    { eventId: ctx.lookup.eventId, since: iso, timeoutMs, stopWhen: stopWhen(ctx, search) },
    visit,
  );
  ctx.onRead?.({ since: iso, bytes: read.bytes, items: read.items, complete: read.complete });
  return {
    v: 1,
    stamp: randomUUID(),
    since,
    readAt: read.serverTime ?? startedAt,
    complete: read.complete && !state.over,
    gone: false,
    people: packPeople({ ...people, ...search.found }),
    missing: [],
  };
};

/** Writes `index`, then its stamp (a waiter that sees the new stamp finds the new index). */
const keep = async (ctx: PassContext, index: EventIndex) => {
  await ctx.memory.index.write(index);
  await ctx.memory.stamp.write(index.stamp);
};

/** Keeps a failure in the index (beside what it knew) for the orders waiting, and rethrows it. */
const failed = async (ctx: PassContext, error: unknown): Promise<never> => {
  const before = await ctx.memory.index.read();
  const failure = { failure: sharedFailureOf(error), until: ctx.clock.now() + FAILURE_MS };
  const empty = { since: 0, readAt: 0, complete: false, gone: false, people: '', missing: [] };
  await keep(ctx, { ...(before ?? empty), v: 1, stamp: randomUUID(), failed: failure });
  throw rethrown(ctx.z, ctx.lookup, error);
};

/**
 * Reads from `since` (or the earliest window of the orders waiting) and, for those not there, the whole
 * event; writes the index after each window. Returns what is known of the reader's own registration.
 */
export const runPass = async (ctx: PassContext, wanted: Wanted, since: number): Promise<Known> => {
  const deadline = Math.min(ctx.clock.now() + ctx.timings.lookupMs, ctx.start + ctx.timings.hydrationMs);
  try {
    const waiting = await ctx.memory.waiting.read();
    // Those who wait from now on write themselves anew, and are looked for as the read goes.
    if (waiting) await ctx.memory.waiting.clear();
    const search: Search = {
      wanted: new Set([wanted.id, ...(waiting?.ids ?? [])]),
      found: {},
      people: {},
      looking: false,
      settledAt: -1,
    };
    let from = Math.min(since, waiting?.since ?? since);
    for (;;) {
      const index = await readWindow(ctx, search, from, deadline);
      // Those not found were read for to the end of the window.
      const unfound = [...search.wanted].filter((id) => !(id in search.found));
      if (unfound.length > 0 && from > ALL_TIME_MS) {
        await keep(ctx, index);
        from = ALL_TIME_MS;
        continue;
      }
      index.missing = unfound;
      await keep(ctx, index);
      const person = search.found[wanted.id];
      return person ? { attendee: attendeeOfPerson(person) } : { missing: 'registration' };
    }
  } catch (error) {
    if (!isNotFound(error)) return failed(ctx, error);
    const gone: EventIndex = {
      v: 1,
      stamp: randomUUID(),
      since: ALL_TIME_MS,
      readAt: ctx.clock.now(),
      complete: true,
      gone: true,
      people: '',
      missing: [],
    };
    await keep(ctx, gone);
    return { missing: 'event' };
  }
};
