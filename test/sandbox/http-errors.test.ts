// Every failure in the contract's error body, Fastify's own included, and bodies nested too deep for a
// recursive reader: 400, never a 500.

import net from 'node:net';
import { startSandbox, type RunningSandbox } from '../../sandbox';
import { MAX_BODY_DEPTH } from '../../sandbox/http';
import { jsonDepthExceeds } from '../../sandbox/validate';
import { call, eventId, expectError, json, makeApp, NORTHWIND } from './helpers';

const nested = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);

describe('deep bodies', () => {
  const { app } = makeApp();
  afterAll(() => app.close());

  const post = (url: string, payload: string, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url,
      payload,
      headers: { 'content-type': 'application/json', 'x-api-key': NORTHWIND.apiKey, ...headers },
    });

  it('answers 400 VALIDATION_ERROR to a 5,000-deep check-in with an Idempotency-Key', async () => {
    const res = await post('/api/v1/checkin', `{"code":"EVT1:x:y:z","extra":${nested(5000)}}`, {
      'idempotency-key': 'deep-1',
    });
    expectError(res, 400, 'VALIDATION_ERROR', { field: 'body' });
    expect(json(res).error.message).toContain(`deeper than ${MAX_BODY_DEPTH} levels`);
  });

  it('answers 400 without the key, on simulation routes, and for a 50,000-deep object', async () => {
    expectError(
      await post('/api/v1/checkin', `{"code":"x","extra":${nested(5000)}}`),
      400,
      'VALIDATION_ERROR',
    );
    const deepObject = '{"a":'.repeat(50_000) + '1' + '}'.repeat(50_000);
    expectError(await post('/_sandbox/events', deepObject), 400, 'VALIDATION_ERROR', { field: 'body' });
  });

  it('keeps the key free after a refused deep body, and accepts nesting up to the limit', async () => {
    const ok = `{"code":"EVT1:x:y:z","extra":${nested(MAX_BODY_DEPTH - 1)}}`;
    const first = await post('/api/v1/checkin', ok, { 'idempotency-key': 'deep-2' });
    expectError(first, 404, 'TICKET_NOT_FOUND');
    const replay = await post('/api/v1/checkin', ok, { 'idempotency-key': 'deep-2' });
    expect(replay.headers['idempotent-replayed']).toBe('true');
  });

  it('counts depth outside strings only', () => {
    expect(jsonDepthExceeds(`{"a":"${'['.repeat(1000)}"}`, 2)).toBe(false);
    expect(jsonDepthExceeds(`{"a":"\\"${'{'.repeat(10)}"}`, 2)).toBe(false);
    expect(jsonDepthExceeds('[[[]]]', 3)).toBe(false);
    expect(jsonDepthExceeds('[[[[]]]]', 3)).toBe(true);
    expect(jsonDepthExceeds('[[],[],[[]]]', 2)).toBe(true);
  });
});

describe("Fastify's own errors", () => {
  const { app } = makeApp();
  afterAll(() => app.close());

  it('bad percent-encoding in the path', async () => {
    for (const url of [
      '/widgets/event/%E0%A4%A',
      '/api/v1/integrations/zapier/hooks/%zz',
      '/connect/v1/events/%/floor-plans',
    ]) {
      const res = await call(
        app,
        url.startsWith('/api/v1/integrations/zapier/hooks') ? 'DELETE' : 'GET',
        url,
      );
      expectError(res, 400, 'VALIDATION_ERROR', { field: 'url' });
      expect(res.headers['content-type']).toMatch(/^application\/json/);
    }
  });

  it('bad JSON, an empty JSON body where one is required, a body too large, another Content-Type', async () => {
    const post = (payload: string, type = 'application/json') =>
      app.inject({
        method: 'POST',
        url: '/api/v1/checkin',
        payload,
        headers: { 'content-type': type, 'x-api-key': NORTHWIND.apiKey },
      });
    expectError(await post('{"code":'), 400, 'VALIDATION_ERROR', { field: 'body' });
    expectError(await post(''), 400, 'VALIDATION_ERROR', { field: 'body' });
    expectError(await post(`{"code":"${'x'.repeat(1_100_000)}"}`), 400, 'VALIDATION_ERROR', {
      field: 'body',
    });
    expectError(await post('code=x', 'application/x-www-form-urlencoded'), 400, 'VALIDATION_ERROR', {
      field: 'Content-Type',
    });
  });

  it('an unknown route or method is NOT_FOUND in the same shape', async () => {
    expectError(await call(app, 'GET', '/api/v1/nothing-here'), 404, 'NOT_FOUND');
    expectError(await app.inject({ method: 'OPTIONS', url: '/api/v1/checkin' }), 404, 'NOT_FOUND');
  });

  it('a bad percent-encoding in a query value reaches the route, which names the field', async () => {
    const id = await eventId(app, 'techweek-paris-2026');
    const res = await call(
      app,
      'GET',
      `/api/v1/integrations/zapier/submissions?eventId=${id}&since=%E0%A4%A`,
    );
    expectError(res, 400, 'VALIDATION_ERROR', { field: 'since' });
  });
});

describe('requests too malformed for any route (real HTTP)', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ seed: false });
  });
  afterAll(() => sandbox.close());

  const rawExchange = (text: string): Promise<string> =>
    new Promise((resolve, reject) => {
      const socket = net.connect(Number(new URL(sandbox.url).port), '127.0.0.1', () => socket.write(text));
      let out = '';
      socket.on('data', (d) => (out += d.toString('utf8')));
      socket.on('end', () => resolve(out));
      socket.on('error', reject);
    });

  const parse = (raw: string) => {
    const [head = '', body = ''] = raw.split('\r\n\r\n');
    return { status: Number(head.split(' ')[1]), head, body: JSON.parse(body) };
  };

  it('a request line that is not HTTP: 400 with the contract body', async () => {
    const res = parse(await rawExchange('GARBAGE\r\n\r\n'));
    expect(res.status).toBe(400);
    expect(res.head).toMatch(/content-type: application\/json/i);
    expect(res.body).toEqual({
      error: { code: 'VALIDATION_ERROR', message: expect.any(String), field: 'request' },
    });
  });

  it('headers over the limit: 431 with the contract body', async () => {
    const res = parse(
      await rawExchange(
        `GET /api/v1/public/events HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      ),
    );
    expect(res.status).toBe(431);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'headers' });
  });
});
