/**
 * The kit's only way to the service: GET requests with Node's fetch (and, only when asked with
 * `--probe-turn-on`, one POST that the contract makes the service refuse, plus a DELETE should it not),
 * redirects never followed (`redirect: 'manual'`), each body read up to `MAX_ANSWER_BYTES` (an answer that never ends
 * stops the run, it never fills the memory), and what the checks that look across all answers need kept
 * (redirects, the `Date` header), without the bodies.
 */
import { parseJsonSafely } from '../../src/connect/json';
import { DIALECT, type ListNext, type NameRule, memberAt } from '../../src/connect/dialect';
import { type PageRead, followPages } from '../../src/connect/continuation';
import { type Blank, keyBlanker } from './secret';
import { StopError } from './types';

/** The most of one answer the kit reads: far more than any answer but the registrations of a huge event. */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/** Characters of a body kept, blanked, for details to quote from (no detail quotes more). */
const SHOWN_CHARS = 2048;

/** What the checks across all answers need of each: no body, only its blanked beginning. */
export interface Seen {
  /** Path and query, as asked (never with the key). */
  path: string;
  keyed: boolean;
  status: number;
  headers: Headers;
  /** The body with the key blanked, then cut to its first characters: all that a detail may quote. */
  shown: string;
  /** Local clock (epoch ms) when the request was sent and when the answer was read. */
  sentAt: number;
  receivedAt: number;
}

/** One answer: what was seen, and its body as received, for the app's readers only (never quoted). */
export class Answer implements Seen {
  private parsed: { value: unknown } | null = null;

  constructor(
    readonly seen: Seen,
    readonly text: string,
    /** Blanks the key in a text (secret.ts): whatever quotes the service goes through it first. */
    readonly blank: Blank,
    /** For a list read page by page: how many pages, and why the kit read only part of it (null: all of it). */
    readonly paged: Paged | null = null,
  ) {}

  get path() {
    return this.seen.path;
  }
  get keyed() {
    return this.seen.keyed;
  }
  get status() {
    return this.seen.status;
  }
  get headers() {
    return this.seen.headers;
  }
  get shown() {
    return this.seen.shown;
  }
  get sentAt() {
    return this.seen.sentAt;
  }
  get receivedAt() {
    return this.seen.receivedAt;
  }

  /** The parsed body (own keys only), or undefined when it is not JSON; parsed on first use. */
  get json(): unknown {
    if (!this.parsed) {
      const result = parseJsonSafely(this.text);
      this.parsed = { value: result.ok ? result.value : undefined };
    }
    return this.parsed.value;
  }

  /** The whole body with the key blanked (what the app's error translation is given, as in the app). */
  blanked(): string {
    return this.blank(this.text);
  }
}

export type Query = Record<string, string | number>;

/** How long one request may take before the run stops with a connection error. */
export const REQUEST_TIMEOUT_MS = 60_000;

const NETWORK_WORDS: Record<string, string> = {
  ENOTFOUND: 'no server has this host name',
  EAI_AGAIN: 'its host name could not be looked up',
  ECONNREFUSED: 'nothing accepts connections at this address and port',
  ECONNRESET: 'the connection was closed before an answer came',
  ETIMEDOUT: 'the connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  UND_ERR_SOCKET: 'the connection was closed before the answer was complete',
};

/** OpenSSL's codes when the other side does not speak TLS at all (a plain HTTP server on an https:// URL). */
const NOT_TLS =
  /WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG|UNKNOWN_PROTOCOL|HTTP_REQUEST|RECORD_LAYER|EPROTO/i;
const CERTIFICATE = /CERT|SELF_SIGNED|ALTNAME|UNABLE_TO_(VERIFY|GET)/i;

/**
 * Why a request got no answer, in words: never a library's raw text (OpenSSL's names no action), never the
 * key (requests carry it in a header only).
 */
export const networkProblem = (error: unknown, url: string): string => {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  const raw = [cause?.code, (error as { code?: unknown }).code].find((c) => typeof c === 'string' && c);
  const code = typeof raw === 'string' ? raw : '';
  const message = `${String(cause?.message ?? '')} ${String((error as Error)?.message ?? '')}`;
  if (NOT_TLS.test(code) || /SSL routines|wrong version number|packet length too long/i.test(message)) {
    const { host } = new URL(url);
    return `the server at ${host} does not speak HTTPS (it answers like a plain HTTP server): use the service's https:// address, or http:// for a sandbox on this machine${code ? ` (${code})` : ''}`;
  }
  if (CERTIFICATE.test(code)) {
    return `the HTTPS certificate of ${new URL(url).host} is not valid (${code}): the app would refuse it too`;
  }
  if (NETWORK_WORDS[code]) return `${NETWORK_WORDS[code]} (${code})`;
  if ((error as Error)?.name === 'TimeoutError') return `no answer within ${REQUEST_TIMEOUT_MS / 1000} s`;
  return code ? `the connection failed (${code})` : 'the connection failed';
};

