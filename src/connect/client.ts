/**
 * The one request function of the app. Every operation reaches the Connect API through `connectRequest`
 * (one object) or `connectList` (a list, record by record, with the odd-record rule): it joins the base URL
 * and a path from `paths`, adds `X-API-KEY` only for the configured base URL, parses JSON, validates it
 * against a contract schema and maps every failure to a clear Zapier error.
 * Redirects are never followed blindly: a keyed request stays under the base URL (never to another origin,
 * never from https to http), and every message is blanked of the connection's secrets (src/connect/secrets.ts).
 */
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { Bundle, ZObject } from 'zapier-platform-core';
import type { ZodType, z } from 'zod';
import { type AuthData, isLoopbackHost, isUnderBaseUrl, resolveBaseUrl } from './config';
import {
  type RawAnswer,
  type RetryHint,
  appErrorCode,
  errorMeaning,
  isNotFound,
  networkError,
  notConnectApiError,
  notConnectApiReason,
  throwBadShape,
  throwBrokenList,
  throwForAnswer,
  throwNotJson,
} from './errors';
import { droppedKeysLine, parseJsonSafely } from './json';
import { paths } from './paths';
import { AnyList } from './schemas';
import { ListReadError } from './listSplitter';
import {
  type ListRead,
  type ReaderOptions,
  STOP_READING,
  type Visit,
  listReader,
  readListText,
} from './lists';
import { boundRecord, withCuts } from './bounds';
import { type ObjectSchema, type RecordRule, recordLog } from './records';
import { DIALECT, type ListNext, nextWords, queryName } from './dialect';
import { type PageRead, followPages } from './continuation';
import { readerOf } from './wire';
import { type Redact, bundleRedactor, redactError } from './secrets';

export type Query = Record<string, string | number | boolean | null | undefined>;

/** The header that carries the API key (interface document), on keyed requests to the Connect API only. */
export const API_KEY_HEADER = 'X-API-KEY';

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

/**
 * Time limits of requests without a `timeoutMs` of their own, and of a streamed list read without one (a
 * lookup through a whole event). A run reads them with `streamLimits()`.
 */
export interface StreamLimits {
  readonly requestMs: number;
  readonly lookupMs: number;
  readonly stallMs: number;
  readonly stepMs: number;
  readonly searchMs: number;
  readonly pageMs: number;
}

export const STREAM_LIMITS: StreamLimits = Object.freeze({
  /** An answer must start arriving within this. */
  requestMs: 20_000,
  /** The whole answer: Zapier stops an invocation at 30 s. */
  lookupMs: 27_000,
  /** No byte of the answer for this long: it stalled. */
  stallMs: 20_000,
  /** How often the limits are checked, at most. */
  stepMs: 250,
  /**
   * How long a search through the public catalog (Find Event, the Event dropdown's older pages, an event
   * looked up by ID past the account's newest) reads on: it then stops and says how far it read, inside
   * Zapier's 30 s with room for the requests that follow it.
   */
  searchMs: 20_000,
  /**
   * How long the public pages of the events a search found (their descriptions and cover images) may take to
   * read once the search is done: read together, they fit in what Zapier's 30 s leaves after `searchMs`.
   */
  pageMs: 5_000,
});

/** The environment variable a run sets to other limits: JSON with some of `STREAM_LIMITS`' keys. */
export const STREAM_LIMITS_ENV = 'CONNECT_STREAM_LIMITS';

/**
 * The limits of this run: `STREAM_LIMITS`, with those the run's environment sets in `CONNECT_STREAM_LIMITS`
 * (positive numbers only; anything else there is ignored). The environment is the value a test, a benchmark
 * or a developer on a slow machine hands the app without reaching into it: tests that assert behaviour set
 * limits no machine reaches, tests of a limit set a short one.
 */
export const streamLimits = (env: NodeJS.ProcessEnv = process.env): StreamLimits => {
  const raw = env[STREAM_LIMITS_ENV];
  if (!raw) return STREAM_LIMITS;
  let given: Record<string, unknown> = {};
  try {
    const value: unknown = JSON.parse(raw);
    if (value && typeof value === 'object') given = value as Record<string, unknown>;
  } catch {
    given = {};
  }
  const valid = Object.keys(STREAM_LIMITS).filter((key) => {
    const v = given[key];
    return typeof v === 'number' && Number.isFinite(v) && v > 0;
  });
  return Object.freeze({ ...STREAM_LIMITS, ...Object.fromEntries(valid.map((key) => [key, given[key]])) });
};

