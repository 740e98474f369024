/**
 * The public catalog read page by page (contract §1: `page` 1-based, 100 events a page; or, in a dialect
 * whose catalog continues by a cursor or link, each page from the one before): the published
 * events of every organizer of the service, or of the account alone, as the service has it. It is the only
 * list that reaches an account's events past the newest 100 that the events list answers. A walk holds one
 * page at a time and keeps only what its visitor keeps; it stops at the catalog's end, when the visitor has
 * enough, or at its deadline, and says how far it read (`catalogReach`). Ownership is never read from the
 * catalog: `ownEvents` asks the service, one small keyed request per event.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import {
  type Event,
  LIST_LIMIT_MAX,
  catalogFollowsPages,
  isAccountEvent,
  listPublicEvents,
  streamLimits,
} from '../connect';
import { accountCache } from '../memory';

type B = Pick<Bundle, 'authData'>;

export interface CatalogWalk {
  /** The catalog pages read, from the first one asked. */
  pagesRead: number;
  /** The last page read (0 when none was). */
  lastPage: number;
  /** Events on the pages read. */
  eventsRead: number;
  /** Events in the whole catalog, when its envelope says. */
  total?: number;
  /** True when the walk reached the catalog's end. */
  complete: boolean;
  /** Why it stopped before the end: its deadline came, or the visitor had enough. */
  stopped?: 'deadline' | 'enough';
}

/** Leaves this much of a deadline for what follows a read (no request is started with less). */
const MIN_READ_MS = 250;

/** The deadline of a search through the catalog started at `start` (the run's `searchMs`). */
export const searchDeadline = (start = Date.now()): number => start + streamLimits().searchMs;

/** Whether `error` is a request cut by the deadline (any failure once the deadline is this close). */
const cutByDeadline = (deadline: number): boolean => Date.now() >= deadline - MIN_READ_MS;

/** How long the continuation to a page of a catalog that continues by cursor or link is kept. */
const CONTINUATION_TTL_SECONDS = 600;
const continuationKey = (page: number) => `catalog-after:${page}`;

/**
 * Where a walk from `fromPage` starts: that page itself in a catalog paged by number; in one that continues by
 * a cursor or link (the dialect's `catalog`), the continuation to it a previous walk kept (10 minutes; or
 * that the catalog ends before it), else the first page, read on the way without being visited.
 */
const walkStart = async (
  z: ZObject,
  bundle: B,
  fromPage: number,
): Promise<{ page: number; after?: string; past?: true }> => {
  if (!catalogFollowsPages() || fromPage <= 1) return { page: fromPage };
  const after = await accountCache(z, bundle).get<string>(continuationKey(fromPage));
  // "" is kept for the page after the last: the catalog ends before it.
  if (after === '') return { page: fromPage, past: true };
  return typeof after === 'string' ? { page: fromPage, after } : { page: 1 };
};

/**
 * Reads the catalog from `fromPage` (1-based) to `toPage` (inclusive, default: its end), one page at a time,
 * handing each page's events to `visit`, which returns `true` when it has enough. A catalog that continues
 * by a cursor or link is walked page after page from where `walkStart` says, each continuation kept for the
 * next walk ("Load more" reads the page after the one it read last without reading the catalog again).
 */
export const walkCatalog = async (
  z: ZObject,
  bundle: B,
  options: {
    deadline: number;
    fromPage?: number;
    toPage?: number;
    visit: (events: Event[], page: number) => Promise<boolean | void> | boolean | void;
  },
): Promise<CatalogWalk> => {
  const walk: CatalogWalk = { pagesRead: 0, lastPage: 0, eventsRead: 0, complete: false };
  const from = Math.max(1, options.fromPage ?? 1);
  const last = options.toPage ?? Number.POSITIVE_INFINITY;
  const start = await walkStart(z, bundle, from);
  if (start.past) return { ...walk, complete: true };
  let { page, after } = start;
  for (; page <= last; page++) {
    const timeoutMs = options.deadline - Date.now();
    if (timeoutMs < MIN_READ_MS) return { ...walk, stopped: 'deadline' };
    let answer;
    try {
      answer = await listPublicEvents(z, bundle, { page, after, limit: LIST_LIMIT_MAX, timeoutMs });
    } catch (error) {
      if (cutByDeadline(options.deadline)) return { ...walk, stopped: 'deadline' };
      throw error;
    }
    walk.pagesRead++;
    walk.lastPage = page;
    walk.eventsRead += answer.received;
    if (answer.total !== undefined) walk.total = answer.total;
    after = answer.after ?? undefined;
    if (answer.after !== undefined)
      await accountCache(z, bundle).set(continuationKey(page + 1), after ?? '', CONTINUATION_TTL_SECONDS);
    const end = answer.last;
    if (end) walk.complete = true;
    // A page before `fromPage` is read only to reach it (a catalog that continues by cursor or link).
    const enough = page >= from && (await options.visit(answer.data, page)) === true;
    if (enough && !end) return { ...walk, stopped: 'enough' };
    if (end) return walk;
  }
  return walk;
};

/** How far a walk read, for a log line: "3 pages of the public catalog (300 of 100,000 events)". */
export const catalogReach = (walk: CatalogWalk): string => {
  const pages = `${walk.pagesRead} page${walk.pagesRead === 1 ? '' : 's'} of the public catalog`;
  const of = walk.total === undefined ? '' : ` of ${walk.total.toLocaleString('en-US')}`;
  return `${pages} (${walk.eventsRead.toLocaleString('en-US')}${of} events)`;
};

/** At most this many ownership reads at once. */
const OWNERSHIP_CONCURRENCY = 8;

/**
 * The events among `events` that the connected account holds (`own`) and those it does not (`others`), in
 * their order, each asked of the service (`isAccountEvent`) at most `OWNERSHIP_CONCURRENCY` at a time. Those
 * not asked before the deadline are in neither, and `unchecked` counts them.
 */
export const ownEvents = async (
  z: ZObject,
  bundle: B,
  events: Event[],
  deadline: number,
): Promise<{ own: Event[]; others: Event[]; unchecked: number }> => {
  const verdicts: Array<boolean | null> = events.map(() => null);
  let next = 0;
  const worker = async () => {
    while (next < events.length) {
      const index = next++;
      const timeoutMs = deadline - Date.now();
      if (timeoutMs < MIN_READ_MS) return;
      try {
        verdicts[index] = await isAccountEvent(z, bundle, (events[index] as Event).id, timeoutMs);
      } catch (error) {
        if (!cutByDeadline(deadline)) throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(OWNERSHIP_CONCURRENCY, events.length) }, worker));
  return {
    own: events.filter((_, i) => verdicts[i] === true),
    others: events.filter((_, i) => verdicts[i] === false),
    unchecked: verdicts.filter((v) => v === null).length,
  };
};