/** An answer larger than the kit reads: the run stops there (exit 2), the rest of the body unread. */
export class AnswerTooLargeError extends StopError {
  readonly limitWords: string;

  constructor(
    readonly path: string,
    readonly limit: number,
  ) {
    super(
      `GET ${path.split('?')[0]} answered more than ${limit / 1024 / 1024} MiB, where the kit stops reading: an answer that never ends, or a list far larger than any the checks need. If it is the registrations of a large event, give a smaller event with --event.`,
    );
    this.name = 'AnswerTooLargeError';
    this.limitWords = `${limit / 1024 / 1024} MiB`;
  }
}

/**
 * How a list continues in the service's dialect, once found (`checks/dialect.ts`): what names the next page
 * (followed by src/connect's own `followPages`, as the app follows it), and the pages' answers joined as one
 * answer of the whole list.
 */
export interface PageReading {
  /** How lists continue (the dialect's `list.next`). */
  next: ListNext;
  /** The answers of every page (parsed JSON), as one answer holding all their records. */
  join(pages: readonly unknown[]): unknown;
  /** Whether `path` answers a list. */
  isList(path: string, status: number): boolean;
}

/** How a list read page by page was read: its pages, and why the kit read only part of it. */
export interface Paged {
  pages: number;
  /** Why the list was read only in part, in words ("page 3 answered HTTP 500"); null: every page was read. */
  cut: string | null;
}

/** Pages of one list the kit reads at most (a service that names pages forever is read this far). */
export const MAX_PAGES = 1000;

export class Probe {
  readonly answers: Seen[] = [];
  /** How query parameters are named on the wire (the app's dialect, then the one found). */
  query: NameRule = DIALECT.query;
  /** How lists continue, once the dialect is found: every page of a list is read, then checked as one. */
  pages: PageReading | null = null;
  readonly blank: Blank;
  /**
   * How a JSON body is read once the service's dialect is found (`checks/dialect.ts`): restated in the app's,
   * so that the checks read what it means. What details quote (`shown`) stays as the service sent it.
   */
  restate: ((path: string, status: number, json: unknown) => unknown) | null = null;
  /**
   * The status an error answer means once the service's dialect is found (a 403 carrying its not-found code
   * reads as the contract's 404), as the app reads it; what details quote stays as the service sent it.
   */
  restateStatus: ((status: number, json: unknown) => number) | null = null;
  private readonly base: string;

  constructor(
    baseUrl: string,
    private readonly apiKey: string,
    private readonly maxBytes = MAX_ANSWER_BYTES,
    private readonly maxPages = MAX_PAGES,
  ) {
    this.base = baseUrl.replace(/\/+$/, '');
    this.blank = keyBlanker(apiKey);
  }

  /** GET `path` with `query`; keyed unless `key` is false, or with another key (a wrong one). */
  async get(path: string, query: Query = {}, key: boolean | string = true): Promise<Answer> {
    const search = new URLSearchParams(
      Object.entries(query).map(([k, v]): [string, string] => [this.query.wire(k), String(v)]),
    ).toString();
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (key !== false) headers['X-API-KEY'] = key === true ? this.apiKey : key;
    const first = search ? `${path}?${search}` : path;
    if (this.pages === null) return this.send('GET', path, first, headers);
    return this.allPages(this.pages, path, first, headers);
  }

  /**
   * A list read page by page to its end, each next page worked out as the app works it out (`followPages`),
   * answered as one answer (a single answer when it is no list). A list the kit could not read to its end
   * (a page that failed, a page named twice, more pages or bytes than it reads) says so in `paged.cut`.
   */
  private async allPages(
    pages: PageReading,
    path: string,
    first: string,
    headers: Record<string, string>,
  ): Promise<Answer> {
    const seen: Seen[] = [];
    const bodies: unknown[] = [];
    let single: Answer | null = null;
    let cut: string | null = null;
    let bytes = 0;
    const read = async (address: string): Promise<PageRead | null> => {
      const at = this.pathUnderBase(address);
      if (at === null) {
        cut = `page ${seen.length} named a next page outside the service's address (${originOf(address)}), where the kit does not follow`;
        return null;
      }
      const { seen: one, text } = await this.fetchText('GET', path, at, headers);
      seen.push(one);
      const json = parseJsonSafely(text);
      if (!pages.isList(path, one.status) || !json.ok) {
        if (seen.length === 1) single = this.answer(path, one, text);
        else cut = `page ${seen.length} answered ${json.ok ? `HTTP ${one.status}` : 'no JSON'}`;
        return null;
      }
      bodies.push(json.value);
      bytes += Buffer.byteLength(text);
      if (bytes > this.maxBytes) {
        cut = `its ${seen.length} pages came to more than ${this.maxBytes / 1024 / 1024} MiB, where the kit stops reading`;
        return null;
      }
      return { signs: { member: (at) => memberAt(json.value, at), link: one.headers.get('link') } };
    };
    const followed = await followPages(pages.next, `${this.base}${first}`, read, {
      base: `${this.base}/`,
      most: this.maxPages,
    });
    if (single) return single;
    if (followed.end === 'most')
      cut = `it reads at most ${this.maxPages} pages of a list, and the last of them named another`;
    if (followed.end === 'repeated') cut = `page ${followed.pages} named a page already read as the next one`;
    const joined = JSON.stringify(pages.join(bodies));
    const head = seen[0] as Seen;
    const paged = { pages: bodies.length, cut };
    return new Answer(head, this.restated(path, head.status, joined), this.blank, paged);
  }