/** Joins a normalised base URL and an encoded path, with a query built from defined values only. */
/**
 * Joins a normalised base URL and an encoded path, with a query built from defined values only; the query's
 * parameters are named by the app (`eventId`) and sent under the dialect's names (`dialect.ts`).
 */
export const buildUrl = (baseUrl: string, path: string, query?: Query): string => {
  const url = new URL(`${baseUrl}${path.startsWith('/') ? path : `/${path}`}`);
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '')
      url.searchParams.set(queryName(DIALECT, name), String(value));
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
    if (name.toLowerCase() === API_KEY_HEADER.toLowerCase()) delete headers[name];
  }
  if (!isPublic && authData.apiKey && isUnderBaseUrl(url, baseUrl)) headers[API_KEY_HEADER] = authData.apiKey;
  return headers;
};

/** Redirect answers; the Connect API never sends one (contract §1), so each is checked before it is followed. */
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

const originOf = (url: string): string => {
  try {
    return new URL(url).origin;
  } catch {
    return '(an address that could not be read)';
  }
};

/**
 * Whether a redirect from `from` to `to` may be followed. Keyed requests stay under the account's base URL
 * (same scheme, host, port and path prefix): the key goes to the Connect API only. Public requests carry no
 * key and may follow a redirect to another https host, but never from https to http (the answer could be
 * altered on the way) nor to a loopback host unless the base URL itself is one (the local sandbox).
 */
const redirectProblem = (
  from: string,
  to: string,
  baseUrl: string,
  isPublic: boolean,
): 'downgrade' | 'elsewhere' | null => {
  const source = new URL(from);
  const target = new URL(to);
  if (source.protocol === 'https:' && target.protocol !== 'https:') return 'downgrade';
  if (!isPublic) return isUnderBaseUrl(to, baseUrl) ? null : 'elsewhere';
  if (target.protocol !== 'https:' && target.protocol !== 'http:') return 'elsewhere';
  const base = new URL(baseUrl);
  if (isLoopbackHost(target.hostname) && !isLoopbackHost(base.hostname)) return 'elsewhere';
  return null;
};

const refuseRedirect = (
  z: ZObject,
  problem: 'downgrade' | 'elsewhere' | 'too-many',
  context: { status: number; target: string; baseUrl: string; what: string; isPublic: boolean },
): never => {
  const host = new URL(context.baseUrl).host;
  const where = originOf(context.target);
  const keyNote = context.isPublic ? '' : ' and your API key was not sent there';
  const reason =
    problem === 'downgrade'
      ? `to the unencrypted address ${where}`
      : problem === 'too-many'
        ? `more than ${MAX_REDIRECTS} times in a row (last to ${where})`
        : `to ${where}, outside your Connect API URL`;
  throw new z.errors.Error(
    `The service at ${host} answered the request for ${context.what} with a redirect (HTTP ${context.status}) ${reason}, so it was not followed${keyNote}. The Connect API never redirects: check the Connect API URL of your connection (the address of the API host itself, with https).`,
    'REDIRECT_REFUSED',
    context.status,
  );
};

type RequestOptions = Parameters<ZObject['request']>[0] & { url: string };
/** A raw answer's body (node-fetch's response body: a Node readable stream). */
type RawBody = AsyncIterable<Uint8Array | string> & { destroy?(error?: Error): void };
type Answered = {
  status: number;
  headers: ConnectResult<unknown>['headers'];
  content?: string;
  /** With `raw`: the body, unread. */
  body?: RawBody;
};

const redirectContext = (call: ConnectCall<unknown>, baseUrl: string, status: number) => ({
  status,
  baseUrl,
  what: call.what,
  isPublic: call.public === true,
});

