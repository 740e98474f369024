/**
 * The one place where answers of the Connect API become Zapier errors a no-code user can act on.
 * Messages never contain the API key: they are built from the status, the error body and our own words.
 */
import type { ZObject } from 'zapier-platform-core';
import type { ZodError } from 'zod';
import { isLoopbackHost } from './config';
import { DIALECT } from './dialect';
import { ENTITLEMENT_NAMES, ErrorBody } from './schemas';
import { type RunKind, runKindOf } from './runKind';

export interface RawAnswer {
  status: number;
  content: string;
  contentType: string;
  retryAfter: string | null;
  /** The service replayed a stored answer for a repeated `Idempotency-Key` (`Idempotent-Replayed: true`). */
  replayed?: boolean;
}

/**
 * What an error of the Connect API means to the app: the app acts on these, never on the service's codes.
 * `endpoint_missing` is a 404 or 405 without the contract's error body (no Connect API answers there).
 */
export type ConnectMeaning =
  | 'not_found'
  | 'ticket_not_found'
  | 'entitlement_missing'
  | 'not_approved'
  | 'scan_in_progress'
  | 'scan_reference_reused'
  | 'rejected'
  | 'refused'
  | 'rate_limited'
  | 'service_failed'
  | 'endpoint_missing'
  | 'unexpected_answer';

/** The service's error codes (contract §2) and what each means: the one place they are read. */
const WIRE_ERROR_CODES: Readonly<Record<string, ConnectMeaning>> = {
  NOT_FOUND: 'not_found',
  TICKET_NOT_FOUND: 'ticket_not_found',
  ENTITLEMENT_REQUIRED: 'entitlement_missing',
  SUBMISSION_NOT_APPROVED: 'not_approved',
  IDEMPOTENCY_KEY_IN_USE: 'scan_in_progress',
  IDEMPOTENCY_KEY_REUSED: 'scan_reference_reused',
  VALIDATION_ERROR: 'rejected',
  RATE_LIMITED: 'rate_limited',
  INTERNAL: 'service_failed',
};

/** The status the contract answers each of its codes with (§2): what an answer is read as (`statusOfAnswer`). */
const CONTRACT_STATUSES: Readonly<Record<string, number>> = {
  VALIDATION_ERROR: 400,
  INVALID_API_KEY: 401,
  ENTITLEMENT_REQUIRED: 403,
  NOT_FOUND: 404,
  TICKET_NOT_FOUND: 404,
  IDEMPOTENCY_KEY_IN_USE: 409,
  SUBMISSION_NOT_APPROVED: 422,
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMITED: 429,
};

/** The contract's status of an error code (§2: 404 for `NOT_FOUND`), or undefined for a code it does not name. */
export const contractStatusOf = (code: string): number | undefined =>
  Object.hasOwn(CONTRACT_STATUSES, code) ? CONTRACT_STATUSES[code] : undefined;

/**
 * The status an error answer is read as: the contract's for its code when the service answers that code with
 * the status the dialect names (`errors.statuses` of `dialect.ts`: a 403 carrying `NOT_FOUND` reads as 404),
 * else the status as answered.
 */
export const statusOfAnswer = (
  status: number,
  code: string | undefined,
  statuses: Readonly<Record<string, number>> = DIALECT.errors.statuses,
): number =>
  code !== undefined && Object.hasOwn(statuses, code) && statuses[code] === status
    ? (CONTRACT_STATUSES[code] ?? status)
    : status;

/**
 * The app's own error code for each meaning: what a step's error carries, whatever the service calls it.
 * (Several are spelled as the contract's codes of today; they stay the same when the service's change.)
 */
export const APP_ERROR_CODES: Readonly<Record<ConnectMeaning, string>> = {
  not_found: 'NOT_FOUND',
  ticket_not_found: 'TICKET_NOT_FOUND',
  entitlement_missing: 'ENTITLEMENT_REQUIRED',
  not_approved: 'SUBMISSION_NOT_APPROVED',
  scan_in_progress: 'SCAN_IN_PROGRESS',
  scan_reference_reused: 'IDEMPOTENCY_KEY_REUSED',
  rejected: 'REQUEST_REJECTED',
  refused: 'ACCESS_REFUSED',
  rate_limited: 'RATE_LIMITED',
  service_failed: 'SERVICE_ERROR',
  endpoint_missing: 'ENDPOINT_MISSING',
  unexpected_answer: 'UNEXPECTED_ANSWER',
};

