/**
 * Reading list answers (`{ "data": [ … ] }`, contract §1, or wherever the dialect's lists hold their records) record by record, with the odd-record rule
 * (`records.ts`) applied to each record. Two ways in, with the same result for the same body:
 *
 * - `listReader`: bytes as they arrive (a large answer read as a stream); only the record being read is
 *   held, and each usable record is handed to `visit` at once;
 * - `readListText`: a body already in memory (small lists), read by the same splitter in one piece.
 *
 * `visit` gets each usable record with its position in the answer; a record `visit` throws on is skipped with a
 * log line (the odd-record rule), as one that does not match its schema. A read that fails (broken, cut or
 * wrongly shaped answer) throws `ListReadError` after some records may have been visited: whatever a visitor
 * gathered must then be dropped, never used as a (shorter) list.
 */
import type { z } from 'zod';
import {
  EnvelopeSplitter,
  type EnvelopeSummary,
  MAX_ELEMENT_BYTES,
  type SplitterOptions,
} from './listSplitter';
import { wireNameOf, wireNamesOf } from './wire';
import { type Bounds, READ_LIST_ENTRIES, READ_TEXT_BYTES, boundRecord, withCuts } from './bounds';
import { type ObjectSchema, type RecordLog, type RecordRule, keepRecord, recordFailures } from './records';

/** How a list is read: the splitter's options, and the bounds of each record (`bounds.ts`). */
export interface ReaderOptions extends SplitterOptions {
  bounds?: Bounds;
  /**
   * The answer is one object, not a list: it is read as the one record of a list, so that its long texts and
   * lists are cut while it is read, as a list's records are.
   */
  single?: boolean;
}

/** What a single object is read inside (`ReaderOptions.single`): a list that is the answer itself. */
const SINGLE_OPEN = '[';
const SINGLE_CLOSE = ']';

export type Visit<T> = (record: T, position: number) => void;

export interface ListRead {
  /** The envelope's paging members (`page`, `limit`, `total`); other members are read past, not kept. */
  fields: Record<string, unknown>;
  /** Envelope members other than `data` and the paging, read past without being held. */
  skippedMembers: number;
  /** The first few of their names, shortened, for a log line. */
  skippedNames: string[];
  /** Items in `data`, usable or not. */
  items: number;
  /** Items handed to `visit`. */
  kept: number;
  /** Bytes of the body. */
  bytes: number;
  /** `"__proto__"` keys dropped from the records (only own fields are read). */
  droppedKeys: number;
}

export interface ListReader {
  write(chunk: Uint8Array | string): void;
  /** Ends the read: throws `ListReadError` when the answer was not complete, or not a list. */
  end(): ListRead;
  /** Ends a read stopped on purpose (the rest of the body is not wanted): what was read until then. */
  stop(): ListRead;
  /** The first bytes of the body, for messages. */
  headText(): string;
}

const sizeText = (bytes: number): string =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;

/**
 * The identifier `"<idKey>": "<id>"` near the start of a record's text (a record too large to read), or
 * `null`. Found with `indexOf`, no pattern; an escaped or overlong id is not read.
 */
export const idNearStart = (head: string, idKey: string): string | null => {
  const name = `"${idKey}"`;
  let at = head.indexOf(name);
  while (at >= 0) {
    let i = at + name.length;
    while (head[i] === ' ' || head[i] === '\n' || head[i] === '\r' || head[i] === '\t') i++;
    if (head[i] === ':') {
      i++;
      while (head[i] === ' ' || head[i] === '\n' || head[i] === '\r' || head[i] === '\t') i++;
      if (head[i] !== '"') return null;
      const end = head.indexOf('"', i + 1);
      const id = end < 0 ? '' : head.slice(i + 1, end);
      return id && end - i <= 200 && !id.includes('\\') ? id : null;
    }
    at = head.indexOf(name, at + 1);
  }
  return null;
};

/**
 * Thrown by a visitor to end a read on purpose (`stopWhen`: the lookup has what it needs). It passes through
 * the reader, unlike an error of one record, which only skips that record.
 */
export const STOP_READING: unique symbol = Symbol('stop reading');

/** A reader that checks each record of the answer against `rule` and visits the usable ones. */
export const listReader = <S extends ObjectSchema>(
  rule: RecordRule<S>,
  visit: Visit<z.infer<S>>,
  log: RecordLog,
  options?: ReaderOptions,
): ListReader => {
  let kept = 0;
  // What an operation does with one record (keep it, compute its sort key) must not fail the list.
  const failures = recordFailures(log, rule.noun, 'read');
  const splitter = new EnvelopeSplitter(
    (value, position, pruned, oversize) => {
      if (oversize) {
        const limit = sizeText(options?.maxElementBytes ?? MAX_ELEMENT_BYTES);
        const reason = `it is ${sizeText(oversize.bytes)}, more than the ${limit} a record may be, so it was not read`;
        log.skipped(
          rule.noun,
          position,
          idNearStart(oversize.head, wireNameOf(wireNamesOf(rule.schema) ?? {}, rule.idKey)),
          reason,
        );
        return;
      }
      // Cut to the bounds before anything else reads it: no text or list of any size goes further whole.
      const bounded = boundRecord(value, options?.bounds);
      const record = withCuts(keepRecord(rule, bounded.value, position, log, pruned), bounded.cuts);
      if (record === null) return;
      try {
        visit(record, position);
        kept++;
      } catch (error) {
        if (error === STOP_READING) {
          kept++;
          throw error;
        }
        failures.skip(error, position, (record as Record<string, unknown>)[rule.idKey]);
      }
    },
    {
      maxStringBytes: READ_TEXT_BYTES,
      maxListEntries: READ_LIST_ENTRIES,
      ...options,
      ...(options?.single ? { listKey: '' } : {}),
    },
  );
  const read = (summary: EnvelopeSummary): ListRead => {
    log.close();
    return {
      fields: summary.fields,
      skippedMembers: summary.skippedMembers,
      skippedNames: summary.skippedNames,
      items: summary.records,
      kept,
      bytes: summary.bytes,
      droppedKeys: summary.droppedKeys,
    };
  };
  if (options?.single) splitter.write(SINGLE_OPEN);
  const opened = options?.single ? SINGLE_OPEN.length : 0;
  return {
    write: (chunk) => splitter.write(chunk),
    end: () => {
      if (options?.single) splitter.write(SINGLE_CLOSE);
      const result = read(splitter.end());
      // Most records failing is the app's fault, not theirs: the read fails rather than losing them all.
      failures.done(kept);
      return result;
    },
    stop: () => read(splitter.progress()),
    headText: () => splitter.headText().slice(opened),
  };
};

/** The same reading as `listReader`, of a whole body in memory: same records, same log lines, same errors. */
export const readListText = <S extends ObjectSchema>(
  text: string,
  rule: RecordRule<S>,
  visit: Visit<z.infer<S>>,
  log: RecordLog,
  options?: ReaderOptions,
): ListRead => {
  const reader = listReader(rule, visit, log, options);
  reader.write(text);
  return reader.end();
};

/** Visits every record into an array (small lists, and tests). */
export const collect = <T>(): { items: T[]; visit: Visit<T> } => {
  const items: T[] = [];
  return { items, visit: (record) => items.push(record) };
};
