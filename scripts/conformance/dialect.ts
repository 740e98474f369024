/**
 * The service's dialect, found before any other check: how it names fields, what its lists hold their
 * records in (and what its paging members mean), where its error bodies carry their code, and, from a
 * delivery the user captured, how it signs. Each of the four is reported once, with what the contract says
 * and the operations it breaks; then every later answer is read in the dialect found (src/connect's
 * `restater`), so the checks of the records (order, `limit`, `since`) still run. Read-only: GET requests.
 */
import {
  CONTRACT_DIALECT,
  DIALECT,
  type Dialect,
  type NameRule,
  SNAKE_CASE,
  appCodeOfWireCode,
  wireTables,
} from '../../src/connect/testing';
import type { WireNames } from '../../src/connect/testing';
import { EVENT_RULE, FLOOR_PLAN_RULE, ORDER_RULE, SUBMISSION_RULE } from '../../src/connect/records';
import { pathSegmentProblem, paths } from '../../src/connect/paths';
import { AnswerTooLargeError } from './http';
import { WHOLE_EVENT_SINCE } from './checks/submissions';
import type { RecordNoun } from '../../src/connect/testing';
import { counterpartPairs } from './shape';
import type { Run } from './run';
import { type Outcome, differs, holds } from './types';

/** Records of one kind as the service sent them. */
export interface Sample {
  noun: RecordNoun;
  objects: Record<string, unknown>[];
}

export interface ListFinding {
  /** The member holding the records, or null when none was found. */
  member: string | null;
  /** Members besides the records and the catalog's paging, with their values. */
  others: Record<string, unknown>;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const PAGING = new Set(['page', 'limit', 'total']);

/** Where a list answer holds its records: the app's member when it is a list there, else the one list member. */
export const listOf = (body: unknown): ListFinding => {
  if (!isObject(body)) return { member: null, others: {} };
  const lists = Object.keys(body).filter((key) => Array.isArray(body[key]));
  const member = lists.includes(DIALECT.list.member) ? DIALECT.list.member : (lists[0] ?? null);
  const others = Object.fromEntries(
    Object.entries(body).filter(([key]) => key !== member && !PAGING.has(key)),
  );
  return { member, others };
};

/** A boolean member among `others` whose name says there is more (`has_more`, `hasMore`, `more`). */
export const moreMember = (others: Record<string, unknown>): string | null =>
  Object.keys(others).find((key) => /more/i.test(key) && typeof others[key] === 'boolean') ?? null;

const RULES: Partial<Record<RecordNoun, { expected: string[]; idKey: string }>> = {
  event: { expected: Object.keys(EVENT_RULE.schema.shape), idKey: EVENT_RULE.idKey },
  submission: { expected: Object.keys(SUBMISSION_RULE.schema.shape), idKey: SUBMISSION_RULE.idKey },
  order: { expected: Object.keys(ORDER_RULE.schema.shape), idKey: ORDER_RULE.idKey },
  floorPlan: { expected: Object.keys(FLOOR_PLAN_RULE.schema.shape), idKey: FLOOR_PLAN_RULE.idKey },
};

/** The top-level keys of a table that differ between two rules (the fields a rule can tell apart). */
const telling = (names: WireNames): string[] => Object.keys(names).filter((f) => SNAKE_CASE.wire(f) !== f);

/** The naming rule the samples follow: the contract's camelCase, or snake_case when more fields say so. */
export const ruleOf = (samples: readonly Sample[]): NameRule => {
  const tables = wireTables(CONTRACT_DIALECT);
  let camel = 0;
  let snake = 0;
  for (const { noun, objects } of samples) {
    for (const object of objects.slice(0, 20)) {
      for (const field of telling(tables[noun])) {
        if (field in object) camel++;
        if (SNAKE_CASE.wire(field) in object) snake++;
      }
    }
  }
  return snake > camel ? SNAKE_CASE : CAMEL_OF(DIALECT.names);
};

/** The app's own rule when it is camelCase, else the contract's. */
const CAMEL_OF = (rule: NameRule): NameRule => (rule.name === 'camelCase' ? rule : CONTRACT_DIALECT.names);

/**
 * The names the rule does not give (`submissionId` sent as `id`): for each sample, the documented fields
 * missing once the rule is applied whose counterpart the records carry.
 */
export const renamedOf = (samples: readonly Sample[], rule: NameRule): Dialect['renamed'] => {
  const renamed: Record<string, Record<string, string>> = {};
  for (const { noun, objects } of samples) {
    const known = RULES[noun];
    if (!known) continue;
    const read = objects.map((o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [rule.app(k), v])));
    for (const pair of counterpartPairs(read, known.expected, known.idKey)) {
      (renamed[noun] ??= {})[pair.wanted] = rule.wire(pair.found);
    }
  }
  return renamed;
};

