/**
 * What identifies one door scan: the check-in body built from the step's input and the `Idempotency-Key`
 * derived from it. The key is a pure function of what is checked in (mode, code or event + registration,
 * check-in time), so a Zapier retry or replay of the same step sends the same key and the service answers
 * with the same result instead of checking the person in a second time.
 */
import { createHash } from 'node:crypto';
import type { CheckInBody } from '../../connect';

/** Contract §4: an Idempotency-Key holds at most 255 characters. */
export const MAX_KEY_LENGTH = 255;
const DERIVED_PREFIX = 'zapier-checkin-v1-';
const HASHED_SCAN_ID_PREFIX = 'zapier-scan-v1-';

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** A scanned QR string without the surrounding spaces, tabs and line breaks scanners add; nothing else changes. */
export const cleanCode = (raw: string): string => raw.trim();

/** The key derived from a check-in body: the same body always gives the same key, any change a new one. */
export const derivedScanKey = (body: CheckInBody): string => {
  const canonical =
    'code' in body
      ? ['code', body.code, body.checkInTime ?? '']
      : ['registration', body.eventId, body.submissionId, body.checkInTime ?? ''];
  return `${DERIVED_PREFIX}${sha256(JSON.stringify(canonical))}`;
};

/**
 * The key for the Scanner's Scan Reference the user mapped (for example the scan's number in a door app, so
 * both systems share it): sent as it is when it is printable ASCII of at most 255 characters, otherwise
 * replaced by a stable hash.
 */
export const chosenScanKey = (reference: string): string => {
  const text = reference.trim();
  return /^[\x20-\x7e]+$/.test(text) && text.length <= MAX_KEY_LENGTH
    ? text
    : `${HASHED_SCAN_ID_PREFIX}${sha256(text)}`;
};

/**
 * The key once more for a follow-up ask after the service replayed a stored "not approved" or "no ticket"
 * answer: such answers changed nothing, and the registration may have been approved since. The follow-up
 * key is stable for a minute, so concurrent retries still share one answer.
 */
export const followUpScanKey = (key: string, now: number): string =>
  `${DERIVED_PREFIX}${sha256(JSON.stringify(['follow-up', key, Math.floor(now / 60_000)]))}`;

/**
 * The header value for a key: a bare token when it has no space or quote, otherwise an RFC 8941 quoted
 * string (contract §4 accepts both).
 */
export const keyHeaderValue = (key: string): string =>
  /^[\x21-\x7e]+$/.test(key) && !key.includes('"') ? key : `"${key.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
