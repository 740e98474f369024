// Input checks shared by the Connect and simulation routes. Every failure is a 400 VALIDATION_ERROR that
// names the offending field; nothing here may throw anything else.

import { validation } from './errors';

const ISO_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * Parses an ISO 8601 date-time with a zone designator (Z or ±hh:mm). Date-only or zone-less strings are
 * rejected, as are impossible calendar dates (2026-02-30). Returns epoch milliseconds or undefined.
 */
export function parseIso(value: string): number | undefined {
  const m = ISO_RE.exec(value);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s] = m.map((p) => (p === undefined ? 0 : Number(p)));
  if (
    y === undefined ||
    mo === undefined ||
    d === undefined ||
    h === undefined ||
    mi === undefined ||
    s === undefined
  ) {
    return undefined;
  }
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return undefined;
  const daysInMonth = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  if (d > daysInMonth) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

export type Query = Record<string, unknown>;

/** A single query value: repeated parameters are malformed. */
function single(query: Query, field: string): string | undefined {
  const v = query[field];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw validation(field, `${field} must be given once`);
  return v;
}

function integer(field: string, raw: string, min: number): number {
  if (!/^[0-9]+$/.test(raw.trim())) throw validation(field, `${field} must be an integer`);
  const n = Number(raw.trim());
  if (!Number.isSafeInteger(n) || n < min) throw validation(field, `${field} must be at least ${min}`);
  return n;
}

/** `limit`: default 20, larger than 100 is clamped to 100, below 1 or not an integer is a 400. */
/** A limit above `max` is clamped to it, or refused (400) with `rejectAboveMax` (a deviation switch). */
function limitOf(raw: string, max: number, rejectAboveMax: boolean): number {
  const limit = integer('limit', raw, 1);
  if (rejectAboveMax && limit > max) throw validation('limit', `limit must be at most ${max}`);
  return Math.min(limit, max);
}

export function readLimit(query: Query, fallback = 20, max = 100, rejectAboveMax = false): number {
  const raw = single(query, 'limit');
  if (raw === undefined || raw === '') return fallback;
  return limitOf(raw, max, rejectAboveMax);
}

export function readOptionalLimit(query: Query, max = 100, rejectAboveMax = false): number | undefined {
  const raw = single(query, 'limit');
  if (raw === undefined || raw === '') return undefined;
  return limitOf(raw, max, rejectAboveMax);
}

export function readPage(query: Query): number {
  const raw = single(query, 'page');
  if (raw === undefined || raw === '') return 1;
  return integer('page', raw, 1);
}

export function requireQueryString(query: Query, field: string): string {
  const raw = single(query, field);
  if (raw === undefined || raw.trim() === '') throw validation(field, `${field} is required`);
  return raw.trim();
}

/** `since`: required ISO 8601. A `+` of an unencoded offset arrives as a space and is read back as `+`. */
export function requireQueryTimestamp(query: Query, field: string): number {
  const raw = requireQueryString(query, field).replace(' ', '+');
  const ms = parseIso(raw);
  if (ms === undefined) {
    throw validation(field, `${field} must be an ISO 8601 timestamp such as 2026-11-22T10:00:00.000Z`);
  }
  return ms;
}

export type Body = Record<string, unknown>;

export function requireObject(body: unknown): Body {
  if (body === undefined || body === null) throw validation('body', 'A JSON object body is required');
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw validation('body', 'The body must be a JSON object');
  }
  return body as Body;
}

export function optionalString(body: Body, field: string, maxLength = 500): string | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw validation(field, `${field} must be a string`);
  if (v.length > maxLength) throw validation(field, `${field} must be at most ${maxLength} characters`);
  return v;
}

export function requireString(body: Body, field: string, maxLength = 500): string {
  const v = optionalString(body, field, maxLength);
  if (v === undefined || v.trim() === '') throw validation(field, `${field} is required`);
  return v;
}

export function optionalTimestamp(body: Body, field: string): number | undefined {
  const v = optionalString(body, field, 64);
  if (v === undefined) return undefined;
  const ms = parseIso(v);
  if (ms === undefined) throw validation(field, `${field} must be an ISO 8601 timestamp`);
  return ms;
}

export function optionalEnum<T extends string>(
  body: Body,
  field: string,
  allowed: readonly T[],
): T | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) {
    throw validation(field, `${field} must be one of ${allowed.join(', ')}`);
  }
  return v as T;
}

export function optionalBoolean(body: Body, field: string): boolean | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw validation(field, `${field} must be true or false`);
  return v;
}

export function optionalInteger(body: Body, field: string, min: number, max: number): number | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw validation(field, `${field} must be an integer between ${min} and ${max}`);
  }
  return v;
}

export function isValidTimezone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const isEmail = (s: string): boolean => EMAIL_RE.test(s);

/**
 * Idempotency-Key: a bare token or an RFC 8941 sf-string ("..." with \" and \\ escapes), 1 to 255
 * characters once unquoted. Bare and quoted forms of the same value name the same key.
 */
export function parseIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const field = 'Idempotency-Key';
  if (Array.isArray(header)) throw validation(field, 'Idempotency-Key must be sent once');
  const raw = header.trim();
  let value: string;
  if (raw.startsWith('"')) {
    if (raw.length < 2 || !raw.endsWith('"')) throw validation(field, 'Idempotency-Key: unterminated string');
    value = '';
    const inner = raw.slice(1, -1);
    for (let i = 0; i < inner.length; i++) {
      const c = inner.charCodeAt(i);
      if (c === 0x5c) {
        const n = inner[i + 1];
        if (n !== '"' && n !== '\\') throw validation(field, 'Idempotency-Key: invalid escape');
        value += n;
        i++;
      } else if (c === 0x22) {
        throw validation(field, 'Idempotency-Key: unescaped quote');
      } else if (c < 0x20 || c > 0x7e) {
        throw validation(field, 'Idempotency-Key: only printable ASCII is allowed');
      } else {
        value += inner[i];
      }
    }
  } else {
    if (!/^[\x21-\x7e]+$/.test(raw) || raw.includes('"')) {
      throw validation(field, 'Idempotency-Key must be a token or a quoted string of printable ASCII');
    }
    value = raw;
  }
  if (value.length === 0) throw validation(field, 'Idempotency-Key must not be empty');
  if (value.length > 255) throw validation(field, 'Idempotency-Key must be at most 255 characters');
  return value;
}

/** JSON with object keys sorted, so two bodies that differ only in key order or spacing compare equal. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
}

/**
 * Whether a JSON text nests objects and arrays deeper than maxDepth. One pass over the characters, no
 * recursion, strings skipped, so a hostile body costs no stack. Malformed text is left to JSON.parse.
 */
export function jsonDepthExceeds(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}
