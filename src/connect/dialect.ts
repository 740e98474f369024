/**
 * The service's dialect: the form of the whole wire, every choice a service may make otherwise than
 * docs/connect-contract.md while meaning the same things. How it names fields (nested ones included) and
 * query parameters, how it spells statuses and webhook kinds, where a list answer holds its records (a member,
 * a nested member, or the answer itself) and how a list continues (not at all, or a cursor or link to follow),
 * how its public catalog continues (by page number, or by a cursor or link), where its error bodies carry
 * their code, and under which header and in which scheme it signs a delivery.
 * The rest of src/connect reads and writes the wire through `DIALECT`, so teaching the app a service that
 * differs in any of these is a change of this file (and, for names a rule cannot give, of `renamed` here).
 *
 * A `Dialect` is also a value the conformance kit builds from what a service answered, to read that service
 * with src/connect's own reader before it checks the records.
 */

/** How the wire names fields: the rule from the app's names to the wire's, and back for unknown fields. */
export interface NameRule {
  /** A short name for people (`"camelCase, as the contract"`). */
  readonly name: string;
  /** The wire's name of the app's field `field`. */
  wire(field: string): string;
  /** The app's name of a field the wire sends that no table names (the same rule, backwards). */
  app(wire: string): string;
}

/** How a delivery is signed (the header's value, and what its HMAC-SHA256 covers). */
export type SignatureScheme =
  /** `sha256=<hex>[,sha256=<hex>]`: the HMAC of the raw body (the contract). */
  | 'sha256'
  /** `t=<unix seconds>,v1=<hex>[,v1=<hex>]`: the HMAC of `<t>.<raw body>`. */
  | 'timestamped';

/**
 * How the wire spells the values of an enumeration (statuses, webhook kinds): the app's spelling → the wire's,
 * and back. A value the service adds later that no table names passes through as it is.
 */
export interface Spelling {
  /** A short name for people (`"as the contract"`). */
  readonly name: string;
  wire(app: string): string;
  app(wire: string): string;
  /** The table a spelling by table was made of (`spelledBy`), app → wire. */
  readonly table?: Readonly<Record<string, string>>;
}

/**
 * How a list answer continues past its records: a member beside them that names the next page (a cursor or
 * a link), or the answer's `Link` header (RFC 8288) under a relation (`next`).
 */
export type ListNext =
  | {
      /** The member (a path, like `member`) that holds the next page's cursor or link; null, absent or "" at the end. */
      readonly member: string;
      /**
       * The query parameter the cursor is sent back in, on the same request (`cursor`); `null`: the member
       * holds the next page's address (a link), followed as it is.
       */
      readonly cursor: string | null;
    }
  | {
      /** The relation of the `Link` header whose target is the next page's address (`next`); none at the end. */
      readonly link: string;
    };

export interface Dialect {
  readonly names: NameRule;
  /** How the wire names query parameters (`eventId`, `since`, `companyId`, `page`, `limit`). */
  readonly query: NameRule;
  /** How the wire spells enumerations: the statuses of records, and the kinds of webhooks and deliveries. */
  readonly spellings: { readonly status: Spelling; readonly kind: Spelling };
  /**
   * The wire's names the rule does not give, per record (`submission.submissionId` → `id`): record noun →
   * app field → wire name.
   */
  readonly renamed: Readonly<Record<string, Readonly<Record<string, string>>>>;
  readonly list: {
    /**
     * Where a list answer holds its records: a member (`data`), a nested member written as a path
     * (`result.items` for `{ "result": { "items": [ … ] } }`), or `""`: the answer itself is the list.
     */
    readonly member: string;
    /** How a list continues on another page (a cursor or link to follow), or null: one answer is the list. */
    readonly next: ListNext | null;
    /**
     * A member that is `true` when the service holds more records than it answered (`has_more`), or null.
     * The app reads it as "this list was cut", never as a page to fetch.
     */
    readonly more: string | null;
  };
  /**
   * How the public catalog continues past a page: absent or null, by page number (`page`, 1-based, with
   * `page`, `limit` and `total` beside the events: the contract); or, like a list, by a cursor or link each
   * page names (`{ member: "next", cursor: "cursor" }`, `{ link: "next" }`), from its first page only. The
   * Event dropdown's "Load more" then reads the catalog from its start, each page from the one before.
   */
  readonly catalog?: ListNext | null;
  readonly errors: {
    /**
     * Where an error body holds its error object: a member (`error`, the contract's `{ "error": { … } }`), a
     * nested member written as a path, or `""`: the body itself is the error object (`{ "code", "message" }`).
     */
    readonly at: string;
    /** The member of the error object that carries its code (`code`). */
    readonly codeMember: string;
    /** The contract's code of a wire code (`not_found` → `NOT_FOUND`). */
    code(wire: string): string;
    /** The wire's code of a contract code (`NOT_FOUND` → `not_found`). */
    wire(code: string): string;
    /**
     * The HTTP status the service answers a contract code with, for each code it answers otherwise than the
     * contract's §2 (`{ NOT_FOUND: 403, VALIDATION_ERROR: 422 }`); `{}`: the contract's statuses. An answer of
     * that status carrying that code is read as the contract's status.
     */
    readonly statuses: Readonly<Record<string, number>>;
  };
  readonly signature: SignatureScheme;
  /** The request header a delivery's signature arrives in (`X-Connect-Signature`). */
  readonly signatureHeader: string;
  /**
   * Where a subscription's signing secret comes from: `service`, the service makes it and answers it with the
   * subscription (`secret`; none: the account-level secret, contract §5); `client`, the app makes one for each
   * subscription and sends it in the subscribe request (`secret`), and the service signs with it.
   */
  readonly secretSource: 'service' | 'client';
}

