/**
 * The memory of polling triggers whose endpoint takes only `since` (no limit, no order): how far back each
 * poll asks, which records it returns, and what it remembers. The reasoning is in docs/design.md, "New Form Submission cursor"
 * section; in short:
 *
 * - Zapier cannot tell apart the Zaps of one account that poll the same event with the same filter: they share
 *   one stream, and one state kept with `z.cache`. Nothing in it is per Zap.
 * - The stream keeps the records its polls returned (`kept`, in their own cache entry, compressed, see
 *   kept.ts): every poll returns each of them for `keptMs` (150 minutes) after the poll that first returned
 *   it, longer than the longest gap between two polls of a Zap polled every 15 minutes that Zapier holds 2
 *   hours. Every Zap therefore polls at least once while the record is returned, and Zapier's dedupe drops
 *   the repeats. The kept entry says up to which position (`settled`) it holds every record: the service's
 *   clock when the poll's request started (its `Date` header minus the poll so far, else the newest
 *   `createdAt` read) minus the 2-minute visibility delay and 30 s. A poll reads only the records after it:
 *   steady polls download what is new and the last 2.5 minutes again, never the kept records.
 * - An entry over 1 MB compressed (or over half an answer), missing or unreadable is not used: the poll reads
 *   its window from the checkpoints instead, as below, and keeps what it read when that fits again. A record
 *   may then stop being returned only after every poll of the stream returned it during `holdMs` (50
 *   minutes): longer than the longest gap between two polls of one Zap on time (15 minutes between polls, up
 *   to 30 minutes of delay, and a margin). Kept records are returned longer than that, so either way holds.
 * - The state (a small entry, merged by every poll) is a list of checkpoints: a successful poll answered at
 *   `t` (the service's clock) and every record up to its position `(ms, id)` was visible then and returned by
 *   it. That position is the last record it returned, or its answer time minus the 2 minutes a record may
 *   take to become visible and a margin, whichever is older. Without kept records a poll reads from the
 *   position of the newest checkpoint older than `holdMs` (the anchor) and returns what it reads, oldest
 *   first, up to the answer budget; the rest follows.
 * - Without a state (first poll, evicted or failing cache) a poll is stateless: it reads the last
 *   `statelessMs` (80 minutes: an hour without a poll, the visibility delay, a margin and the clock skew) and
 *   returns the newest records of it; each Zap's own polls then overlap, so steady traffic is never missed.
 *   It still writes its checkpoint, with the start of its window as the state's `base`: the lower bound the
 *   new state knows to be covered, and keeps what it read.
 * - A failed poll leaves a floor: for an hour after the last failure, every poll of the stream asks from at
 *   least where the failed one asked (or its oldest kept record), so that the Zap that failed finds what it
 *   missed.
 * - Concurrent polls of a stream re-read the state just before writing and merge: the merge can only widen
 *   later windows (later `t`, smaller `ms`, lower base and floor). The kept entry is written whole by each
 *   poll, the last one wins: each is true on its own (what it holds up to its settled position), and a
 *   record it lacks is after that position, so the next poll reads it again.
 * - A Zap being turned on reads ids only, over a window wider than any later poll's (a day and 45 minutes).
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { FirstWithin } from '../../account/selection';
import { type AccountCache, accountCache } from '../../memory';
import { KEPT_OVERFLOW, type Kept, type KeptBatch, type KeptEntry, decodeKept, encodeKept } from './kept';
import { MAX_DEDUPE_ITEMS } from './polling';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

export const CURSOR_TIMING = {
  /** Zapier's longest polling interval. */
  longestIntervalMs: 15 * MINUTE,
  /** How late Zapier may run a Zap's poll. */
  longestDelayMs: 30 * MINUTE,
  /**
   * How long every poll of the stream keeps returning a record: the longest gap between two polls of one Zap
   * (interval plus delay) and a 5-minute margin for scheduling jitter and polls that overlap.
   */
  holdMs: 50 * MINUTE,
  /** A submission may become visible up to 2 minutes after its `createdAt` (contract §3). */
  visibilityDelayMs: 2 * MINUTE,
  /** A `since` boundary that may be exclusive, a request's duration and the `Date` header's rounding. */
  marginMs: 3 * MINUTE,
  /** How far the client's clock (Zapier's) may be off the service's. */
  clockSkewMs: 15 * MINUTE,
  /**
   * How long a Zap may go without a poll and still miss nothing when the cache fails: a 15-minute interval
   * and 45 minutes of delay (Zapier's polls held an hour in all).
   */
  statelessHoldMs: 60 * MINUTE,
  /** A stateless poll: that stretch, the visibility delay, the margin and the skew (80 minutes). */
  statelessMs: 80 * MINUTE,
  /**
   * How long the stream's cache entry keeps a record its polls returned, and every poll returns it: a Zap
   * polled every 15 minutes whose poll Zapier holds 2 hours still polls in that time (15 minutes of margin).
   */
  keptMs: 150 * MINUTE,
  /** The kept entry outlives its newest records by half an hour; it is rewritten by every poll. */
  keptTtlSeconds: 3 * 3600,
  /** The largest kept entry, compressed (base64 characters): beyond it the stream reads its window. */
  keptCapBytes: 1_000_000,
  /** The share of an answer the kept records may fill (the rest is for the new ones). */
  keptAnswerShare: 0.5,
  /**
   * Between the service's `Date` header (whole seconds) minus the request's duration and the visibility
   * delay, and the newest position a kept entry claims: the header's rounding and a margin.
   */
  settleMarginMs: 30 * SECOND,
  /** The oldest a scheduled poll ever asks for: the last day, plus the skew. */
  lookbackMs: 24 * HOUR + 15 * MINUTE,
  /** A Zap being turned on: the lookback plus twice the skew, so it covers every later poll's window. */
  seedMs: 24 * HOUR + 45 * MINUTE,
  /** How long a failed poll's window is kept for every poll of its stream after the last failure. */
  failureHoldMs: HOUR,
  /** Checkpoints closer than this are merged into one (keeps the state small however many Zaps poll). */
  checkpointGrainMs: MINUTE,
  /** How long the state is kept without any poll (rewritten by every poll). */
  stateTtlSeconds: 30 * 24 * 3600,
  /**
   * The most one answer carries, in bytes of the answer's items: Zapier stashes answers of 6 MB or more and
   * accepts about 20 MB. Beyond it a poll returns the oldest part of its window and the rest follows.
   */
  answerBudgetBytes: 14 * 1024 * 1024,
  /** Zapier stops a poll at 30 s: the request gives up before, so that the failure is remembered. */
  requestBudgetMs: 25_000,
  minRequestTimeoutMs: 5_000,
} as const;

