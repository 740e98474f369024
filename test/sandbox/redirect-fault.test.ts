// The redirect fault: the real API never redirects (docs/connect-contract.md §1), so a redirect is a fault
// that lets an app's "never follow off-origin with the key" be tried end to end.

import { startSandbox, type RunningSandbox } from '../../sandbox';
import { REDIRECT_STATUSES } from '../../sandbox/faults';
import { call, expectError, json, makeApp, NORTHWIND } from './helpers';

const EVENTS = '/api/v1/integrations/zapier/events';

describe('redirect fault (inject)', () => {
  const { app } = makeApp();
  afterAll(() => app.close());
  afterEach(() => call(app, 'DELETE', '/_sandbox/faults'));

  const fault = (body: object) =>
    call(app, 'POST', '/_sandbox/faults', { body: { route: `GET ${EVENTS}`, kind: 'redirect', ...body } });
  const get = (headers: Record<string, string> = {}) => call(app, 'GET', `${EVENTS}?limit=5`, { headers });

  it('answers each redirect status once, then the route answers normally', async () => {
    for (const status of REDIRECT_STATUSES) {
      const created = await fault({ status, location: 'https://elsewhere.example/steal' });
      expect(json(created)).toMatchObject({
        kind: 'redirect',
        status,
        location: 'https://elsewhere.example/steal',
        remaining: 1,
      });
      const res = await get();
      expect(res.statusCode).toBe(status);
      expect(res.headers.location).toBe('https://elsewhere.example/steal');
      expect((await get()).statusCode).toBe(200);
    }
  });

  it('defaults to 302 to another origin that reaches the same sandbox (localhost ↔ 127.0.0.1)', async () => {
    await fault({ count: 2 });
    const fromLocalhost = await get({ host: 'localhost:4010' });
    expect(fromLocalhost.statusCode).toBe(302);
    expect(fromLocalhost.headers.location).toBe(`http://127.0.0.1:4010${EVENTS}?limit=5`);
    const fromLoopback = await get({ host: '127.0.0.1:4010' });
    expect(fromLoopback.headers.location).toBe(`http://localhost:4010${EVENTS}?limit=5`);
  });

  it('same-origin, http (a downgrade behind https) and a path', async () => {
    await fault({ location: 'same-origin', status: 307 });
    expect((await get({ host: '127.0.0.1:4010' })).headers.location).toBe(
      `http://127.0.0.1:4010${EVENTS}?limit=5`,
    );
    await fault({ location: 'http', status: 308 });
    const downgrade = await get({ host: 'api.example:443', 'x-forwarded-proto': 'https' });
    expect(downgrade.headers.location).toBe(`http://api.example:443${EVENTS}?limit=5`);
    await fault({ location: '/api/v1/integrations/zapier/events?limit=1' });
    expect((await get({ host: '127.0.0.1:4010' })).headers.location).toBe(
      'http://127.0.0.1:4010/api/v1/integrations/zapier/events?limit=1',
    );
  });

  it('refuses a status that is not a redirect and a location that is not http(s)', async () => {
    expectError(await fault({ status: 304 }), 400, 'VALIDATION_ERROR', { field: 'status' });
    expectError(await fault({ status: 500 }), 400, 'VALIDATION_ERROR', { field: 'status' });
    expectError(await fault({ location: 'ftp://files.example/x' }), 400, 'VALIDATION_ERROR', {
      field: 'location',
    });
    expectError(await fault({ location: '//elsewhere.example/x' }), 400, 'VALIDATION_ERROR', {
      field: 'location',
    });
  });

  it('belongs to the tenant that set it, like every fault on a keyed route', async () => {
    await fault({});
    expect((await call(app, 'GET', EVENTS, { key: 'sk_sandbox_lumen_9b3e5d1a7c2f' })).statusCode).toBe(200);
    expect((await get()).statusCode).toBe(302);
  });
});

describe('redirect fault (real HTTP)', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({});
  });
  afterAll(() => sandbox.close());

  it('a client that follows a same-origin redirect gets the real answer; other-origin keeps the port', async () => {
    const setFault = (body: object) =>
      fetch(`${sandbox.url}/_sandbox/faults`, {
        method: 'POST',
        headers: { 'x-api-key': NORTHWIND.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ route: `GET ${EVENTS}`, kind: 'redirect', ...body }),
      });
    await setFault({ location: 'same-origin', status: 301 });
    const followed = await fetch(`${sandbox.url}${EVENTS}`, { headers: { 'x-api-key': NORTHWIND.apiKey } });
    expect(followed.status).toBe(200);
    expect(followed.redirected).toBe(true);

    await setFault({});
    const manual = await fetch(`${sandbox.url}${EVENTS}`, {
      headers: { 'x-api-key': NORTHWIND.apiKey },
      redirect: 'manual',
    });
    expect(manual.status).toBe(302);
    expect(manual.headers.get('location')).toBe(`${sandbox.url.replace('127.0.0.1', 'localhost')}${EVENTS}`);
  });
});