/**
 * Each field of the sampled records whose wire name differs between `base`'s tables and `found`'s, nested
 * ones as `items[].unitAmount`: `[base name, found name]`.
 */
export const nameDifferences = (
  samples: readonly Sample[],
  found: Dialect,
  base: Dialect = CONTRACT_DIALECT,
): Array<[string, string]> => {
  const contract = wireTables(base);
  const theirs = wireTables(found);
  const out: Array<[string, string]> = [];
  const walk = (ours: WireNames, other: WireNames, prefix: string, otherPrefix: string) => {
    for (const [field, wire] of Object.entries(ours)) {
      const mine = typeof wire === 'string' ? wire : wire.name;
      const entry = other[field];
      if (entry === undefined) continue;
      const their = typeof entry === 'string' ? entry : entry.name;
      if (mine !== their) out.push([`${prefix}${mine}`, `${otherPrefix}${their}`]);
      if (typeof wire !== 'string' && typeof entry !== 'string' && 'fields' in wire && 'fields' in entry) {
        walk(wire.fields, entry.fields, `${prefix}${mine}[].`, `${otherPrefix}${their}[].`);
      }
    }
  };
  for (const noun of new Set(samples.map((s) => s.noun))) walk(contract[noun], theirs[noun], '', '');
  const seen = new Set<string>();
  return out.filter(([ours]) => !seen.has(ours) && Boolean(seen.add(ours)));
};

/** How an error body carries its code: the member and the spelling, from a 404 answer's body. */
export const errorDialectOf = (
  body: unknown,
): { dialect: Dialect['errors']; member: string; value: string } | null => {
  if (!isObject(body) || !isObject(body.error)) return null;
  const error = body.error;
  for (const [member, value] of Object.entries(error)) {
    if (typeof value !== 'string' || member === 'message') continue;
    if (appCodeOfWireCode(value) !== undefined) {
      return { dialect: { ...CONTRACT_DIALECT.errors, codeMember: member }, member, value };
    }
    const upper = value.toUpperCase();
    if (value === value.toLowerCase() && appCodeOfWireCode(upper) !== undefined) {
      const dialect = {
        codeMember: member,
        code: (w: string) => w.toUpperCase(),
        wire: (c: string) => c.toLowerCase(),
      };
      return { dialect, member, value };
    }
  }
  return null;
};

/** The samples the dialect is found from, read raw: one GET per kind of record the kit can reach. */
export const readSamples = async (run: Run): Promise<{ samples: Sample[]; events: unknown }> => {
  const samples: Sample[] = [];
  const add = (noun: RecordNoun, body: unknown, list: boolean) => {
    const member = list ? listOf(body).member : null;
    const items = !list ? [body] : member ? (body as Record<string, unknown>)[member] : body;
    const objects = (Array.isArray(items) ? items : []).filter(isObject).slice(0, 20);
    if (objects.length) samples.push({ noun, objects });
  };
  /** The answer's JSON; nothing for an answer larger than the kit reads (a huge event is passed over). */
  const json = async (...get: Parameters<Run['probe']['get']>): Promise<unknown> => {
    try {
      return (await run.probe.get(...get)).json;
    } catch (error) {
      if (error instanceof AnswerTooLargeError) return undefined;
      throw error;
    }
  };
  const events = await json(paths.events(), { limit: 100 });
  add('event', events, true);
  // Events whose id and slug can be put in an address (the events group names the others).
  const usable = (samples[0]?.objects ?? []).filter(
    (e) =>
      typeof e.id === 'string' &&
      typeof e.slug === 'string' &&
      pathSegmentProblem(e.id) === null &&
      pathSegmentProblem(e.slug) === null,
  );
  const first = usable[0];
  const ids = run.options.eventId ? [run.options.eventId] : usable.slice(0, 5).map((e) => e.id as string);
  // The newest events in turn, until one has registrations and one has floor plans.
  for (const eventId of ids) {
    if (!samples.some((s) => s.noun === 'submission')) {
      add('submission', await json(paths.submissions(), { eventId, since: WHOLE_EVENT_SINCE }), true);
    }
    if (!samples.some((s) => s.noun === 'floorPlan'))
      add('floorPlan', await json(paths.floorPlans(eventId)), true);
  }
  if (run.options.companyId) {
    add('order', await json(paths.orders(), { companyId: run.options.companyId, limit: 20 }), true);
  }
  if (typeof first?.slug === 'string') {
    add('eventWidget', await json(paths.eventWidget(first.slug), {}, false), false);
    add('agenda', await json(paths.agendaWidget(first.slug), {}, false), false);
  }
  return { samples: samples.filter((s) => s.objects.length), events };
};

export const unchanged = (outcome: Outcome): boolean => outcome.status === 'holds';

export { differs, holds };