/** Node's codes of a connection the server closed before it answered (a pooled one it had let go). */
const CLOSED_CONNECTION = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/** Whether `error` says the connection was closed before any answer came. */
export const isClosedConnection = (error: unknown): boolean => {
  const e = (error ?? {}) as {
    code?: unknown;
    errno?: unknown;
    message?: unknown;
    cause?: { code?: unknown };
  };
  const codes = [e.code, e.errno, e.cause?.code].filter((c): c is string => typeof c === 'string');
  return (
    codes.some((code) => CLOSED_CONNECTION.has(code)) ||
    (typeof e.message === 'string' && /socket hang up/i.test(e.message))
  );
};

/** An agent that keeps no connection: a request sent with it goes out on a connection of its own. */
const freshAgent = (url: string) =>
  url.startsWith('https:') ? new HttpsAgent({ keepAlive: false }) : new HttpAgent({ keepAlive: false });

/**
 * `z.request`, with an idempotent read (a GET) sent once more, on a fresh connection, when the connection it
 * went out on was closed before any answer came: after a long read, a pooled connection the server has
 * already let go is found closed only when it is used. Nothing else is sent twice: a POST (a check-in, with
 * its `Idempotency-Key`) or a DELETE fails as it came, and so does the second attempt.
 */
const requestOnce = async (z: ZObject, options: RequestOptions, what: string) => {
  try {
    return await z.request(options);
  } catch (error) {
    if ((options.method ?? 'GET') !== 'GET' || !isClosedConnection(error)) throw error;
    z.console.log(
      `The connection for ${what} was closed before an answer came; the request was sent again on a new connection.`,
    );
    return z.request({ ...options, agent: freshAgent(options.url) } as RequestOptions);
  }
};

/**
 * One request through `z.request` with redirects handled here (`redirect: 'manual'`): a redirect is followed
 * only where `redirectProblem` allows it, with the key recomputed for the new address, the method and body
 * kept for 307/308 and turned into a GET for 303 (and 301/302 of a POST), as browsers do.
 */
const send = async (
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  call: ConnectCall<unknown>,
  baseUrl: string,
  url: string,
  raw = false,
  signal?: AbortSignal,
): Promise<Answered> => {
  let target = url;
  let method: string = call.method ?? 'GET';
  let body = call.body === undefined ? undefined : JSON.stringify(call.body);
  for (let hop = 0; ; hop++) {
    const headers = headersFor(
      target,
      baseUrl,
      bundle.authData,
      { ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...call.headers },
      call.public,
    );
    const options = {
      url: target,
      method,
      headers,
      body,
      redirect: 'manual',
      skipThrowForStatus: true,
      throwForThrottlingEarly: false,
      timeout: call.timeoutMs ?? streamLimits().requestMs,
      ...(raw ? { raw: true } : {}),
      ...(signal ? { signal } : {}),
    } as RequestOptions;
    const response = await requestOnce(z, options, call.what);
    const rawBody = raw ? (response as unknown as { body?: RawBody }).body : undefined;
    const location = response.headers.get('location');
    if (REDIRECT_STATUSES.has(response.status) && location) {
      rawBody?.destroy?.();
      const context = redirectContext(call, baseUrl, response.status);
      let next: string;
      try {
        next = new URL(location, target).toString();
      } catch {
        return refuseRedirect(z, 'elsewhere', { ...context, target: location });
      }
      const problem = redirectProblem(target, next, baseUrl, call.public === true);
      if (problem) return refuseRedirect(z, problem, { ...context, target: next });
      if (hop >= MAX_REDIRECTS) return refuseRedirect(z, 'too-many', { ...context, target: next });
      if (
        response.status === 303 ||
        ((response.status === 301 || response.status === 302) && method === 'POST')
      ) {
        method = 'GET';
        body = undefined;
      }
      target = next;
      continue;
    }
    if (raw) return { status: response.status, headers: response.headers, body: rawBody };
    return response;
  }
};

const isRedirectRefusal = (error: unknown): boolean => appErrorCode(error) === 'REDIRECT_REFUSED';