/** The app's code for an error the service answers with `wireCode` (contract §2), if the contract names it. */
export const appCodeOfWireCode = (wireCode: string): string | undefined =>
  Object.hasOwn(WIRE_ERROR_CODES, wireCode)
    ? APP_ERROR_CODES[WIRE_ERROR_CODES[wireCode] as ConnectMeaning]
    : undefined;

/** What the app reads an error answer to mean: a meaning, or `reconnect` (the key was refused, a 401). */
export type ErrorReading = ConnectMeaning | 'reconnect';

/**
 * The contract's code of a reading, for the words of a report (the conformance kit's): `not_found` →
 * `NOT_FOUND`, `reconnect` → `INVALID_API_KEY`; undefined for a reading the contract gives no code.
 */
export const contractCodeOf = (reading: ErrorReading): string | undefined =>
  reading === 'reconnect'
    ? 'INVALID_API_KEY'
    : Object.keys(WIRE_ERROR_CODES).find((code) => WIRE_ERROR_CODES[code] === reading);

const MEANING_OF_APP_CODE = new Map(
  Object.entries(APP_ERROR_CODES).map(([meaning, code]) => [code, meaning as ConnectMeaning]),
);

/** What an error answer means: by the service's code when it is one the contract names, else by status. */
const meaningOfAnswer = (status: number, wireCode: string | undefined): ConnectMeaning => {
  const known = wireCode === undefined ? undefined : WIRE_ERROR_CODES[wireCode];
  if (known) return known;
  if (status === 429) return 'rate_limited';
  if ((status === 404 || status === 405) && wireCode === undefined) return 'endpoint_missing';
  if (status === 404) return 'not_found';
  if (status === 403) return 'refused';
  if (status >= 500) return 'service_failed';
  if (status >= 400) return 'rejected';
  return 'unexpected_answer';
};

const MAX_EXCERPT = 120;

const excerpt = (text: string): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_EXCERPT ? `${flat.slice(0, MAX_EXCERPT)}…` : flat;
};

/** Seconds to wait from a `Retry-After` header: delta-seconds or an HTTP date; 60 s when absent or odd. */
export const retryAfterSeconds = (header: string | null, now = Date.now()): number => {
  if (header?.trim()) {
    const value = header.trim();
    if (/^\d+$/.test(value)) return Math.max(1, parseInt(value, 10));
    const date = Date.parse(value);
    if (!Number.isNaN(date)) return Math.max(1, Math.ceil((date - now) / 1000));
  }
  return 60;
};

/** The `error` member of an error answer's body, as the app reads it; undefined when there is none. */
export const parseErrorBody = (content: string): ErrorBody['error'] | undefined => {
  try {
    const parsed = ErrorBody.safeParse(JSON.parse(content));
    return parsed.success ? parsed.data.error : undefined;
  } catch {
    return undefined;
  }
};

const REPLAYED = Symbol('connect.replayedAnswer');

/**
 * Whether an error thrown by this module is a stored answer the service replayed for a repeated
 * `Idempotency-Key`: the situation may have changed since it was first given (check-in).
 */
export const isReplayedAnswer = (error: unknown): boolean =>
  error instanceof Error && (error as Error & { [REPLAYED]?: boolean })[REPLAYED] === true;

/**
 * What a failed call may do next, for the wording of its errors:
 * - `safe` — the request carries an `Idempotency-Key`, so sending it again cannot act twice: a temporary
 *   failure (5xx, no answer) becomes a `ThrottledError` and Zapier runs the step again;
 * - `later` — nothing retries it on its own (the connection test): the user is asked to try again;
 * - `zap` (default) — what follows depends on the run (`RunKind`, ./runKind.ts): a poll checks again at its
 *   next run and misses nothing; a search, an action or a webhook's run that stopped can be replayed; a
 *   dropdown, a field list or a trigger's test is asked again by the user;
 * - `turn-on` — turning a Zap on: the Zap builder turns it on again (nothing retries it on its own);
 * - `caller` — the caller's own message says what happens next: the error's words give none.
 */
