/**
 * Reading answers the way the app reads them: the same list reader and record rule (`src/connect/lists.ts`,
 * `records.ts`), the same object reading and error translation (`app.ts`), so a shape the kit accepts is a
 * shape the app can use, and a change taught to the app is taught to the kit. Where the app cannot read an
 * answer, the details say what the answer holds instead (`shape.ts`).
 */
import type { z } from 'zod';
import { DIALECT, type ErrorReading, contractCodeOf } from '../../src/connect/testing';
import { ListReadError } from '../../src/connect/listSplitter';
import { collect, readListText } from '../../src/connect/lists';
import { type ObjectSchema, type RecordRule, checkRecord, recordLog } from '../../src/connect/records';
import { appError, appObject } from './app';
import { type Answer, type Paged, type Seen, excerpt } from './http';
import type { Blank } from './secret';
import {
  alternativeList,
  counterpartPairs,
  envelopeWords,
  errorBodyWords,
  keysWords,
  pagingWords,
  pairWords,
} from './shape';
import { type Outcome, differs, holds, tolerated, unchecked } from './types';

export interface ListOutcome<T> {
  outcome: Outcome;
  /**
   * The usable records, in the answer's order: those of `data`, or, when the app cannot read the list,
   * those the kit found elsewhere in the answer (`via`), read by the same record rule.
   */
  records: T[];
  /** The envelope's paging members (`page`, `limit`, `total`), as the app keeps them. */
  fields: Record<string, unknown>;
  /** Whether the app can read the list at all. */
  readable: boolean;
  /** Items of the list the records come from, usable or not. */
  items: number;
  /** Where the records come from when the app cannot read the list (`under "items"`), else null. */
  via: string | null;
  /** Why no record can be used by the checks that need some, in words; null when records could be used. */
  unusable: string | null;
  /** The items of the list the records come from, as answered (usable or not). */
  raw: () => unknown[];
  /** For a list read page by page: its pages, and why the kit read only part of it (`Paged.cut`). */
  paged: Paged | null;
}

/**
 * An outcome over a list the kit may have read only in part: "holds" and "tolerated" need every page of it,
 * so over a list cut short they become "unchecked", saying how far the kit read and why it stopped.
 */
export const overWholeList = (outcome: Outcome, paged: Paged | null): Outcome =>
  paged?.cut && (outcome.status === 'holds' || outcome.status === 'tolerated')
    ? unchecked(
        `${outcome.detail} But the kit read only ${paged.pages} page${paged.pages === 1 ? '' : 's'} of this list (${paged.cut}), so it cannot tell for the whole list.`,
      )
    : outcome;

/** The words of a list read whole over several pages, for a detail ("" for one page). */
export const pagesWords = (paged: Paged | null): string =>
  paged && !paged.cut && paged.pages > 1
    ? ` The kit read all ${paged.pages} pages of the list, following them as the app does.`
    : '';

const isSuccess = (status: number): boolean => status >= 200 && status <= 299;

/** What a non-2xx answer looked like, for details (its beginning, the key blanked before it was cut). */
export const answerText = (answer: Pick<Seen, 'status' | 'shown'>): string =>
  `HTTP ${answer.status} with ${excerpt(answer, 80)}`;

/** Why a list answer gave nothing to count, as a predicate ("answered HTTP 500"), for the choice of an event. */
export const unlisted = (answer: Pick<Seen, 'status'>): string =>
  isSuccess(answer.status) ? 'answered a list the app cannot read' : `answered HTTP ${answer.status}`;

const LIST_ACTION =
  'Send this report to the service: the contract (docs/connect-contract.md §1, §3) and the app expect `{ "data": [ … ] }` with the documented records. If the service documents this shape, teach it to the app (src/connect) and the contract together.';

interface RecordsRead<T> {
  records: T[];
  items: number;
  kept: number;
  skipped: number;
  first: string;
  fields: Record<string, unknown>;
  skippedNames: string[];
}

