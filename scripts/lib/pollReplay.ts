/**
 * One poll of a rush play replayed alone, for `bench:poll` to measure its memory in a process of its own
 * (scripts/bench-poll-lone.cjs): the service as the play had it at the poll's time, answering over HTTP on
 * 127.0.0.1 from another process (as Zapier's poll reads the real service: the answer's making is not the
 * poll's memory), and the cache as the play left it before the poll (saved to a file, read as the poll asks:
 * `FakeCache.fromFile`).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough, Readable } from 'node:stream';
import type { PerformFunction } from 'zapier-platform-core';
import type { FakeCache } from './fakeCache';
import {
  type Answering,
  PLAY_START,
  RushService,
  type RushScenario,
  bundle,
  populate,
  rushZ,
} from './pollPlay';

const HOUR = 3_600_000;

/** The service of `s` as the play had it at `at`: every registration it will ever hold, visible by then. */
const serviceAt = (s: RushScenario, at: number): RushService => {
  const service = new RushService();
  populate(service, s, PLAY_START + (s.maxHours ?? 30) * HOUR);
  service.now = at;
  return service;
};

/**
 * Serves `s`'s service at `at` on 127.0.0.1 (its answers streamed as the play's are); resolves with its
 * address once it listens.
 */
export const serveService = (s: RushScenario, at: number): Promise<{ url: string; close: () => void }> => {
  const service = serviceAt(s, at);
  const server = http.createServer((req, res) => {
    const answer = service.handle(`https://service.test${req.url ?? '/'}`, true);
    const date = answer.headers.get('date') ?? '';
    res.writeHead(answer.status, { 'content-type': 'application/json', date });
    answer.body.pipe(res);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      const close = () => {
        server.close();
        server.closeAllConnections();
      };
      resolve({ url: `http://127.0.0.1:${port}`, close });
    });
  });
};

/** The service's answers over HTTP at `url` (`serveService`), counting the bytes of the registrations'. */
const answersFrom = (url: string, counted: { bytes: number }): Answering => {
  return (target, raw) =>
    new Promise((resolve, reject) => {
      const { pathname, search } = new URL(target);
      http
        .get(`${url}${pathname}${search}`, { agent: false }, (res) => {
          const headers = { get: (name: string) => (res.headers[name.toLowerCase()] as string) ?? null };
          const body = new PassThrough();
          // As the play counts: the registrations' answers, not the event's.
          if (!pathname.endsWith('/events'))
            res.on('data', (chunk: Buffer) => (counted.bytes += chunk.length));
          res.pipe(body);
          if (raw) return resolve({ status: res.statusCode, headers, body, text: async () => '' });
          const chunks: Buffer[] = [];
          body.on('data', (chunk: Buffer) => chunks.push(chunk));
          body.on('end', () => {
            const content = Buffer.concat(chunks).toString();
            resolve({
              status: res.statusCode,
              headers,
              content,
              body: Readable.from([Buffer.from(content)]),
            });
          });
        })
        .on('error', reject);
    });
};

/**
 * One poll of `s` replayed at `at`, over the cache `cacheOf` makes on the play's clock: against the play's
 * service in this process, or the one `serviceUrl` serves (`serveService`, in another process). What it
 * read from the service, and what it answered.
 */
export const replayPoll = async (
  s: RushScenario,
  at: number,
  cacheOf: (now: () => number) => FakeCache,
  perform: PerformFunction,
  serviceUrl?: string,
): Promise<{ service: number; items: number; answer: number }> => {
  const counted = { bytes: 0 };
  const service = serviceUrl ? answersFrom(serviceUrl, counted) : serviceAt(s, at);
  const cache = cacheOf(() => at);
  const realNow = Date.now;
  Date.now = () => at;
  try {
    const items = (await perform(rushZ(service, cache), bundle({}))) as unknown[];
    const answer = Buffer.byteLength(JSON.stringify(items));
    const read = typeof service === 'function' ? counted.bytes : service.bytesSent;
    return { service: read, items: items.length, answer };
  } finally {
    Date.now = realNow;
  }
};
