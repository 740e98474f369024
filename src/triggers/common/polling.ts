/**
 * The one helper of polling triggers: what kind of poll Zapier is making, and how records become its answer
 * (3 for the editor's samples, only ids when a Zap is being turned on, every item through the noun's
 * mapper). Records arrive newest first with one per id, as the connect list functions return them. The
 * status filter input is in src/fields/status.ts.
 */
import type { Bundle } from 'zapier-platform-core';
import type { LogLine } from '../../connect';
import { mapEach } from '../../mappers/each';
import { POLL_TIMINGS } from '../../polling';

/** The editor shows 3 samples; a sample poll never needs more. */
export const SAMPLE_SIZE = 3;
/** Zapier's dedupe table holds 105,000 ids per Zap; a Zap being turned on is given at most this many. */
export const MAX_DEDUPE_ITEMS = POLL_TIMINGS.maxDedupeItems;

/**
 * `sample`: the editor's test (3 items). `dedupe`: a Zap is being turned on and Zapier only records the ids.
 * `poll`: a scheduled poll whose new items run the Zap.
 */
export type PollKind = 'sample' | 'dedupe' | 'poll';

export const pollKind = (bundle: Pick<Bundle, 'meta'>): PollKind =>
  bundle.meta?.isLoadingSample ? 'sample' : bundle.meta?.isPopulatingDedupe ? 'dedupe' : 'poll';

/** How the records of one trigger become Zap items: the id Zapier dedupes on, and the noun's mapper. */
export interface Presenter<R, I extends { id: string }> {
  /** Must equal `toItem(record).id`: a dedupe poll answers with this id alone. */
  idOf: (record: R) => string;
  toItem: (record: R) => I;
  /** The record in a user's words, for the line of a record that cannot be mapped ("registration"). */
  noun?: string;
}

/**
 * Zapier's answer for a poll, in the order of `records` (newest first, one per id: see `newestFirst`). A
 * sample poll gets the 3 newest; a dedupe poll gets every id (the dedupe only reads `id`, so the items are
 * `{ id }` and a whole day of registrations stays far below Zapier's 20 MB); a scheduled poll gets every
 * record it was given, mapped. Which records a poll returns (and how many) is the caller's decision.
 * Each record is mapped on its own: one that throws is left out with a line in `log`, never failing the poll.
 */
export const present = <R, I extends { id: string }>(
  bundle: Pick<Bundle, 'meta'>,
  records: R[],
  presenter: Presenter<R, I>,
  log: LogLine = () => undefined,
): Array<I | { id: string }> => {
  const rule = { noun: presenter.noun ?? 'record', what: 'this poll', idOf: presenter.idOf, log };
  switch (pollKind(bundle)) {
    case 'sample':
      return mapEach(records.slice(0, SAMPLE_SIZE), rule, presenter.toItem);
    case 'dedupe':
      return mapEach(records.slice(0, MAX_DEDUPE_ITEMS), rule, (record) => ({ id: presenter.idOf(record) }));
    default:
      return mapEach(records, rule, presenter.toItem);
  }
};