/** A place in the stream: a server `createdAt` (ms) and an id for ties (`''` is before every id). */
export interface Position {
  ms: number;
  id: string;
}

/** Orders two positions by time, then id. */
const comparePositions = (a: Position, b: Position): number =>
  a.ms - b.ms || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

const earlier = (a: Position, b: Position): Position => (comparePositions(a, b) <= 0 ? a : b);
const later = (a: Position, b: Position): Position => (comparePositions(a, b) >= 0 ? a : b);

/**
 * A successful poll: answered at `t` at the latest (service clock, ms); every record at or before `pos` was
 * visible then and returned by it (or was before what it had to return).
 */
export interface Checkpoint {
  t: number;
  pos: Position;
}

export interface CursorState {
  v: 2;
  /** Oldest first, at most one per `checkpointGrainMs`. */
  checkpoints: Checkpoint[];
  /** Every record after this was returned by the poll that created the state (or came later). */
  base: Position | null;
  /** The oldest `since` of recently failed polls, kept until `until` (epoch ms, client clock). */
  floor: { ms: number; until: number } | null;
  /** The client's clock minus the service's, as last measured (never less than the truth). */
  offset: number | null;
}

export const isFiniteNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);

/** A stored position, or `null` for anything that is not one. */
export const parsePosition = (value: unknown): Position | null => {
  const p = value as Partial<Position> | null;
  return p && typeof p === 'object' && isFiniteNumber(p.ms) && typeof p.id === 'string'
    ? { ms: p.ms, id: p.id }
    : null;
};

