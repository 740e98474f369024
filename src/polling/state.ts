/**
 * The stream's small state (checkpoints, base, floor, clock offset) and the plan of a poll: where it starts
 * and how it chooses its records. The reasoning is in cursor.ts's comment.
 */
import * as z from 'zod';
import { built, lazy } from '../lazy';
import { type AccountCache, cacheRecord } from '../memory';
import { type Position, PositionSchema, at, earlier, later } from './position';
import type { PollTimings } from './timings';
import { type OwedIndex, OwedIndexSchema, storedIndex } from './owed';

/**
 * A successful poll: answered at `answeredBy` at the latest (service clock, ms); every record at or before
 * `pos` was visible then and returned by it (or was before what it had to return).
 */
export interface Checkpoint {
  answeredBy: number;
  pos: Position;
}

export interface CursorState {
  /** Oldest first, at most one per `checkpointGrainMs`. */
  checkpoints: Checkpoint[];
  /** Every record after this was returned by the poll that created the state (or came later). */
  base: Position | null;
  /** The oldest `since` of recently failed polls, kept until `until` (epoch ms, client clock). */
  floor: { ms: number; until: number } | null;
  /** The client's clock minus the service's, as last measured (never less than the truth). */
  offset: number | null;
  /** The owed shares' index (a copy of its own key's: the newer of the two is used). */
  owed?: OwedIndex;
}

/**
 * The codec of the state: the cache stores short keys (`v`: the format, a checkpoint's `t`: `answeredBy`;
 * the owed index's own in owed.ts). They are read (once per value, into the named shape) and written here
 * only.
 */
const CheckpointSchema = lazy(() =>
  z
    .object({ t: z.number(), pos: built(PositionSchema) })
    .transform((stored): Checkpoint => ({ answeredBy: stored.t, pos: stored.pos })),
);

export const CursorStateSchema = lazy(() =>
  z
    .object({
      v: z.literal(2),
      checkpoints: z.array(built(CheckpointSchema)),
      base: built(PositionSchema).nullable(),
      floor: z.object({ ms: z.number(), until: z.number() }).nullable(),
      offset: z.number().nullable(),
      owed: built(OwedIndexSchema).optional(),
    })
    .transform(
      ({ v: _format, ...state }): CursorState => ({
        ...state,
        checkpoints: [...state.checkpoints].sort((a, b) => a.answeredBy - b.answeredBy),
      }),
    ),
);

/** What each named field of the state is stored as, in the order it was given (`v` first, before them). */
export const storedState = (state: CursorState): Record<string, unknown> => {
  const stored: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(state)) {
    if (name === 'checkpoints') {
      stored.v = 2;
      stored.checkpoints = state.checkpoints.map((c) => ({ t: c.answeredBy, pos: c.pos }));
    } else if (name === 'owed') stored.owed = state.owed && storedIndex(state.owed);
    else stored[name] = value;
  }
  return stored;
};

/** The stream's state in the account's cache, read back through its schema and written in its stored shape. */
export const stateRecord = (cache: AccountCache, key: string, timings: PollTimings) => {
  const record = cacheRecord(cache, key, CursorStateSchema, timings.stateTtlSeconds);
  return {
    read: record.read,
    readKnown: record.readKnown,
    write: (state: CursorState) => cache.set(key, storedState(state), timings.stateTtlSeconds),
  };
};

export const activeFloor = (state: CursorState | null, now: number) =>
  state?.floor && state.floor.until > now ? state.floor : null;

/**
 * The service's clock now, as a lower bound: the client clock minus the measured offset (which is never less
 * than the true one), or minus the whole skew when none was measured. A lower "now" picks an older anchor.
 */
export const serviceNow = (offset: number | null | undefined, clientNow: number, timings: PollTimings) =>
  clientNow - (offset ?? timings.clockSkewMs);