/** camelCase, as the contract names fields: the identity. */
export const CAMEL_CASE: NameRule = { name: 'camelCase', wire: (field) => field, app: (wire) => wire };

/** snake_case: `createdAt` is `created_at` on the wire. */
export const SNAKE_CASE: NameRule = {
  name: 'snake_case',
  wire: (field) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
  app: (wire) => wire.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()),
};

/** Values spelled as the app spells them (the contract): the identity. */
export const AS_IS: Spelling = { name: 'as the contract', wire: (app) => app, app: (wire) => wire };

/** Values in capitals on the wire (`paid` is `PAID`). */
export const UPPER_CASE: Spelling = {
  name: 'UPPER_CASE',
  wire: (app) => app.toUpperCase(),
  app: (wire) => wire.toLowerCase(),
};

/** Values spelled by a table (app → wire); values the table does not name pass through as they are. */
export const spelledBy = (table: Readonly<Record<string, string>>): Spelling => {
  const back = new Map(Object.entries(table).map(([app, wire]) => [wire, app]));
  return {
    name: `spelled ${Object.entries(table)
      .slice(0, 2)
      .map(([app, wire]) => `${app} as ${wire}`)
      .join(', ')}`,
    wire: (app) => (Object.hasOwn(table, app) ? (table[app] as string) : app),
    app: (wire) => back.get(wire) ?? wire,
    table,
  };
};

/** The dialect of docs/connect-contract.md. */
export const CONTRACT_DIALECT: Dialect = {
  names: CAMEL_CASE,
  query: CAMEL_CASE,
  spellings: { status: AS_IS, kind: AS_IS },
  renamed: {},
  list: { member: 'data', next: null, more: null },
  catalog: null,
  errors: { at: 'error', codeMember: 'code', code: (wire) => wire, wire: (code) => code, statuses: {} },
  signature: 'sha256',
  signatureHeader: 'X-Connect-Signature',
  secretSource: 'service',
};

/** The dialect the app reads and writes. */
export const DIALECT: Dialect = CONTRACT_DIALECT;

/** The wire's name of the app's field `field` of a `noun` record, in `dialect`. */
export const wireFieldName = (dialect: Dialect, noun: string, field: string): string =>
  dialect.renamed[noun]?.[field] ?? dialect.names.wire(field);

/**
 * The path of a member beside a list's records, where the dialect nests them (`page` → `result.page` for
 * lists under `result.items`; `page` for `data` and for a bare array).
 */
export const besideRecords = (dialect: Dialect, name: string): string =>
  [...pathOf(dialect.list.member).slice(0, -1), name].join('.');

/** The member a list's next page is named in, or null when none is (no paging, or the `Link` header). */
export const nextMember = (next: ListNext | null): string | null =>
  next !== null && 'member' in next ? next.member : null;

/** Where the next page is named, in words for a log line: `"result.next"`, or `the Link header (rel="next")`. */
export const nextWords = (next: ListNext): string =>
  'member' in next ? `"${next.member}"` : `the Link header (rel="${next.link}")`;

/**
 * The target of the relation `rel` in a `Link` header (`<https://…?cursor=c2>; rel="next", <…>; rel="prev"`),
 * or null when the header names none.
 */
export const linkTarget = (header: string | null | undefined, rel: string): string | null => {
  if (!header) return null;
  for (const part of header.matchAll(/<([^>]*)>((?:\s*;\s*[^;,]+)*)/g)) {
    const rels = /;\s*rel\s*=\s*"?([^";,]+)"?/i.exec(part[2] ?? '')?.[1] ?? '';
    if (rels.toLowerCase().split(/\s+/).includes(rel.toLowerCase())) return part[1] || null;
  }
  return null;
};

/** The members of a path (`result.items` → `["result", "items"]`; `""`: none, the answer itself). */
export const pathOf = (member: string): string[] => (member === '' ? [] : member.split('.'));

/** The wire's name of the app's query parameter `param` (`eventId` → `event_id` under snake_case). */
export const queryName = (dialect: Dialect, param: string): string => dialect.query.wire(param);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The value at `member` (a path) of a parsed answer: the answer itself for `""`, undefined when absent. */
export const memberAt = (body: unknown, member: string): unknown => {
  let value = body;
  for (const key of pathOf(member)) {
    if (!isObject(value) || !Object.hasOwn(value, key)) return undefined;
    value = value[key];
  }
  return value;
};

/**
 * The members of a list answer besides its records, each under its path (`result.next`): those of the answer
 * and of every object on the way to the records. `{}` for an answer that is the list itself.
 */
export const membersBeside = (body: unknown, member: string): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  const path = pathOf(member);
  let value = body;
  let prefix = '';
  for (const key of path) {
    if (!isObject(value)) break;
    for (const [name, inner] of Object.entries(value)) if (name !== key) out[prefix + name] = inner;
    value = value[key];
    prefix += `${key}.`;
  }
  return out;
};

/** A list answer with `records` where `member` says, and `members` (by their paths) beside them. */
export const listAnswer = (
  member: string,
  records: unknown[],
  members: Record<string, unknown> = {},
): unknown => {
  const path = pathOf(member);
  if (path.length === 0) return records;
  const root: Record<string, unknown> = {};
  const place = (at: string, value: unknown) => {
    const keys = pathOf(at);
    let object = root;
    for (const key of keys.slice(0, -1)) object = (object[key] ??= {}) as Record<string, unknown>;
    object[keys[keys.length - 1] as string] = value;
  };
  place(member, records);
  for (const [at, value] of Object.entries(members)) place(at, value);
  return root;
};