/** A stored state, or `null` for anything that is not one (a missing, expired, older or foreign entry). */
export const parseState = (value: unknown): CursorState | null => {
  if (!value || typeof value !== 'object') return null;
  const state = value as Partial<Record<keyof CursorState, unknown>>;
  if (state.v !== 2) return null;
  const checkpoints: Checkpoint[] = [];
  if (Array.isArray(state.checkpoints)) {
    for (const c of state.checkpoints as Array<Partial<Record<keyof Checkpoint, unknown>> | null>) {
      const pos = parsePosition(c?.pos);
      if (c && isFiniteNumber(c.t) && pos) checkpoints.push({ t: c.t, pos });
    }
  }
  checkpoints.sort((a, b) => a.t - b.t);
  const f = state.floor as Partial<CursorState['floor']> | null;
  const floor =
    f && typeof f === 'object' && isFiniteNumber(f.ms) && isFiniteNumber(f.until)
      ? { ms: f.ms, until: f.until }
      : null;
  return {
    v: 2,
    checkpoints,
    base: parsePosition(state.base),
    floor,
    offset: isFiniteNumber(state.offset) ? state.offset : null,
  };
};

const activeFloor = (state: CursorState | null, now: number) =>
  state?.floor && state.floor.until > now ? state.floor : null;

/**
 * The service's clock now, as a lower bound: the client clock minus the measured offset (which is never less
 * than the true one), or minus the whole skew when none was measured. A lower "now" picks an older anchor.
 */
const serviceNow = (offset: number | null | undefined, clientNow: number): number =>
  clientNow - (offset ?? CURSOR_TIMING.clockSkewMs);

/** The newest checkpoint older than the hold: every record up to it has been returned long enough. */
export const anchorOf = (state: CursorState | null, clientNow: number): Checkpoint | null => {
  const cut = serviceNow(state?.offset, clientNow) - CURSOR_TIMING.holdMs;
  let anchor: Checkpoint | null = null;
  for (const c of state?.checkpoints ?? []) if (c.t <= cut && (!anchor || c.t >= anchor.t)) anchor = c;
  return anchor;
};

export type SinceKind = 'dedupe' | 'poll';

export interface Plan {
  /** What the request asks for, epoch ms: just before `after`, so that either boundary is right. */
  since: number;
  /** The records at or before this were all returned long enough: they are not returned again. */
  after: Position;
  /**
   * `kept`: the stream's kept records cover everything up to their settled position: the poll reads only
   * after it, returns the kept records and the new ones (oldest first up to the budget).
   * `stateful`: the state covers the window's past, so the window is returned oldest first up to the budget.
   * `stateless`: nothing is known, so the newest records of the window are returned.
   */
  mode: 'kept' | 'stateful' | 'stateless';
}

const at = (ms: number): Position => ({ ms, id: '' });

/** Where a poll starts and how it chooses its records: see the module comment. */
export const planPoll = (
  kind: SinceKind,
  state: CursorState | null,
  clientNow: number,
  kept: Kept<unknown> | null = null,
): Plan => {
  if (kind === 'dedupe') {
    const since = clientNow - CURSOR_TIMING.seedMs;
    return { since, after: at(since - 1), mode: 'stateless' };
  }
  const anchor = anchorOf(state, clientNow);
  const known = kept ? kept.settled : anchor ? anchor.pos : (state?.base ?? null);
  const mode = kept ? 'kept' : known === null ? 'stateless' : 'stateful';
  let after = known ?? at(clientNow - CURSOR_TIMING.statelessMs);
  const floor = activeFloor(state, clientNow);
  if (floor) after = earlier(after, at(floor.ms));
  after = later(after, at(clientNow - CURSOR_TIMING.lookbackMs));
  return { since: after.ms - 1, after, mode };
};

