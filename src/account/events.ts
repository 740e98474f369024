/**
 * Event lookups shared by operations. The Connect interface has no "get one event" endpoint and its events
 * list answers the account's newest 100 at most (the contract lets a service clamp `limit`), so:
 * - the events list is read once and cached for the account (10 minutes); an id missing from the cached
 *   list is looked up once more before anything else (`findEvent`, cheap, for context and samples);
 * - an operation that takes an event reaches any event of the account (`requireAccountEvent`): past the
 *   newest, one small keyed request asks the service whether the account holds it (refused only when the
 *   service says not), and its record is read from its public page (given a slug or link) or found in the
 *   public catalog, page by page within the run's search time (`./catalog`); an older event found is kept
 *   for the account for 10 minutes, one small entry per event;
 * - the Event dropdown pages the newest 100 first, then the catalog's pages from the end that holds the
 *   newer events, keeping the account's own events (`eventsPage`).
 * Registrations are enriched with their event's title and dates from the cached list, or for an older event
 * as an operation reaches it (`eventContext`), each remembered for the account.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import {
  EVENTS_LIMIT_MAX,
  EVENT_NOT_FOUND,
  type Event,
  type EventWidget,
  LIST_LIMIT_MAX,
  appErrorCode,
  catalogFollowsPages,
  errorText,
  eventNotFoundError,
  eventRefusedError,
  getEventWidget,
  isAccountEvent,
  listEvents,
  newestFirst,
  streamLimits,
} from '../connect';
import { accountCache } from '../memory';
import { type EventContext, NO_EVENT_CONTEXT, eventContextOf } from '../mappers/submission';
import { type CatalogWalk, catalogReach, ownEvents, searchDeadline, walkCatalog } from './catalog';
import { eventForLookup } from '../mappers/event';

const EVENTS_TTL_SECONDS = 600;
const EVENTS_KEY = 'events:list';

/**
 * The account's newest events (cached); `fresh` skips the cache. What is cached is bounded: each event's known
 * fields only, each text cut (`eventForLookup`), so no description or added field of any size reaches `z.cache`.
 */
export const accountEvents = (
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  fresh = false,
): Promise<Event[]> =>
  accountCache(z, bundle).remember(
    EVENTS_KEY,
    EVENTS_TTL_SECONDS,
    async () => (await listEvents(z, bundle, LIST_LIMIT_MAX)).map(eventForLookup),
    fresh,
  );

interface EventLookup {
  event: Event | null;
  /** When the event is not found and the list read holds only the account's newest events: how many. */
  newest?: number;
}

/**
 * One event of the account by id: in the cached list, else in a fresh one; an account with more events than
 * one list holds is read as far as the service answers (`EVENTS_LIMIT_MAX`), so an older event is found too.
 */
const lookUpEvent = async (
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  eventId: string,
): Promise<EventLookup> => {
  const byId = (events: Event[]) => events.find((event) => event.id === eventId) ?? null;
  const cached = byId(await accountEvents(z, bundle));
  if (cached) return { event: cached };
  const fresh = await accountEvents(z, bundle, true);
  if (byId(fresh) || fresh.length < LIST_LIMIT_MAX) return { event: byId(fresh) };
  const wide = await listEvents(z, bundle, EVENTS_LIMIT_MAX);
  // The whole account is known only when the service answered more than one list and less than was asked.
  const whole = wide.length > LIST_LIMIT_MAX && wide.length < EVENTS_LIMIT_MAX;
  return { event: byId(wide), ...(whole ? {} : { newest: wide.length }) };
};

/**
 * One event of the account by id among those the events list answers, or `null`: cheap (no catalog read),
 * for the title and dates added to registrations and for samples. Operations that take an event use
 * `requireAccountEvent`.
 */
export const findEvent = async (
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  eventId: string,
): Promise<Event | null> => (await lookUpEvent(z, bundle, eventId)).event;

/** An event as the Event field gives it: its ID, or its slug (typed, or read from its public page link). */
export type EventInput = { id: string } | { slug: string };

/** An event of the account, as far as it could be read. */
export interface AccountEvent {
  id: string;
  /**
   * Its record; `null` when the service says the account holds the event but neither the events list (the
   * newest 100) nor the public catalog, as far as it was read, shows it: a draft, or an event the catalog
   * search did not reach in time (`walk` says how far it read).
   */
  event: Event | null;
  walk?: CatalogWalk;
}

