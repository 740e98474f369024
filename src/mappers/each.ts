/**
 * Records become Zap items one by one: one record that throws while it is mapped (a value no mapper foresaw)
 * is skipped with a log line naming it, by the odd-record rule of the contract (§1), and its siblings are
 * all kept. Never a failed list for one record.
 */
import { type LogLine, recordFailures, recordLog } from '../connect';

export interface EachRule<R> {
  /** The record in a user's words: "registration". */
  noun: string;
  /** What was read, for the log line: "the registrations of this event". */
  what: string;
  /** The record's identifier, to name it in the log line. */
  idOf: (record: R) => unknown;
  /** Where the line goes (`z.console.log`). */
  log: LogLine;
}

/**
 * `map` applied to each record on its own; a record it throws on is left out, with a log line. When it throws
 * on most records (`isSystemic`), the fault is the app's: the first error is thrown, so nothing is lost.
 */
export const mapEach = <R, I>(records: readonly R[], rule: EachRule<R>, map: (record: R) => I): I[] => {
  const log = recordLog(rule.log, rule.what);
  const failures = recordFailures(log, rule.noun, 'turned into a Zap item');
  const items: I[] = [];
  records.forEach((record, position) => {
    try {
      items.push(map(record));
    } catch (error) {
      let id: unknown = null;
      try {
        id = rule.idOf(record);
      } catch {
        // a record so odd that even its id cannot be read: named by its position
      }
      failures.skip(error, position, id);
    }
  });
  log.close();
  failures.done(items.length);
  return items;
};

/** Zapier stashes an answer of 6 MiB or more (`JSON.stringify` of the result, UTF-8 bytes). */
export const ANSWER_LIMIT_BYTES = 6 * 1024 * 1024;
/** Kept below the limit: the brackets and what the sizing of an item could miss. */
export const ANSWER_MARGIN_BYTES = 8 * 1024;
/** What one answer's items may add up to (the polling room's budget too), under Zapier's 6 MiB. */
export const ANSWER_BUDGET_BYTES = ANSWER_LIMIT_BYTES - ANSWER_MARGIN_BYTES;

/**
 * The first `items` (newest first) whose JSON fits in one answer (`ANSWER_BUDGET_BYTES`, UTF-8, each item and
 * its comma): the newest are kept, and what does not fit is dropped with a log line (a poll sees those again
 * while they are among the newest the service lists).
 */
export const withinAnswer = <I>(items: I[], noun: string, log: LogLine): I[] => {
  let bytes = 2;
  for (let i = 0; i < items.length; i++) {
    bytes += Buffer.byteLength(JSON.stringify(items[i])) + 1;
    if (bytes > ANSWER_BUDGET_BYTES) {
      log(
        `Only the ${i} newest of ${items.length} ${noun}s fit in one answer of Zapier's (${ANSWER_BUDGET_BYTES} bytes); the ${items.length - i} older ones were left out of this one.`,
      );
      return items.slice(0, i);
    }
  }
  return items;
};