/** The newest checkpoint older than the hold: every record up to it has been returned long enough. */
export const anchorOf = (state: CursorState | null, clientNow: number, timings: PollTimings) => {
  const cut = serviceNow(state?.offset, clientNow, timings) - timings.holdMs;
  let anchor: Checkpoint | null = null;
  for (const c of state?.checkpoints ?? [])
    if (c.answeredBy <= cut && (!anchor || c.answeredBy >= anchor.answeredBy)) anchor = c;
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
   * after it, returns the new ones (oldest first up to the budget), then kept ones in what is left.
   * `stateful`: the state covers the window's past: what no poll returned yet (after `returned`) first,
   * oldest first up to the budget, then the rest of the window again in what is left.
   * `stateless`: nothing is known, so the newest records of the window are returned.
   */
  mode: 'kept' | 'stateful' | 'stateless';
  /** A stateful poll: every record at or before this was returned by a poll of the stream (its newest checkpoint). */
  returned?: Position;
  /** A stateful poll that reads from before its anchor: every record at or before this, every Zap on time had. */
  anchor?: Position;
  /** A stateful poll: the stream's checkpoints (each record up to a position was returned by its time). */
  returnedBy?: Checkpoint[];
  /**
   * A stateless poll of a stream whose memory is gone (the cache answered, and held neither state nor kept
   * entry): its window reaches as far back as the kept entry keeps.
   */
  forgotten?: true;
}

/**
 * The newest position a poll may start after: what was visible by the app's own clock. A stored position
 * past it (a `Date` header or a kept entry from a clock ahead) is not trusted: the poll reads from here.
 */
export const newestTrusted = (clientNow: number, timings: PollTimings): Position =>
  at(clientNow - timings.settleMs);

/** Where a poll starts and how it chooses its records: see cursor.ts's comment. */
export const planPoll = (
  kind: SinceKind,
  state: CursorState | null,
  clientNow: number,
  settled: Position | null,
  timings: PollTimings,
  forgotten = false,
): Plan => {
  if (kind === 'dedupe') {
    const since = clientNow - timings.seedMs;
    return { since, after: at(since - 1), mode: 'stateless' };
  }
  const anchor = anchorOf(state, clientNow, timings);
  const known = settled ?? (anchor ? anchor.pos : (state?.base ?? null));
  const mode = settled ? 'kept' : known === null ? 'stateless' : 'stateful';
  // Without its kept entry, a stream's poll reads again what the entry held for a Zap that Zapier held (it
  // is kept again): as far back as the entry keeps, not only to the anchor; never before the stream began.
  const reach = at(clientNow - timings.keptMs - timings.settleMs);
  const lost = mode === 'stateless' && forgotten && !state;
  let after = known ?? (lost ? reach : at(clientNow - timings.statelessMs));
  if (mode === 'stateful' && anchor) after = earlier(after, state?.base ? later(reach, state.base) : reach);
  const floor = activeFloor(state, clientNow);
  if (floor) after = earlier(after, at(floor.ms));
  after = earlier(after, newestTrusted(clientNow, timings));
  after = later(after, at(clientNow - timings.lookbackMs));
  const newest = state?.checkpoints[state.checkpoints.length - 1];
  const returned =
    mode === 'stateful' && newest ? earlier(newest.pos, newestTrusted(clientNow, timings)) : null;
  return {
    since: after.ms - 1,
    after,
    mode,
    ...(returned ? { returned } : {}),
    ...(mode === 'stateful' && anchor ? { anchor: anchor.pos } : {}),
    ...(mode === 'stateful' ? { returnedBy: state?.checkpoints ?? [] } : {}),
    ...(lost ? { forgotten: true as const } : {}),
  };
};

/**
 * Adds a checkpoint and forgets what no later poll can use: checkpoints closer than the grain become one
 * (the later `answeredBy`, the smaller `ms`: it becomes the anchor later and asks from further back), and of those
 * older than the hold (with a margin for clients whose clocks differ) only the newest is kept.
 */
export const withCheckpoint = (
  checkpoints: Checkpoint[],
  added: Checkpoint[],
  serviceNowMs: number,
  timings: PollTimings,
) => {
  const grain = timings.checkpointGrainMs;
  const byGrain = new Map<number, Checkpoint>();
  for (const c of [...checkpoints, ...added]) {
    const key = Math.floor(c.answeredBy / grain);
    const other = byGrain.get(key);
    const merged = other && {
      answeredBy: Math.max(other.answeredBy, c.answeredBy),
      pos: earlier(other.pos, c.pos),
    };
    byGrain.set(key, merged ?? c);
  }
  const sorted = [...byGrain.values()].sort((a, b) => a.answeredBy - b.answeredBy);
  const cut = serviceNowMs - timings.holdMs - timings.clockSkewMs;
  const old = sorted.filter((c) => c.answeredBy <= cut);
  return [...old.slice(-1), ...sorted.filter((c) => c.answeredBy > cut)];
};
