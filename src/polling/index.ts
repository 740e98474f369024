/**
 * The polling room: "what is new for this stream", for polling triggers whose endpoint takes only `since`.
 * A trigger says how to read a window, how to identify and size a record, and how to build its answer from
 * the records; `readNew` does the rest (the cursor, the kept records, the answer budget): see cursor.ts.
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
 * poll is remembered only once the answer is built. A failed read leaves its window for the stream's next
 * polls and throws unchanged.
 *
 * The scheduled polls of one stream (its Zaps share it) take turns (`oneAtATime`): a poll that starts while
 * another is under way waits for it a bounded while, then reads only what that one left after its kept
 * records, instead of the same window again. Past the bound, or when the cache fails, it reads alone:
 * concurrent polls stay correct (see cursor.ts), they only cost more.
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