export interface Entry<R> {
  record: R;
  ms: number;
  id: string;
  /** What the record adds to the answer, in bytes. */
  bytes: number;
}

export interface Selection<R> {
  selected: Entry<R>[];
  /** The last record returned when the budget cut the oldest-first run short, else `null`. */
  lastReturned: Position | null;
  /** The record before the first returned when the budget cut the newest-first run short, else `null`. */
  lastLeft: Position | null;
}

const positionOf = <R>(entry: Entry<R> | null | undefined): Position | null =>
  entry ? { ms: entry.ms, id: entry.id } : null;

/**
 * The run a poll keeps, fed record by record in any order: a dedupe poll the newest `MAX_DEDUPE_ITEMS`
 * (ids only); otherwise one contiguous run within `budgetBytes` (never empty when there is anything), from
 * the oldest end for a stateful poll (what is about to leave the window first, and a backlog in order),
 * from the newest end for a stateless one. Memory is bounded by the run, however large the window.
 */
const runOf = <R>(kind: SinceKind, mode: Plan['mode'], budgetBytes: number) => {
  const newestFirst = (a: Entry<R>, b: Entry<R>) => comparePositions(b, a);
  if (kind === 'dedupe') return new FirstWithin<Entry<R>>(MAX_DEDUPE_ITEMS, newestFirst, () => 1);
  const order = mode === 'stateless' ? newestFirst : comparePositions;
  return new FirstWithin<Entry<R>>(budgetBytes, order, (entry) => entry.bytes);
};

/** What a run tells `closePoll`: where it was cut short by its budget, if it was. */
const selectionOf = <R>(run: FirstWithin<Entry<R>>, kind: SinceKind, mode: Plan['mode']): Selection<R> => {
  const kept = run.sorted();
  const next = positionOf(run.next());
  if (kind !== 'dedupe' && mode !== 'stateless') {
    const oldestFirst = kept;
    return {
      selected: oldestFirst,
      lastReturned: next ? positionOf(kept[kept.length - 1]) : null,
      lastLeft: null,
    };
  }
  return { selected: kept.reverse(), lastReturned: null, lastLeft: next };
};

/** The records a poll returns, from the fetched ones sorted oldest first (see `runOf`). */
export const selectEntries = <R>(
  sorted: Entry<R>[],
  kind: SinceKind,
  mode: Plan['mode'],
  budgetBytes: number = CURSOR_TIMING.answerBudgetBytes,
): Selection<R> => {
  const run = runOf<R>(kind, mode, budgetBytes);
  for (const entry of sorted) run.offer(entry);
  return selectionOf(run, kind, mode);
};

/**
 * Adds a checkpoint and forgets what no later poll can use: checkpoints closer than the grain become one
 * (the later `t`, the smaller `ms`: it becomes the anchor later and asks from further back), and of those
 * older than the hold (with a margin for clients whose clocks differ) only the newest is kept.
 */
export const withCheckpoint = (checkpoints: Checkpoint[], added: Checkpoint[], serviceNowMs: number) => {
  const grain = CURSOR_TIMING.checkpointGrainMs;
  const byGrain = new Map<number, Checkpoint>();
  for (const c of [...checkpoints, ...added]) {
    const key = Math.floor(c.t / grain);
    const other = byGrain.get(key);
    byGrain.set(key, other ? { t: Math.max(other.t, c.t), pos: earlier(other.pos, c.pos) } : c);
  }
  const sorted = [...byGrain.values()].sort((a, b) => a.t - b.t);
  const cut = serviceNowMs - CURSOR_TIMING.holdMs - CURSOR_TIMING.clockSkewMs;
  const old = sorted.filter((c) => c.t <= cut);
  return [...old.slice(-1), ...sorted.filter((c) => c.t > cut)];
};

const readState = async (cache: AccountCache, key: string) => parseState(await cache.get(key));