/** An older event of the account found once, kept for 10 minutes (one small entry per event). */
const OLDER_EVENT_TTL_SECONDS = EVENTS_TTL_SECONDS;
const olderEventKey = (eventId: string) => `event:${eventId}`;

/** The Event fields of an event page (its description and cover image are not kept). */
export const eventOf = (widget: EventWidget): Event => {
  const event: Record<string, unknown> = { ...widget };
  delete event.description;
  delete event.coverImageUrl;
  return event as Event;
};

/**
 * The event among the account's newest (cached, then read again) that `match` names, or `null`; `whole` when
 * the list read again holds fewer than 100 events, so all of the account's (the contract's clamp is 100).
 */
const newestMatching = async (
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  match: (event: Event) => boolean,
): Promise<{ event: Event | null; whole: boolean }> => {
  const cached = (await accountEvents(z, bundle)).find(match);
  if (cached) return { event: cached, whole: false };
  const fresh = await accountEvents(z, bundle, true);
  return { event: fresh.find(match) ?? null, whole: fresh.length < LIST_LIMIT_MAX };
};

/**
 * What an operation says works for a draft older than the account's newest 100, which no slug reaches (it
 * has no public page): `map-id` when the event's ID is enough (floor plans), `publish` when the step needs
 * the event's public page (an agenda, the agenda embed).
 */
export type OlderDraft = 'map-id' | 'publish';

const OLDER_DRAFT_ADVICE: Record<OlderDraft, string> = {
  'map-id': 'map its event ID instead (a draft has no public page, so no slug or link reaches it)',
  publish: 'publish it in the dashboard first: a draft has no public page, and this step needs it',
};

const bySlug = async (
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  slug: string,
  deadline: number,
  olderDraft: OlderDraft,
): Promise<AccountEvent> => {
  const { event: newest } = await newestMatching(z, bundle, (event) => event.slug === slug);
  if (newest) return { id: newest.id, event: newest };
  const page = await getEventWidget(z, bundle, slug, Math.max(1_000, deadline - Date.now()));
  if (!page) {
    throw new z.errors.Error(
      `No published event has the slug "${slug.slice(0, 120)}", and none of your 100 newest events has it. Check the slug or link (it is the last part of the event's public page address). If it is a draft older than your 100 newest, ${OLDER_DRAFT_ADVICE[olderDraft]}.`,
      EVENT_NOT_FOUND,
      404,
    );
  }
  if (!(await isAccountEvent(z, bundle, page.id))) {
    throw eventRefusedError(z, `slug "${slug.slice(0, 120)}"`, 'another-organizer');
  }
  const event = eventOf(page);
  await accountCache(z, bundle).set(olderEventKey(event.id), event, OLDER_EVENT_TTL_SECONDS);
  return { id: event.id, event };
};

const byId = async (
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  eventId: string,
  deadline: number,
): Promise<AccountEvent> => {
  const { event: newest, whole } = await newestMatching(z, bundle, (event) => event.id === eventId);
  if (newest) return { id: eventId, event: newest };
  // The events list holds all of the account's events: the service says the event is not among them.
  if (whole) throw eventNotFoundError(z, eventId);
  return olderById(z, bundle, eventId, deadline);
};

/**
 * An event of the account not among its newest, by ID: the service asked whether the account holds it (one
 * keyed read), its record from the older events kept, else from the public catalog until `deadline`.
 */
const olderById = async (
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  eventId: string,
  deadline: number,
): Promise<AccountEvent> => {
  const cache = accountCache(z, bundle);
  const known = await cache.get<Event>(olderEventKey(eventId));
  if (!(await isAccountEvent(z, bundle, eventId))) {
    if (known) await cache.delete(olderEventKey(eventId));
    throw eventNotFoundError(z, eventId, { said: known ? 'deleted' : 'either' });
  }
  if (known && known.id === eventId) return { id: eventId, event: known };
  let found: Event | null = null;
  const walk = await walkCatalog(z, bundle, {
    deadline,
    visit: (events) => {
      found = events.find((event) => event.id === eventId) ?? null;
      return found !== null;
    },
  });
  if (!found) return { id: eventId, event: null, walk };
  await cache.set(olderEventKey(eventId), found, OLDER_EVENT_TTL_SECONDS);
  return { id: eventId, event: found };
};

