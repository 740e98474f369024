/**
 * A pooled connection the server has already closed is found closed only when a request goes out on it:
 * an idempotent read is sent once more on a fresh connection and the user sees nothing, while a check-in
 * (a POST, with its Idempotency-Key) is never sent twice. A real server on 127.0.0.1: it answers on a new
 * connection, and drops any request that arrives on a connection it has already answered on.
 */
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import nock from 'nock';
import type { Bundle, ZObject } from 'zapier-platform-core';
import { checkIn, listEvents, paths } from '../../src/connect';
import { SAMPLE_EVENT } from '../../src/mappers/event';
import { SAMPLE_CHECK_IN } from '../../src/mappers/checkIn';
import { appTester, authData, caught, errorMessage } from '../support/app';
import { wireList, wireObject } from '../../sandbox/wire';

interface Seen {
  method: string;
  path: string;
  /** Whether the request came on a connection that had already carried one. */
  reused: boolean;
  dropped: boolean;
}

let server: Server;
let baseUrl: string;
const seen: Seen[] = [];

// Requests to loopback pass through nock, but not through Node's connection pool: this file talks to its
// server directly, as the app does in Zapier (the setup's `afterAll` leaves nock off for the next file too).
beforeAll(() => nock.restore());

beforeEach(async () => {
  seen.length = 0;
  const served = new WeakSet<object>();
  server = createServer((request, response) => {
    const socket = request.socket;
    const reused = served.has(socket);
    const entry = { method: request.method ?? '', path: request.url ?? '', reused, dropped: reused };
    seen.push(entry);
    // The server let this connection go while the client kept it in its pool.
    if (reused) return void socket.destroy();
    served.add(socket);
    request.resume();
    request.on('end', () => {
      const body = request.method === 'POST' ? wireObject(SAMPLE_CHECK_IN) : wireList([SAMPLE_EVENT]);
      response.writeHead(200, { 'Content-Type': 'application/json', Connection: 'keep-alive' });
      response.end(JSON.stringify(body));
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const run = <T>(fn: (z: ZObject, bundle: Bundle) => Promise<T>) =>
  appTester(fn, { authData: authData({ baseUrl }) });

it('a read that finds its pooled connection closed is sent again on a fresh one, and answers', async () => {
  const [first, second] = await run(async (z, bundle) => [
    await listEvents(z, bundle),
    await listEvents(z, bundle),
  ]);
  expect(first?.map((event) => event.id)).toEqual([SAMPLE_EVENT.id]);
  expect(second?.map((event) => event.id)).toEqual([SAMPLE_EVENT.id]);
  // The second read went out on the pooled connection (dropped), then once more on a new one.
  expect(seen.map(({ method, reused }) => [method, reused])).toEqual([
    ['GET', false],
    ['GET', true],
    ['GET', false],
  ]);
});

it('a check-in on a pooled connection found closed is not sent again: the user is told', async () => {
  const error = await caught(() =>
    run(async (z, bundle) => {
      await listEvents(z, bundle);
      return checkIn(z, bundle, { code: 'EVT1:abc' }, 'scan-key-1');
    }),
  );
  expect(errorMessage(error)).toMatch(/connection was closed before an answer came|could not reach/i);
  const posts = seen.filter((request) => request.method === 'POST');
  expect(posts).toEqual([{ method: 'POST', path: paths.checkIn(), reused: true, dropped: true }]);
});
