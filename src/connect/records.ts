/**
 * The odd-record rule of the contract (§1), for every record the app reads: list items, and later webhook
 * deliveries. One record is checked against its schema on its own, so one bad record never fails a list:
 *
 * - a known optional field holding a value outside its documented form (`approvedAt: ""`, a number where
 *   text is documented) is treated as absent: the record is kept without that field, and a log line says so;
 * - an element of an optional list field (an answer, a booth, an order line) is checked the same way, one
 *   level down: its odd optional fields are dropped, and an element whose own required fields are unusable
 *   is dropped from the list, never the whole record;
 * - a record whose identifier, `createdAt` or another required field is missing or unusable, or that is
 *   not an object at all, is skipped with a log line, and the rest of the list is kept;
 * - a part of a record nested deeper than `MAX_JSON_DEPTH` is a field that cannot be read: left out and
 *   named (`keepRecord`'s `pruned`); a record too large to read, or one the app's own handling throws on, is
 *   skipped with a log line (unless most records fail: see `SYSTEMIC_FAILURES`).
 *
 * Log lines name the record (its identifier or position) and the field, never its value: values are
 * personal data and may hold anything.
 */
import type { z } from 'zod';
import { MAX_JSON_DEPTH, valueKind } from './json';
import {
  AgendaSession,
  Booth,
  type ContractSchema,
  Event,
  EventWidget,
  FloorPlan,
  Order,
  Submission,
  SubmissionKey,
  SubmissionPerson,
} from './schemas';
import { readerOf } from './wire';

export type ObjectSchema = z.ZodObject<z.ZodRawShape>;

export interface RecordRule<S extends ObjectSchema> {
  /** The noun, in a user's words, for log lines: "registration". */
  noun: string;
  schema: S;
  /** The identifier's key ("submissionId"), to name a record in log lines. */
  idKey: string;
}

export const SUBMISSION_RULE = { noun: 'registration', schema: Submission, idKey: 'submissionId' };
/** Only the keys of a registration: other fields are not read, so they cannot be odd. */
export const SUBMISSION_KEY_RULE = { noun: 'registration', schema: SubmissionKey, idKey: 'submissionId' };
/** Only who registered (the attendee behind an order). */
export const SUBMISSION_PERSON_RULE = {
  noun: 'registration',
  schema: SubmissionPerson,
  idKey: 'submissionId',
};
export const ORDER_RULE = { noun: 'order', schema: Order, idKey: 'id' };
export const EVENT_RULE = { noun: 'event', schema: Event, idKey: 'id' };
/** An event's public page (its widget), read as a stream (`getEventWidget`). */
export const EVENT_WIDGET_RULE = { noun: 'event page', schema: EventWidget, idKey: 'id' };
export const FLOOR_PLAN_RULE = { noun: 'floor plan', schema: FloorPlan, idKey: 'id' };
/** One booth of a floor plan read as a stream (`getFloorPlan`). */
export const BOOTH_RULE = { noun: 'booth', schema: Booth, idKey: 'id' };
/** One session of an agenda read as a stream (`getAgenda`). */
export const SESSION_RULE = { noun: 'session', schema: AgendaSession, idKey: 'id' };

/**
 * How the record of one noun is read (its wire table, its schema, its identifier), for code outside
 * src/connect that hands one on to be read (a webhook delivery's data): an opaque handle, not a wire shape.
 */
export interface RecordReading<T> {
  readonly schema: ContractSchema<T>;
  readonly idKey: string;
}
export const registrationReading: RecordReading<Submission> = SUBMISSION_RULE;
export const orderReading: RecordReading<Order> = ORDER_RULE;
export const eventReading: RecordReading<Event> = EVENT_RULE;

export interface OddField {
  /** Where the value was: `approvedAt`, `answers[3]`, `answers[2].label`. */
  path: string;
  /** What was wrong with it, from the schema (never the value). */
  problem: string;
}

export type RecordCheck<T> =
  | { ok: true; record: T; dropped: OddField[] }
  | { ok: false; id: string | null; reason: string };

interface Def {
  type: string;
  innerType?: z.ZodType;
  element?: z.ZodType;
  shape?: z.ZodRawShape;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { def: Def }).def;

/** Accepts an absent value (optional, or with a default). */
const allowsAbsent = (schema: z.ZodType): boolean => schema.safeParse(undefined).success;

