/**
 * The service's dialect, found before any other check: how it names fields, what its lists hold their
 * records in (and what its paging members mean), where its error bodies carry their code, and, from a
 * delivery the user captured, how it signs. Each of the four is reported once, with what the contract says
 * and the operations it breaks; then every later answer is read in the dialect found (src/connect's
 * `restater`), so the checks of the records (order, `limit`, `since`) still run. Read-only: GET requests.
 */
import {
  AS_IS,
  CAMEL_CASE,
  CONTRACT_DIALECT,
  DIALECT,
  type Dialect,
  HOOK_KINDS,
  type ListNext,
  type NameRule,
  SCHEMES,
  SNAKE_CASE,
  type Spelling,
  UPPER_CASE,
  appCodeOfWireCode,
  linkTarget,
  memberAt,
  membersBeside,
  signedWith,
  spelledBy,
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
  /** The member holding the records (a path; `""`: the answer is the list), or null when none was found. */
  member: string | null;
  /** Members besides the records and the catalog's paging, with their values. */
  others: Record<string, unknown>;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const PAGING = new Set(['page', 'limit', 'total']);

/** The path of the first list in `value` (its own members first, then those of its objects, 3 deep). */
const findList = (value: Record<string, unknown>, depth = 0): string | null => {
  const own = Object.keys(value).find((key) => Array.isArray(value[key]));
  if (own !== undefined) return own;
  if (depth >= 2) return null;
  for (const [key, inner] of Object.entries(value)) {
    const found = isObject(inner) ? findList(inner, depth + 1) : null;
    if (found !== null) return `${key}.${found}`;
  }
  return null;
};

/**
 * Where a list answer holds its records: the answer itself when it is a list, the app's member when it is a
 * list there, else the first list found, nested ones included (`result.items`).
 */
export const listOf = (body: unknown): ListFinding => {
  if (Array.isArray(body)) return { member: '', others: {} };
  if (!isObject(body)) return { member: null, others: {} };
  const member = Array.isArray(memberAt(body, DIALECT.list.member)) ? DIALECT.list.member : findList(body);
  if (member === null) return { member, others: {} };
  const others = Object.fromEntries(
    Object.entries(membersBeside(body, member)).filter(([key]) => !PAGING.has(key)),
  );
  return { member, others };
};

/** A member beside a list's records whose name says it leads to the next page (`next`, `next_cursor`). */
const NEXT_NAMES = /(^|\.)(next|next_?cursor|cursor|next_?page_?token|next_?link|next_?url)$/i;

/**
 * How lists continue, from list answers as the service sent them (their bodies, and their `Link` headers):
 * the `Link` header's rel="next", or the member that names the next page (a cursor, or a link when it holds an
 * address), or null when no list named one.
 */
export const nextOf = (
  bodies: readonly unknown[],
  links: readonly (string | null)[] = [],
): { next: ListNext | null; value: string | null } => {
  for (const header of links) {
    const value = linkTarget(header, 'next');
    if (value !== null) return { next: { link: 'next' }, value };
  }
  for (const body of bodies) {
    const { member, others } = listOf(body);
    if (member === null) continue;
    const name = Object.keys(others).find(
      (key) => NEXT_NAMES.test(key) && (typeof others[key] === 'string' || others[key] === null),
    );
    if (name === undefined) continue;
    const value = others[name];
    if (typeof value !== 'string' || value === '') continue;
    const link = /^(https?:\/\/|\/)/.test(value);
    return { next: { member: name, cursor: link ? null : 'cursor' }, value };
  }
  return { next: null, value: null };
};

/** The spelling of statuses the records follow: capitals when every status read is in capitals. */
export const statusSpellingOf = (samples: readonly Sample[]): Spelling => {
  const statuses = samples
    .flatMap((s) => s.objects.map((o) => o.status))
    .filter((v) => typeof v === 'string');
  const capitals = statuses.length > 0 && statuses.every((v) => /[A-Z]/.test(v) && v === v.toUpperCase());
  return capitals ? UPPER_CASE : AS_IS;
};

/**
 * The dotted spelling of webhook kinds many services use (`registration.created`), which the kit recognises
 * in a captured delivery. A service that spells kinds otherwise is named, with the table to write.
 */
export const DOTTED_KINDS: Readonly<Record<string, string>> = {
  FORM_SUBMISSION: 'registration.created',
  FORM_SUBMISSION_APPROVED: 'registration.approved',
  ATTENDANT_CHECKED_IN: 'attendee.checked_in',
  PAYMENT_SUCCESS: 'payment.succeeded',
  PAYMENT_FAILED: 'payment.failed',
  PAYMENT_REFUNDED: 'payment.refunded',
  'EVENT_*': 'event.*',
  EVENT_CREATED: 'event.created',
  EVENT_UPDATED: 'event.updated',
  EVENT_PUBLISHED: 'event.published',
  EVENT_UNPUBLISHED: 'event.unpublished',
  EVENT_DELETED: 'event.deleted',
};

/**
 * The spelling of kinds a delivery's `type` shows: the contract's, the dotted one, or null for a spelling the
 * kit does not know (the table must then be written by hand).
 */
export const kindSpellingOf = (type: string): Spelling | null => {
  if ((HOOK_KINDS as readonly string[]).includes(type)) return AS_IS;
  if (Object.values(DOTTED_KINDS).includes(type)) return spelledBy(DOTTED_KINDS);
  return null;
};

/** `x-signature` → `X-Signature`. */
const headerName = (name: string): string =>
  name
    .replace(/^http-/i, '')
    .replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());

