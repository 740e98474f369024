/**
 * Webhook deliveries in the form Zapier hands them to a hook trigger's `perform`, for tests, the e2e suite,
 * the benchmark and the `npm start` journey:
 *
 * - `toRawRequest` turns a received HTTP request (raw body string + headers) into `bundle.rawRequest`:
 *   `{ method, querystring, headers, content }`, header names Camel-Cased and prefixed `Http-` (except
 *   Content-Type and Content-Length), `content` the raw body string;
 * - `hookBundle` builds the whole bundle (`rawRequest`, `cleanedRequest`, `subscribeData`, …);
 * - `signedDelivery` builds a delivery signed like the service does (contract §5) (test/support/deliveries.ts
 *   adds bodies for tests);
 * - `startHookReceiver` is a local HTTP receiver on 127.0.0.1 standing in for Zapier's target URL.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { deliveryHeaders, type WireWriter } from '../../sandbox/wire';

/** A delivery as it arrives over HTTP. */
export interface ReceivedDelivery {
  method: string;
  /** The query string without `?`. */
  querystring: string;
  headers: Record<string, string>;
  /** The raw body, decoded as UTF-8 and otherwise untouched. */
  body: string;
}

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

export interface ZapierRawRequest {
  method: HttpMethod;
  querystring: string;
  headers: Record<string, string>;
  content: string;
}

const camelCase = (name: string): string =>
  name
    .split('-')
    .map((part) => (part ? `${part.charAt(0).toUpperCase()}${part.slice(1).toLowerCase()}` : part))
    .join('-');

/** `x-connect-signature` → `Http-X-Connect-Signature`; `content-type` → `Content-Type`. */
const zapierHeaderName = (name: string): string =>
  /^content-(type|length)$/i.test(name) ? camelCase(name) : `Http-${camelCase(name)}`;

const toRawRequest = (delivery: {
  body: string;
  headers: Record<string, string | string[] | undefined>;
  method?: string;
  querystring?: string;
}): ZapierRawRequest => {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(delivery.headers)) {
    if (value === undefined) continue;
    headers[zapierHeaderName(name)] = Array.isArray(value) ? value.join(', ') : value;
  }
  return {
    method: (delivery.method?.toUpperCase() ?? 'POST') as HttpMethod,
    querystring: delivery.querystring ?? '',
    headers,
    content: delivery.body,
  };
};

/** The parsed body, as Zapier's `cleanedRequest` (an empty object when the body is not JSON). */
const cleaned = (body: string): Record<string, unknown> => {
  try {
    const parsed: unknown = JSON.parse(body);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

/** The bundle of a hook trigger's `perform` for one delivery. */
export const hookBundle = (
  delivery: Parameters<typeof toRawRequest>[0],
  rest: {
    authData: Record<string, string>;
    subscribeData?: { id: string } & Record<string, unknown>;
    inputData?: Record<string, unknown>;
    meta?: Record<string, unknown>;
  },
) => ({
  inputData: {},
  ...rest,
  rawRequest: toRawRequest(delivery),
  cleanedRequest: cleaned(delivery.body),
});

/** A delivery signed with each of `secrets` (several during a rotation), as the service sends it. */
export const signedDelivery = (
  body: string,
  secrets: string | string[],
  wire: Pick<WireWriter, 'deliveryHeaders'> = { deliveryHeaders },
): ReceivedDelivery => ({
  method: 'POST',
  querystring: '',
  headers: wire.deliveryHeaders(body, secrets),
  body,
});

export interface HookReceiver {
  /** `http://127.0.0.1:<port>/hooks/<name>`: one distinct target URL per subscription. */
  targetUrl(name?: string): string;
  /** Every attempt received, in arrival order (failed answers included). */
  received: Array<ReceivedDelivery & { path: string }>;
  /** Resolves once `count` attempts have arrived whose path is `path` (or any path). */
  waitFor(count: number, options?: { path?: string; timeoutMs?: number }): Promise<void>;
  /** The status to answer for the next attempts: e.g. `[500, 500]` makes the next two attempts fail. */
  failNext(statuses: number[]): void;
  close(): Promise<void>;
}

/** A local receiver on 127.0.0.1 that stands in for Zapier's target URL. */
export const startHookReceiver = async (): Promise<HookReceiver> => {
  const received: HookReceiver['received'] = [];
  const waiters = new Set<() => void>();
  let failures: number[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      received.push({
        method: req.method ?? 'POST',
        querystring: url.search.replace(/^\?/, ''),
        headers,
        body: Buffer.concat(chunks).toString('utf8'),
        path: url.pathname,
      });
      const status = failures.shift() ?? 200;
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ status: status < 300 ? 'success' : 'failed' }));
      for (const waiter of [...waiters]) waiter();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    targetUrl: (name = 'default') => `http://127.0.0.1:${port}/hooks/${encodeURIComponent(name)}`,
    received,
    failNext: (statuses) => {
      failures = [...statuses];
    },
    waitFor: (count, options = {}) =>
      new Promise<void>((resolve, reject) => {
        const matching = () =>
          received.filter((d) => !options.path || d.path === options.path || d.path.endsWith(options.path))
            .length;
        const check = () => {
          if (matching() < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(`expected ${count} deliveries at ${options.path ?? 'any path'}, got ${matching()}`),
          );
        }, options.timeoutMs ?? 5_000);
        waiters.add(check);
        check();
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