  /** The path and query of an absolute address under the service's base URL (as given), or null. */
  private pathUnderBase(address: string): string | null {
    const url = new URL(address);
    const base = new URL(`${this.base}/`);
    if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname)) return null;
    return `/${url.pathname.slice(base.pathname.length)}${url.search}`;
  }

  /**
   * A keyed POST of `body` (JSON) with `headers`, or a keyed DELETE: only the turn-on probe sends these
   * (`--probe-turn-on`), never a default run.
   */
  async write(
    method: 'POST' | 'DELETE',
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer> {
    const sent: Record<string, string> = { Accept: 'application/json', 'X-API-KEY': this.apiKey, ...headers };
    if (body !== undefined) sent['Content-Type'] = 'application/json';
    return this.send(method, path, path, sent, body === undefined ? undefined : JSON.stringify(body));
  }

  private async send(
    method: string,
    path: string,
    pathAndQuery: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<Answer> {
    const { seen, text } = await this.fetchText(method, path, pathAndQuery, headers, body);
    return this.answer(path, seen, text);
  }

  /**
   * Reads the answers seen so far in the statuses of `restateStatus` (once it is set): an error body is
   * short, so what was kept of it (`shown`) is all of it.
   */
  restateSeen(): void {
    const restate = this.restateStatus;
    if (!restate) return;
    this.answers.forEach((seen, at) => {
      const json = parseJsonSafely(seen.shown);
      const status = json.ok ? restate(seen.status, json.value) : seen.status;
      if (status !== seen.status) this.answers[at] = { ...seen, status };
    });
  }

  /** One answer as the checks read it: its status and body in the app's dialect (`restateStatus`, `restate`). */
  private answer(path: string, seen: Seen, text: string): Answer {
    const json = this.restateStatus ? parseJsonSafely(text) : null;
    const status = json?.ok && this.restateStatus ? this.restateStatus(seen.status, json.value) : seen.status;
    if (status === seen.status) return new Answer(seen, this.restated(path, status, text), this.blank);
    // What the checks across all answers read (a refused keyless request) is read in the same status.
    const read = { ...seen, status };
    this.answers[this.answers.lastIndexOf(seen)] = read;
    return new Answer(read, this.restated(path, status, text), this.blank);
  }

  private async fetchText(
    method: string,
    path: string,
    pathAndQuery: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<{ seen: Seen; text: string }> {
    const sentAt = Date.now();
    const url = `${this.base}${pathAndQuery}`;
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, {
        method,
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      text = await this.readBody(response, pathAndQuery);
    } catch (error) {
      if (error instanceof StopError) throw error;
      throw new StopError(
        `No answer from ${this.base} for ${method} ${path}: ${networkProblem(error, url)}.`,
      );
    }
    // Blanked whole, then cut: a key that straddles the cut is blanked before it could show in part.
    const window = SHOWN_CHARS + 8 * this.apiKey.length;
    const seen: Seen = {
      path: pathAndQuery,
      keyed: 'X-API-KEY' in headers,
      status: response.status,
      headers: response.headers,
      shown: this.blank(text.slice(0, window)).slice(0, SHOWN_CHARS),
      sentAt,
      receivedAt: Date.now(),
    };
    this.answers.push(seen);
    return { seen, text };
  }

  /** The body in the app's dialect, when the service's was found and it is JSON. */
  private restated(path: string, status: number, text: string): string {
    if (!this.restate) return text;
    const json = parseJsonSafely(text);
    return json.ok ? JSON.stringify(this.restate(path, status, json.value)) : text;
  }

  /** The body as text, at most `maxBytes` of it: past that, the request is cancelled and the run stops. */
  private async readBody(response: Response, path: string): Promise<string> {
    const declared = Number(response.headers.get('content-length') ?? NaN);
    if (declared > this.maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw new AnswerTooLargeError(path, this.maxBytes);
    }
    if (!response.body) return '';
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > this.maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw new AnswerTooLargeError(path, this.maxBytes);
      }
      chunks.push(value);
    }
    return Buffer.concat(chunks).toString('utf8');
  }
}

/** The origin of an address, for words (never its path or query). */
const originOf = (address: string): string => {
  try {
    return new URL(address).origin;
  } catch {
    return 'an address that could not be read';
  }
};

/** The first characters of an answer (its key blanked before it was cut), on one line, for details. */
export const excerpt = (answer: Pick<Seen, 'shown'>, length = 60): string => {
  const line = answer.shown.replace(/\s+/g, ' ').trim();
  if (!line) return 'an empty body';
  return `"${line.length > length ? `${line.slice(0, length)}…` : line}"`;
};