/** `send`, with a failure to get any answer (network, timeout) turned into a clear error without secrets. */
const sendOrExplain = async (
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  call: ConnectCall<unknown>,
  baseUrl: string,
  url: string,
  redact: Redact,
  raw = false,
  signal?: AbortSignal,
): Promise<Answered> => {
  try {
    return await send(z, bundle, call, baseUrl, url, raw, signal);
  } catch (error) {
    if (isRedirectRefusal(error)) throw error;
    throw networkError(
      z,
      redactError(error, redact),
      { baseUrl, typedUrl: bundle.authData.baseUrl, what: call.what },
      call.retry,
    );
  }
};

export const connectRequestFull = async <T>(
  z: ZObject,
  bundle: Pick<Bundle, 'authData'> & Partial<Pick<Bundle, 'subscribeData'>>,
  call: ConnectCall<T>,
): Promise<ConnectResult<T>> => {
  // Every message built below is blanked of the connection's secrets, whatever the server echoed.
  const redact = bundleRedactor(bundle);
  try {
    return await requestAndRead(z, bundle, call, redact);
  } catch (error) {
    throw redactError(await explainMissing(z, bundle, call, error, redact), redact);
  }
};

/**
 * A "not found" answer to a keyed request, read again in the light of the Connect API URL: when the events
 * list, which every Connect API answers, is not there either, the URL does not lead to a Connect API (a path
 * after the host, another site), and every operation says so in the connection test's words instead of
 * "could not find …". The events list is asked only when the answer could mean that: any 404 or 405 without
 * the API's error body, or the API's own NOT_FOUND under a URL with a path. Otherwise `error` is returned.
 */
const explainMissing = async (
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  call: Pick<ConnectCall<unknown>, 'path' | 'public' | 'timeoutMs'>,
  error: unknown,
  redact: Redact,
): Promise<unknown> => {
  if (call.public || notConnectApiReason(error) !== 'no-endpoint') return error;
  const baseUrl = resolveBaseUrl(z, bundle.authData);
  const eventsPath = paths.events();
  if (call.path === eventsPath) return notConnectApiError(z, baseUrl, 'no-endpoint');
  if (errorMeaning(error) === 'not_found' && new URL(baseUrl).pathname === '/') return error;
  try {
    const probe = { path: eventsPath, query: { limit: 1 }, schema: AnyList, what: 'the list of your events' };
    await requestAndRead(z, bundle, { ...probe, timeoutMs: call.timeoutMs }, redact);
    return error;
  } catch (probeError) {
    const reason = notConnectApiReason(probeError);
    return reason ? notConnectApiError(z, baseUrl, reason) : error;
  }
};

const requestAndRead = async <T>(
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  call: ConnectCall<T>,
  redact: Redact,
): Promise<ConnectResult<T>> => {
  const baseUrl = resolveBaseUrl(z, bundle.authData);
  const url = buildUrl(baseUrl, call.path, call.query);

  const response = await sendOrExplain(z, bundle, call as ConnectCall<unknown>, baseUrl, url, redact);

  const answer: RawAnswer = {
    status: response.status,
    content: response.content ?? '',
    contentType: response.headers.get('content-type') ?? '',
    retryAfter: response.headers.get('retry-after'),
    replayed: response.headers.get('idempotent-replayed') === 'true',
  };
  // Blanked before any excerpt is cut from it, so not even a prefix of a secret can show.
  const shown = (): RawAnswer => ({ ...answer, content: redact(answer.content) });
  if (answer.status < 200 || answer.status > 299) throwForAnswer(z, shown(), call.what, call.retry);

  const bytes = Buffer.byteLength(answer.content);
  if (call.schema === null) {
    return { data: undefined as T, status: answer.status, headers: response.headers, bytes };
  }
  const json = parseJsonSafely(answer.content);
  if (!json.ok) return throwNotJson(z, shown(), call.what);
  if (json.droppedKeys > 0) {
    z.console.log(droppedKeysLine(`The answer for ${call.what}`, json.droppedKeys));
  }
  const bounded = boundRecord(readerOf(call.schema)(json.value));
  const parsed = call.schema.safeParse(bounded.value);
  if (!parsed.success) return throwBadShape(z, answer.status, parsed.error, call.what);
  return {
    data: withCuts(parsed.data, bounded.cuts),
    status: answer.status,
    headers: response.headers,
    bytes,
  };
};

/** The most of an error answer's body that is read when it comes as a stream: enough for any message. */
const ERROR_BODY_LIMIT = 64 * 1024;