/** Where the stream's kept records are stored, next to its state. */
const keptKey = (key: string) => `${key}:kept`;

/** What one answer may carry of kept records, in bytes of items. */
const keptBudget = () => CURSOR_TIMING.answerBudgetBytes * CURSOR_TIMING.keptAnswerShare;

/**
 * The stream's kept records a poll can use: the batches of the last `keptMs` (older ones leave the entry),
 * or `null` when there is no entry or it is larger than its share of an answer.
 */
const usableKept = (value: unknown, clientNow: number): Kept<unknown> | null => {
  const kept = decodeKept(value);
  if (!kept) return null;
  const batches = kept.batches.filter((batch) => batch.f >= clientNow - CURSOR_TIMING.keptMs);
  const bytes = batches.reduce((sum, batch) => sum + batch.b, 0);
  return bytes <= keptBudget() ? { ...kept, batches } : null;
};

/** Writes the kept records, or, when they are over the cap, a marker that makes the next poll read. */
const writeKept = async (cache: AccountCache, key: string, kept: Kept<unknown>): Promise<void> => {
  const bytes = kept.batches.reduce((sum, batch) => sum + batch.b, 0);
  const encoded = bytes <= keptBudget() ? encodeKept(kept) : null;
  const fits = encoded !== null && encoded.length <= CURSOR_TIMING.keptCapBytes;
  await cache.set(keptKey(key), fits ? encoded : KEPT_OVERFLOW, CURSOR_TIMING.keptTtlSeconds);
};
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
  /** The stream: what is polled (the account is added by the cache). Never per Zap. */
  key: string;
  kind: SinceKind;
  /** Where the request starts: ISO 8601 with milliseconds. */
  since: string;
  /** How long the request may take, inside Zapier's 30 s. */
  timeoutMs: number;
  cache: AccountCache;
  state: CursorState | null;
  /** The stream's kept records this poll returns (`plan.mode` is `kept`), else `null`. */
  kept: Kept<unknown> | null;
  plan: Plan;
  started: number;
  now: () => number;
}

/**
 * Opens one poll of a since-stream: reads its state and plans the window. The caller then awaits its one
 * request for the records created at or after `since` through `pollRequest`, takes the poll's records from
 * `selectRecords`, builds its answer, and only then records the poll with `closePoll`.
 */