/** The object schema of the elements of a list field (`answers`), if the field is a list of objects. */
const elementObjectOf = (schema: z.ZodType): ObjectSchema | null => {
  let current: z.ZodType | undefined = schema;
  for (let guard = 0; current && guard < 8; guard++) {
    const def = defOf(current);
    if (def.type === 'array') {
      const element = def.element;
      return element && defOf(element).type === 'object' ? (element as ObjectSchema) : null;
    }
    if (def.type !== 'optional' && def.type !== 'nullable' && def.type !== 'default') return null;
    current = def.innerType;
  }
  return null;
};

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const firstMessages = (issues: z.core.$ZodIssue[]): string =>
  [...new Set(issues.map((issue) => issue.message))].slice(0, 2).join('; ');

interface Repaired {
  value: Record<string, unknown> | null;
  dropped: OddField[];
  /** Why the object is unusable, when `value` is null. */
  reason?: string;
}

/**
 * Drops what the odd-record rule allows to drop from `value` until it passes `schema`; `value: null` when a
 * required field is unusable. `value` itself is not changed.
 */
const repair = (
  schema: ObjectSchema,
  value: Record<string, unknown>,
  where: string,
  depth: number,
): Repaired => {
  const first = schema.safeParse(value);
  if (first.success) return { value: first.data as Record<string, unknown>, dropped: [] };
  const byField = new Map<string, z.core.$ZodIssue[]>();
  for (const issue of first.error.issues) {
    const key = issue.path.length ? String(issue.path[0]) : '';
    byField.set(key, [...(byField.get(key) ?? []), issue]);
  }
  const copy: Record<string, unknown> = { ...value };
  const dropped: OddField[] = [];
  for (const [key, issues] of byField) {
    const field = schema.shape[key] as z.ZodType | undefined;
    if (!key || !field) return { value: null, dropped, reason: firstMessages(issues) };
    const element = elementObjectOf(field);
    const list = copy[key];
    if (element && Array.isArray(list) && depth < 1 && issues.every((i) => typeof i.path[1] === 'number')) {
      const bad = new Set(issues.map((issue) => issue.path[1] as number));
      const kept: unknown[] = [];
      list.forEach((item, index) => {
        const at = `${where}${key}[${index}]`;
        if (!bad.has(index)) {
          kept.push(item);
        } else if (!isPlainObject(item)) {
          dropped.push({ path: at, problem: 'not an object' });
        } else {
          const inner = repair(element, item, `${at}.`, depth + 1);
          dropped.push(...inner.dropped);
          if (inner.value) kept.push(inner.value);
          else dropped.push({ path: at, problem: inner.reason ?? 'unusable' });
        }
      });
      copy[key] = kept;
    } else if (allowsAbsent(field)) {
      delete copy[key];
      dropped.push({ path: `${where}${key}`, problem: firstMessages(issues) });
    } else {
      return { value: null, dropped, reason: `its ${key} is missing or unusable (${firstMessages(issues)})` };
    }
  }
  const second = schema.safeParse(copy);
  if (!second.success) return { value: null, dropped, reason: firstMessages(second.error.issues) };
  return { value: second.data as Record<string, unknown>, dropped };
};

/**
 * Checks one record against `rule`: kept (maybe without odd fields), or unusable with the reason. The record
 * comes in the wire's names and is renamed to the app's (the schema's wire table, `wire.ts`) before it is
 * checked, so the schema, the log lines and the record handed on all speak the app's names.
 */
export const checkRecord = <S extends ObjectSchema>(
  rule: RecordRule<S>,
  wireValue: unknown,
): RecordCheck<z.infer<S>> => {
  const value = readerOf(rule.schema)(wireValue);
  if (!isPlainObject(value)) {
    return {
      ok: false,
      id: null,
      reason: `it is ${valueKind(value)}, not an object`,
    };
  }
  const rawId = value[rule.idKey];
  const id = typeof rawId === 'string' && rawId ? rawId : null;
  const repaired = repair(rule.schema, value, '', 0);
  if (!repaired.value) return { ok: false, id, reason: repaired.reason ?? 'it does not match the contract' };
  return { ok: true, record: repaired.value as z.infer<S>, dropped: repaired.dropped };
};

/** Where the odd-record rule writes its lines (`z.console.log`). */
export type LogLine = (line: string) => void;

export interface RecordLog {
  /** Writes (or counts) one line for a record kept without some fields. */
  kept(noun: string, id: string, dropped: OddField[]): void;
  /** Writes (or counts) one line for a record that was skipped. */
  skipped(noun: string, position: number, id: string | null, reason: string): void;
  /** Writes one summary line for the lines not written one by one; call once the list is read. */
  close(): void;
  /** Records kept without some fields, and records skipped, so far. */
  readonly counts: { kept: number; skipped: number };
}

