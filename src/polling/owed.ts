/**
 * What a stream still owes some of its Zaps, beyond what the kept entry holds: records a poll returned that
 * not every Zap has had yet, in shares under keys of their own (`:owed:<id>`, compressed), listed by an
 * index kept twice (its own key `:owed` and the stream's state), so that losing either leaves the other.
 *
 * A share takes its turn once the shares before it are done: every poll returns it whole (in what the new
 * records leave of the answer), and it is done once polls have returned it whole for `owedTurnMs` on end
 * (the longest gap between two polls of a Zap on time that is not late): each Zap polled at least once
 * meanwhile (a late one may not: the door comment, index.ts). A poll that could not return it whole starts
 * its turn again. A share holding records then takes a late turn by the same rule, for a Zap run late
 * during its turn: every poll returns it whole where the answer has room after everything else
 * (`sharesLate`), and it is done once polls have done so for a turn and until `owedLateMs` (how late
 * Zapier may run a poll) after its turn ended; a poll that could not return it starts its late turn again.
 * A late share the cache lost is let go, not read again. A poll reads the shares whose turn it is, and late
 * ones up to what an answer has room for.
 *
 * A share whose value is missing, unreadable, cut short or from another write is read again from the
 * service: its records are those of its range of positions (`from`, `to`], which the poll's one request
 * then also covers. So is a share of a range only, which a poll whose kept entry was lost leaves for what
 * it could not return again. A range takes its turn after the shares holding records, newest range first,
 * and is read newest part first (`sharesInTurn`): from its newest part's start once a read has cut it into
 * parts (`cuts`, `readFrom`).
 */
import { randomUUID } from 'node:crypto';
import * as z from 'zod';
import { built, lazy } from '../lazy';
import { type AccountCache, type CacheRecord, cacheRecord } from '../memory';
import type { Entry } from './entry';
import { PackedSchema, isObject, pack, readEntries, storedEntries, unpack } from './kept';
import { type Position, PositionSchema, comparePositions } from './position';
import type { PollTimings } from './timings';

/**
 * A share: its key's id, the write it holds (`generation`, empty for a range only, read from the service),
 * its range of positions, its records' bytes as estimated, and when its turn started (client clock), if it
 * did.
 */
export interface ShareRef {
  id: string;
  generation: string;
  from: Position;
  to: Position;
  bytes: number;
  turnStarted?: number;
  /** When its late turn started (client clock), once its turn is over, if it did. */
  lateStarted?: number;
  /**
   * A range's parts, when a read of it counted them: where each part after the first starts, newest first
   * (each at most an answer). The range is read again from the first of them (its newest part: the
   * request costs what lies after it, not the whole range) and what is older stays owed.
   */
  cuts?: Position[];
  /**
   * Its records are read again from the service (a range, or what a lost share or kept entry held): not a
   * backlog being handed over for the first time, so the recent kept records keep their room beside it.
   */
  again?: true;
  /**
   * A range owed behind an answer that carried a forgotten stream's whole window (and the shares read from
   * it): what every Zap on time most likely had, owed as a precaution; an answer carries it after the older
   * kept records (for a Zap that Zapier held, which only the kept entry serves).
   */
  precaution?: true;
}

/** Where a share is read again from: the start of its newest part (the whole range when it has none). */
export const readFrom = (ref: ShareRef): Position => ref.cuts?.[0] ?? ref.from;

/** The index: its revision (the higher of the two copies wins) and the shares, oldest range first. */
export interface OwedIndex {
  revision: number;
  shares: ShareRef[];
}

/**
 * The codec of the owed index and of a share's value: the cache stores short keys (a share's reference
 * `{id, g, from, to, b, t, l, c}`: `generation`, `bytes`, `turnStarted`, `lateStarted`, `cuts`; the index
 * `{r, shares}`: `revision`; a share's value `{g, e}`: `generation`, `entries`, each entry as kept.ts's
 * codec stores it). They are read (once per value, into the named shape) and written here only.
 */