export const openPoll = async (
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  stream: { key: string; kind: SinceKind; now?: () => number },
): Promise<SincePoll> => {
  const now = stream.now ?? Date.now;
  const started = now();
  const cache = accountCache(z, bundle, now);
  const [state, keptValue] = await Promise.all([
    readState(cache, stream.key),
    stream.kind === 'poll' ? cache.get(keptKey(stream.key)) : undefined,
  ]);
  const kept = stream.kind === 'poll' ? usableKept(keptValue, started) : null;
  const plan = planPoll(stream.kind, state, started, kept);
  const timeoutMs = Math.max(
    CURSOR_TIMING.minRequestTimeoutMs,
    CURSOR_TIMING.requestBudgetMs - (now() - started),
  );
  return {
    key: stream.key,
    kind: stream.kind,
    since: new Date(plan.since).toISOString(),
    timeoutMs,
    cache,
    state,
    kept,
    plan,
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
  // What the failed poll would have returned starts at its oldest kept record, if it had kept ones.
  const sinceMs = (poll.kept?.batches ?? []).reduce(
    (oldest, batch) => batch.e.reduce((min, [ms]) => Math.min(min, ms - 1), oldest),
    poll.plan.since,
  );
  await writeState(poll.cache, poll.key, (fresh) => {
    const floor = activeFloor(fresh, failedAt);
    return {
      v: 2,
      checkpoints: fresh?.checkpoints ?? [],
      base: fresh?.base ?? null,
      offset: fresh?.offset ?? poll.state?.offset ?? null,
      floor: {
        ms: Math.min(floor?.ms ?? sinceMs, sinceMs),
        until: Math.max(floor?.until ?? 0, failedAt + CURSOR_TIMING.failureHoldMs),
      },
    };
  });
};

/** The records a poll returns (newest first) and what `closePoll` remembers of the poll. */
export interface PollSelection<R> {
  records: R[];
  /** The checkpoint the poll adds, if it can place one in time. */
  checkpoint: Checkpoint | null;
  /** Where the state starts, when this (stateless) poll creates it. */
  base: Position | null;
  /** The client's clock minus the service's, when measured. */
  offset: number | null;
  /** The stream's kept records after this poll, if it can tell what they cover. */
  kept: Kept<R> | null;
}

/**
 * What a poll keeps of its window while the answer streams by (`visit`, record by record, in any order):
 * only the records after the plan's start, each id once (its first occurrence), and of those only the run
 * the poll returns (`runOf`). A day of registrations (the window of a Zap being turned on, or of a stream
 * whose polls failed for hours) is therefore never held whole. `select` then tells what the poll returns and
 * what `closePoll` remembers of it.
 */
export class PollWindow<R extends { createdAt: string }> {
  private readonly run: FirstWithin<Entry<R>>;
  private readonly seen = new Set<string>();
  /** The kept records the poll returns (`kept` mode), whatever its window holds. */
  private readonly kept: Array<Entry<R>> = [];
  private newest = -Infinity;

  constructor(
    private readonly poll: SincePoll,
    private readonly idOf: (record: R) => string,
    /** What one record adds to the answer, in bytes. */
    private readonly bytesOf: (record: R) => number = (record) => JSON.stringify(record).length,
  ) {
    let keptBytes = 0;
    if (poll.plan.mode === 'kept' && poll.kept) {
      for (const batch of poll.kept.batches as Array<KeptBatch<R>>) {
        keptBytes += batch.b;
        for (const [ms, id, record] of batch.e) {
          if (this.seen.has(id)) continue;
          this.seen.add(id);
          this.kept.push({ record, ms, id, bytes: 0 });
        }
      }
    }
    const budget = Math.max(1, CURSOR_TIMING.answerBudgetBytes - keptBytes);
    this.run = runOf<R>(poll.kind, poll.plan.mode, budget);
  }

  /** Reads one record of the answer. */
  readonly visit = (record: R): void => {
    const ms = Date.parse(record.createdAt);
    const id = this.idOf(record);
    if (!Number.isFinite(ms) || comparePositions({ ms, id }, this.poll.plan.after) <= 0) return;
    if (this.seen.has(id)) return;
    this.seen.add(id);
    if (ms <= this.poll.started + CURSOR_TIMING.clockSkewMs) this.newest = Math.max(this.newest, ms);
    const bytes = this.poll.kind === 'dedupe' ? 0 : this.bytesOf(record);
    this.run.offer({ record, ms, id, bytes });
  };

  /**
   * The poll's records, newest first, and what `closePoll` remembers. `serverTime` is the service's clock
   * when it answered (its `Date` header), if known.
   */
  select(serverTime: number | null): PollSelection<R> {
    const { poll } = this;
    const answeredAt = poll.now();
    const { selected, lastReturned, lastLeft } = selectionOf(this.run, poll.kind, poll.plan.mode);
    const returned = this.kept.length ? [...this.kept, ...selected].sort(comparePositions) : selected;
    const records = returned.map((entry) => entry.record).reverse();
    if (poll.kind === 'dedupe') return { records, checkpoint: null, base: null, offset: null, kept: null };

    // The service's clock when it answered: its Date header (whole seconds), else the newest createdAt read
    // (never later than the truth). `t` is an upper bound (when the checkpoint may become an anchor); every
    // record made before `answered` minus the visibility delay and the margin was visible when the poll read.
    const measured = serverTime !== null && Number.isFinite(serverTime) ? serverTime : null;
    const answered = measured ?? (Number.isFinite(this.newest) ? this.newest : null);
    const t = measured !== null ? measured + SECOND : answeredAt + CURSOR_TIMING.clockSkewMs;
    const settled =
      answered === null ? null : at(answered - CURSOR_TIMING.visibilityDelayMs - CURSOR_TIMING.marginMs);
    return {
      records,
      checkpoint:
        settled === null ? null : { t, pos: lastReturned ? earlier(lastReturned, settled) : settled },
      base: poll.plan.mode === 'stateless' ? (lastLeft ?? poll.plan.after) : null,
      offset: measured !== null ? answeredAt - measured : null,
      kept: this.nextKept(selected, { answered, answeredAt, lastReturned, lastLeft }),
    };
  }

  /**
   * The kept records after this poll: those it was given and what it read, with what they cover. The
   * newest settled position is the service's clock when the request started (its `Date` header, rounded
   * down, minus the whole poll so far; else the newest `createdAt` read) minus the visibility delay and the
   * settle margin: every record at or before it was visible when the service read.
   */
  private nextKept(
    read: Array<Entry<R>>,
    at: {
      answered: number | null;
      answeredAt: number;
      lastReturned: Position | null;
      lastLeft: Position | null;
    },
  ): Kept<R> | null {
    const { poll } = this;
    const { visibilityDelayMs, settleMarginMs } = CURSOR_TIMING;
    const measured = at.answered === null ? null : at.answered - (at.answeredAt - poll.started);
    const newest = measured === null ? null : { ms: measured - visibilityDelayMs - settleMarginMs, id: '' };
    const reached = newest && at.lastReturned ? earlier(at.lastReturned, newest) : newest;
    const batch: KeptBatch<R> = {
      f: at.answeredAt,
      b: read.reduce((sum, entry) => sum + entry.bytes, 0),
      e: read.map((entry): KeptEntry<R> => [entry.ms, entry.id, entry.record]),
    };
    const batches = batch.e.length ? [batch] : [];
    if (poll.plan.mode === 'kept' && poll.kept) {
      const kept = poll.kept as Kept<R>;
      const settled = reached ? later(kept.settled, reached) : kept.settled;
      return { v: 1, base: kept.base, settled, batches: [...kept.batches, ...batches] };
    }
    if (!reached) return null;
    const base = poll.plan.mode === 'stateless' ? (at.lastLeft ?? poll.plan.after) : poll.plan.after;
    return { v: 1, base, settled: reached, batches };
  }
}

/** `PollWindow` over records already in memory (any order). */
export const selectRecords = <R extends { createdAt: string }>(
  poll: SincePoll,
  fetched: R[],
  serverTime: number | null,
  idOf: (record: R) => string,
  bytesOf?: (record: R) => number,
): PollSelection<R> => {
  const window = new PollWindow(poll, idOf, bytesOf);
  for (const record of fetched) window.visit(record);
  return window.select(serverTime);
};

/** Records the poll once its answer was built from `selection` (a Zap being turned on records nothing). */
export const closePoll = async <R>(poll: SincePoll, selection: PollSelection<R>): Promise<void> => {
  if (poll.kind === 'dedupe') return;
  const { checkpoint, base, offset, kept } = selection;
  const { state } = poll;
  const keeping = kept ? writeKept(poll.cache, poll.key, kept) : Promise.resolve();
  const writing = writeState(poll.cache, poll.key, (fresh) => {
    const current = fresh ?? state;
    const offsetNow = offset ?? current?.offset ?? null;
    // A stream that had a state keeps its base; one this poll creates starts where its window starts.
    const bases = [fresh?.base, fresh ? base : (state?.base ?? base)].filter((p): p is Position => !!p);
    return {
      v: 2,
      checkpoints: withCheckpoint(
        current?.checkpoints ?? [],
        checkpoint ? [checkpoint] : [],
        serviceNow(offsetNow, poll.now()),
      ),
      base: bases.length ? bases.reduce(earlier) : null,
      floor: activeFloor(fresh, poll.now()),
      offset: offsetNow,
    };
  });
  await Promise.all([keeping, writing]);
};
