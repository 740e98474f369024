/**
 * What an input accepts beyond its type, choices and `required`, declared on the field itself in Zapier's
 * `meta` (simple key-values), next to the check that refuses anything else. The JSON Schema an AI caller reads
 * (docs/input-schemas.json, written by `npm run words`) is derived from the fields with it, and a property
 * test holds the two together: every value the schema allows passes the operation's input checks, and a value
 * it forbids is refused with a message naming the field.
 */
import type { FieldMeta } from 'zapier-platform-core';

export interface Accepts {
  /** A regular expression (ECMAScript, no flags) every filled-in value matches; a subset where the check is wider. */
  pattern?: string;
  /** `date`: a day written `YYYY-MM-DD`. */
  format?: 'date';
  /** The earliest date and time accepted (ISO 8601). */
  earliest?: string;
  /** How many minutes ahead of now a date and time may be (a later one has not happened yet). */
  minutesAhead?: number;
  /** The choices are the values the app knows; any other value is kept too (with a warning). */
  otherValues?: 'kept';
  /** At least one of the fields that name the same group must be filled in. */
  fillOneOf?: string;
  /** The key of a field that must stay empty when this one is filled in. */
  excludes?: string;
}

/** The field's `meta` for what it accepts. */
export const accepts = (declared: Accepts): FieldMeta =>
  Object.fromEntries(Object.entries(declared).filter(([, value]) => value !== undefined)) as FieldMeta;

/** What a field declares it accepts (`{}` when it declares nothing). */
export const acceptsOf = (field: { meta?: FieldMeta }): Accepts => (field.meta ?? {}) as Accepts;

/** A value with at least one character that is not a space: a required text field filled in. */
export const FILLED_PATTERN = '\\S';

/** A value without spaces (IDs). */
export const NO_SPACES_PATTERN = '^\\S+$';
