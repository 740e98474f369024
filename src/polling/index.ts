/**
 * The polling room: "what is new for this stream, for every Zap of it", for polling triggers whose endpoint
 * takes only `since`. A trigger gives a stream (its key, how to read a window, how to tell records apart
 * and size them) and how to build its answer; `readNew` does the rest.
 *
 * Zapier cannot tell apart the Zaps of an account that poll the same event with the same inputs: they share
 * one stream and its memory in `z.cache`; nothing in it is per Zap. Zapier drops the items a Zap already
 * had (by `id`), so returning a record again costs a Zap nothing but answer bytes. So a record stays in the
 * answers until every Zap on time has had it.
 *
 * Terms (each with this one meaning here):
 * - stream: what the Zaps of an account polling one event with one filter share.
 * - Zap on time: one Zapier polls at least every 15 minutes, with 5 of jitter (at most 20 minutes between
 *   two polls), and now and then up to 30 minutes late.
 * - position: a record's `createdAt` (ms) and id; records are ordered by it.
 * - window: what the poll's one request reads, every record after its `since`.
 * - answer: the records a poll returns, within the budget (6 MiB less a margin, UTF-8 bytes of the items).
 * - state: the stream's small entry: checkpoints, base, floor, clock offset, a copy of the owed index.
 * - checkpoint: a poll answered by a time, and every record up to its position was visible then and returned.
 * - base: where the state's knowledge starts (the window of the poll that created it).
 * - hold: 50 minutes (the three added); a record every poll returned for that long reached every Zap on
 *   time, late ones too.
 * - kept entry: the records polls returned lately (150 minutes, for a Zap Zapier held 2 hours), compressed,
 *   complete up to its settled position.
 * - settle time: how far before the service's clock of an answer the settled position is: the 2 minutes a
 *   record may take to become visible and 1 s for a `Date` header rounded up.
 * - owed share: records some Zap on time may still lack, under a key of their own, or a range only. One
 *   read again from the service after a loss (a range, a lost share) is marked `again`: it is not a backlog
 *   that shrinks the recent kept records' room (a Zap Zapier held finds those in the kept entry). A range a
 *   forgotten stream owes behind an answer that held its whole window is also a `precaution` (what every
 *   Zap on time most likely had): it and its shares come after the older kept records in an answer.
 * - range: a share without records: they are read again from the service, a whole answer at a time, newest
 *   first; ranges take their turns after the shares with records, the newest range first. A read counts a
 *   range's records by time (spread.ts): what it could not hold stays owed in parts of at most an answer,
 *   and the next read starts at the newest part, so reading a range again costs what lies after each part.
 * - turn (of a share): 20 minutes (the longest interval and jitter) during which every poll returned the
 *   share whole; then every Zap on time that was not late meanwhile had it. A share holding records then
 *   takes a late turn by the same rule, in the room an answer has left after everything else, for a Zap
 *   run late during its turn: returned whole by every poll for a turn and until 30 minutes (the longest
 *   delay) after its turn ended. That Zap's late poll comes before then, and if it came before the late
 *   turn began, the Zap polls again within it; a poll without room starts the late turn again, so the
 *   share waits for room however long. Then the share is done. (Turns of 50 would cover a late Zap too, but every answer holding each share that
 *   long makes a rush reach the slower Zaps about 2.5 times later: docs/design.md, "What remains".)
 * - owed index: the list of shares (its own key and the state's copy: the newer wins).
 * - floor: where a failed poll asked from, kept for an hour so the Zap it failed finds what it missed.
 * - lookback: the oldest a scheduled poll ever reads, a day and the clock skew.
 * - deadline: Zapier's 30 s less a margin, from the invocation's start (`Stream.started`).
 * - lease: what a scheduled poll holds while it runs, so that the polls of a stream run one at a time
 *   (`oneAtATime`, src/memory/lease.ts).
 *
 * The code reads named fields only, and holds a record in one shape wherever it is (`Entry`, entry.ts: the
 * record, its position and its bytes). The cache holds each value in a shorter shape (one-letter keys, a
 * record as a list); each value's codec, next to its schema, reads it into the named shape once and writes
 * it back byte for byte: the state's and the owed index's in state.ts and owed.ts (`storedState`,
 * `storedIndex`), a share's in owed.ts, the kept entry's and its tail's in kept.ts (`storedWhole`,
 * `storedTail`; a record's list: `readEntries`, `storedEntries`). The packed values (the kept entry, its
 * tail, a share), thousands of records each, are read by hand in one pass, with the checks a schema of
 * their shape would make: each record becomes its `Entry` in that pass, and is not copied. A worker
 * remembers the decodings of the kept entry and its tail by their packed text, each frozen (decoded.ts):
 * the stream's next poll in the same warm process does not decode them again.
 *
 * One poll, in order:
 *
 * 1. The deadline: the event's lookup before the poll, the wait below and the read share it. A poll left
 *    without time for a read gives up cleanly: it records nothing, answers nothing new, and its window
 *    stays for the next polls.
 * 2. One at a time: a poll that finds the stream's lease taken waits (a few seconds at most, within the
 *    deadline), then reads only what the poll that held it left; past the wait it reads alone, which stays
 *    correct (every write is merged or true on its own), only dearer.
 * 3. Open (cursor.ts): read the state, the kept entry (kept.ts) and the owed index (owed.ts). Plan the
 *    window: after the kept entry's settled position when there is one, else after a checkpoint older than
 *    the hold, else the last 80 minutes (the stateless window: its newest records are returned; 152, as far
 *    back as the kept entry keeps, when the cache answered and held nothing).
 * 4. Read (window.ts): one request, `since` the window's start, earlier when a range whose turn it is must
 *    be read; records stream by and only what the answer can carry is held (a run kept newest first holds
 *    them as bytes: run.ts).
 * 5. Answer, within the budget, in this order: the records no poll returned yet (oldest first: a backlog
 *    drains in order); the kept records some Zap on time may lack (returned within the hold, or in a rush
 *    not drained yet), up to a quarter of an answer, an eighth while shares (not `again`) of over a quarter
 *    are owed (they hold their place for the hold, a share for its turn only: a backlog drains faster in
 *    shares);
 *    the owed shares whose turn it is, each whole; the older kept records (for a Zap Zapier held); the
 *    `precaution` shares whose turn it is; the shares in their late turn, each whole.
 * 6. Close (cursor.ts): add a checkpoint; write the kept entry (a piece of its tail, or the whole now and
 *    then). What the kept entry lets go of while some Zap may still lack it (over that part of an answer,
 *    or over its 1 MB cap) becomes owed shares. A share is returned whole by every poll until polls did so
 *    for its turn (then its late turn); a poll that could not return it whole starts that turn again.
 *
 * Nothing is lost per Zap on time, one run late included, whatever the cache loses (a range, and a late share
 * the cache lost, take no late turn: a Zap late while the cache loses keys is two faults at once), nor, at
 * steady traffic, per Zap that Zapier held up to 2 hours (through a backlog, the kept entry's 1 MB bounds it):
 * - a lost kept entry: the poll reads back as far as the entry keeps (not only to a checkpoint older than
 *   the hold), returns again what fits and keeps it again by when its checkpoints say polls returned it
 *   (for a Zap Zapier held: it is not all taken for recent), and owes as a range what it cannot return;
 * - a kept entry the cache failed to read is not lost: the poll reads from a checkpoint and returns the
 *   shares whose turn it is before the records read again, writes nothing over the entry and owes no range
 *   (the next poll returns this one's new records as new again);
 * - a lost share: read again from the service at its turn, from just before its first position;
 * - a lost owed index: the state's copy (and the reverse);
 * - a lost state and kept entry (the whole cache, or the stream's first poll without a Zap turned on):
 *   nothing tells what a Zap lacks, so the poll owes one range from the lookback up to the newest records
 *   it returns. The bound in words: a Zap on time lacks nothing older than a day (the lookback), the
 *   oldest any poll reads. No shorter bound holds: while a backlog is handed over, a Zap on time may lack
 *   records as old as the hand-over is long (hours, for a rush of long records). What a Zap most likely
 *   lacks is the newest (a backlog drains oldest first), so the range is read newest part first, after the
 *   shares with records: the rush comes back in its turns first, the day before it, which every Zap had,
 *   last. Recovering costs reading again from the service, a whole answer at a time, and answers of
 *   records Zapier drops as seen. A Zap being turned on starts the state, so a new stream owes nothing.
 *   When the cache answered (the stream forgotten, not a failing cache), the poll's window reaches as far
 *   back as the kept entry keeps, and an answer that holds it all is kept again by when each record was
 *   visible: a Zap Zapier held, whose last poll came before that, finds it there; what a Zap on time may
 *   lack and leaves the entry sooner is in the range;
 * - a failed poll leaves a floor, and the shares whose turn it was start their turns again;
 * - a failing cache call is made again, up to 3 times (`cacheAttempts`); one that still fails reads as a
 *   lost key (the kept entry's: as above), and a failed write leaves the older value, true on its own.
 *
 * Every figure here (50 minutes, 150, 80, 20, a quarter, an eighth, the caps) is computed in timings.ts from
 * a few facts about Zapier and the service; the other files of the room name them, never repeat them.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { type Clock, accountCache, oneAtATime, systemClock } from '../memory';
import { closePoll, giveUp, openPoll, pollRequest } from './cursor';
import type { SinceKind } from './state';
import { POLL_TIMINGS, type PollTimings, runLimitOf } from './timings';
import { PollWindow, type RecordShape } from './window';

export { POLL_FACTS, POLL_TIMINGS, type PollFacts, type PollTimings, pollTimings } from './timings';
export type { SinceKind } from './state';
export type { RecordShape } from './window';

/** One read of a window: the records created at or after `since`, each given to `visit`. */
export interface WindowRead<R> {
  (
    request: { since: string; timeoutMs: number },
    visit: (record: R) => void,
  ): Promise<{
    serverTime: number | null;
  }>;
}