export type RetryHint = 'safe' | 'later' | 'zap' | 'turn-on' | 'caller';

/** Seconds before Zapier runs an idempotent step again after a temporary failure. */
export const SAFE_RETRY_SECONDS = 60;

const TEMPORARY_ADVICE: Readonly<Record<Exclude<RetryHint, 'safe'>, string>> = {
  later: 'This is usually temporary: try again in a few minutes.',
  zap: 'This is usually temporary: a trigger checks again at its next poll and misses nothing; a stopped action or search can be replayed from the Zap history.',
  'turn-on': 'The Zap was not turned on. This is usually temporary: turn the Zap on again in a few minutes.',
  caller: '',
};

/** What follows a temporary failure of a `zap` read, by the kind of run that met it. */
const RUN_ADVICE: Readonly<Record<RunKind, string>> = {
  poll: 'This is usually temporary: this trigger checks again at its next poll and misses nothing.',
  delivery:
    'This is usually temporary: if this stopped the Zap run, replay it from the Zap history in a few minutes.',
  'trigger-test': 'This is usually temporary: test the trigger again in a few minutes.',
  dropdown: 'This is usually temporary: load the list again in a few minutes.',
  fields: 'This is usually temporary: refresh the fields in a few minutes.',
  search:
    'This is usually temporary: test the step again in a few minutes, or replay a stopped Zap run from the Zap history.',
  action:
    'This is usually temporary: test the step again in a few minutes, or replay a stopped Zap run from the Zap history.',
  'turn-on': TEMPORARY_ADVICE['turn-on'],
};

const temporaryAdvice = (retry: RetryHint, z?: ZObject): string => {
  if (retry === 'safe') return '';
  const kind = retry === 'zap' ? runKindOf(z) : null;
  return kind ? RUN_ADVICE[kind] : TEMPORARY_ADVICE[retry];
};

/** What to do after a 429 when nothing retries on its own (`later`, `turn-on`, `caller`), or `null`. */
const afterRateLimit = (retry: RetryHint, delay: number): string | null => {
  if (retry === 'later') return ` Wait ${delay} seconds, then try again.`;
  if (retry === 'turn-on') return ` The Zap was not turned on: wait ${delay} seconds, then turn it on again.`;
  return retry === 'caller' ? '' : null;
};

/** ` advice`, or nothing when there is none. */
const spaced = (advice: string): string => (advice ? ` ${advice}` : '');

const safeRetryAdvice = `Zapier runs this step again in ${SAFE_RETRY_SECONDS} seconds; the request carries the same Idempotency-Key each time, so nothing is done twice.`;

/** Turns a non-2xx answer about `what` ("the events list") into the matching Zapier error, and throws it. */
export const throwForAnswer = (
  z: ZObject,
  answer: RawAnswer,
  what: string,
  retry: RetryHint = 'zap',
): never => {
  try {
    return throwAnswerError(z, answer, what, retry);
  } catch (error) {
    if (answer.replayed && error instanceof Error) {
      Object.defineProperty(error, REPLAYED, { value: true, enumerable: false });
    }
    throw error;
  }
};

/** What an error answer says, read once for the rules below. */
interface ErrorAnswer {
  z: ZObject;
  answer: RawAnswer;
  what: string;
  retry: RetryHint;
  status: number;
  body: ReturnType<typeof parseErrorBody>;
  meaning: ConnectMeaning;
  /** The app's code for it. */
  code: string;
  /** The service's own code, for the words of a message only (support asks for it), never as the error's code. */
  wireCode: string;
  apiMessage: string | undefined;
}

const throwAnswerError = (z: ZObject, answer: RawAnswer, what: string, retry: RetryHint): never => {
  const body = parseErrorBody(answer.content);
  const status = statusOfAnswer(answer.status, body?.code);
  const meaning = meaningOfAnswer(status, body?.code);
  const read: ErrorAnswer = {
    z,
    answer,
    what,
    retry,
    status,
    body,
    meaning,
    code: APP_ERROR_CODES[meaning],
    wireCode: body?.code ?? `HTTP ${status}`,
    apiMessage: body?.message?.trim(),
  };
  throwForAccess(read);
  throwForMeaning(read);
  return throwForFailure(read);
};