/** Reads a raw body as text, at most `limit` bytes (the rest is dropped, and the connection closed). */
const readText = async (body: RawBody | undefined, limit: number): Promise<string> => {
  if (!body) return '';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk);
    chunks.push(bytes);
    size += bytes.length;
    if (size >= limit) {
      body.destroy?.();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
};

const rawAnswer = (sent: Answered, content: string): RawAnswer => ({
  status: sent.status,
  content,
  contentType: sent.headers.get('content-type') ?? '',
  retryAfter: sent.headers.get('retry-after'),
  replayed: sent.headers.get('idempotent-replayed') === 'true',
});

const isSuccess = (status: number) => status >= 200 && status <= 299;

export interface ListCall<S extends ObjectSchema> extends Omit<ConnectCall<unknown>, 'schema' | 'body'> {
  /** How each record is checked (the odd-record rule, contract §1). */
  rule: RecordRule<S>;
  /**
   * Read the answer as it arrives, record by record, for answers that can be many megabytes (the
   * registrations of an event): neither the body, nor its text, nor the whole list is ever held.
   */
  stream?: boolean;
  /**
   * With `stream`: asked after each piece of the answer has been read (and its records visited). When it
   * returns true the read stops there: the request is cancelled, so the rest of the answer is never
   * downloaded, and the result says `complete: false`. A lookup that has found what it looks for uses it.
   */
  stopWhen?: () => boolean;
  /** How the answer is read: which member holds the list, which others are kept, the bounds of a record. */
  reading?: ReaderOptions;
  /**
   * How this list continues (default: the dialect's `list.next`). With `onePage`, only the page asked is read,
   * and the result's `after` is the address of the page after it (null at the list's end): the public
   * catalog, read a page at a time, uses both.
   */
  continues?: ListNext | null;
  onePage?: boolean;
  /** The address of a page a previous read named (`ListResult.after`), asked instead of `path` and `query`. */
  at?: string;
}

export interface ListResult extends ListRead {
  status: number;
  headers: ConnectResult<unknown>['headers'];
  /** False when `stopWhen` stopped the read before the end of the answer. */
  complete: boolean;
  /** With `onePage`: the address of the next page (an opaque continuation), or null at the list's end. */
  after?: string | null;
}

/**
 * Reads a list answer (`{ "data": [ … ] }`) and hands each usable record to `visit`, in the answer's order;
 * odd records are dealt with and logged by the odd-record rule, never failing the list. Every non-2xx, HTML,
 * non-JSON, cut or wrongly shaped answer is a clear error, thrown once the read has stopped: what `visit`
 * gathered must then be dropped.
 */
export const connectList = async <S extends ObjectSchema>(
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  call: ListCall<S>,
  visit: Visit<z.infer<S>>,
): Promise<ListResult> => {
  // Every message built below is blanked of the connection's secrets, whatever the server echoed.
  const redact = bundleRedactor(bundle);
  try {
    return await readList(z, bundle, call, visit, redact);
  } catch (error) {
    throw redactError(await explainMissing(z, bundle, call, error, redact), redact);
  }
};

/** Ends a read before its answer does: the connection is closed, so the service stops sending. */
const closeEarly = (body: SentBody, cancel: AbortController | undefined): void => {
  // The abort makes the fetch emit an error on the body: a listener keeps it from being unhandled.
  (body as { on?: (event: string, listener: () => void) => unknown }).on?.('error', () => undefined);
  cancel?.abort();
  body.destroy?.();
};

type SentBody = NonNullable<Awaited<ReturnType<typeof sendOrExplain>>['body']>;
type Sent = Awaited<ReturnType<typeof sendOrExplain>>;
interface Pumped {
  /** `stopWhen` said so: the rest of the answer was not read. */
  stopped: boolean;
  /** What the reader threw (a broken list), or `null`. */
  failure: unknown;
}

