/**
 * The polling room: "what is new for this stream", for polling triggers whose endpoint takes only `since`.
 * A trigger says how to read a window, how to identify and size a record, and how to build its answer from
 * the records; `readNew` does the rest (the cursor, the kept records, the answer budget): see cursor.ts.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import type { Clock } from '../memory';
import { closePoll, openPoll, pollRequest } from './cursor';
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
}

/**
 * Reads what is new for `stream` and builds the answer from it with `answer` (the records newest first); the
 * poll is remembered only once the answer is built. A failed read leaves its window for the stream's next
 * polls and throws unchanged.
 */
export const readNew = async <R extends { createdAt: string }, A>(
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  stream: Stream<R>,
  answer: (records: R[]) => Promise<A>,
): Promise<A> => {
  const timings = stream.timings ?? POLL_TIMINGS;
  const poll = await openPoll(z, bundle, {
    key: stream.key,
    kind: stream.kind,
    timings,
    clock: stream.clock,
  });
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
