/**
 * The polling room's timings and sizes: one value, passed to every poll. `POLL_TIMINGS` is the app's; tests
 * and benchmarks build their own with `pollTimings`. Figures that depend on each other are computed from
 * each other here, from a handful of facts about Zapier and the service.
 */
import { STREAM_LIMITS, streamLimits } from '../connect';
import type { LeaseTimings } from '../memory';
import { ANSWER_LIMIT_BYTES, ANSWER_MARGIN_BYTES } from '../mappers/each';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const MIB = 1024 * 1024;

/** The facts the timings are made of. */
export interface PollFacts {
  /** Zapier's longest polling interval. */
  longestIntervalMs: number;
  /** How late Zapier may run a Zap's poll. */
  longestDelayMs: number;
  /** How long Zapier may hold a Zap's polls (the user pauses it, the task queue is long) with the cache working. */
  heldMs: number;
  /** How long a Zap may go without a poll and still miss nothing when the cache fails. */
  statelessHoldMs: number;
  /** Scheduling jitter and polls that overlap. */
  jitterMs: number;
  /** A submission may become visible up to this long after its `createdAt` (contract §3). */
  visibilityDelayMs: number;
  /** A `since` boundary that may be exclusive, a request's duration and the `Date` header's rounding. */
  marginMs: number;
  /** The `Date` header's rounding (whole seconds, perhaps up), between it and a kept entry's position. */
  settleMarginMs: number;
  /** How far the client's clock (Zapier's) may be off the service's. */
  clockSkewMs: number;
  /** The oldest a scheduled poll ever asks for, before the skew. */
  lookbackDayMs: number;
  /** Core stashes an answer of 6 MiB or more (`JSON.stringify` of the result, UTF-8 bytes). */
  answerLimitBytes: number;
  /** Kept below the limit: the brackets and what the sizing of an item could miss. */
  answerMarginBytes: number;
  /** Zapier stops a poll at 30 s: the request gives up this long before the connect layer's own limit. */
  requestMarginMs: number;
  minRequestTimeoutMs: number;
  /** Zapier stops a poll at this. */
  runLimitMs: number;
  /** How long a poll waits for another poll of its stream to end before it reads alone. */
  leaseWaitMs: number;
  /** The largest value the room writes under one cache key (compressed text): Zapier publishes no limit. */
  cacheValueBytes: number;
  /**
   * How many times a cache call that fails (throws, times out) is made: with 5% of calls failing, 3 leave
   * about one read in 8,000 failed, and a poll reads up to a dozen keys.
   */
  cacheAttempts: number;
}

export const POLL_FACTS: PollFacts = {
  longestIntervalMs: 15 * MINUTE,
  longestDelayMs: 30 * MINUTE,
  heldMs: 2 * HOUR,
  statelessHoldMs: HOUR,
  jitterMs: 5 * MINUTE,
  visibilityDelayMs: 2 * MINUTE,
  marginMs: 3 * MINUTE,
  settleMarginMs: 1 * SECOND,
  clockSkewMs: 15 * MINUTE,
  lookbackDayMs: 24 * HOUR,
  answerLimitBytes: ANSWER_LIMIT_BYTES,
  answerMarginBytes: ANSWER_MARGIN_BYTES,
  requestMarginMs: 2 * SECOND,
  minRequestTimeoutMs: 5 * SECOND,
  runLimitMs: STREAM_LIMITS.runMs,
  leaseWaitMs: 8 * SECOND,
  cacheValueBytes: 1_000_000,
  cacheAttempts: 3,
};