/** The app's list reader over a body (throws `ListReadError` as the app's read would fail). */
const readRecords = <S extends ObjectSchema>(text: string, rule: RecordRule<S>): RecordsRead<z.infer<S>> => {
  const lines: string[] = [];
  const log = recordLog((line) => lines.push(line), `the ${rule.noun} list`, 1);
  const { items, visit } = collect<z.infer<S>>();
  const read = readListText(text, rule, visit, log);
  return {
    records: items,
    items: read.items,
    ...log.counts,
    first: lines[0] ? lines[0].replace(/^Odd record in [^:]+: /, '') : '',
    fields: read.fields,
    skippedNames: read.skippedNames,
  };
};

/**
 * The records' verdict: some skipped (the app needs a field they lack), documented names missing where a
 * counterpart stands (the app would leave those fields empty), odd optional fields, or the documented shape.
 * `raw` gives the items as answered, for the counterparts of skipped records.
 */
const recordsOutcome = <S extends ObjectSchema>(
  read: RecordsRead<z.infer<S>>,
  rule: RecordRule<S>,
  operations: string,
  raw: () => unknown[],
  blank: Blank,
): Outcome => {
  const expected = Object.keys(rule.schema.shape);
  const first = read.first ? ` First: ${read.first}` : '';
  if (read.skipped > 0) {
    const pairs = counterpartPairs(raw(), expected, rule.idKey);
    const instead = pairs.length
      ? ` The records carry ${pairWords(pairs, blank)}: likely the same fields under other names.`
      : '';
    const skipped = raw().find((item) => !checkRecord(rule, item).ok);
    const keys = skipped === undefined ? '' : ` The first skipped record has ${keysWords(skipped, blank)}.`;
    return differs(
      `${read.skipped} of ${read.items} ${rule.noun} records lack a field the app needs and would be skipped: ${operations} would miss them.${first}${instead}${keys}`,
      LIST_ACTION,
    );
  }
  const pairs = counterpartPairs(read.records, expected, rule.idKey);
  if (pairs.length) {
    return differs(
      `The ${rule.noun} records carry ${pairWords(pairs, blank)}, where the app reads only the documented names: ${operations} would leave those fields empty.`,
      LIST_ACTION,
    );
  }
  if (read.kept > 0) {
    return tolerated(
      `${read.kept} of ${read.items} records have an optional field outside its documented form; the app leaves that field out with a log line.${first}`,
    );
  }
  return holds(`${read.items} record${read.items === 1 ? '' : 's'}, each in the documented shape.`);
};

/** The envelope's members besides the list: paging the app does not follow makes the list differ. */
const withPaging = (outcome: Outcome, json: () => unknown, names: string[], blank: Blank): Outcome => {
  if (!names.length) return outcome;
  const envelope = json();
  const paging =
    typeof envelope === 'object' && envelope !== null && !Array.isArray(envelope)
      ? pagingWords(envelope as Record<string, unknown>, blank)
      : null;
  if (!paging) return outcome;
  if (paging.more) return differs(`${outcome.detail} ${paging.words}`, LIST_ACTION);
  return { ...outcome, detail: `${outcome.detail} ${paging.words}` };
};

/**
 * A list answer read as the app reads it. `operations` names, in a user's words, what reads this list
 * ("New Event and the Event dropdown"), for the detail when the list or some of its records cannot be read.
 */