/**
 * Any event of the connected account, given by ID or slug; refused (an error that says why) only when the
 * service says the account does not hold it. Its record is read as described at the top of this file, the
 * catalog until `deadline` (default: the run's search time from now). `olderDraft`: what a slug that reaches
 * nothing says works for a draft older than the newest 100.
 */
export const requireAccountEvent = (
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  given: EventInput,
  deadline = searchDeadline(),
  olderDraft: OlderDraft = 'map-id',
): Promise<AccountEvent> =>
  'id' in given ? byId(z, bundle, given.id, deadline) : bySlug(z, bundle, given.slug, deadline, olderDraft);

/** Whether an event of the account has no record because it is a draft: the whole catalog was read. */
export const isOlderDraft = (found: AccountEvent): boolean =>
  found.event === null && found.walk?.complete === true;

/**
 * Why an event of the account has no record, for a log line or a message: a draft (the whole catalog was
 * read), or one past where the catalog search stopped.
 */
export const noRecordWhy = (found: AccountEvent): string => {
  const walk = found.walk;
  if (!walk || isOlderDraft(found)) {
    const pages = walk ? `${walk.pagesRead} page${walk.pagesRead === 1 ? '' : 's'}` : '';
    const read = walk
      ? ` (its ${pages}, ${walk.eventsRead.toLocaleString('en-US')} events, were all read)`
      : '';
    return `it is one of your events, but not among your 100 newest, and the public catalog does not show it${read}: it is a draft, and a draft has no public page`;
  }
  return `it is one of your events, but not among your 100 newest, and the search through the public catalog stopped at its time limit after ${catalogReach(walk)}, before reaching it`;
};

/**
 * One event of the account by id from the events list, or the error that says the account's events do not
 * hold it (deleted, or another account's), the same for every operation that takes an event. Operations
 * that must reach older events use `requireAccountEvent`.
 */
export const requireEvent = async (
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  eventId: string,
): Promise<Event> => {
  const { event, newest } = await lookUpEvent(z, bundle, eventId);
  if (!event) throw eventNotFoundError(z, eventId, { newest });
  return event;
};

/** What the service answered for the events of one catalog page: the account's, and others'. */
interface PageVerdicts {
  own: string[];
  others: string[];
}
const verdictsKey = (page: number) => `event-dropdown:${page}`;

/**
 * The account's own events among `events` (catalog page `page`): the service's answers for this page are
 * kept 10 minutes (at most 100 IDs, one entry per page opened), so opening the dropdown again asks only about
 * events that moved onto the page since.
 */
const ownOlderEvents = async (
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  page: number,
  events: Event[],
  deadline: number,
): Promise<{ own: Event[]; unchecked: number }> => {
  const cache = accountCache(z, bundle);
  const kept = await cache.get<PageVerdicts>(verdictsKey(page));
  const ownIds = new Set(Array.isArray(kept?.own) ? kept.own : []);
  const otherIds = new Set(Array.isArray(kept?.others) ? kept.others : []);
  const unknown = events.filter((event) => !ownIds.has(event.id) && !otherIds.has(event.id));
  const asked = await ownEvents(z, bundle, unknown, deadline);
  for (const event of asked.own) ownIds.add(event.id);
  for (const event of asked.others) otherIds.add(event.id);
  const own = events.filter((event) => ownIds.has(event.id));
  if (asked.own.length + asked.others.length > 0) {
    // Only this page's events are kept: IDs that moved off it are dropped.
    const onPage = (ids: Set<string>) => events.map((event) => event.id).filter((id) => ids.has(id));
    await cache.set<PageVerdicts>(
      verdictsKey(page),
      { own: onPage(ownIds), others: onPage(otherIds) },
      EVENTS_TTL_SECONDS,
    );
  }
  return { own, unchecked: asked.unchecked };
};

/** The latest creation among `events` (0 for none). */
const latestCreated = (events: Event[]): number =>
  events.reduce((latest, event) => Math.max(latest, Date.parse(event.createdAt) || 0), 0);

/** A catalog page as the dropdown keeps it: its older events, its latest creation, and how the walk went. */
type PageRead = { older: Event[]; latest: number; walk: CatalogWalk };