/** The header that carries a captured delivery's signature, and its scheme: the one that verifies. */
export const signatureOf = (
  headers: Record<string, unknown>,
  body: string,
  secret: string,
): { header: string; scheme: Dialect['signature'] } | null => {
  for (const [name, raw] of Object.entries(headers)) {
    if (typeof raw !== 'string') continue;
    for (const scheme of Object.keys(SCHEMES) as Array<Dialect['signature']>) {
      const digests = SCHEMES[scheme].digests(raw);
      if (digests.length && signedWith(SCHEMES[scheme].payload(raw, body), secret, digests)) {
        return { header: headerName(name), scheme };
      }
    }
  }
  return null;
};

/** The name of a rule or spelling as src/connect/dialect.ts exports it. */
const ruleText = (rule: NameRule): string => (rule.name === SNAKE_CASE.name ? 'SNAKE_CASE' : 'CAMEL_CASE');
const spellingText = (spelling: Spelling): string =>
  spelling.table
    ? `spelledBy(${JSON.stringify(spelling.table, null, 2).replace(/\n/g, '\n    ')})`
    : spelling.name === UPPER_CASE.name
      ? 'UPPER_CASE'
      : 'AS_IS';

/**
 * `dialect` as the text of src/connect/dialect.ts's `DIALECT`, ready to paste there in place of
 * `export const DIALECT: Dialect = CONTRACT_DIALECT;` (`--write-dialect FILE`).
 */
export const dialectSource = (dialect: Dialect, where: string): string => {
  const lower = dialect.errors.wire('NOT_FOUND') === 'not_found';
  const { at, codeMember, statuses } = dialect.errors;
  const place = `at: ${JSON.stringify(at)}, codeMember: ${JSON.stringify(codeMember)}, statuses: ${JSON.stringify(statuses)}`;
  const errors = lower
    ? `{ ${place}, code: (wire) => wire.toUpperCase(), wire: (code) => code.toLowerCase() }`
    : `{ ...CONTRACT_DIALECT.errors, ${place} }`;
  return [
    `/** The dialect of the service at ${where}, as \`npm run conformance -- --write-dialect\` found it. */`,
    'export const DIALECT: Dialect = {',
    `  names: ${ruleText(dialect.names)},`,
    `  query: ${ruleText(dialect.query)},`,
    `  spellings: { status: ${spellingText(dialect.spellings.status)}, kind: ${spellingText(dialect.spellings.kind)} },`,
    `  renamed: ${JSON.stringify(dialect.renamed)},`,
    `  list: ${JSON.stringify(dialect.list)},`,
    `  catalog: ${JSON.stringify(dialect.catalog ?? null)},`,
    `  errors: ${errors},`,
    `  signature: ${JSON.stringify(dialect.signature)},`,
    `  signatureHeader: ${JSON.stringify(dialect.signatureHeader)},`,
    `  secretSource: ${JSON.stringify(dialect.secretSource)},`,
    '};',
    '',
  ].join('\n');
};

/** A table as JSON whatever the order of its keys. */
const sortedJson = (table: Readonly<Record<string, unknown>>): string =>
  JSON.stringify(Object.entries(table).sort(([a], [b]) => a.localeCompare(b)));

/** Whether two dialects say the same of everything the kit finds. */
export const sameDialect = (a: Dialect, b: Dialect): boolean =>
  a.names.name === b.names.name &&
  a.query.name === b.query.name &&
  spellingText(a.spellings.status) === spellingText(b.spellings.status) &&
  spellingText(a.spellings.kind) === spellingText(b.spellings.kind) &&
  JSON.stringify(a.renamed) === JSON.stringify(b.renamed) &&
  JSON.stringify(a.list) === JSON.stringify(b.list) &&
  JSON.stringify(a.catalog ?? null) === JSON.stringify(b.catalog ?? null) &&
  a.errors.at === b.errors.at &&
  a.errors.codeMember === b.errors.codeMember &&
  sortedJson(a.errors.statuses) === sortedJson(b.errors.statuses) &&
  a.errors.wire('NOT_FOUND') === b.errors.wire('NOT_FOUND') &&
  a.signature === b.signature &&
  a.signatureHeader.toLowerCase() === b.signatureHeader.toLowerCase() &&
  a.secretSource === b.secretSource;

