/**
 * Reading list answers (`{ "data": [ … ] }`, contract §1) record by record, with the odd-record rule
 * (`records.ts`) applied to each record. Two ways in, with the same result for the same body:
 *
 * - `listReader`: bytes as they arrive (a large answer read as a stream); only the record being read is
 *   held, and each usable record is handed to `visit` at once;
 * - `readListText`: a body already in memory (small lists), parsed by `JSON.parse`.
 *
 * `visit` gets each usable record with its position in the answer. A read that fails (broken, cut or
 * wrongly shaped answer) throws `ListReadError` after some records may have been visited: whatever a visitor
 * gathered must then be dropped, never used as a (shorter) list.
 */
import type { z } from 'zod';
import { parseJsonSafely } from './json';
import { EnvelopeSplitter, type EnvelopeSummary, ListReadError, type SplitterOptions } from './listSplitter';
import { type ObjectSchema, type RecordLog, type RecordRule, keepRecord } from './records';

export type Visit<T> = (record: T, position: number) => void;

export interface ListRead {
  /** The envelope's members other than `data` (`page`, `total`, …). */
  fields: Record<string, unknown>;
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

/** A reader that checks each record of the answer against `rule` and visits the usable ones. */
export const listReader = <S extends ObjectSchema>(
  rule: RecordRule<S>,
  visit: Visit<z.infer<S>>,
  log: RecordLog,
  options?: SplitterOptions,
): ListReader => {
  let kept = 0;
  const splitter = new EnvelopeSplitter((value, position) => {
    const record = keepRecord(rule, value, position, log);
    if (record !== null) {
      kept++;
      visit(record, position);
    }
  }, options);
  return {
    write: (chunk) => splitter.write(chunk),
    end: () => {
      const summary: EnvelopeSummary = splitter.end();
      log.close();
      return {
        fields: summary.fields,
        items: summary.records,
        kept,
        bytes: summary.bytes,
        droppedKeys: summary.droppedKeys,
      };
    },
    stop: () => {
      const summary: EnvelopeSummary = splitter.progress();
      log.close();
      return {
        fields: summary.fields,
        items: summary.records,
        kept,
        bytes: summary.bytes,
        droppedKeys: summary.droppedKeys,
      };
    },
    headText: () => splitter.headText(),
  };
};

const NEAR = 80;

/** The same reading as `listReader`, of a whole body in memory. */
export const readListText = <S extends ObjectSchema>(
  text: string,
  rule: RecordRule<S>,
  visit: Visit<z.infer<S>>,
  log: RecordLog,
): ListRead => {
  const head = text.slice(0, NEAR);
  const json = parseJsonSafely(text);
  if (!json.ok) {
    const trimmed = text.trimStart();
    throw trimmed.startsWith('{')
      ? new ListReadError('syntax', 'the answer is not valid JSON', 0, head)
      : new ListReadError('not-json', trimmed ? 'the answer is not JSON' : 'the answer was empty', 0, head);
  }
  const body = json.value;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    const kind = Array.isArray(body) ? 'a list' : body === null ? 'null' : `a ${typeof body}`;
    throw new ListReadError('shape', `the answer is ${kind}, not an object with a "data" list`, 0, head);
  }
  const { data, ...fields } = body as Record<string, unknown>;
  if (!('data' in body)) throw new ListReadError('shape', 'the answer has no "data" list', 0, head);
  if (!Array.isArray(data)) throw new ListReadError('shape', '"data" is not a list', 0, head);
  let kept = 0;
  data.forEach((value: unknown, position) => {
    const record = keepRecord(rule, value, position, log);
    if (record !== null) {
      kept++;
      visit(record, position);
    }
  });
  log.close();
  return { fields, items: data.length, kept, bytes: Buffer.byteLength(text), droppedKeys: json.droppedKeys };
};

/** Visits every record into an array (small lists, and tests). */
export const collect = <T>(): { items: T[]; visit: Visit<T> } => {
  const items: T[] = [];
  return { items, visit: (record) => items.push(record) };
};
