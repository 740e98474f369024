/**
 * The polling room: "what is new for this stream, for every Zap of it", for polling triggers whose endpoint
 * takes only `since`. A trigger gives a stream (its key, how to read a window, how to tell records apart
 * and size them) and how to build its answer; `readNew` does the rest.
 *
 * Zapier cannot tell apart the Zaps of an account that poll the same event with the same inputs: they share
 * one stream and its memory in `z.cache`; nothing in it is per Zap. Zapier drops the items a Zap already
 * had (by `id`), so returning a record again costs a Zap nothing but answer bytes. So a record stays in the
 * answers until every Zap polling on time has had it. One poll, in order:
 *
 * 1. The deadline. Zapier stops a run at 30 s; the poll's one deadline (that less a margin) counts from the
 *    invocation's start (`Stream.started`), so the event's lookup before it, the wait below and the read
 *    share it. A poll left without time for a read gives up cleanly: it records nothing, answers nothing
 *    new, and its window stays for the next polls.
 * 2. The turn. Polls of a stream take turns (`oneAtATime`): one that finds another under way waits (a few
 *    seconds at most, within the deadline), then reads only what that one left; past the wait it reads
 *    alone, which stays correct (every write below is merged or true on its own), only dearer.
 * 3. Open (cursor.ts): read the stream's small state (checkpoints: "a poll answered at t and every record up
 *    to position p was visible then and returned"), the kept entry (kept.ts: the records polls returned
 *    lately, compressed, up to a settled position) and the owed index (owed.ts). Plan the window: after
 *    the kept entry's settled position when there is one, else after a checkpoint old enough that every
 *    Zap on time polled since, else the last 80 minutes (a poll with no memory returns the newest records).
 * 4. Read (window.ts): one request, `since` the window's start (earlier when an owed share must be read
 *    again, below); records stream by and only what the answer can carry is held.
 * 5. Answer, within 6 MiB less a margin (UTF-8 bytes of the items), in this order: the records no poll
 *    returned yet (oldest first: a backlog drains in order); the kept records some Zap on time may lack
 *    (returned less than 50 minutes ago, or in a rush not drained yet); the owed shares whose turn it is,
 *    each whole; the older kept records (for a Zap Zapier held up to 2 hours).
 * 6. Close (cursor.ts), once the answer is built: add a checkpoint; write the kept entry (a piece of its
 *    tail, or the whole now and then). What the kept entry lets go of while some Zap may still lack it
 *    (more than half an answer of such records, or over its 1 MB cap) becomes owed shares: records under
 *    keys of their own, in answer-sized parts, each returned whole by every poll for 20 minutes (a Zap's
 *    longest interval and jitter) before it is done, so each Zap polling on time had it. A share whose key
 *    the cache lost (evicted, cut short, another write) is read again from the service at its turn.
 *
 * A failed read throws unchanged and leaves a floor: for an hour, every poll of the stream asks from where
 * the failed one did, so the Zap whose poll failed finds what it missed; the owed shares start their turns
 * again. Losing any one key of the stream costs bytes, never a registration: the state and the owed index
 * are kept twice (the state holds a copy of the index), a lost kept entry makes the next poll read from a
 * checkpoint and owe what it could not return again, a lost share is read again from the service.
 *
 * The figures (50 minutes, 150, 80, 20, the caps) are computed from a few facts about Zapier and the
 * service in timings.ts.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { type Clock, accountCache, oneAtATime, systemClock } from '../memory';
import { closePoll, giveUp, openPoll, pollRequest } from './cursor';
import type { SinceKind } from './state';
import { POLL_TIMINGS, type PollTimings } from './timings';
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
  // The wait for the turn leaves the shortest read its time before the deadline.
  const left = run.started + timings.runLimitMs - timings.requestMarginMs - clock.now();
  const waitMs = Math.max(0, Math.min(timings.turn.waitMs, left - timings.minRequestTimeoutMs));
  const turn = await oneAtATime<A>(cache, `${stream.key}:turn`, { ...timings.turn, waitMs }, clock, {
    // Each poll answers its own Zap: it waits for the poll before it to end, never for its answer.
    ready: async () => undefined,
    work: once,
  });
  return turn.by === 'waited' ? once() : turn.value;
};
