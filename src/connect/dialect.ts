/**
 * The service's dialect: the four choices of the wire a service may make otherwise than
 * docs/connect-contract.md while meaning the same things. How it names fields, what its list answers hold
 * the records in, where its error bodies carry their code, and how it signs a delivery. The rest of
 * src/connect reads and writes the wire through `DIALECT`, so teaching the app a service that differs in any
 * of the four is a change of this file (and, for names a rule cannot give, of `wireNames.ts`).
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

export interface Dialect {
  readonly names: NameRule;
  /**
   * The wire's names the rule does not give, per record (`submission.submissionId` → `id`): record noun →
   * app field → wire name.
   */
  readonly renamed: Readonly<Record<string, Readonly<Record<string, string>>>>;
  readonly list: {
    /** The member of a list answer that holds its records (`data`). */
    readonly member: string;
    /**
     * A member that is `true` when the service holds more records than it answered (`has_more`), or null.
     * The app reads it as "this list was cut", never as a page to fetch.
     */
    readonly more: string | null;
  };
  readonly errors: {
    /** The member of an error body's `error` object that carries its code (`code`). */
    readonly codeMember: string;
    /** The contract's code of a wire code (`not_found` → `NOT_FOUND`). */
    code(wire: string): string;
    /** The wire's code of a contract code (`NOT_FOUND` → `not_found`). */
    wire(code: string): string;
  };
  readonly signature: SignatureScheme;
}

/** camelCase, as the contract names fields: the identity. */
export const CAMEL_CASE: NameRule = { name: 'camelCase', wire: (field) => field, app: (wire) => wire };

/** snake_case: `createdAt` is `created_at` on the wire. */
export const SNAKE_CASE: NameRule = {
  name: 'snake_case',
  wire: (field) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
  app: (wire) => wire.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()),
};

/** The dialect of docs/connect-contract.md. */
export const CONTRACT_DIALECT: Dialect = {
  names: CAMEL_CASE,
  renamed: {},
  list: { member: 'data', more: null },
  errors: { codeMember: 'code', code: (wire) => wire, wire: (code) => code },
  signature: 'sha256',
};

/** The dialect the app reads and writes. */
export const DIALECT: Dialect = CONTRACT_DIALECT;

/** The wire's name of the app's field `field` of a `noun` record, in `dialect`. */
export const wireFieldName = (dialect: Dialect, noun: string, field: string): string =>
  dialect.renamed[noun]?.[field] ?? dialect.names.wire(field);