const ShareRefSchema = lazy(() =>
  z
    .object({
      id: z.string(),
      g: z.string(),
      from: built(PositionSchema),
      to: built(PositionSchema),
      b: z.number(),
      t: z.number().optional(),
      l: z.number().optional(),
      c: z.array(built(PositionSchema)).optional(),
      a: z.literal(1).optional(),
      w: z.literal(1).optional(),
    })
    .transform(
      (stored): ShareRef => ({
        id: stored.id,
        generation: stored.g,
        from: stored.from,
        to: stored.to,
        bytes: stored.b,
        ...(stored.t === undefined ? {} : { turnStarted: stored.t }),
        ...(stored.l === undefined ? {} : { lateStarted: stored.l }),
        ...(stored.c?.length ? { cuts: stored.c } : {}),
        ...(stored.a ? { again: true as const } : {}),
        ...(stored.w ? { precaution: true as const } : {}),
      }),
    ),
);

export const OwedIndexSchema = lazy(() =>
  z
    .object({ r: z.number(), shares: z.array(built(ShareRefSchema)) })
    .transform((stored): OwedIndex => ({ revision: stored.r, shares: stored.shares })),
);

/** The index as the cache stores it (its own key, and the state's copy). */
export const storedIndex = (index: OwedIndex) => ({
  r: index.revision,
  shares: index.shares.map((ref) => ({
    id: ref.id,
    g: ref.generation,
    from: ref.from,
    to: ref.to,
    b: ref.bytes,
    ...(ref.turnStarted === undefined ? {} : { t: ref.turnStarted }),
    ...(ref.lateStarted === undefined ? {} : { l: ref.lateStarted }),
    ...(ref.cuts?.length ? { c: ref.cuts } : {}),
    ...(ref.again ? { a: 1 as const } : {}),
    ...(ref.precaution ? { w: 1 as const } : {}),
  })),
});

/** A share's value as stored (`{g, e}`, no other key), read, or `null`. */
const readShare = (value: unknown) => {
  if (!isObject(value) || typeof value.g !== 'string') return null;
  if (Object.keys(value).some((key) => key !== 'g' && key !== 'e')) return null;
  const entries = readEntries(value.e);
  return entries && { generation: value.g, entries };
};

/** A share's value as the cache stores it (before packing). */
const storedShare = <R>(generation: string, entries: Array<Entry<R>>) => ({
  g: generation,
  e: storedEntries(entries),
});

export const NO_OWED: OwedIndex = { revision: 0, shares: [] };

/** The newer of the index's two copies (either may be missing). */
export const newerIndex = (a: OwedIndex | null | undefined, b: OwedIndex | null | undefined): OwedIndex =>
  [a, b].reduce<OwedIndex>((best, x) => (x && x.revision > best.revision ? x : best), NO_OWED);

/**
 * A share whose turn it is, as a poll read it: its records, or `null` when they must be read from the
 * service.
 */
export interface ShareRead<R> {
  ref: ShareRef;
  entries: Array<Entry<R>> | null;
}

/** Whether `ref`'s turn is over at `now`: polls returned it whole for a whole turn. */
const turnOver = (ref: ShareRef, now: number, timings: PollTimings) =>
  ref.turnStarted !== undefined && ref.turnStarted <= now - timings.owedTurnMs;

/**
 * Whether `ref` is done at `now`: its turn is over and, for a share holding records, its late turn too: polls
 * returned it whole for a turn, and until `owedLateMs` after its turn ended. (A Zap run late during the turn
 * polls again before then; if it polled before the late turn began, it polls again within the late turn.)
 */
const shareDone = (ref: ShareRef, now: number, timings: PollTimings) =>
  turnOver(ref, now - (ref.generation ? timings.owedLateMs : 0), timings) &&
  (!ref.generation || (ref.lateStarted !== undefined && ref.lateStarted <= now - timings.owedTurnMs));

/** Whether `ref` is in its late time at `now`: its turn is over, its late turn is not. */
const inLateTime = (ref: ShareRef, now: number, timings: PollTimings) =>
  turnOver(ref, now, timings) && !shareDone(ref, now, timings);

/** The bytes of the shares some Zap polled on time may still lack (those in their late time left out). */
export const owingBytes = (index: OwedIndex, now: number, timings: PollTimings): number =>
  index.shares.reduce((sum, ref) => (inLateTime(ref, now, timings) || ref.again ? sum : sum + ref.bytes), 0);

/**
 * The shares in their late time at `now`, within `room` answer bytes: those whose late turn started first
 * (so that another does not push them out and start their late turns again), then the turn that ended
 * first first.
 */