/** A key refused, too many requests, the same scan still in progress: errors Zapier acts on itself. */
const throwForAccess = ({ z, answer, what, retry, status, meaning, code }: ErrorAnswer): void => {
  if (status === 401) {
    throw new z.errors.ExpiredAuthError(
      'The service did not accept your API key (it is missing, unknown or revoked). Reconnect your account in Zapier with a valid key from your dashboard: Settings → Integrations → API keys.',
    );
  }
  if (status === 429) {
    const delay = retryAfterSeconds(answer.retryAfter);
    const next = afterRateLimit(retry, delay);
    if (next !== null) {
      throw new z.errors.Error(
        `The service is receiving too many requests from your account right now (429 RATE_LIMITED) and refused ${what}.${next}`,
        code,
        429,
      );
    }
    throw new z.errors.ThrottledError(
      `The service is receiving too many requests from your account right now (429 RATE_LIMITED) while fetching ${what}. Zapier will try again in ${delay} seconds; nothing is lost.`,
      delay,
    );
  }
  if (meaning === 'scan_in_progress') {
    throw new z.errors.ThrottledError(
      'The same scan is still being processed by the service (409 IDEMPOTENCY_KEY_IN_USE). Zapier will retry this step shortly and get its result.',
      5,
    );
  }
};

/** An error the service names: a missing feature, something not found, not approved, rejected, refused. */
const throwForMeaning = ({
  z,
  what,
  status,
  body,
  meaning,
  code,
  wireCode,
  apiMessage,
}: ErrorAnswer): void => {
  if (meaning === 'entitlement_missing') {
    const feature = body?.entitlement ? ENTITLEMENT_NAMES[body.entitlement] : undefined;
    const named = feature ? `the ${feature} feature` : 'a feature that this step needs';
    throw new z.errors.Error(
      `Your plan does not include ${named}, so the service refused the request for ${what}. Ask the owner of the organizer account to add ${feature ?? 'it'} to the plan, then try again.`,
      code,
      status,
    );
  }
  if (status === 404) {
    const message =
      meaning === 'ticket_not_found'
        ? `No ticket of your events matches ${what}. Check that the person is registered with this organizer account and, for a QR code, that the whole code was scanned from their ticket.`
        : `The service could not find ${what}. It may have been deleted, or it belongs to another organizer account than the one connected.`;
    throw new z.errors.Error(message, code, status);
  }
  if (meaning === 'not_approved') {
    throw new z.errors.Error(
      `${notApprovedText(what, typeof body?.status === 'string' ? body.status : null)}${apiMessage ? ` The service said: ${apiMessage}.` : ''}`,
      code,
      status,
    );
  }
  if (meaning === 'scan_reference_reused') {
    throw new z.errors.Error(
      `This scan reference was already used in the last 24 hours for a different check-in (another code, registration or check-in time), so nothing was checked in. Map a reference that is unique to each scan into "Scanner's Scan Reference", or leave that field empty.${apiMessage ? ` The service said: ${apiMessage}.` : ''}`,
      code,
      status,
    );
  }
  if (status === 400 || status === 422 || status === 409) {
    const field = body?.field ? ` (field "${body.field}")` : '';
    const detail = apiMessage ?? `the service rejected the request with HTTP ${status}`;
    throw new z.errors.Error(
      `The service rejected the request for ${what}: ${detail}${field}.`,
      code,
      status,
    );
  }
  if (status === 403) {
    throw new z.errors.Error(
      `The service refused access to ${what} (HTTP 403${body ? ` ${wireCode}` : ''}). ${apiMessage ?? 'Check the permissions of the API key.'}`,
      code,
      status,
    );
  }
};

