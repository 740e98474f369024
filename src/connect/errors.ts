/**
 * The one place where answers of the Connect API become Zapier errors a no-code user can act on.
 * Messages never contain the API key: they are built from the status, the error body and our own words.
 */
import type { ZObject } from 'zapier-platform-core';
import type { ZodError } from 'zod';
import { ENTITLEMENT_NAMES, ErrorBody } from './schemas';

export interface RawAnswer {
  status: number;
  content: string;
  contentType: string;
  retryAfter: string | null;
  /** The service replayed a stored answer for a repeated `Idempotency-Key` (`Idempotent-Replayed: true`). */
  replayed?: boolean;
}

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

const parseErrorBody = (content: string): ErrorBody['error'] | undefined => {
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

/** Turns a non-2xx answer about `what` ("the events list") into the matching Zapier error, and throws it. */
export const throwForAnswer = (z: ZObject, answer: RawAnswer, what: string): never => {
  try {
    return throwAnswerError(z, answer, what);
  } catch (error) {
    if (answer.replayed && error instanceof Error) {
      Object.defineProperty(error, REPLAYED, { value: true, enumerable: false });
    }
    throw error;
  }
};

const throwAnswerError = (z: ZObject, answer: RawAnswer, what: string): never => {
  const { status } = answer;
  const body = parseErrorBody(answer.content);
  const code = body?.code ?? (status >= 500 ? 'INTERNAL' : `HTTP_${status}`);
  const apiMessage = body?.message?.trim();

  if (status === 401) {
    throw new z.errors.ExpiredAuthError(
      'The service did not accept your API key (it is missing, unknown or revoked). Reconnect your account in Zapier with a valid key from your dashboard: Settings → Integrations → API keys.',
    );
  }
  if (status === 429) {
    const delay = retryAfterSeconds(answer.retryAfter);
    throw new z.errors.ThrottledError(
      `The service is receiving too many requests from your account right now (429 RATE_LIMITED) while fetching ${what}. Zapier will try again in ${delay} seconds; nothing is lost.`,
      delay,
    );
  }
  if (status === 409 && code === 'IDEMPOTENCY_KEY_IN_USE') {
    throw new z.errors.ThrottledError(
      'The same scan is still being processed by the service (409 IDEMPOTENCY_KEY_IN_USE). Zapier will retry this step shortly and get its result.',
      5,
    );
  }
  if (status === 403 && code === 'ENTITLEMENT_REQUIRED') {
    const feature = (body?.entitlement && ENTITLEMENT_NAMES[body.entitlement]) || 'this feature';
    throw new z.errors.Error(
      `Your plan does not include ${feature}, which is needed for ${what}. Ask the organizer's account owner to add it to the subscription, then try again.`,
      code,
      status,
    );
  }
  if (status === 404) {
    const message =
      code === 'TICKET_NOT_FOUND'
        ? 'No ticket matches this code or registration. Check that the QR code was scanned from this event and that the person is registered.'
        : `The service could not find ${what}. It may have been deleted, or it belongs to another organizer account than the one connected.`;
    throw new z.errors.Error(message, code, status);
  }
  if (status === 422 && code === 'SUBMISSION_NOT_APPROVED') {
    const state = body?.status ? ` (its status is "${body.status}")` : '';
    throw new z.errors.Error(
      `This registration exists but is not approved yet${state}, so it has no valid ticket to check in. Approve it in the dashboard, then check the person in again.${apiMessage ? ` The service said: ${apiMessage}.` : ''}`,
      code,
      status,
    );
  }
  if (status === 422 && code === 'IDEMPOTENCY_KEY_REUSED') {
    throw new z.errors.Error(
      `This Scan ID was already used in the last 24 hours for a different check-in (another code, registration or check-in time), so nothing was checked in. Give every scan its own Scan ID, or leave Scan ID empty.${apiMessage ? ` The service said: ${apiMessage}.` : ''}`,
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
      `The service refused access to ${what} (HTTP 403${body ? ` ${code}` : ''}). ${apiMessage ?? 'Check the permissions of the API key.'}`,
      code,
      status,
    );
  }
  const shown = body
    ? `${code}${apiMessage ? `: ${apiMessage}` : ''}`
    : answer.content.trim()
      ? `it answered ${answer.contentType || 'an unknown content type'}: "${excerpt(answer.content)}"`
      : 'the answer was empty';
  if (status >= 500) {
    throw new z.errors.Error(
      `The service had a problem while fetching ${what} (HTTP ${status}, ${shown}). This is usually temporary; Zapier will retry, and nothing is lost.`,
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

/** The code of an error thrown by this module (`NOT_FOUND`, `TICKET_NOT_FOUND`, …), if it is one. */
export const connectErrorCode = (error: unknown): string | undefined => {
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

export const isNotFound = (error: unknown): boolean => connectErrorCode(error) === 'NOT_FOUND';

/**
 * Why an error shows that a host does not answer like a Connect API: `'no-endpoint'` when the events
 * endpoint is missing there (404 or 405 without the API's error body, or the API's NOT_FOUND), `'bad-answer'`
 * when its answer was not what the API sends; `null` for any other error.
 */
export const notConnectApiReason = (error: unknown): 'no-endpoint' | 'bad-answer' | null => {
  const code = connectErrorCode(error);
  if (code === 'INVALID_RESPONSE') return 'bad-answer';
  return code === 'NOT_FOUND' || code === 'HTTP_404' || code === 'HTTP_405' ? 'no-endpoint' : null;
};

const OUTDATED_WHEN_REPLAYED = new Set(['SUBMISSION_NOT_APPROVED', 'TICKET_NOT_FOUND']);

/**
 * Whether an error is a stored check-in answer the service replayed that changed nothing ("not approved",
 * "no ticket"): the registration may have been approved since, so asking again is worthwhile.
 */
export const isOutdatedReplay = (error: unknown): boolean =>
  isReplayedAnswer(error) && OUTDATED_WHEN_REPLAYED.has(connectErrorCode(error) ?? '');