export type PollTimings = Readonly<
  PollFacts & {
    /**
     * How far before the service's clock of an answer a kept entry is settled (2 minutes and 1 s): a
     * record may become visible up to the visibility delay after it is made, and the `Date` header may
     * be rounded up to the next second.
     */
    settleMs: number;
    /** How long every poll of the stream keeps returning a record without a kept entry (50 minutes). */
    holdMs: number;
    /** A stateless poll's window: the stateless hold, the visibility delay, the margin and the skew (80). */
    statelessMs: number;
    /** How long the kept entry keeps (and polls return) a record: a held Zap's gap and an interval (150). */
    keptMs: number;
    /** The kept entry outlives its newest records by half an hour. */
    keptTtlSeconds: number;
    /** The oldest a scheduled poll asks for: the last day and the skew. */
    lookbackMs: number;
    /** A Zap being turned on: the lookback and the skew again, so it covers every later poll's window. */
    seedMs: number;
    /** How long a failed poll's window is kept for every poll of its stream after the last failure. */
    failureHoldMs: number;
    /** Checkpoints closer than this are merged into one. */
    checkpointGrainMs: number;
    /** A kept entry rebuilt from the service groups its older records in batches of this much time. */
    rebuiltGrainMs: number;
    /**
     * The longest a poll waits for what comes before its window (the event's title and dates): a full wait
     * for the lease and two shortest reads still fit in the run after it.
     */
    contextWaitMs: number;
    /** How long the state is kept without any poll. */
    stateTtlSeconds: number;
    /** What one answer's items may add up to, in UTF-8 bytes of JSON (each item and its comma). */
    answerBudgetBytes: number;
    /** The largest kept entry, compressed (base64 characters): beyond it its oldest records leave it. */
    keptCapBytes: number;
    /** The largest a kept entry may unpack to: a larger one is treated as missing. */
    keptUnpackedCapBytes: number;
    /**
     * What a worker's remembered decodings may weigh (decoded.ts: each its packed characters and the bytes
     * it unpacked to): a stream's whole kept entry at its cap whose records fill an answer, and a quarter
     * more (its tail: `tailPays` keeps it far smaller).
     */
    decodedHeldBytes: number;
    /**
     * The most the kept records some Zap may lack may add to an answer (a quarter): beyond it, the oldest
     * become owed shares, each returned whole for its turn in the rest of the answer (a rush drains faster in them).
     */
    keptRecentBytes: number;
    /**
     * The same while a backlog is owed (shares of more than `keptRecentBytes`): an eighth. The kept records
     * hold their place for `holdMs`, a share for its turn only, so a backlog drains faster in shares.
     * Steady polling owes none and keeps its quarter (its records stay kept for held Zaps).
     */
    keptRecentOwingBytes: number;
    /** An owed share is returned by every poll for this long (a Zap's interval and the jitter) before it is done. */
    owedTurnMs: number;
    /**
     * After its turn, a share holding records stays owed this long (how late Zapier may run a poll), returned
     * where an answer has room after everything else (for a Zap run late during its turn).
     */
    owedLateMs: number;
    /** The records of one owed share, in answer bytes (about): several fit in an answer. */
    owedShareBytes: number;
    /**
     * What a range read again could not hold is owed in parts of at most this many answer bytes (an
     * answer's budget: a part takes a turn as the whole range did), each read again on its own, newest first.
     */
    rangePartBytes: number;
    /** How long the owed shares and their index outlive the last write. */
    owedTtlSeconds: number;
    /** How many keys the kept entry's tail may take (a piece each): more keys, fewer bytes written a poll. */
    keptTailPieces: number;
    /** The most ids a Zap being turned on is given (Zapier's dedupe table holds 105,000). */
    maxDedupeItems: number;
    /**
     * The polls of one stream run one at a time: a lease that outlives a poll Zapier stopped, a bounded wait
     * that leaves the waiter time for its own read, looks that back off.
     */
    lease: LeaseTimings;
  }
>;

/** The timings that follow from `facts`. */
export const pollTimings = (overrides: Partial<PollFacts> = {}): PollTimings => {
  const f: PollFacts = { ...POLL_FACTS, ...overrides };
  const keptMs = f.heldMs + f.longestIntervalMs + f.longestIntervalMs;
  const lookbackMs = f.lookbackDayMs + f.clockSkewMs;
  const answerBudgetBytes = f.answerLimitBytes - f.answerMarginBytes;
  return Object.freeze({
    ...f,
    settleMs: f.visibilityDelayMs + f.settleMarginMs,
    holdMs: f.longestIntervalMs + f.longestDelayMs + f.jitterMs,
    statelessMs: f.statelessHoldMs + f.visibilityDelayMs + f.marginMs + f.clockSkewMs,
    keptMs,
    keptTtlSeconds: (keptMs + 30 * MINUTE) / SECOND,
    lookbackMs,
    seedMs: lookbackMs + 2 * f.clockSkewMs,
    failureHoldMs: f.statelessHoldMs,
    checkpointGrainMs: MINUTE,
    rebuiltGrainMs: 5 * MINUTE,
    contextWaitMs: f.runLimitMs - f.requestMarginMs - f.leaseWaitMs - 2 * f.minRequestTimeoutMs,
    stateTtlSeconds: 30 * 24 * 3600,
    answerBudgetBytes,
    keptCapBytes: f.cacheValueBytes,
    keptUnpackedCapBytes: 64 * MIB,
    decodedHeldBytes: Math.round(1.25 * (f.cacheValueBytes + answerBudgetBytes)),
    keptRecentBytes: Math.floor(answerBudgetBytes / 4),
    keptRecentOwingBytes: Math.floor(answerBudgetBytes / 8),
    owedTurnMs: f.longestIntervalMs + f.jitterMs,
    owedLateMs: f.longestDelayMs,
    owedShareBytes: Math.floor(answerBudgetBytes / 16),
    rangePartBytes: answerBudgetBytes,
    owedTtlSeconds: (2 * f.lookbackDayMs) / SECOND,
    keptTailPieces: 6,
    maxDedupeItems: 100_000,
    lease: Object.freeze({
      leaseSeconds: Math.ceil((f.runLimitMs + f.requestMarginMs) / SECOND),
      waitMs: f.leaseWaitMs,
      firstLookMs: 250,
      maxLookMs: 2 * SECOND,
    }),
  });
};

/** The app's timings. */
export const POLL_TIMINGS: PollTimings = pollTimings();

/**
 * The run's limit a poll keeps to: its timings', or the longer one the run's environment gives
 * (`CONNECT_STREAM_LIMITS`: tests that assert behaviour, not a limit, give one no machine reaches).
 */
export const runLimitOf = (timings: PollTimings): number =>
  Math.max(timings.runLimitMs, streamLimits().runMs);