export const sharesLate = (index: OwedIndex, now: number, timings: PollTimings, room: number): ShareRef[] => {
  const late = index.shares.filter((ref) => inLateTime(ref, now, timings));
  const first = (ref: ShareRef) => ref.lateStarted ?? Infinity;
  late.sort((a, b) => first(a) - first(b) || (a.turnStarted ?? 0) - (b.turnStarted ?? 0));
  const out: ShareRef[] = [];
  let bytes = 0;
  for (const ref of late) {
    if (bytes + ref.bytes > room) break;
    bytes += ref.bytes;
    out.push(ref);
  }
  return out;
};

/**
 * The shares whose turn it is at `now`, within an answer: those whose turn started first (so that a share
 * added before them, a range read again, does not push them out and start their turns again), then the
 * others holding records, oldest range first, then the ranges, newest first. A range is read again from the
 * service, newest part first; the one a lost ledger leaves reaches back the lookback, and what a Zap most
 * likely lacks is its newest part (a backlog drains oldest first): its old part, which every Zap had, goes
 * last.
 */
export const sharesInTurn = (index: OwedIndex, now: number, timings: PollTimings): ShareRef[] => {
  const out: ShareRef[] = [];
  let bytes = 0;
  const started = (ref: ShareRef) => ref.turnStarted !== undefined;
  const live = index.shares.filter((ref) => !turnOver(ref, now, timings));
  const waiting = live.filter((ref) => !started(ref));
  const ranges = waiting.filter((ref) => !ref.generation).reverse();
  for (const ref of [...live.filter(started), ...waiting.filter((ref) => ref.generation), ...ranges]) {
    if (out.length && bytes + ref.bytes > timings.answerBudgetBytes) break;
    bytes += ref.bytes;
    out.push(ref);
  }
  return out;
};

/** What a record adds to an answer: as its poll measured it, else the bytes of the record. */
const entryBytes = (entry: Entry<unknown>) =>
  entry.bytes || Buffer.byteLength(JSON.stringify(entry.record)) + 1;

/** What a poll changes in the index: shares it returned whole, shares it read again, shares it adds. */
export interface OwedChange {
  /** The shares the poll returned whole, in their turn or their late turn. */
  returned: Set<string>;
  /** The shares in their late time that the cache lost: they leave the index. */
  lost: Set<string>;
  /** The shares whose turn it is that the poll read (returned or not). */
  inTurn: ShareRef[];
  /** Shares read again from the service and written as new shares (in `added`): they leave the index. */
  replaced: Set<string>;
  added: ShareRef[];
}

/**
 * The index after a poll's `change`, and the shares done (their keys to clear): a share whose turn it is
 * that the poll returned whole starts its turn (if it had not), one it did not return starts it again
 * later; one in its late time likewise starts its late turn, or starts it again later.
 */
const nextIndex = (fresh: OwedIndex, change: OwedChange, now: number, timings: PollTimings) => {
  const mine = new Map(change.inTurn.map((ref) => [ref.id, ref]));
  const shares: ShareRef[] = [];
  const cleared: string[] = [];
  for (const ref of [...fresh.shares, ...change.added]) {
    const current = mine.get(ref.id) ?? ref;
    if (shareDone(current, now, timings) || change.replaced.has(ref.id) || change.lost.has(ref.id)) {
      cleared.push(ref.id);
      continue;
    }
    if (turnOver(current, now, timings)) {
      const { lateStarted, ...rest } = current;
      shares.push(change.returned.has(ref.id) ? { ...rest, lateStarted: lateStarted ?? now } : rest);
      continue;
    }
    // Returned whole by every poll since its turn started: a share this poll did not return starts it again.
    const { turnStarted, ...rest } = current;
    if (change.returned.has(ref.id)) shares.push({ ...rest, turnStarted: turnStarted ?? now });
    else shares.push(rest);
  }
  shares.sort((a, b) => comparePositions(a.from, b.from));
  return { next: { revision: Math.max(fresh.revision, 0) + 1, shares }, cleared };
};