/** A list read to its end: logs what the answer had besides its records. */
const listDone = (z: ZObject, what: string, sent: Sent, read: ListRead): ListResult => {
  if (read.skippedMembers > 0) {
    const names = read.skippedNames.map((name) => `"${name}"`).join(', ');
    const more = read.skippedMembers > read.skippedNames.length ? ', …' : '';
    z.console.log(
      `The answer for ${what} had ${read.skippedMembers} member(s) besides its list (${names}${more}); they were read past and left out (only "${DIALECT.list.member}", "page", "limit" and "total" are read, or of a single object its fields up to 64 KB).`,
    );
  }
  const cutBy = DIALECT.list.more;
  if (cutBy !== null && read.fields[cutBy] === true) {
    z.console.log(
      `The service says it holds more records for ${what} than it answered ("${cutBy}": true). The app reads one answer per list: it used the ${read.kept} record(s) answered.`,
    );
  }
  if (read.droppedKeys > 0) {
    z.console.log(droppedKeysLine(`The answer for ${what}`, read.droppedKeys));
  }
  return { ...read, status: sent.status, headers: sent.headers, complete: true };
};

/**
 * Feeds the body to `reader` until it ends, the reader fails, `stopWhen` says so or time is up (then it
 * throws a request timeout). With `timeoutMs` (a poll inside Zapier's 30 s) the whole answer must arrive by
 * then. Without it (a lookup reading a whole event) it has until just before Zapier's 30 s, and must not
 * stall for `stallMs` of the run's limits either.
 */
const pump = async (
  body: SentBody,
  reader: { write(chunk: Uint8Array | string): void },
  call: Pick<ListCall<ObjectSchema>, 'timeoutMs' | 'stopWhen'>,
  deadline: number,
): Promise<Pumped> => {
  const limits = streamLimits();
  let timedOut = false;
  let lastChunk = Date.now();
  const timer = setInterval(
    () => {
      const now = Date.now();
      if (now >= deadline || (call.timeoutMs === undefined && now - lastChunk >= limits.stallMs)) {
        timedOut = true;
        body.destroy?.(new Error('timeout'));
      }
    },
    Math.min(limits.stepMs, Math.max(10, Math.floor((call.timeoutMs ?? limits.stallMs) / 10))),
  );
  try {
    for await (const chunk of body) {
      lastChunk = Date.now();
      try {
        reader.write(chunk);
      } catch (error) {
        return error === STOP_READING ? { stopped: true, failure: null } : { stopped: false, failure: error };
      }
      if (call.stopWhen?.()) return { stopped: true, failure: null };
    }
    return { stopped: false, failure: null };
  } catch (error) {
    throw timedOut ? Object.assign(new Error('network timeout'), { type: 'request-timeout' }) : error;
  } finally {
    clearInterval(timer);
  }
};

/** Where a list's page is asked: its address, and the time the whole list must be read by. */
interface PageAt {
  baseUrl: string;
  url: string;
  deadline: number;
}

/**
 * Reads a list to its end: its first answer, then each page its answers name (the dialect's `next`, a cursor
 * or a link, followed by `followPages`), until one names none. Every page is read as the first one is, within
 * the same deadline; the records are visited in the order they arrive, their positions counted across pages.
 * A page named a second time ends the list with a log line (a service that named the same page again would
 * otherwise be read forever).
 */
const readList = async <S extends ObjectSchema>(
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  call: ListCall<S>,
  visit: Visit<z.infer<S>>,
  redact: Redact,
): Promise<ListResult> => {
  const deadline = Date.now() + (call.timeoutMs ?? streamLimits().lookupMs);
  const baseUrl = resolveBaseUrl(z, bundle.authData);
  let total: ListResult | null = null;
  const readOne = async (url: string): Promise<PageRead | null> => {
    const offset: number = total?.items ?? 0;
    // A later page has what is left of the list's time (a poll's `timeoutMs` covers the whole list).
    const left =
      call.timeoutMs === undefined || total === null ? call.timeoutMs : Math.max(1, deadline - Date.now());
    const page: ListResult = await readPage(
      z,
      bundle,
      { ...call, timeoutMs: left },
      offset ? (record, position) => visit(record, position + offset) : visit,
      redact,
      { baseUrl, url, deadline },
    );
    total = total === null ? page : addPages(total, page);
    if (!page.complete) return null;
    return {
      signs: { member: (path) => page.fields[path], link: page.headers.get('link') },
      enough: call.stopWhen,
    };
  };
  const first = call.at ?? buildUrl(baseUrl, call.path, call.query);
  const next = call.continues === undefined ? DIALECT.list.next : call.continues;
  const most = call.onePage ? 1 : undefined;
  const followed = await followPages(next, first, readOne, { base: `${baseUrl}/`, most });
  const read = total as unknown as ListResult;
  if (followed.end === 'repeated') {
    z.console.log(
      `The service named a page of ${call.what} it had already answered (${nextWords(next as ListNext)}); the list was read up to there (${read.kept} record(s) in all).`,
    );
  }
  if (call.onePage) return { ...read, after: followed.end === 'most' ? (followed.unread ?? null) : null };
  // A lookup that has what it looks for asks no further page.
  return followed.end === 'enough' ? { ...read, complete: false } : read;
};

