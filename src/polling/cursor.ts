/**
 * The open and the close of a poll (steps 3 and 6 of the door comment in index.ts, which tells the figures):
 * the stream's state (checkpoints, base, floor, clock offset and a copy of the owed index, state.ts), its
 * kept entry (kept.ts) and its owed shares (owed.ts) are read, the window planned (state.ts), and after the
 * answer everything is written back, each write re-reading what it merges with so that concurrent polls of
 * a stream lose as little as possible and each write is true on its own.
 *
 * - A kept entry's settled position is trusted only up to what the app's own clock allows and what the
 *   stream's newest checkpoint allows (both less the settle time): an entry from a clock ahead, or tampered
 *   with, makes the poll read more, never skip.
 * - A stream with neither state nor kept entry (its cache lost) does not know what its Zaps lack: the poll
 *   owes a range from as far back as a poll ever reads up to the newest records it returns (window.ts).
 * - A failed poll leaves a floor: for a while every poll of the stream asks from at least where it did, and
 *   the owed shares whose turn it was start their turns again.
 * - A Zap being turned on reads ids only, over a window wider than any later poll's, and starts the
 *   stream's state when there is none (nothing is owed to any Zap before it).
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { streamLimits } from '../connect';
import { type AccountCache, CACHE_FAILED, type Clock, accountCache, systemClock } from '../memory';
import { type KeptRead, keptStore } from './kept';
import { type Position, at, earlier } from './position';
import {
  type CursorState,
  type Plan,
  type SinceKind,
  activeFloor,
  newestTrusted,
  planPoll,
  serviceNow,
  stateRecord,
  withCheckpoint,
} from './state';
import { type PollTimings, runLimitOf } from './timings';
import type { OwedSelection, PollSelection, WindowPoll } from './window';
import type { Entry } from './entry';
import {
  type OwedIndex,
  type ShareRead,
  newerIndex,
  owedStore,
  owingBytes,
  readFrom,
  sharesInTurn,
  sharesLate,
} from './owed';

/** One poll of a since-stream, from `openPoll` to `closePoll`. */
export interface SincePoll extends WindowPoll {
  /** The stream: what is polled (the account is added by the cache). Never per Zap. */
  key: string;
  /** Where the request starts: ISO 8601 with milliseconds. */
  since: string;
  /** How long the request may take, within the deadline. */
  timeoutMs: number;
  cache: AccountCache;
  state: CursorState | null;
  keptRead: KeptRead | null;
  /** The kept entry could not be read (the cache failed): the poll neither writes it nor owes its records. */
  keptUnread: boolean;
  /** The owed shares' index as the poll read it, and the shares whose turn it is. */
  owedIndex: OwedIndex;
  owed: Array<ShareRead<unknown>>;
  late: Array<ShareRead<unknown>>;
}

/**
 * The kept entry a poll can use, its settled position no later than the app's clock allows, nor than the
 * stream's newest checkpoint does (the last poll's answer, minus the visibility delay and the margin): an
 * entry from a clock ahead, or tampered with, makes the poll read more, never skip.
 */
const trustedKept = (
  read: KeptRead | null,
  state: CursorState | null,
  clientNow: number,
  timings: PollTimings,
): KeptRead | null => {
  if (!read) return null;
  let settled = earlier(read.kept.settled, newestTrusted(clientNow, timings));
  const newest =
    state?.checkpoints.reduce((latest, c) => Math.max(latest, c.answeredBy), -Infinity) ?? -Infinity;
  if (Number.isFinite(newest)) settled = earlier(settled, at(newest - timings.settleMs));
  return { ...read, kept: { ...read.kept, settled } };
};