/**
 * When the app's own handling of records (a visitor, a mapper) throws on at least this many records of one
 * list, and on more of them than it handled, the fault is the app's, not the records': the list fails (and
 * is read again later) rather than every record being skipped, which would lose them.
 */
export const SYSTEMIC_FAILURES = 3;

/** Whether `failed` records out of `failed + handled` point to a fault of the app (see `SYSTEMIC_FAILURES`). */
export const isSystemic = (failed: number, handled: number): boolean =>
  failed >= SYSTEMIC_FAILURES && failed > handled;

/**
 * The app's own handling of records one at a time (a visitor, a mapper): a record it throws on is skipped
 * with a log line naming it, by the kind of error only (its message may quote a value, and values are
 * personal data); `done` throws the first error when most records failed (`isSystemic`).
 */
export const recordFailures = (log: RecordLog, noun: string, doing: string) => {
  let failed = 0;
  let first: unknown = null;
  return {
    skip(error: unknown, position: number, id: unknown): void {
      failed++;
      first ??= error;
      const kind = error instanceof Error ? error.name : typeof error;
      log.skipped(
        noun,
        position,
        typeof id === 'string' && id ? id : null,
        `it could not be ${doing} (${kind})`,
      );
    },
    done(handled: number): void {
      if (isSystemic(failed, handled)) throw first;
    },
  };
};

/** Lines written one by one before the rest are only counted (a broken feed must not flood the log). */
export const RECORD_LOG_LINES = 20;

/** An identifier or a path as a log line shows it: at most `max` characters (service text may be huge). */
const shortened = (text: string, max = 120): string => (text.length > max ? `${text.slice(0, max)}…` : text);

/** A log for the odd records of one read of `what` ("the registrations of this event"). */
export const recordLog = (write: LogLine, what: string, limit = RECORD_LOG_LINES): RecordLog => {
  const counts = { kept: 0, skipped: 0 };
  let written = 0;
  const line = (text: string) => {
    if (written < limit) write(`Odd record in ${what}: ${text}`);
    written++;
  };
  return {
    counts,
    kept(noun, id, dropped) {
      counts.kept++;
      const fields = dropped.map((d) => `${shortened(d.path)} (${d.problem})`).join(', ');
      const odd = dropped.some((d) => d.problem !== TOO_DEEP);
      line(
        `${noun} "${shortened(id)}" kept without ${fields}${odd ? '; the value was not in its documented form' : ''}.`,
      );
    },
    skipped(noun, position, id, reason) {
      counts.skipped++;
      const which = id ? `${noun} "${shortened(id)}" (item ${position + 1})` : `item ${position + 1}`;
      line(`${which} skipped: ${reason}.`);
    },
    close() {
      if (written > limit) {
        write(
          `Odd records in ${what}: ${written - limit} more not logged one by one (${counts.kept} kept without some fields, ${counts.skipped} skipped in all).`,
        );
      }
    },
  };
};

/** What the reader says of a part of a record left out because it was nested too deeply (`json.ts`). */
export const TOO_DEEP = `nested deeper than ${MAX_JSON_DEPTH} levels, so it could not be read`;

/**
 * Checks one record and logs what the rule did: the record to use, or `null` when it is skipped. `pruned`
 * names the parts of the record the reader left out because they were nested too deeply (`''`: all of it);
 * they count as odd fields: named in the line of a kept record, or in the reason a record is skipped.
 */
export const keepRecord = <S extends ObjectSchema>(
  rule: RecordRule<S>,
  value: unknown,
  position: number,
  log: RecordLog,
  pruned: readonly string[] = [],
): z.infer<S> | null => {
  if (value === undefined && pruned.length) {
    log.skipped(rule.noun, position, null, `all of it is ${TOO_DEEP}`);
    return null;
  }
  const checked = checkRecord(rule, value);
  if (!checked.ok) {
    const deep = pruned.length
      ? ` (${pruned.join(', ')} ${pruned.length > 1 ? 'were' : 'was'} ${TOO_DEEP})`
      : '';
    log.skipped(rule.noun, position, checked.id, `${checked.reason}${deep}`);
    return null;
  }
  const dropped = [...pruned.map((path) => ({ path, problem: TOO_DEEP })), ...checked.dropped];
  if (dropped.length) {
    log.kept(rule.noun, String((checked.record as Record<string, unknown>)[rule.idKey]), dropped);
  }
  return checked.record;
};