export const readList = <S extends ObjectSchema>(
  answer: Answer,
  rule: RecordRule<S>,
  operations: string,
): ListOutcome<z.infer<S>> => {
  const blank = answer.blank;
  const failing = `${operations} would fail`;
  const none = {
    records: [],
    fields: {},
    readable: false,
    items: 0,
    via: null,
    raw: () => [],
    paged: answer.paged,
  };
  if (!isSuccess(answer.status)) {
    const said = appError(answer, `the ${rule.noun} list`).message;
    return {
      ...none,
      unusable: `the list answered HTTP ${answer.status}`,
      outcome: differs(
        `${failing}: the list answered ${answerText(answer)}. The app would say: ${quote(said, blank)}`,
        LIST_ACTION,
      ),
    };
  }
  let read: RecordsRead<z.infer<S>>;
  try {
    read = readRecords(answer.text, rule);
  } catch (error) {
    if (!(error instanceof ListReadError)) throw error;
    return unreadableList(answer, rule, operations, error);
  }
  const rawItems = () => {
    const json = answer.json as Record<string, unknown> | undefined;
    const items = json?.[DIALECT.list.member];
    return Array.isArray(items) ? items : [];
  };
  const outcome = withPaging(
    recordsOutcome(read, rule, operations, rawItems, blank),
    () => answer.json,
    read.skippedNames,
    blank,
  );
  const whole = { ...outcome, detail: `${outcome.detail}${pagesWords(answer.paged)}` };
  return {
    outcome: overWholeList(whole, answer.paged),
    paged: answer.paged,
    records: read.records,
    fields: read.fields,
    readable: true,
    items: read.items,
    via: null,
    unusable:
      read.items > 0 && !read.records.length
        ? `none of its ${read.items} records is one the app can use`
        : null,
    raw: rawItems,
  };
};

/**
 * A 2xx list answer the app cannot read: what it holds instead, and the records of its other list (a bare
 * array, or the counterpart of `data`), read by the app's record rule for the checks that need records.
 */
const unreadableList = <S extends ObjectSchema>(
  answer: Answer,
  rule: RecordRule<S>,
  operations: string,
  error: ListReadError,
): ListOutcome<z.infer<S>> => {
  const blank = answer.blank;
  const failing = `${operations} would fail: ${error.message}.`;
  const json = answer.json;
  const shape =
    json === undefined ? `The answer begins ${excerpt(answer, 80)}.` : envelopeWords(json, answer, blank);
  const other = error.kind === 'shape' ? alternativeList(json) : null;
  if (!other) {
    return {
      outcome: differs(`${failing} ${shape}`, LIST_ACTION),
      records: [],
      fields: {},
      readable: false,
      items: 0,
      via: null,
      unusable: `the app cannot read the list (${error.message})`,
      raw: () => [],
      paged: answer.paged,
    };
  }
  const via = other.key === null ? 'in the bare list' : `under "${blank(other.key).slice(0, 40)}"`;
  const read = readRecords(JSON.stringify({ [DIALECT.list.member]: other.items }), rule);
  const records = recordsOutcome(read, rule, operations, () => other.items, blank);
  return {
    outcome: differs(
      `${failing} ${shape} The kit read the ${read.items} items ${via} with the app's record rule, for the checks that need records: ${records.detail}`,
      LIST_ACTION,
    ),
    records: read.records,
    fields: {},
    readable: false,
    items: read.items,
    via,
    unusable:
      read.items > 0 && !read.records.length
        ? `the app cannot read the list, and none of the ${read.items} items ${via} is a record it could use`
        : null,
    raw: () => other.items,
    paged: answer.paged,
  };
};

/** A user's message, quoted: blanked, then cut. */
const quote = (message: string, blank: Blank, max = 200): string => {
  const text = blank(message).replace(/\s+/g, ' ').trim();
  return `"${text.length > max ? `${text.slice(0, max)}…` : text}"`;
};