/** Opens one poll of a since-stream: reads its state and kept entry and plans the window. */
export const openPoll = async (
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  stream: { key: string; kind: SinceKind; timings: PollTimings; clock?: Clock; runStarted?: number },
): Promise<SincePoll> => {
  const { timings } = stream;
  const clock = stream.clock ?? systemClock;
  const now = () => clock.now();
  const started = now();
  // A cache call that fails now and then (throws, times out) is made again, up to `cacheAttempts` times, so
  // that it costs calls, not a key taken for lost (a lost kept entry costs a range read again and its turn).
  const cache = accountCache(z, bundle, now, timings.cacheAttempts);
  const owedShares = owedStore(cache, stream.key, timings);
  const polling = stream.kind === 'poll';
  const [stateValue, keptValue, owedOwn] = await Promise.all([
    stateRecord(cache, stream.key, timings).readKnown(),
    polling ? keptStore(cache, stream.key, timings).read(started) : null,
    polling ? owedShares.readIndex(null) : null,
  ]);
  const state = stateValue === CACHE_FAILED ? undefined : stateValue;
  const keptUnread = keptValue === CACHE_FAILED;
  const keptRead = trustedKept(keptUnread ? null : keptValue, state ?? null, started, timings);
  // Neither state nor kept entry, and the cache answered: the stream's memory is gone (not a failing cache).
  const forgotten = stateValue === undefined && keptValue === null;
  const settled = keptRead?.kept.settled ?? null;
  const plan: Plan = planPoll(stream.kind, state ?? null, started, settled, timings, forgotten);
  const owedIndex = polling ? newerIndex(owedOwn, state?.owed) : newerIndex(null, null);
  const inTurn = sharesInTurn(owedIndex, started, timings);
  // The late shares an answer may have room for: after those whose turn it is and the kept records.
  const kept = keptRead?.kept.batches.reduce((sum, batch) => sum + batch.bytes, 0) ?? 0;
  const lateRoom = timings.answerBudgetBytes - kept - inTurn.reduce((sum, ref) => sum + ref.bytes, 0);
  const [owed, lateRead] = await Promise.all([
    owedShares.readShares(inTurn),
    owedShares.readShares(sharesLate(owedIndex, started, timings, lateRoom)),
  ]);
  // Shares the cache lost are read again from the service: the poll's one request covers their ranges,
  // from just before their first position (a record made at `from.ms` with a later id is in the range).
  const since = owed.reduce(
    (oldest, share) => (share.entries ? oldest : Math.min(oldest, readFrom(share.ref).ms - 1)),
    plan.since,
  );
  // The run's time so far counts (the event's lookup, a wait for another poll): the request ends by the
  // run's deadline, Zapier's limit less a margin. Below the shortest read, the poll gives up (index.ts).
  const elapsed = now() - (stream.runStarted ?? started);
  const timeoutMs = Math.min(
    streamLimits().lookupMs - timings.requestMarginMs - elapsed,
    runLimitOf(timings) - timings.requestMarginMs - elapsed,
  );
  return {
    key: stream.key,
    kind: stream.kind,
    since: new Date(since).toISOString(),
    timeoutMs,
    cache,
    state: state ?? null,
    keptRead,
    keptUnread,
    owedIndex,
    owed,
    late: lateRead,
    kept: keptRead?.kept ?? null,
    offset: state?.offset ?? null,
    known: !!state || !!keptRead,
    plan,
    started,
    now,
    timings,
  };
};

/** The state a Zap turned on starts a stream with: nothing known yet, nothing owed. */
const BORN: CursorState = { checkpoints: [], base: null, floor: null, offset: null };