export interface Stream<R> extends RecordShape<R> {
  /** The stream whose memory the polls share (never per Zap): what is polled and with which filter. */
  key: string;
  /** `dedupe`: a Zap is being turned on (ids only, over the widest window). `poll`: a scheduled poll. */
  kind: SinceKind;
  read: WindowRead<R>;
  timings?: PollTimings;
  clock?: Clock;
  /**
   * When the invocation started, on `clock`: the poll's one deadline (Zapier's 30 s less a margin) counts
   * from here, so that what ran before `readNew` (the event's lookup) counts too. Now, by default.
   */
  started?: number;
}

/**
 * The key of the lease a scheduled poll of `streamKey` holds while it runs (`oneAtATime`). Its stored name
 * (`:turn`) is older than the room's terms and stays: polls of two versions of the app then still wait for
 * each other.
 */
export const pollLeaseKey = (streamKey: string): string => `${streamKey}:turn`;

/** One poll: open, read the window, build the answer, remember the poll. */
const pollOnce = async <R extends { createdAt: string }, A>(
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  stream: Stream<R>,
  answer: (records: R[]) => Promise<A>,
  run: { timings: PollTimings; clock: Clock; started: number },
): Promise<A> => {
  const poll = await openPoll(z, bundle, {
    key: stream.key,
    kind: stream.kind,
    timings: run.timings,
    clock: run.clock,
    runStarted: run.started,
  });
  // Too little of the run left for a read: the poll gives up cleanly, before Zapier stops it. It records
  // nothing (its window stays for the next polls) and answers nothing new.
  if (poll.timeoutMs < run.timings.minRequestTimeoutMs) {
    await giveUp(poll);
    return answer([]);
  }
  const window = new PollWindow<R>(poll, stream);
  const read = await pollRequest(
    poll,
    stream.read({ since: poll.since, timeoutMs: poll.timeoutMs }, window.visit),
  );
  const selection = window.select(read.serverTime);
  const built = await answer(selection.records);
  await closePoll(poll, selection);
  return built;
};

