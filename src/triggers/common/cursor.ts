/**
 * The since-cursor of polling triggers whose endpoint takes only `since` (no limit, no order): how far back
 * each poll asks, which records it returns, and what it remembers. The design and its reasoning are in the
 * README's "Reliability" section; in short:
 *
 * - The cursor is the newest server `createdAt` (with its id, for ties) already returned. It is stored with
 *   `z.cache` for the connected account and a stream key (event, filter, and the Zap when Zapier names it),
 *   and moves forward only after a poll has succeeded and its answer was built.
 * - A poll asks from `cursor − overlap`; the overlap (20 min) covers Zapier's longest polling interval
 *   (15 min), the 2 minutes a submission may take to become visible, and a margin. Zapier's dedupe absorbs
 *   the repeats. Because the cursor is a server time, the client's clock plays no part in it.
 * - Without a cursor (first poll, evicted cache, cache error) a poll asks for the last 24 h plus a clock-skew
 *   margin; a Zap being turned on asks wider still, so that no later poll can reach past what its dedupe
 *   table holds (otherwise old registrations would run a fresh Zap).
 * - A failed poll leaves a floor: for an hour after the last failure, every poll of the stream asks from at
 *   least where the failed one asked. A stream shared by two Zaps therefore cannot move past what a failing
 *   Zap has not seen while the other keeps succeeding.
 * - A poll returns its whole window up to 4,000 records; beyond that it catches up oldest first over the next
 *   polls, and the cursor never moves past a record that was not returned.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { FirstN } from '../../account/selection';
import { type AccountCache, accountCache } from '../../account/store';
import { MAX_DEDUPE_ITEMS } from './polling';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const CURSOR_TIMING = {
  /** Zapier's longest polling interval: a Zap sharing the stream may have last polled this long ago. */
  longestIntervalMs: 15 * MINUTE,
  /** A submission may become visible up to 2 minutes after its `createdAt` (contract §3). */
  visibilityDelayMs: 2 * MINUTE,
  /** Zapier's scheduling jitter, and a boundary that may be exclusive. */
  marginMs: 3 * MINUTE,
  /** How far before the cursor each poll asks: the sum of the three above. */
  overlapMs: 20 * MINUTE,
  /** How far the client's clock (Zapier's) may be off the service's. */
  clockSkewMs: 15 * MINUTE,
  /** Without a cursor: the last day, plus the skew. Also the oldest a scheduled poll ever asks for. */
  lookbackMs: 24 * HOUR + 15 * MINUTE,
  /** A Zap being turned on: the lookback plus twice the skew, so it covers every later poll's window. */
  seedMs: 24 * HOUR + 45 * MINUTE,
  /** How long a failed poll's window is kept for every poll of its stream after the last failure. */
  failureHoldMs: HOUR,
  /** How long the state is kept without any poll (rewritten by every poll). */
  stateTtlSeconds: 30 * 24 * 3600,
  /** The most records one answer carries (about 5 MB, under Zapier's 6 MB), unless late rows need more. */
  maxItems: 4000,
  /** A crowded window still moves on: at least this many records after the cursor per poll. */
  minNewItems: 1000,
  /** Zapier stops a poll at 30 s: the request gives up before, so that the failure is remembered. */
  requestBudgetMs: 25_000,
  minRequestTimeoutMs: 5_000,
} as const;

/** The newest record returned so far: its server `createdAt` (as sent), in ms, and its id for ties. */
export interface CursorPosition {
  at: string;
  ms: number;
  id: string;
}

export interface CursorState {
  v: 1;
  cursor: CursorPosition | null;
  /**
   * When the last successful poll read its window, on the service's clock (its `Date` header; else the
   * newest `createdAt` it read, which is never later). A row behind the cursor that was not visible then
   * was made less than the visibility delay before it.
   */
  seenAt: number | null;
  /** The oldest `since` of recently failed polls, kept until `until` (epoch ms, client clock). */
  floor: { ms: number; until: number } | null;
}

const isFiniteNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);

/** A stored state, or `null` for anything that is not one (a missing, expired or foreign entry). */
export const parseState = (value: unknown): CursorState | null => {
  if (!value || typeof value !== 'object') return null;
  const state = value as Partial<CursorState>;
  if (state.v !== 1) return null;
  const c = state.cursor;
  const cursor =
    c && typeof c === 'object' && typeof c.at === 'string' && isFiniteNumber(c.ms) && typeof c.id === 'string'
      ? { at: c.at, ms: c.ms, id: c.id }
      : null;
  const f = state.floor;
  const floor =
    f && typeof f === 'object' && isFiniteNumber(f.ms) && isFiniteNumber(f.until)
      ? { ms: f.ms, until: f.until }
      : null;
  return { v: 1, cursor, seenAt: isFiniteNumber(state.seenAt) ? state.seenAt : null, floor };
};