/** Anything else: the service failed (5xx), or an answer the contract does not describe. */
const throwForFailure = ({
  z,
  answer,
  what,
  retry,
  status,
  body,
  code,
  wireCode,
  apiMessage,
}: ErrorAnswer): never => {
  const shown = body
    ? `${wireCode}${apiMessage ? `: ${apiMessage}` : ''}`
    : answer.content.trim()
      ? `it answered ${answer.contentType || 'an unknown content type'}: "${excerpt(answer.content)}"`
      : 'the answer was empty';
  if (status >= 500) {
    if (retry === 'safe') {
      throw new z.errors.ThrottledError(
        `The service had a temporary problem with the request for ${what} (HTTP ${status}, ${shown}). ${safeRetryAdvice}`,
        SAFE_RETRY_SECONDS,
      );
    }
    throw new z.errors.Error(
      `The service had a problem while fetching ${what} (HTTP ${status}, ${shown}).${spaced(temporaryAdvice(retry, z))}`,
      code,
      status,
    );
  }
  throw new z.errors.Error(
    `Unexpected answer while fetching ${what} (HTTP ${status}, ${shown}).`,
    code,
    status,
  );
};

/**
 * The words for a registration that is not approved, by its status: a rejected one is not "waiting", and
 * the fix differs. `what` names what was checked in: `QR code "…"` or `registration sub_…`.
 */
const notApprovedText = (what: string, status: string | null): string => {
  const subject = /^registration /i.test(what) ? `R${what.slice(1)}` : `The registration behind ${what}`;
  const state = status?.trim().toLowerCase() ?? '';
  if (state === 'rejected') {
    return `${subject} was rejected, so it has no ticket to check in. If it was rejected by mistake, approve it in the dashboard, then run this step again.`;
  }
  if (state === 'pending') {
    return `${subject} is still waiting for approval (status "pending"), so it has no ticket to check in yet. Approve it in the dashboard, then run this step again.`;
  }
  if (state) {
    return `${subject} is not approved (its status is "${status?.trim().slice(0, 40)}"), so it has no ticket to check in. Look it up in the dashboard; once it is approved, run this step again.`;
  }
  // The documented answer says only "not approved": the registration may be pending or rejected.
  return `${subject} is not approved: it is still pending or was rejected, so it has no ticket to check in. Look it up in the dashboard: if it is pending (or was rejected by mistake), approve it, then run this step again.`;
};

/** What a failed check-in means, where the step acts on it: `no-ticket`, no ticket matches what was sent. */
export type CheckInFailure = 'no-ticket';

/** The meaning of a check-in's error (`CheckInFailure`), or `null` when it is none of them. */
export const checkInFailureOf = (error: unknown): CheckInFailure | null =>
  isTicketNotFound(error) ? 'no-ticket' : null;

/**
 * The error for a check-in by registration that the service answered 404 `TICKET_NOT_FOUND`: the
 * registration is not one of the chosen event's (the Event field names another event than the one the person
 * registered for, or the ID is not a registration of this organizer account). `eventTitle` names the event of
 * the Event field; `null` when it could not be read.
 */
export const registrationNotInEventError = (
  z: ZObject,
  body: { eventId: string; submissionId: string },
  eventTitle: string | null,
): Error => {
  const event = eventTitle
    ? `"${eventTitle.slice(0, 120)}" (the event in the Event field)`
    : `the event in the Event field (ID ${body.eventId.slice(0, 80)})`;
  return new z.errors.Error(
    `Registration ${body.submissionId.slice(0, 80)} is not one of the registrations of ${event}, so nobody was checked in. Check the Event field: it must be the event this person registered for (map it from the same step as the registration ID, or pick it again); and check that the registration ID belongs to this organizer account.`,
    APP_ERROR_CODES.ticket_not_found,
    404,
  );
};

/** Node's network error codes in a user's words. */
const NETWORK_CODES: Record<string, string> = {
  ENOTFOUND: 'no server has this host name (check its spelling)',
  EAI_AGAIN: 'its host name could not be looked up just now',
  ECONNREFUSED: 'nothing accepts connections at this address and port',
  ECONNRESET: 'the connection was closed before an answer came',
  EHOSTUNREACH: 'the host cannot be reached from the internet',
  ETIMEDOUT: 'the connection timed out',
  ESOCKETTIMEDOUT: 'no answer came in time',
};

const TLS_PROTOCOL =
  /wrong version number|packet length too long|unknown protocol|http request|SSL routines|EPROTO/i;
const TLS_CERTIFICATE = /CERT|certificate|self[- ]signed|altname/i;

/**
 * A request that got no HTTP answer at all, in words: the host of the Connect API URL, what went wrong and
 * the one fix. Raw library text (OpenSSL's, for one) is never shown: it names no action and is often cut.
 */