/** Re-reads the state just before writing, so that concurrent polls of a stream lose as little as possible. */
const writeState = async (poll: SincePoll, change: (fresh: CursorState | null) => CursorState) => {
  const record = stateRecord(poll.cache, poll.key, poll.timings);
  await record.write(change((await record.read()) ?? null));
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

/** A poll that gives up before its read: its window stays for the next polls, as a failed one's does. */
export const giveUp = async (poll: SincePoll): Promise<void> => {
  if (poll.kind === 'poll') await leaveFloor(poll);
};

const leaveFloor = async (poll: SincePoll): Promise<void> => {
  const failedAt = poll.now();
  // What the failed poll would have returned starts at its oldest kept record, if it had kept ones.
  const sinceMs = (poll.kept?.batches ?? []).reduce(
    (oldest, batch) => batch.entries.reduce((min, entry) => Math.min(min, entry.ms - 1), oldest),
    poll.plan.since,
  );
  // The Zap whose poll failed did not get the shares whose turn it was: their turns start again.
  const nothing = {
    inTurn: poll.owed.map((share) => share.ref),
    returned: new Set<string>(),
    refilled: [],
    ranges: [],
  };
  const owedIndex = await closeOwed(poll, nothing, []);
  await writeState(poll, (fresh) => {
    const floor = activeFloor(fresh, failedAt);
    const owed = owedIndex ?? newerIndex(fresh?.owed, poll.owedIndex);
    return {
      ...(owed.shares.length ? { owed } : {}),
      checkpoints: fresh?.checkpoints ?? [],
      base: fresh?.base ?? null,
      offset: fresh?.offset ?? poll.state?.offset ?? null,
      floor: {
        ms: Math.min(floor?.ms ?? sinceMs, sinceMs),
        until: Math.max(floor?.until ?? 0, failedAt + poll.timings.failureHoldMs),
      },
    };
  });
};

/**
 * The owed shares after the poll: what the kept entry let go of becomes shares, shares read again from the
 * service are written back, ranges of a lost kept entry become shares of a range; then the index (its own
 * key) is merged with the newest copy and written. Returns the index for the state's copy.
 */
const closeOwed = async <R>(
  poll: SincePoll,
  owed: OwedSelection<R>,
  spilled: Array<Entry<R>>,
): Promise<OwedIndex | null> => {
  const store = owedStore(poll.cache, poll.key, poll.timings);
  const added = await store.writeShares(spilled);
  const replaced = new Set<string>();
  const returned = new Set(owed.returned);
  // A share read again from the service becomes shares of its records (the turn it began goes on in
  // them) and shares of the ranges it could not hold (each of known size).
  for (const { ref, entries, rest } of owed.refilled) {
    const shares = await store.writeShares(entries);
    replaced.add(ref.id);
    const started = owed.returned.has(ref.id) ? (ref.turnStarted ?? poll.now()) : undefined;
    const precaution = ref.precaution ? { precaution: true as const } : {};
    for (const read of shares) {
      const share = { ...read, again: true as const, ...precaution };
      added.push(started === undefined ? share : { ...share, turnStarted: started });
      if (started !== undefined) returned.add(share.id);
    }
    if (rest)
      added.push(
        store.rangeShare(rest.from, rest.to, poll.timings.owedShareBytes, rest.cuts, !!ref.precaution),
      );
  }
  for (const range of owed.ranges)
    added.push(store.rangeShare(range.from, range.to, poll.timings.owedShareBytes, [], !!range.precaution));
  const fresh = newerIndex(await store.readIndex(null), poll.owedIndex);
  // A late share the cache lost is let go: read again from the service, it would cost a range's read.
  const lost = new Set(poll.late.filter((share) => !share.entries).map((share) => share.ref.id));
  const change = { returned, lost, inTurn: owed.inTurn, replaced, added };
  return store.close(fresh, change, poll.now());
};

/** Records the poll once its answer was built from `selection` (a Zap being turned on records nothing). */
export const closePoll = async <R>(poll: SincePoll, selection: PollSelection<R>): Promise<void> => {
  // A Zap turned on on a stream without a state starts it: nothing before it is owed to any Zap.
  if (poll.kind === 'dedupe') {
    if (!poll.state) await writeState(poll, (fresh) => fresh ?? BORN);
    return;
  }
  const { checkpoint, base, offset, kept } = selection;
  const { state, timings } = poll;
  // A kept entry the poll could not read is not written over: it still holds what it held, and the records
  // this poll returned are after its settled position, so the next poll returns them as new again.
  const spilled =
    kept && !poll.keptUnread
      ? await keptStore(poll.cache, poll.key, timings).write(kept.next, kept.added, poll.keptRead, {
          restamped: kept.restamped,
          // While a backlog is owed (shares over a quarter of an answer), the recent kept records take less
          // of an answer, so that it drains faster. Not for a few shares: steady polling would spill its
          // own records into shares (more writes) instead of keeping them for the Zaps Zapier holds.
          owing: owingBytes(poll.owedIndex, poll.started, timings) > timings.keptRecentBytes,
        })
      : [];
  const owedIndex = await closeOwed(poll, selection.owed, spilled);
  await writeState(poll, (fresh) => {
    const current = fresh ?? state;
    const offsetNow = offset ?? current?.offset ?? null;
    // A stream that had a state keeps its base; one this poll creates starts where its window starts.
    const bases = [fresh?.base, fresh ? base : (state?.base ?? base)].filter((p): p is Position => !!p);
    const owed = owedIndex ?? newerIndex(fresh?.owed, poll.owedIndex);
    return {
      checkpoints: withCheckpoint(
        current?.checkpoints ?? [],
        checkpoint ? [checkpoint] : [],
        serviceNow(offsetNow, poll.now(), timings),
        timings,
      ),
      base: bases.length ? bases.reduce(earlier) : null,
      floor: activeFloor(fresh, poll.now()),
      offset: offsetNow,
      ...(owed.shares.length ? { owed } : {}),
    };
  });
};