/** One object answer read as the app reads it (`connectRequest`: JSON, then the contract schema). */
export const readObject = <S extends ObjectSchema>(
  answer: Answer,
  rule: RecordRule<S>,
  operations: string,
): { outcome: Outcome; record: z.infer<S> | null } => {
  const blank = answer.blank;
  const failing = `${operations} would fail`;
  const action =
    'Send this report to the service: the answer does not have the shape of docs/connect-contract.md §3.';
  if (!isSuccess(answer.status)) {
    return { record: null, outcome: differs(`${failing}: it answered ${answerText(answer)}.`, action) };
  }
  const read = appObject(answer, rule.schema, `the ${rule.noun}`);
  if (read.ok) {
    const found = counterpartPairs([read.json], Object.keys(rule.schema.shape), rule.idKey);
    const outcome = found.length
      ? differs(
          `It carries ${pairWords(found, blank)}, where the app reads only the documented names: ${operations} would leave those fields empty.`,
          action,
        )
      : holds('The answer has the documented shape.');
    return { record: read.value as z.infer<S>, outcome };
  }
  const pairs = counterpartPairs([read.json], Object.keys(rule.schema.shape), rule.idKey);
  const instead = pairs.length
    ? ` It carries ${pairWords(pairs, blank)}: likely the same fields under other names.`
    : '';
  const keys = read.json === undefined ? '' : ` The answer has ${keysWords(read.json, blank)}.`;
  return {
    record: null,
    outcome: differs(`${failing}: the app would say ${quote(read.message, blank)}.${instead}${keys}`, action),
  };
};

export interface ErrorExpectation {
  status: number;
  /** What the app must read the answer to mean (`not_found`, `reconnect`): a meaning, never a wire code. */
  meaning: ErrorReading;
  /** What the answer is about, in the app's words for its messages ("the registrations of this event"). */
  what: string;
  /** What a user would see go wrong when the status is another. */
  wrongStatus: string;
  /** What a user would see go wrong when the status is right but the app finds no contract code in it. */
  noCode: string | null;
  /** A member of `error` the contract names for this error (`field`, `entitlement`). */
  member?: 'field' | 'entitlement';
}

/**
 * An error answer against the contract's status and code, read through the app's error translation: the
 * code is the one the app would act on, so a body the app is taught to read is one the kit reads.
 */
export const checkError = (answer: Answer, expected: ErrorExpectation): Outcome => {
  const blank = answer.blank;
  const code = contractCodeOf(expected.meaning) ?? expected.meaning;
  const action = `Ask the service how it answers this case: the contract (docs/connect-contract.md §2) says ${expected.status} with { "error": { "code": "${code}", … } }. If the service documents another error body, teach it to the app's error translation (src/connect/errors.ts) and the contract together.`;
  if (answer.status !== expected.status) {
    return differs(`${expected.wrongStatus}: it answered ${answerText(answer)}.`, action);
  }
  const app = appError(answer, expected.what);
  // The app acts on its own code for the contract's (REQUEST_REJECTED for VALIDATION_ERROR, …).
  if (app.meaning !== expected.meaning) {
    const body =
      answer.json === undefined ? `the body is ${excerpt(answer, 60)}` : errorBodyWords(answer.json, blank);
    const what = app.body
      ? `HTTP ${answer.status} as expected, but code ${app.body.code} (the app reads it as ${app.code}) instead of ${code}`
      : `HTTP ${answer.status} as expected, but the app finds no error code in it, where the contract has ${code}: ${body}`;
    if (!expected.noCode) return tolerated(`${what}. The app reads the status only here.`);
    return differs(`${what}. So ${expected.noCode}. The app would say: ${quote(app.message, blank)}`, action);
  }
  if (!app.body?.code) {
    const body =
      answer.json === undefined ? `the body is ${excerpt(answer, 60)}` : errorBodyWords(answer.json, blank);
    return tolerated(
      `HTTP ${answer.status} as expected, but the app finds no error code in it, where the contract has ${code}: ${body}. The app acts on the status alone here (${app.code}), as it would on ${code}.`,
    );
  }
  if (expected.member && !app.body?.[expected.member]) {
    return tolerated(
      `HTTP ${answer.status} ${app.code}, without error.${expected.member}; the app's message then names no ${expected.member}.`,
    );
  }
  // The service's own code as it sent it, then the app's reading of it where the two differ.
  const reading = app.body.code === app.code ? '' : ` (the app reads it as ${app.code})`;
  return holds(
    `HTTP ${answer.status} with { "error": { "code": "${app.body.code}" } }${reading}${app.body?.message ? ' and a message' : ''}.`,
  );
};