/** Writes `entries` as shares (oldest first), each of about `owedShareBytes` and at most one cache value. */
const writeSharesOf = async <R>(
  entries: Array<Entry<R>>,
  share: (id: string) => CacheRecord<string>,
  timings: PollTimings,
): Promise<ShareRef[]> => {
  const refs: ShareRef[] = [];
  const cut = async (part: Array<Entry<R>>): Promise<void> => {
    const generation = randomUUID().slice(0, 8);
    const packed = pack(storedShare(generation, part));
    if (packed.length > timings.cacheValueBytes && part.length > 1) {
      const half = Math.ceil(part.length / 2);
      await cut(part.slice(0, half));
      await cut(part.slice(half));
      return;
    }
    const first = part[0] as Entry<R>;
    const last = part[part.length - 1] as Entry<R>;
    const id = randomUUID().slice(0, 12);
    await share(id).write(packed);
    const bytes = part.reduce((n, entry) => n + entryBytes(entry), 0);
    refs.push({
      id,
      generation,
      from: { ms: first.ms, id: first.id },
      to: { ms: last.ms, id: last.id },
      bytes,
    });
  };
  const sorted = [...entries].sort(comparePositions);
  let part: Array<Entry<R>> = [];
  let bytes = 0;
  for (const entry of sorted) {
    part.push(entry);
    bytes += entryBytes(entry);
    if (bytes < timings.owedShareBytes) continue;
    await cut(part);
    part = [];
    bytes = 0;
  }
  if (part.length) await cut(part);
  // `from` is just before the first record, so that a range read again includes it.
  return refs.map((ref) => ({ ...ref, from: { ms: ref.from.ms - 1, id: '' } }));
};

/** The stream's owed shares in the account's cache. */
export const owedStore = (cache: AccountCache, key: string, timings: PollTimings) => {
  const indexKey = `${key}:owed`;
  const index = cacheRecord(cache, indexKey, OwedIndexSchema, timings.owedTtlSeconds);
  const share = (id: string) => cacheRecord(cache, `${key}:owed:${id}`, PackedSchema, timings.owedTtlSeconds);
  const cap = timings.keptUnpackedCapBytes;

  const writeShares = <R>(entries: Array<Entry<R>>) => writeSharesOf(entries, share, timings);

  return {
    /** The index: the newer of its own key and the state's copy. */
    readIndex: async (stateCopy: OwedIndex | null | undefined): Promise<OwedIndex> =>
      newerIndex((await index.read()) ?? null, stateCopy),

    /** The records of `refs`, each `null` when the cache lost them (or holds another write). */
    readShares: async <R>(refs: ShareRef[]): Promise<Array<ShareRead<R>>> =>
      Promise.all(
        refs.map(async (ref) => {
          if (!ref.generation) return { ref, entries: null };
          const read = readShare(unpack(await share(ref.id).read(), cap));
          const ok = read !== null && read.generation === ref.generation;
          return { ref, entries: ok ? (read.entries as Array<Entry<R>>) : null };
        }),
      ),

    writeShares,

    /**
     * A share of a range only: its records are read from the service at its turn. Its positions are
     * copies: core refuses to store a value that holds one object twice (the state's base, say).
     */
    rangeShare: (
      from: Position,
      to: Position,
      bytes: number,
      cuts: Position[] = [],
      precaution = false,
    ): ShareRef => ({
      id: randomUUID().slice(0, 12),
      generation: '',
      from: { ms: from.ms, id: from.id },
      to: { ms: to.ms, id: to.id },
      bytes,
      ...(cuts.length ? { cuts: cuts.map((cut) => ({ ms: cut.ms, id: cut.id })) } : {}),
      again: true,
      ...(precaution ? { precaution: true as const } : {}),
    }),

    /**
     * The index after a poll's `change`, merged with `fresh` (the index as it is now: a concurrent poll may
     * have added shares): the done shares leave it (their keys cleared), a share whose turn it is that the
     * poll returned whole starts its turn (if it had not), one it did not return starts it again later.
     */
    close: async (fresh: OwedIndex, change: OwedChange, now: number): Promise<OwedIndex | null> => {
      if (!fresh.shares.length && !change.added.length) return null;
      const { next, cleared } = nextIndex(fresh, change, now, timings);
      const written = cache.set(indexKey, storedIndex(next), timings.owedTtlSeconds);
      await Promise.all([written, ...cleared.map((id) => share(id).clear())]);
      return next;
    },
  };
};

export type OwedStore = ReturnType<typeof owedStore>;
