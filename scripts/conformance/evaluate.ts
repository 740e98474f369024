/**
 * Reading answers the way the app reads them: the same list reader, record rule and zod schemas
 * (`src/connect`), so a shape the kit accepts is a shape the app can use.
 */
import type { z } from 'zod';
import { ListReadError } from '../../src/connect/listSplitter';
import { collect, readListText } from '../../src/connect/lists';
import { type ObjectSchema, type RecordRule, checkRecord, recordLog } from '../../src/connect/records';
import { ErrorBody } from '../../src/connect/schemas';
import { type Answer, excerpt } from './http';
import { type Outcome, differs, holds, tolerated } from './types';

export interface ListOutcome<T> {
  outcome: Outcome;
  /** The usable records, in the answer's order (empty when the list could not be read). */
  records: T[];
  /** The envelope's members other than `data`. */
  fields: Record<string, unknown>;
  /** Whether the app can read the list at all. */
  readable: boolean;
}

/** What a non-2xx answer looked like, for details. */
export const answerText = (answer: Answer): string =>
  `HTTP ${answer.status} with ${answer.json === undefined ? excerpt(answer.text) : excerpt(answer.text, 80)}`;

/**
 * A list answer read as the app reads it. `operations` names, in a user's words, what reads this list
 * ("New Event and the Event dropdown"), for the detail when the list or some of its records cannot be read.
 */
export const readList = <S extends ObjectSchema>(
  answer: Answer,
  rule: RecordRule<S>,
  operations: string,
): ListOutcome<z.infer<S>> => {
  const failing = `${operations} would fail`;
  const none = { records: [], fields: {}, readable: false };
  const action =
    'Send this report to the service: the contract (docs/connect-contract.md §1, §3) and the app expect `{ "data": [ … ] }` with the documented records.';
  if (answer.status !== 200) {
    return { ...none, outcome: differs(`${failing}: the list answered ${answerText(answer)}.`, action) };
  }
  const lines: string[] = [];
  const log = recordLog((line) => lines.push(line), `the ${rule.noun} list`, 1);
  const { items, visit } = collect<z.infer<S>>();
  let read;
  try {
    read = readListText(answer.text, rule, visit, log);
  } catch (error) {
    const why = error instanceof ListReadError ? error.message : String(error);
    return {
      ...none,
      records: bareRecords(answer.json, rule),
      outcome: differs(`${failing}: ${why}.`, action),
    };
  }
  const { kept, skipped } = log.counts;
  const result = { records: items, fields: read.fields, readable: true };
  const first = lines[0] ? ` First: ${lines[0].replace(/^Odd record in [^:]+: /, '')}` : '';
  if (skipped > 0) {
    return {
      ...result,
      outcome: differs(
        `${skipped} of ${read.items} ${rule.noun} records lack a field the app needs and would be skipped: ${operations} would miss them.${first}`,
        action,
      ),
    };
  }
  if (kept > 0) {
    return {
      ...result,
      outcome: tolerated(
        `${kept} of ${read.items} records have an optional field outside its documented form; the app leaves that field out with a log line.${first}`,
      ),
    };
  }
  return { ...result, outcome: holds(`${read.items} records, each in the documented shape.`) };
};

/**
 * The usable records of a bare array answer: the app cannot read such a list, but the kit still uses its
 * records to choose the event the later checks need, so that each endpoint reports for itself.
 */
const bareRecords = <S extends ObjectSchema>(json: unknown, rule: RecordRule<S>): z.infer<S>[] =>
  Array.isArray(json)
    ? json.flatMap((value: unknown) => {
        const checked = checkRecord(rule, value);
        return checked.ok ? [checked.record] : [];
      })
    : [];

/** One object answer checked against `rule` as the app checks a record. */
export const readObject = <S extends ObjectSchema>(
  answer: Answer,
  rule: RecordRule<S>,
  failing: string,
): { outcome: Outcome; record: z.infer<S> | null } => {
  const action =
    'Send this report to the service: the answer does not have the shape of docs/connect-contract.md §3.';
  if (answer.status !== 200) {
    return { record: null, outcome: differs(`${failing}: it answered ${answerText(answer)}.`, action) };
  }
  if (answer.json === undefined) {
    return {
      record: null,
      outcome: differs(`${failing}: the answer is not JSON (${excerpt(answer.text)}).`, action),
    };
  }
  const checked = checkRecord(rule, answer.json);
  if (!checked.ok) {
    return { record: null, outcome: differs(`${failing}: ${checked.reason}.`, action) };
  }
  if (checked.dropped.length) {
    const fields = checked.dropped.map((d) => d.path).join(', ');
    return {
      record: checked.record,
      outcome: tolerated(
        `${checked.dropped.length} optional field(s) outside their documented form (${fields}); the app leaves them out with a log line.`,
      ),
    };
  }
  return { record: checked.record, outcome: holds('The answer has the documented shape.') };
};

export interface ErrorExpectation {
  status: number;
  code: string;
  /** What a user would see go wrong when the status is another. */
  wrongStatus: string;
  /** What a user would see go wrong when the status is right but the body has no contract error code. */
  noCode: string | null;
  /** A member of `error` the contract names for this error (`field`, `entitlement`). */
  member?: 'field' | 'entitlement';
}

/** An error answer against the contract's status, `{ error: { code, message } }` body and code. */
export const checkError = (answer: Answer, expected: ErrorExpectation): Outcome => {
  const action = `Ask the service how it answers this case: the contract (docs/connect-contract.md §2) says ${expected.status} with { "error": { "code": "${expected.code}", … } }.`;
  if (answer.status !== expected.status) {
    return differs(`${expected.wrongStatus}: it answered ${answerText(answer)}.`, action);
  }
  const body = ErrorBody.safeParse(answer.json);
  const code = body.success ? body.data.error.code : undefined;
  if (code !== expected.code) {
    const seen = body.success ? `code ${code}` : `no error code (${excerpt(answer.text)})`;
    const what = `HTTP ${answer.status} as expected, but ${seen} instead of ${expected.code}`;
    return expected.noCode
      ? differs(`${what}: ${expected.noCode}.`, action)
      : tolerated(`${what}; the app reads the status only here.`);
  }
  if (expected.member && body.success && !body.data.error[expected.member]) {
    return tolerated(
      `HTTP ${answer.status} ${code}, without error.${expected.member}; the app's message then names no ${expected.member}.`,
    );
  }
  return holds(
    `HTTP ${answer.status} with { "error": { "code": "${code}" } }${body.success && body.data.error.message ? ' and a message' : ''}.`,
  );
};