/** The older events (not among `newestIds`) of catalog page `page`, and how the walk went. */
const olderOnPage = async (
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  page: number,
  newestIds: ReadonlySet<string>,
  deadline: number,
): Promise<PageRead> => {
  let older: Event[] = [];
  let latest = 0;
  const walk = await walkCatalog(z, bundle, {
    deadline,
    fromPage: page,
    toPage: page,
    visit: (events) => {
      older = events.filter((event) => !newestIds.has(event.id));
      latest = latestCreated(events);
    },
  });
  return { older, latest, walk };
};

/**
 * How the dropdown pages the catalog: its pages, whether its newer events are on its last pages, and how many
 * pages at that end hold none of the account's older events (they hold its newest, or other organizers').
 */
interface CatalogEnds {
  pages: number;
  newestLast: boolean;
  skipped: number;
}
const CATALOG_ENDS_KEY = 'event-dropdown:ends';
/**
 * The most pages passed over at the catalog's newer end: the account's newest 100 fill one page, or two
 * when they straddle pages, and other organizers' events may spread them onto one more.
 */
const MAX_SKIPPED_PAGES = 3;

/** The catalog page the dropdown reads `r`-th (1-based), from the end that holds the newer events. */
const catalogPageAt = (ends: CatalogEnds, r: number): number => (ends.newestLast ? ends.pages + 1 - r : r);

/** The most pages a catalog that does not say its size is taken to have (2^20: 100 million events). */
const MAX_COUNTED_PAGES = 2 ** 20;

/**
 * The number of pages of a catalog paged by number that does not say its size (no `total` beside its events:
 * a bare array, `{ items, next }`), from its first page read (full): pages 2, 4, 8… are asked until one is
 * short or empty, then the pages between the last full one and it, halving the gap each time (about
 * 2·log2(pages) reads). Each page read is handed to `probed`. Null when the deadline came first.
 */
const countPages = async (
  probe: (page: number) => Promise<PageRead>,
  probed: (page: number, read: PageRead) => void,
): Promise<number | null> => {
  let full = 1;
  let past = 0;
  const ask = async (page: number): Promise<'full' | 'last' | 'past' | null> => {
    const onPage = await probe(page);
    if (onPage.walk.stopped === 'deadline') return null;
    if (onPage.walk.eventsRead === 0) return 'past';
    probed(page, onPage);
    return onPage.walk.complete ? 'last' : 'full';
  };
  while (past === 0) {
    const page = Math.min(full * 2, MAX_COUNTED_PAGES);
    const found = page === full ? 'last' : await ask(page);
    if (found === null) return null;
    if (found === 'last') return page;
    if (found === 'past') past = page;
    else full = page;
  }
  while (past - full > 1) {
    const page = Math.floor((full + past) / 2);
    const found = await ask(page);
    if (found === null) return null;
    if (found === 'last') return page;
    if (found === 'past') past = page;
    else full = page;
  }
  return full;
};

/**
 * Whether the catalog's newer events are on its last pages: its first and last pages compared. Its number of
 * pages is its `total` over the page size, or counted (`countPages`) when the catalog does not say its size.
 */
const newestLastOf = async (
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  newestIds: ReadonlySet<string>,
  deadline: number,
  read: Map<number, PageRead>,
): Promise<{ pages: number; newestLast: boolean } | null> => {
  const first = await olderOnPage(z, bundle, 1, newestIds, deadline);
  read.set(1, first);
  if (first.walk.stopped === 'deadline') return null;
  const total = first.walk.total;
  let last: PageRead | undefined;
  const pages =
    total !== undefined
      ? Math.max(1, Math.ceil(total / LIST_LIMIT_MAX))
      : first.walk.complete
        ? 1
        : await countPages(
            (page) => olderOnPage(z, bundle, page, newestIds, deadline),
            // Only the last page counted is kept: the others are dropped as the count goes on.
            (_, onPage) => void (last = onPage),
          );
  if (pages === null) return null;
  if (pages === 1) return { pages, newestLast: false };
  last =
    last && last.walk.lastPage === pages ? last : await olderOnPage(z, bundle, pages, newestIds, deadline);
  if (last.walk.stopped === 'deadline') return null;
  read.set(pages, last);
  return { pages, newestLast: last.latest > first.latest };
};