const activeFloor = (state: CursorState | null, now: number) =>
  state?.floor && state.floor.until > now ? state.floor : null;

/** Orders two positions by time, then id. */
const comparePositions = (a: { ms: number; id: string }, b: { ms: number; id: string }): number =>
  a.ms - b.ms || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

const later = (a: CursorPosition | null, b: CursorPosition | null): CursorPosition | null =>
  !a ? b : !b ? a : comparePositions(a, b) >= 0 ? a : b;

const maxOf = (a: number | null, b: number | null): number | null =>
  a === null ? b : b === null ? a : Math.max(a, b);

export type SinceKind = 'dedupe' | 'poll';

/** Where a poll starts (epoch ms): see the module comment. */
export const planSince = (kind: SinceKind, state: CursorState | null, now: number): number => {
  if (kind === 'dedupe') return now - CURSOR_TIMING.seedMs;
  const horizon = now - CURSOR_TIMING.lookbackMs;
  let since = state?.cursor ? state.cursor.ms - CURSOR_TIMING.overlapMs : horizon;
  const floor = activeFloor(state, now);
  if (floor) since = Math.min(since, floor.ms);
  return Math.max(since, horizon);
};

export interface Entry<R> {
  record: R;
  ms: number;
  id: string;
}

/**
 * The records a poll returns, from the fetched ones sorted oldest first. A dedupe poll takes everything (the
 * newest `MAX_DEDUPE_ITEMS`). A scheduled poll returns one contiguous run of at most `maxItems`:
 *
 * - every record at or before the cursor made less than the visibility delay (plus the margin) before the
 *   last poll read its window: it may have become visible only since, so it may never have been returned;
 * - then the records after the cursor, oldest first, as many as fit (at least `minNewItems`, so that a
 *   crowded window still moves on); the rest wait for the next polls, and the cursor ends at the run's
 *   newest record, so a burst or a backlog is caught up without a gap;
 * - then, room permitting, the older records before the cursor: the rest of the overlap, sent again so
 *   that rows another Zap of the stream returned and an answer Zapier lost still reach the Zap (its dedupe
 *   drops the repeats). At steady state the whole window fits and all of it is returned.
 *
 * Without a cursor (its entry was evicted) nothing is known: the window is walked oldest first.
 * The run is longer than `maxItems` only when more rows than that were made in the minutes before the last
 * poll.
 */
export const selectEntries = <R>(
  sorted: Entry<R>[],
  kind: SinceKind,
  state: Pick<CursorState, 'cursor' | 'seenAt'> | null,
  limits: { maxItems: number; minNewItems: number } = CURSOR_TIMING,
): Entry<R>[] => {
  if (kind === 'dedupe') return sorted.slice(-MAX_DEDUPE_ITEMS);
  if (sorted.length <= limits.maxItems) return sorted;
  const cursor = state?.cursor ?? null;
  const firstWhere = (test: (entry: Entry<R>) => boolean) => {
    const index = sorted.findIndex(test);
    return index < 0 ? sorted.length : index;
  };
  const firstNew = cursor ? firstWhere((entry) => comparePositions(entry, cursor) > 0) : 0;
  const lateSince = (state?.seenAt ?? -Infinity) - CURSOR_TIMING.visibilityDelayMs - CURSOR_TIMING.marginMs;
  const mustFrom = Math.min(
    firstNew,
    firstWhere((entry) => entry.ms >= lateSince),
  );
  const newCount = Math.max(limits.minNewItems, limits.maxItems - (firstNew - mustFrom));
  const end = Math.min(sorted.length, firstNew + newCount);
  return sorted.slice(Math.max(0, Math.min(mustFrom, end - limits.maxItems)), end);
};

/** The cursor after returning `selected`: its newest record, unless dated in the future beyond the skew. */
export const advance = <R>(
  cursor: CursorPosition | null,
  selected: Entry<R>[],
  now: number,
  atOf: (record: R) => string,
): CursorPosition | null => {
  const limit = now + CURSOR_TIMING.clockSkewMs;
  for (let i = selected.length - 1; i >= 0; i--) {
    const entry = selected[i] as Entry<R>;
    if (entry.ms <= limit) return later(cursor, { at: atOf(entry.record), ms: entry.ms, id: entry.id });
  }
  return cursor;
};