export const networkError = (
  z: ZObject,
  error: unknown,
  place: { baseUrl: string; typedUrl?: string; what: string },
  retry: RetryHint = 'zap',
) => {
  const host = new URL(place.baseUrl).host;
  const e = (error ?? {}) as {
    code?: unknown;
    errno?: unknown;
    type?: unknown;
    message?: unknown;
    cause?: unknown;
  };
  const cause = (e.cause ?? {}) as { code?: unknown; message?: unknown };
  const message = [e.message, cause.message].filter((m) => typeof m === 'string').join(' ');
  const code =
    [e.code, e.errno, cause.code].find((c): c is string => typeof c === 'string' && c !== '') ??
    /\b(E[A-Z]{3,}|ERR_[A-Z_]+)\b/.exec(message)?.[1] ??
    '';
  const typed = place.typedUrl?.trim();
  const noScheme = Boolean(typed && !/^[a-z][a-z0-9+.-]*:\/\//i.test(typed));

  if (TLS_PROTOCOL.test(code) || TLS_PROTOCOL.test(message)) {
    const how = noScheme
      ? `The Connect API URL "${typed}" has no https://, so https://${host} was tried`
      : `https://${host} was tried`;
    // Plain http is accepted on a loopback address (a local server), and only there.
    const fix = isLoopbackHost(new URL(place.baseUrl).hostname)
      ? `${host} is a local address, where plain http is accepted: if that server has no HTTPS, reconnect your account with http://${host}${new URL(place.baseUrl).pathname.replace(/\/$/, '')}.`
      : 'Reconnect your account with the https:// address of your Connect API (for example https://api.example.com); plain http is not accepted.';
    return new z.errors.Error(
      `${how}, but the server there does not speak HTTPS (it answers like a plain HTTP server), so ${place.what} could not be fetched. ${fix}`,
      'NETWORK',
      0,
    );
  }
  if (TLS_CERTIFICATE.test(code)) {
    return new z.errors.Error(
      `The HTTPS certificate of ${host} is not valid (${code}), so ${place.what} was not fetched. Check the Connect API URL of your connection: it must be the address of your Connect API, whose certificate is valid.`,
      'NETWORK',
      0,
    );
  }
  const timedOut = e.type === 'request-timeout' || /timeout/i.test(code) || /timeout/i.test(message);
  const known = NETWORK_CODES[code];
  const reason = timedOut
    ? 'no answer came in time'
    : known
      ? `${known} (${code})`
      : code
        ? `the connection failed (${code})`
        : 'the connection failed';
  const fix =
    code === 'ENOTFOUND' || code === 'ECONNREFUSED' || code === 'EHOSTUNREACH'
      ? 'Check the Connect API URL of your connection: it is the address of your Connect API, for example https://api.example.com.'
      : retry === 'safe'
        ? safeRetryAdvice
        : temporaryAdvice(retry, z);
  const text = `Could not reach the service at ${host} while fetching ${place.what}: ${reason}.${spaced(fix)}`;
  if (retry === 'safe' && fix === safeRetryAdvice)
    return new z.errors.ThrottledError(text, SAFE_RETRY_SECONDS);
  return new z.errors.Error(text, 'NETWORK', 0);
};

export const throwNotJson = (z: ZObject, answer: RawAnswer, what: string): never => {
  throw new z.errors.Error(
    `The service's answer for ${what} was not JSON (HTTP ${answer.status}, ${answer.contentType || 'no content type'}): "${excerpt(answer.content) || '(empty)'}". Check the Connect API URL of your connection; the service may also be under maintenance.`,
    'INVALID_RESPONSE',
    answer.status,
  );
};

export const throwBadShape = (z: ZObject, status: number, error: ZodError, what: string): never => {
  const issues = error.issues.slice(0, 3).map((issue) => {
    const where = issue.path.length ? issue.path.map(String).join('.') : '(body)';
    return `${where}: ${issue.message}`;
  });
  const more = error.issues.length > 3 ? ` and ${error.issues.length - 3} more` : '';
  throw new z.errors.Error(
    `The service's answer for ${what} did not have the expected shape (HTTP ${status}): ${issues.join('; ')}${more}. Nothing was processed; the next attempt will retry.`,
    'INVALID_RESPONSE',
    status,
  );
};

/** The message of an error in words, without the JSON wrapping of Zapier's errors (never contains the key). */
export const errorText = (error: unknown): string => {
  const message = error instanceof Error ? error.message : String(error);
  try {
    const parsed: unknown = JSON.parse(message);
    if (parsed && typeof parsed === 'object' && 'message' in parsed && typeof parsed.message === 'string') {
      return parsed.message;
    }
  } catch {
    // a plain message
  }
  return message;
};

/** The app's code of an error thrown by the app (`NOT_FOUND`, `TICKET_NOT_FOUND`, …), if it has one. */
export const appErrorCode = (error: unknown): string | undefined => {
  if (!(error instanceof Error)) return undefined;
  try {
    const parsed: unknown = JSON.parse(error.message);
    if (parsed && typeof parsed === 'object' && 'code' in parsed && typeof parsed.code === 'string') {
      return parsed.code;
    }
  } catch {
    // not one of ours
  }
  return undefined;
};

/**
 * What an error of the Connect API means (`'not_found'`, `'ticket_not_found'`, `'entitlement_missing'`, …),
 * or `null` for any other error (a network failure, an answer that could not be read, the app's own).
 */
export const errorMeaning = (error: unknown): ConnectMeaning | null =>
  MEANING_OF_APP_CODE.get(appErrorCode(error) ?? '') ?? null;

/** Whether no such resource was found: the service's not-found, or an event the account does not hold (`EVENT_NOT_FOUND`). */
export const isNotFound = (error: unknown): boolean =>
  errorMeaning(error) === 'not_found' || appErrorCode(error) === EVENT_NOT_FOUND;

/** The error said that no ticket matches what was checked in (check-in, contract §4). */
export const isTicketNotFound = (error: unknown): boolean => errorMeaning(error) === 'ticket_not_found';

/** The code of `eventNotFoundError`. */
export const EVENT_NOT_FOUND = 'EVENT_NOT_FOUND';

/**
 * The error for an event that is not among the connected account's events: the service answered 404 for an
 * event-scoped read, or the account's events list does not hold it. One message for every operation that
 * takes an event. `newest`: the list read holds only the account's newest events (this many), so the event
 * may also be older than these. `next`: what to do after choosing it again, when there is more to do.
 */
export const eventNotFoundError = (
  z: ZObject,
  eventId: string,
  options: { newest?: number; next?: string; said?: EventRefusal } = {},
): Error => {
  if (options.said) return eventRefusedError(z, `ID ${eventId}`, options.said, options.next);
  const where = options.newest
    ? `the ${options.newest} newest events that the service lists for the connected account: it may have been deleted, belong to another organizer account, or be older than these`
    : 'the events of the connected account: it may have been deleted, or it belongs to another organizer account';
  return new z.errors.Error(
    `The event in the Event field (ID ${eventId.slice(0, 80)}) is not among ${where}. Choose the event again in the Event field, or map an event ID of this account from an earlier step${options.next ? `, ${options.next}` : ''}.`,
    EVENT_NOT_FOUND,
    404,
  );
};

/**
 * Why the service refused an event of the Event field, as far as it can be told: `another-organizer` (it is
 * published in the public catalog, so it exists, and the account's keyed read of it answered not-found),
 * `deleted` (it was one of the account's events and its keyed read now answers not-found), `either` (the
 * keyed read answered not-found, which the contract gives for both, and nothing else the app holds tells:
 * given by ID, an event of another organizer is not looked for in the whole public catalog).
 */
export type EventRefusal = 'another-organizer' | 'deleted' | 'either';

const REFUSAL_WORDS: Record<EventRefusal, string> = {
  'another-organizer':
    "is not one of the connected account's events: the service shows it in its public catalog, so it belongs to another organizer account",
  deleted:
    "no longer exists: it was one of the connected account's events, and the service now answers that it has no such event (it was deleted)",
  either:
    "is not one of the connected account's events: the service answers that this account has no event with this ID, and it answers the same for another organizer's event and for a deleted one, so which of the two it is cannot be told from an ID",
};

/**
 * The error for an event that a keyed request of the service refused (`EventRefusal` says which case); `ref`
 * names it as the user gave it (`ID …`, `slug "…"`).
 */
export const eventRefusedError = (z: ZObject, ref: string, said: EventRefusal, next?: string): Error =>
  new z.errors.Error(
    `The event in the Event field (${ref.slice(0, 120)}) ${REFUSAL_WORDS[said]}. Choose one of your events in the Event field (its search finds older ones), or map an event ID, slug or public link of this account from an earlier step${next ? `, ${next}` : ''}.`,
    EVENT_NOT_FOUND,
    404,
  );

/**
 * The error for a Connect API URL whose host does not answer like a Connect API (`notConnectApiReason`): the
 * same words for the connection test and every operation.
 */
export const notConnectApiError = (
  z: ZObject,
  baseUrl: string,
  reason: 'no-endpoint' | 'bad-answer',
): Error => {
  const url = new URL(baseUrl);
  const path = url.pathname.replace(/\/$/, '');
  const why =
    reason === 'bad-answer'
      ? 'its answer was not what the Connect API sends'
      : 'the events endpoint was not found';
  return new z.errors.Error(
    `${url.host}${path.slice(0, 80)} does not answer like a Connect API (${why}). Check the Connect API URL of your connection: it is the address of the API host, without any path after it.`,
    'WRONG_BASE_URL',
    // What the host answered: no such endpoint (404), or an answer that is not the API's (502).
    reason === 'bad-answer' ? 502 : 404,
  );
};

/**
 * Why an error shows that a host does not answer like a Connect API: `'no-endpoint'` when the events
 * endpoint is missing there (404 or 405 without the API's error body, or the API's NOT_FOUND), `'bad-answer'`
 * when its answer was not what the API sends; `null` for any other error.
 */
export const notConnectApiReason = (error: unknown): 'no-endpoint' | 'bad-answer' | null => {
  if (appErrorCode(error) === 'INVALID_RESPONSE') return 'bad-answer';
  const meaning = errorMeaning(error);
  return meaning === 'not_found' || meaning === 'endpoint_missing' ? 'no-endpoint' : null;
};

const OUTDATED_WHEN_REPLAYED = new Set<ConnectMeaning | null>(['not_approved', 'ticket_not_found']);

/**
 * Whether an error is a stored check-in answer the service replayed that changed nothing ("not approved",
 * "no ticket"): the registration may have been approved since, so asking again is worthwhile.
 */
export const isOutdatedReplay = (error: unknown): boolean =>
  isReplayedAnswer(error) && OUTDATED_WHEN_REPLAYED.has(errorMeaning(error));

/** What is known of a 2xx list answer whose body could not be read as a list. */
export interface BrokenListAnswer {
  status: number;
  contentType: string;
  /** Why, in words: "the answer ended after 1200 bytes, inside record 3, before it was complete". */
  reason: string;
  /** The beginning of the body (shown only when it is not JSON at all: an HTML page, a plain text). */
  head: string;
}

/**
 * Turns a list answer that is not a complete, well-formed list into a clear error: nothing of it was used,
 * and the next attempt reads it again. `kind` is a `ListReadError` kind.
 */
export const throwBrokenList = (
  z: ZObject,
  kind: 'not-json' | 'syntax' | 'truncated' | 'shape' | 'too-large',
  answer: BrokenListAnswer,
  what: string,
): never => {
  const { status } = answer;
  if (kind === 'not-json') {
    return throwNotJson(
      z,
      { status, content: answer.head, contentType: answer.contentType, retryAfter: null },
      what,
    );
  }
  const retry = 'Nothing of it was used; Zapier will retry, and nothing is lost.';
  const message =
    kind === 'truncated'
      ? `The service's answer for ${what} was cut off before it was complete (HTTP ${status}: ${answer.reason}). ${retry}`
      : kind === 'shape'
        ? `The service's answer for ${what} did not have the expected shape (HTTP ${status}): ${answer.reason}. ${retry}`
        : kind === 'too-large'
          ? `The service's answer for ${what} could not be read (HTTP ${status}): ${answer.reason}. ${retry}`
          : `The service's answer for ${what} was not valid JSON (HTTP ${status}: ${answer.reason}). ${retry}`;
  throw new z.errors.Error(message, 'INVALID_RESPONSE', status);
};