/**
 * Where the dropdown reads the public catalog from (the contract leaves its order to the service): the end
 * that holds the newer events, past the pages there that hold none of the account's older events; found once
 * and kept 10 minutes. The pages read on the way are handed back (`read`), so none is read twice. A catalog
 * whose size is not said, or a search the deadline cut, is paged from its start; so is a catalog that
 * continues by a cursor or link (the dialect's `catalog`), which can be reached at no page but by the one
 * before it.
 */
const catalogEnds = async (
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  newestIds: ReadonlySet<string>,
  deadline: number,
): Promise<{ ends: CatalogEnds; read: Map<number, PageRead> }> => {
  const cache = accountCache(z, bundle);
  const read = new Map<number, PageRead>();
  // A catalog that continues by a cursor or link is read from its start, each page from the one before.
  if (catalogFollowsPages())
    return { ends: { pages: Number.POSITIVE_INFINITY, newestLast: false, skipped: 0 }, read };
  const kept = await cache.get<CatalogEnds>(CATALOG_ENDS_KEY);
  if (kept && Number.isInteger(kept.pages) && Number.isInteger(kept.skipped)) return { ends: kept, read };
  const order = await newestLastOf(z, bundle, newestIds, deadline, read);
  if (!order) return { ends: { pages: Number.POSITIVE_INFINITY, newestLast: false, skipped: 0 }, read };
  const ends = { ...order, skipped: 0 };
  for (; ends.skipped < Math.min(ends.pages, MAX_SKIPPED_PAGES); ends.skipped++) {
    const page = catalogPageAt(ends, ends.skipped + 1);
    const onPage = read.get(page) ?? (await olderOnPage(z, bundle, page, newestIds, deadline));
    // Only the page shown first is kept: a passed page is dropped at once.
    read.set(page, onPage);
    if (onPage.walk.stopped === 'deadline') return { ends, read };
    const { own, unchecked } = await ownOlderEvents(z, bundle, page, onPage.older, deadline);
    if (own.length > 0 || unchecked > 0) break;
    read.delete(page);
  }
  await cache.set(CATALOG_ENDS_KEY, ends, EVENTS_TTL_SECONDS);
  return { ends, read };
};

/** Where the dropdown's page (`event-dropdown:from:2`) starts in the catalog's reading order, once known. */
const fromKey = (page: number) => `event-dropdown:from:${page}`;

/**
 * The account's older events the dropdown shows from the catalog's `rank`-th page in its reading order
 * (`catalogPageAt`) on: that page's, or, when it holds none of them (only the account's newest, or other
 * organizers' events), the next page's, and so on to the first page that holds some, the catalog's end or the
 * deadline. `next` is the rank the dropdown's next page starts at.
 */
const olderFrom = async (
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  at: { ends: CatalogEnds; read: Map<number, PageRead>; rank: number; deadline: number },
  newestIds: ReadonlySet<string>,
): Promise<{ own: Event[]; next: number; cut?: string }> => {
  const { ends, read, deadline } = at;
  for (let rank = at.rank; rank <= ends.pages; rank++) {
    const catalogPage = catalogPageAt(ends, rank);
    const { older, walk } =
      read.get(catalogPage) ?? (await olderOnPage(z, bundle, catalogPage, newestIds, deadline));
    read.delete(catalogPage);
    const { own, unchecked } = await ownOlderEvents(z, bundle, catalogPage, older, deadline);
    if (walk.stopped === 'deadline' || unchecked > 0) {
      const cut = walk.pagesRead
        ? `with ${unchecked} of the ${older.length} older catalog events of catalog page ${catalogPage} not yet checked`
        : `before catalog page ${catalogPage} was read`;
      return { own, next: rank + 1, cut };
    }
    const atEnd = ends.newestLast ? rank >= ends.pages : walk.complete;
    if (own.length > 0 || atEnd) return { own, next: rank + 1 };
  }
  return { own: [], next: ends.pages + 1 };
};

/**
 * One page of the Event dropdown (Zapier's "Load more": page 0, 1, …). Page 0: the account's newest events
 * (the events list, up to 100). Page p ≥ 1: the account's own events not already on page 0 from the next
 * page of the public catalog (100 published events of any organizer) that holds some, read from the end that
 * holds the newer events (`catalogEnds`), each asked of the service (`ownEvents`), newest first; the pages
 * on the way that hold none of the account's older events (its newest, other organizers') are passed over
 * (`olderFrom`), and where the next page starts is kept 10 minutes. An empty page ends the list: the
 * catalog's end, or the time limit, which a log line names (Find Event reaches every event).
 */