/**
 * Reads what is new for `stream` and builds the answer from it with `answer` (the records newest first); the
 * poll is remembered only once the answer is built (see the module comment for the steps).
 */
export const readNew = async <R extends { createdAt: string }, A>(
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  stream: Stream<R>,
  answer: (records: R[]) => Promise<A>,
): Promise<A> => {
  const timings = stream.timings ?? POLL_TIMINGS;
  const clock = stream.clock ?? systemClock;
  const run = { timings, clock, started: stream.started ?? clock.now() };
  const once = () => pollOnce(z, bundle, stream, answer, run);
  // A Zap being turned on records nothing: it has no one to wait for.
  if (stream.kind === 'dedupe') return once();
  const cache = accountCache(z, bundle, () => clock.now());
  // The wait for the lease leaves the shortest read its time before the deadline.
  const left = run.started + runLimitOf(timings) - timings.requestMarginMs - clock.now();
  const waitMs = Math.max(0, Math.min(timings.lease.waitMs, left - timings.minRequestTimeoutMs));
  const lease = { ...timings.lease, waitMs };
  const outcome = await oneAtATime<A>(cache, pollLeaseKey(stream.key), lease, clock, {
    // Each poll answers its own Zap: it waits for the poll before it to end, never for its answer.
    ready: async () => undefined,
    work: once,
  });
  return outcome.by === 'waited' ? once() : outcome.value;
};
