/**
 * Records become Zap items one by one: one record that throws while it is mapped (a value no mapper foresaw)
 * is skipped with a log line naming it, by the odd-record rule of the contract (§1), and its siblings are
 * all kept. Never a failed list for one record.
 */
import { type LogLine, isSystemic, recordLog } from '../connect';

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

const idText = (id: unknown): string | null =>
  typeof id === 'string' && id ? (id.length > 80 ? `${id.slice(0, 80)}…` : id) : null;

/**
 * `map` applied to each record on its own; a record it throws on is left out, with a log line. When it throws
 * on most records (`isSystemic`), the fault is the app's: the first error is thrown, so nothing is lost.
 */
export const mapEach = <R, I>(records: readonly R[], rule: EachRule<R>, map: (record: R) => I): I[] => {
  const log = recordLog(rule.log, rule.what);
  const items: I[] = [];
  let failed = 0;
  let firstError: unknown = null;
  records.forEach((record, position) => {
    try {
      items.push(map(record));
    } catch (error) {
      failed++;
      firstError ??= error;
      let id: string | null = null;
      try {
        id = idText(rule.idOf(record));
      } catch {
        id = null;
      }
      // The error's kind only: its message may quote a value, and values are personal data.
      const kind = error instanceof Error ? error.name : typeof error;
      log.skipped(rule.noun, position, id, `it could not be turned into a Zap item (${kind})`);
    }
  });
  log.close();
  if (isSystemic(failed, items.length)) throw firstError;
  return items;
};