export const eventsPage = async (
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  page: number,
): Promise<Event[]> => {
  const p = Math.max(0, Math.floor(page));
  if (p === 0) return listEvents(z, bundle, LIST_LIMIT_MAX);
  const deadline = searchDeadline();
  const newest = await accountEvents(z, bundle);
  // A list shorter than the contract's clamp holds all of the account's events: nothing older to show.
  if (newest.length < LIST_LIMIT_MAX) return [];
  const newestIds = new Set(newest.map((event) => event.id));
  const { ends, read } = await catalogEnds(z, bundle, newestIds, deadline);
  const cache = accountCache(z, bundle);
  const kept = p === 1 ? undefined : await cache.get<number>(fromKey(p));
  const rank = Number.isInteger(kept) && (kept as number) > 0 ? (kept as number) : ends.skipped + p;
  const { own, next, cut } = await olderFrom(z, bundle, { ends, read, rank, deadline }, newestIds);
  await cache.set(fromKey(p + 1), next, EVENTS_TTL_SECONDS);
  if (cut) {
    z.console.log(
      `Event dropdown page ${p + 1}: the time limit came ${cut}; use the Event field's search (Find Event) for an event not shown.`,
    );
  }
  return newestFirst(own, (event) => event.id);
};

/** The account's most recently created event, preferring published ones (for samples). */
export const latestEvent = async (z: ZObject, bundle: Pick<Bundle, 'authData'>): Promise<Event | null> => {
  const events = await accountEvents(z, bundle);
  return events.find((event) => event.status === 'published') ?? events[0] ?? null;
};

/**
 * How long the title and dates added to registrations are reused. Long on purpose: a poll that needed the
 * events list every 10 minutes would double its requests; a renamed event shows its new title within 6 hours.
 */
const EVENT_CONTEXT_TTL_SECONDS = 6 * 3600;

/**
 * How long a lookup for the title and dates may search the public catalog: half the run's search time, so
 * that the operation keeps the rest for its own reads.
 */
export const contextDeadline = (start = Date.now()): number => start + streamLimits().searchMs / 2;

/**
 * The event of a registration for its title and dates, and how long that answer is kept: one of the account's
 * newest (the cached events list, never read again for this: one read per account per 10 minutes, whatever
 * the number of registrations), else an older one (`olderById`: one keyed read, then the older events kept or
 * the public catalog). An event the service says is not the account's has none (kept 6 hours); one of the
 * account's without a record (a draft, or one the catalog search did not reach in time) has none for 10
 * minutes, until the events list is read again.
 */
const contextEvent = async (
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  eventId: string,
  deadline: number,
): Promise<{ event: Event | null; seconds: number }> => {
  const listed = (await accountEvents(z, bundle)).find((event) => event.id === eventId);
  if (listed) return { event: listed, seconds: EVENT_CONTEXT_TTL_SECONDS };
  try {
    const { event } = await olderById(z, bundle, eventId, deadline);
    return { event, seconds: event ? EVENT_CONTEXT_TTL_SECONDS : EVENTS_TTL_SECONDS };
  } catch (error) {
    if (appErrorCode(error) === EVENT_NOT_FOUND) return { event: null, seconds: EVENT_CONTEXT_TTL_SECONDS };
    throw error;
  }
};

/**
 * The title and dates added to every registration (polled, delivered or found): one cached lookup per
 * account and event (`contextEvent`), the catalog searched until `deadline` at most. An event the service
 * does not hold for the account gets empty context (remembered too); a failed lookup adds no context this
 * time, is not remembered, and never fails the operation.
 */
export const eventContext = async (
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  eventId: string,
  deadline = contextDeadline(),
): Promise<EventContext> => {
  const cache = accountCache(z, bundle);
  const key = `event-context:${eventId}`;
  const cached = await cache.get<EventContext>(key);
  if (cached) return cached;
  try {
    const { event, seconds } = await contextEvent(z, bundle, eventId, deadline);
    const context = eventContextOf(event);
    await cache.set(key, context, seconds);
    return context;
  } catch (error) {
    z.console.log(`The title and dates of event ${eventId} could not be added: ${errorText(error)}`);
    return NO_EVENT_CONTEXT;
  }
};
