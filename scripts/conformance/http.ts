/**
 * The kit's only way to the service: GET requests (never anything that writes) with Node's fetch, redirects
 * never followed (`redirect: 'manual'`), every answer kept for the checks that look across all of them
 * (redirects, the `Date` header).
 */
import { parseJsonSafely } from '../../src/connect/json';
import { StopError } from './types';

export interface Answer {
  /** Path and query, as asked (never with the key). */
  path: string;
  keyed: boolean;
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: unknown;
  /** Local clock (epoch ms) when the request was sent and when the answer was read. */
  sentAt: number;
  receivedAt: number;
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
};

/** Why a request got no answer, in words (never the key: requests carry it in a header only). */
export const networkProblem = (error: unknown): string => {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? (error as { code?: string }).code;
  if (code && NETWORK_WORDS[code]) return `${NETWORK_WORDS[code]} (${code})`;
  if ((error as Error).name === 'TimeoutError') return `no answer within ${REQUEST_TIMEOUT_MS / 1000} s`;
  return cause?.message ?? (error as Error).message ?? String(error);
};

export class Probe {
  readonly answers: Answer[] = [];
  private readonly base: string;

  constructor(
    baseUrl: string,
    private readonly apiKey: string,
  ) {
    this.base = baseUrl.replace(/\/+$/, '');
  }

  /** GET `path` with `query`; keyed unless `key` is false, or with another key (a wrong one). */
  async get(path: string, query: Query = {}, key: boolean | string = true): Promise<Answer> {
    const search = new URLSearchParams(
      Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
    ).toString();
    const pathAndQuery = search ? `${path}?${search}` : path;
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (key !== false) headers['X-API-KEY'] = key === true ? this.apiKey : key;
    const sentAt = Date.now();
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${this.base}${pathAndQuery}`, {
        headers,
        redirect: 'manual',
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      text = await response.text();
    } catch (error) {
      throw new StopError(`No answer from ${this.base} for GET ${path}: ${networkProblem(error)}.`);
    }
    const parsed = parseJsonSafely(text);
    const answer: Answer = {
      path: pathAndQuery,
      keyed: key !== false,
      status: response.status,
      headers: response.headers,
      text,
      json: parsed.ok ? parsed.value : undefined,
      sentAt,
      receivedAt: Date.now(),
    };
    this.answers.push(answer);
    return answer;
  }
}

/** The first characters of a body, on one line, for details. */
export const excerpt = (text: string, length = 60): string => {
  const line = text.replace(/\s+/g, ' ').trim();
  if (!line) return 'an empty body';
  return `"${line.length > length ? `${line.slice(0, length)}…` : line}"`;
};