/**
 * Two pages' reads as one. Its headers are the first page's: the list is the service's as of its first
 * answer (its `Date` is when a poll may say it read up to), since a record made while later pages were read
 * may sit on a page already read.
 */
const addPages = (a: ListResult, b: ListResult): ListResult => ({
  ...b,
  status: a.status,
  headers: a.headers,
  skippedMembers: a.skippedMembers + b.skippedMembers,
  skippedNames: [...a.skippedNames, ...b.skippedNames].slice(0, 5),
  items: a.items + b.items,
  kept: a.kept + b.kept,
  bytes: a.bytes + b.bytes,
  droppedKeys: a.droppedKeys + b.droppedKeys,
});

const readPage = async <S extends ObjectSchema>(
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  call: ListCall<S>,
  visit: Visit<z.infer<S>>,
  redact: Redact,
  { baseUrl, url, deadline }: PageAt,
): Promise<ListResult> => {
  // A streamed read can be cancelled (`stopWhen`): aborting the request closes the connection, so the
  // service stops sending, where merely leaving the body unread would only pause it.
  const cancel = call.stream ? new AbortController() : undefined;
  const sent = await sendOrExplain(
    z,
    bundle,
    { ...call, schema: null },
    baseUrl,
    url,
    redact,
    call.stream,
    cancel?.signal,
  );
  const log = recordLog((line) => z.console.log(line), call.what);
  const contentType = sent.headers.get('content-type') ?? '';
  const broken = (error: unknown, head: string): never => {
    if (!(error instanceof ListReadError)) throw error;
    return throwBrokenList(
      z,
      error.kind,
      { status: sent.status, contentType, reason: error.message, head: redact(head) },
      call.what,
    );
  };

  if (!sent.body) {
    const content = sent.content ?? '';
    if (!isSuccess(sent.status)) throwForAnswer(z, rawAnswer(sent, redact(content)), call.what, call.retry);
    try {
      return listDone(z, call.what, sent, readListText(content, call.rule, visit, log, call.reading));
    } catch (error) {
      return broken(error, content.slice(0, 512));
    }
  }

  const body = sent.body;
  if (!isSuccess(sent.status)) {
    const content = await readText(body, ERROR_BODY_LIMIT).catch(() => '');
    throwForAnswer(z, rawAnswer(sent, redact(content)), call.what, call.retry);
  }
  // `stopWhen` is asked after each record too, so that no record past the stop is visited.
  const stopWhen = call.stopWhen;
  const visitor: Visit<z.infer<S>> = stopWhen
    ? (record, position) => {
        visit(record, position);
        if (stopWhen()) throw STOP_READING;
      }
    : visit;
  const reader = listReader(call.rule, visitor, log, call.reading);
  let pumped: Pumped;
  try {
    pumped = await pump(body, reader, call, deadline);
  } catch (error) {
    throw networkError(z, error, { baseUrl, typedUrl: bundle.authData.baseUrl, what: call.what }, call.retry);
  }
  const { stopped, failure } = pumped;
  if (stopped) {
    closeEarly(body, cancel);
    const read = reader.stop();
    return { ...read, status: sent.status, headers: sent.headers, complete: false };
  }
  if (failure !== null) return broken(failure, reader.headText());
  try {
    return listDone(z, call.what, sent, reader.end());
  } catch (error) {
    return broken(error, reader.headText());
  }
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