const readState = async (cache: AccountCache, key: string) => parseState(await cache.get(key));

/** Re-reads the state just before writing, so that concurrent polls of a stream lose as little as possible. */
const writeState = async (
  cache: AccountCache,
  key: string,
  change: (fresh: CursorState | null) => CursorState,
): Promise<void> => {
  await cache.set(key, change(await readState(cache, key)), CURSOR_TIMING.stateTtlSeconds);
};

/** One poll of a since-stream, from `openPoll` to `closePoll`. */
export interface SincePoll {
  /** The stream: what is polled and for whom (the account is added by the cache). */
  key: string;
  kind: SinceKind;
  /** Where the request starts: ISO 8601 with milliseconds. */
  since: string;
  /** How long the request may take, inside Zapier's 30 s. */
  timeoutMs: number;
  cache: AccountCache;
  state: CursorState | null;
  sinceMs: number;
  started: number;
  now: () => number;
}

/**
 * Opens one poll of a since-stream: reads its state and plans the window. The caller then awaits its one
 * request for the records created at or after `since` through `pollRequest`, takes the poll's records from
 * `selectRecords`, builds its answer, and only then moves the cursor with `closePoll`.
 */
export const openPoll = async (
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  stream: { key: string; kind: SinceKind; now?: () => number },
): Promise<SincePoll> => {
  const now = stream.now ?? Date.now;
  const started = now();
  const cache = accountCache(z, bundle, now);
  const state = await readState(cache, stream.key);
  const sinceMs = planSince(stream.kind, state, started);
  const timeoutMs = Math.max(
    CURSOR_TIMING.minRequestTimeoutMs,
    CURSOR_TIMING.requestBudgetMs - (now() - started),
  );
  return {
    key: stream.key,
    kind: stream.kind,
    since: new Date(sinceMs).toISOString(),
    timeoutMs,
    cache,
    state,
    sinceMs,
    started,
    now,
  };
};

/**
 * Awaits the poll's one request. When it fails, a scheduled poll leaves its floor for the stream (see the
 * module comment), and the error is thrown again unchanged.
 */
export const pollRequest = async <T>(poll: SincePoll, request: Promise<T>): Promise<T> => {
  try {
    return await request;
  } catch (error) {
    if (poll.kind === 'poll') await leaveFloor(poll);
    throw error;
  }
};

const leaveFloor = async (poll: SincePoll): Promise<void> => {
  const failedAt = poll.now();
  await writeState(poll.cache, poll.key, (fresh) => {
    const floor = activeFloor(fresh, failedAt);
    return {
      v: 1,
      cursor: fresh?.cursor ?? null,
      seenAt: fresh?.seenAt ?? null,
      floor: {
        ms: Math.min(floor?.ms ?? poll.sinceMs, poll.sinceMs),
        until: Math.max(floor?.until ?? 0, failedAt + CURSOR_TIMING.failureHoldMs),
      },
    };
  });
};

/** The records a poll returns (newest first) and what `closePoll` remembers of them. */
export interface Selection<R> {
  records: R[];
  /** The same records, oldest first, with their times. */
  entries: Entry<R>[];
  seenAt: number | null;
}

/**
 * The poll's records, newest first, from the fetched ones: newest first with one per id, as the connect list
 * functions return them (this function neither sorts nor de-duplicates). `serverTime` is the service's clock
 * when it answered, if known.
 */
export const selectRecords = <R extends { createdAt: string }>(
  poll: SincePoll,
  fetched: R[],
  serverTime: number | null,
  idOf: (record: R) => string,
): Selection<R> => {
  const horizon = poll.kind === 'poll' ? poll.started - CURSOR_TIMING.lookbackMs : -Infinity;
  const future = poll.started + CURSOR_TIMING.clockSkewMs;
  const oldestFirst: Entry<R>[] = [];
  let head: number | null = null;
  for (let i = fetched.length - 1; i >= 0; i--) {
    const record = fetched[i] as R;
    const ms = Date.parse(record.createdAt);
    if (!(ms >= horizon)) continue;
    oldestFirst.push({ record, ms, id: idOf(record) });
    if (ms <= future) head = maxOf(head, ms);
  }
  // A Date header far from the client's clock is not trusted; the newest row read is a safe lower bound.
  const seenAt =
    serverTime !== null && Math.abs(serverTime - poll.started) <= CURSOR_TIMING.clockSkewMs
      ? serverTime
      : head;
  const entries = selectEntries(oldestFirst, poll.kind, poll.state);
  return { records: entries.map((entry) => entry.record).reverse(), entries, seenAt };
};