export { CAMEL_CASE };

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

/** What an error answer showed of the dialect: where its error object is, its code's member and spelling. */
export interface ErrorFinding {
  dialect: Dialect['errors'];
  /** The path of the error object (`error`; `""`: the body itself). */
  at: string;
  member: string;
  /** The code as sent, and in the contract's spelling. */
  value: string;
  code: string;
}

/** The code an error object carries, with its member and spelling, when a member holds a contract code. */
const codeIn = (
  error: Record<string, unknown>,
): (Omit<ErrorFinding, 'at' | 'dialect'> & { lower: boolean }) | null => {
  for (const [member, value] of Object.entries(error)) {
    if (typeof value !== 'string' || member === 'message') continue;
    if (appCodeOfWireCode(value) !== undefined) return { member, value, code: value, lower: false };
    const upper = value.toUpperCase();
    if (value === value.toLowerCase() && appCodeOfWireCode(upper) !== undefined)
      return { member, value, code: upper, lower: true };
  }
  return null;
};

/**
 * How an error body carries its code: where its error object is (`error`, the body itself, or a member of
 * it), the member and the spelling of its code, from an error answer's body; `statuses`: those found so far.
 */
export const errorDialectOf = (
  body: unknown,
  statuses: Readonly<Record<string, number>> = {},
): ErrorFinding | null => {
  if (!isObject(body)) return null;
  const places: Array<[string, unknown]> = [
    ['error', body.error],
    ['', body],
    ...Object.entries(body).filter(([key]) => key !== 'error'),
  ];
  for (const [at, error] of places) {
    const found = isObject(error) ? codeIn(error) : null;
    if (found === null) continue;
    const { lower, ...rest } = found;
    const spelled = lower
      ? { code: (w: string) => w.toUpperCase(), wire: (c: string) => c.toLowerCase() }
      : { code: CONTRACT_DIALECT.errors.code, wire: CONTRACT_DIALECT.errors.wire };
    return { dialect: { at, codeMember: found.member, ...spelled, statuses }, at, ...rest };
  }
  return null;
};

/** What the dialect is found from. */
export interface Samples {
  samples: Sample[];
  /** The events list as answered. */
  events: unknown;
  /** Every list answer read (events, registrations, orders, floor plans), as answered. */
  lists: unknown[];
  /** The `Link` header of each list answer read (null when it had none). */
  links: (string | null)[];
  /** How the service names query parameters: the rule under which the registrations were answered. */
  query: NameRule;
}

/** The other rule of query parameter names than `rule`. */
const otherRule = (rule: NameRule): NameRule => (rule.name === SNAKE_CASE.name ? CAMEL_CASE : SNAKE_CASE);

/** The samples the dialect is found from, read raw: one GET per kind of record the kit can reach. */
export const readSamples = async (run: Run): Promise<Samples> => {
  const samples: Sample[] = [];
  const lists: unknown[] = [];
  const add = (noun: RecordNoun, body: unknown, list: boolean) => {
    const member = list ? listOf(body).member : null;
    if (list && member !== null) lists.push(body);
    const items = !list ? [body] : member !== null ? memberAt(body, member) : body;
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
  /**
   * The registrations of an event, asked under the app's names of query parameters, then under the other
   * rule when the service refuses them (a 4xx): the rule it answered under is the one it reads.
   */
  const submissions = async (eventId: string): Promise<unknown> => {
    const asked = { eventId, since: WHOLE_EVENT_SINCE };
    const first = await run.probe.get(paths.submissions(), asked).catch((error: unknown) => error);
    if (first instanceof AnswerTooLargeError) return undefined;
    if (first instanceof Error) throw first;
    if ((first as { status: number }).status < 400 || (first as { status: number }).status >= 500) {
      return (first as { json: unknown }).json;
    }
    const mine = run.probe.query;
    run.probe.query = otherRule(mine);
    const other = await json(paths.submissions(), asked).catch(() => undefined);
    if (listOf(other).member !== null) return other;
    run.probe.query = mine;
    return (first as { json: unknown }).json;
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
      add('submission', await submissions(eventId), true);
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
  const links = run.probe.answers.map((answer) => answer.headers.get('link'));
  return { samples: samples.filter((s) => s.objects.length), events, lists, links, query: run.probe.query };
};

export const unchanged = (outcome: Outcome): boolean => outcome.status === 'holds';

export { differs, holds };
