/**
 * The one request function of the app. Every operation reaches the Connect API through `connectRequest`:
 * it joins the base URL and a path from `paths`, adds `X-API-KEY` only for the configured base URL,
 * parses JSON, validates it against a contract schema and maps every failure to a clear Zapier error.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import type { ZodType } from 'zod';
import { type AuthData, isUnderBaseUrl, resolveBaseUrl } from './config';
import {
  type RawAnswer,
  type RetryHint,
  isNotFound,
  networkError,
  throwBadShape,
  throwForAnswer,
  throwNotJson,
} from './errors';

export type Query = Record<string, string | number | boolean | null | undefined>;

export interface ConnectCall<T> {
  method?: 'GET' | 'POST' | 'DELETE';
  /** A path from `paths` (already encoded). */
  path: string;
  query?: Query;
  body?: unknown;
  headers?: Record<string, string>;
  /** The schema of a 2xx body; `null` when no body is expected (204). */
  schema: ZodType<T> | null;
  /** For public endpoints (catalog, widgets): no key is sent. */
  public?: boolean;
  /** What is fetched, in a user's words, for messages: "the events list". */
  what: string;
  /** Milliseconds before giving up; polls have 30 s in all. */
  timeoutMs?: number;
  /**
   * For answers that can be many megabytes (a day of registrations): the body is read here as text only.
   * Otherwise Zapier parses every JSON answer twice on its own before this module parses it once more.
   */
  large?: boolean;
  /** What a temporary failure may do next (see `RetryHint`); `safe` only with an `Idempotency-Key`. */
  retry?: RetryHint;
}

export interface ConnectResult<T> {
  data: T;
  status: number;
  headers: { get(name: string): string | null };
  /** Bytes of the body as received, for transfer accounting. */
  bytes: number;
}

const DEFAULT_TIMEOUT_MS = 20_000;

/** Joins a normalised base URL and an encoded path, with a query built from defined values only. */
export const buildUrl = (baseUrl: string, path: string, query?: Query): string => {
  const url = new URL(`${baseUrl}${path.startsWith('/') ? path : `/${path}`}`);
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') url.searchParams.set(name, String(value));
  }
  return url.toString();
};

/** Headers for a request to `url`: the API key only when `url` is under the account's base URL. */
export const headersFor = (
  url: string,
  baseUrl: string,
  authData: AuthData,
  extra: Record<string, string> = {},
  isPublic = false,
): Record<string, string> => {
  const headers: Record<string, string> = { Accept: 'application/json', ...extra };
  for (const name of Object.keys(headers)) {
    if (name.toLowerCase() === 'x-api-key') delete headers[name];
  }
  if (!isPublic && authData.apiKey && isUnderBaseUrl(url, baseUrl)) headers['X-API-KEY'] = authData.apiKey;
  return headers;
};

export const connectRequestFull = async <T>(
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  call: ConnectCall<T>,
): Promise<ConnectResult<T>> => {
  const baseUrl = resolveBaseUrl(z, bundle.authData);
  const url = buildUrl(baseUrl, call.path, call.query);
  const hasBody = call.body !== undefined;
  const headers = headersFor(
    url,
    baseUrl,
    bundle.authData,
    { ...(hasBody ? { 'Content-Type': 'application/json' } : {}), ...call.headers },
    call.public,
  );

  let response;
  try {
    response = await z.request({
      url,
      method: call.method ?? 'GET',
      headers,
      body: hasBody ? JSON.stringify(call.body) : undefined,
      skipThrowForStatus: true,
      throwForThrottlingEarly: false,
      timeout: call.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      ...(call.large ? { raw: true } : {}),
    } as Parameters<ZObject['request']>[0] & { url: string });
    if (call.large) {
      const text = await (response as unknown as { text(): Promise<string> }).text();
      response = { status: response.status, headers: response.headers, content: text };
    }
  } catch (error) {
    throw networkError(z, error, { baseUrl, typedUrl: bundle.authData.baseUrl, what: call.what }, call.retry);
  }

  const answer: RawAnswer = {
    status: response.status,
    content: response.content ?? '',
    contentType: response.headers.get('content-type') ?? '',
    retryAfter: response.headers.get('retry-after'),
    replayed: response.headers.get('idempotent-replayed') === 'true',
  };
  if (answer.status < 200 || answer.status > 299) throwForAnswer(z, answer, call.what, call.retry);

  const bytes = Buffer.byteLength(answer.content);
  if (call.schema === null) {
    return { data: undefined as T, status: answer.status, headers: response.headers, bytes };
  }
  let json: unknown;
  try {
    json = JSON.parse(answer.content);
  } catch {
    return throwNotJson(z, answer, call.what);
  }
  const parsed = call.schema.safeParse(json);
  if (!parsed.success) return throwBadShape(z, answer.status, parsed.error, call.what);
  return { data: parsed.data, status: answer.status, headers: response.headers, bytes };
};

export const connectRequest = async <T>(
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  call: ConnectCall<T>,
): Promise<T> => (await connectRequestFull(z, bundle, call)).data;

/** Like `connectRequest`, but a 404 NOT_FOUND is `null` (searches turn it into "no result"). */
export const connectRequestOrNull = async <T>(
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  call: ConnectCall<T>,
): Promise<T | null> => {
  try {
    return await connectRequest(z, bundle, call);
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
};