/**
 * What a poll keeps of its window while the answer streams by, so that a day of registrations (the window
 * of a poll whose cursor was lost, or of a Zap being turned on) is never held whole: `selectRecords` of the
 * kept records chooses the same run, with the same `seenAt`, as `selectRecords` of the whole window.
 * Records older than the poll's horizon are dropped, and an id sent twice is read once, at its first
 * occurrence (a bounded selection cannot take back a slot it gave; either way the registration is returned
 * once). Then:
 *
 * - a dedupe poll keeps the newest `MAX_DEDUPE_ITEMS`;
 * - a scheduled poll keeps, after the cursor, the `maxItems` oldest records (the run never takes more of
 *   them); at or before the cursor, every late record (made after `seenAt` minus the visibility delay and
 *   margin: always returned) and the `maxItems` newest others (the run reaches back at most that far);
 * - and the newest record read (not beyond the clock skew), which dates the read when the service's clock
 *   is not known.
 *
 * Memory is O(`maxItems`) records (O(`MAX_DEDUPE_ITEMS`) keys for a dedupe poll) plus the ids read.
 */
export class WindowKeeper<R extends { createdAt: string }> {
  /** The ids read. */
  private readonly seen = new Set<string>();
  private readonly late: Entry<R>[] = [];
  private readonly before: FirstN<Entry<R>>;
  private readonly after: FirstN<Entry<R>>;
  private newest: Entry<R> | null = null;
  private readonly cursor: CursorPosition | null;
  private readonly horizon: number;
  private readonly future: number;
  private readonly lateSince: number;
  /** Records read, usable or not. */
  fetched = 0;

  constructor(
    poll: Pick<SincePoll, 'kind' | 'state' | 'started'>,
    private readonly idOf: (record: R) => string,
    limits: { maxItems: number } = CURSOR_TIMING,
  ) {
    const newestFirst = (a: Entry<R>, b: Entry<R>) => comparePositions(b, a);
    this.cursor = poll.kind === 'dedupe' ? null : (poll.state?.cursor ?? null);
    this.horizon = poll.kind === 'poll' ? poll.started - CURSOR_TIMING.lookbackMs : -Infinity;
    this.future = poll.started + CURSOR_TIMING.clockSkewMs;
    this.lateSince =
      (poll.state?.seenAt ?? -Infinity) - CURSOR_TIMING.visibilityDelayMs - CURSOR_TIMING.marginMs;
    this.before = new FirstN<Entry<R>>(limits.maxItems, newestFirst);
    this.after =
      poll.kind === 'dedupe'
        ? new FirstN<Entry<R>>(MAX_DEDUPE_ITEMS, newestFirst)
        : new FirstN<Entry<R>>(limits.maxItems, comparePositions);
  }

  /** Reads one record of the answer. */
  readonly visit = (record: R): void => {
    this.fetched++;
    const ms = Date.parse(record.createdAt);
    if (!(ms >= this.horizon)) return;
    const id = this.idOf(record);
    if (this.seen.has(id)) return;
    this.seen.add(id);
    const entry: Entry<R> = { record, ms, id };
    if (ms <= this.future && (!this.newest || comparePositions(entry, this.newest) > 0)) this.newest = entry;
    if (this.cursor && comparePositions(entry, this.cursor) <= 0) {
      if (ms >= this.lateSince) this.late.push(entry);
      else this.before.offer(entry);
    } else {
      this.after.offer(entry);
    }
  };

  /** The kept records newest first, one per id: what `selectRecords` reads. */
  records(): R[] {
    const kept = [...this.before.sorted(), ...this.late, ...this.after.sorted()];
    if (this.newest && !kept.includes(this.newest)) kept.push(this.newest);
    return kept.sort((a, b) => comparePositions(b, a)).map((entry) => entry.record);
  }
}

/** Moves the cursor once the poll's answer was built from `selection`. */
export const closePoll = async <R extends { createdAt: string }>(
  poll: SincePoll,
  selection: Selection<R>,
): Promise<void> => {
  const next = advance(
    poll.state?.cursor ?? null,
    selection.entries,
    poll.now(),
    (record) => record.createdAt,
  );
  await writeState(poll.cache, poll.key, (fresh) => ({
    v: 1,
    cursor: later(fresh?.cursor ?? null, next),
    seenAt: maxOf(fresh?.seenAt ?? null, selection.seenAt),
    floor: activeFloor(fresh, poll.now()),
  }));
};
