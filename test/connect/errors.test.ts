/**
 * Messages a new user met and was misled by, each reproduced: what the user chose, what is wrong with it and
 * the one action that fixes it; and a temporary failure is called retried only where Zapier retries it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import nock from 'nock';
import type { Bundle, ZObject } from 'zapier-platform-core';
import { checkIn, listEvents, listOrders, paths, subscribeHook } from '../../src/connect';
import { SAMPLE_EVENT } from '../../src/mappers/event';
import authentication from '../../src/authentication';
import { BASE_URL, SENTINEL_KEY, appTester, authData, caught, errorMessage } from '../support/app';
import { wireError, wireList } from '../../sandbox/wire';

const EVENT_ID = SAMPLE_EVENT.id;
const run = <T>(fn: (z: ZObject, bundle: Bundle) => Promise<T>, auth = authData()) =>
  appTester(fn, { authData: auth });
const notFound = (message: string) => wireError('NOT_FOUND', message);

afterEach(() => nock.cleanAll());

it('turning on an instant Zap for a deleted event says the event is gone, not the subscription', async () => {
  nock(BASE_URL)
    .post(paths.hooks())
    .reply(404, notFound('Event not found'), { 'Content-Type': 'application/json' });
  const error = await caught(() =>
    run((z, b) =>
      subscribeHook(z, b, {
        targetUrl: 'https://hooks.zapier.com/x',
        event: 'FORM_SUBMISSION',
        eventId: EVENT_ID,
      }),
    ),
  );
  const message = errorMessage(error);
  expect(message).not.toMatch(/webhook subscription/);
  expect(message).toBe(
    `The event in the Event field (ID ${EVENT_ID}) is not among the events of the connected account: it may have been deleted, or it belongs to another organizer account. Choose the event again in the Event field, or map an event ID of this account from an earlier step, or leave the field empty to listen to all of your events; then turn the Zap on again.`,
  );
});

it('a subscription for all events that the service cannot find keeps the generic wording', async () => {
  nock(BASE_URL).post(paths.hooks()).reply(404, notFound('no'));
  const error = await caught(() =>
    run((z, b) =>
      subscribeHook(z, b, {
        targetUrl: 'https://hooks.zapier.com/x',
        event: 'FORM_SUBMISSION',
        eventId: null,
      }),
    ),
  );
  expect(errorMessage(error)).toMatch(/^The service could not find the webhook subscription\./);
});

describe('a temporary failure of the check-in is retried, because its Idempotency-Key makes that safe', () => {
  const send = () => run((z, b) => checkIn(z, b, { code: 'EVT1:abc' }, 'scan-1'));

  it('a 500 is a ThrottledError that says Zapier runs the step again and nothing is done twice', async () => {
    nock(BASE_URL)
      .post(paths.checkIn())
      .matchHeader('idempotency-key', 'scan-1')
      .reply(500, wireError('INTERNAL', 'db down'));
    const error = await caught(send);
    expect(error.name).toBe('ThrottledError');
    expect(JSON.parse(error.message)).toMatchObject({ delay: 60 });
    expect(errorMessage(error)).toBe(
      'The service had a temporary problem with the request for QR code "EVT1:abc" (HTTP 500, INTERNAL: db down). Zapier runs this step again in 60 seconds; the request carries the same Idempotency-Key each time, so nothing is done twice.',
    );
  });

  it('no answer at all (connection reset) is retried the same way', async () => {
    nock(BASE_URL).post(paths.checkIn()).replyWithError('read ECONNRESET');
    const error = await caught(send);
    expect(error.name).toBe('ThrottledError');
    expect(errorMessage(error)).toMatch(
      /the connection was closed before an answer came \(ECONNRESET\)\. Zapier runs this step again/,
    );
  });

  it('a read that fails with a 500 is not a ThrottledError and does not promise a retry of the step', async () => {
    nock(BASE_URL).get(paths.events()).query(true).reply(500, wireError('INTERNAL', 'x'));
    const error = await caught(() => run((z, b) => listEvents(z, b, 1)));
    expect(error.name).not.toBe('ThrottledError');
    expect(errorMessage(error)).not.toMatch(/Zapier runs this step again/);
  });
});

describe('the connection test says only what is true', () => {
  const testAuth = (auth = authData()) => appTester(authentication.test, { authData: auth });
  const events = () =>
    nock(BASE_URL)
      .get(paths.events())
      .query(true)
      .reply(200, wireList([SAMPLE_EVENT]));

  it('a 500 asks to try again, and never says Zapier will retry', async () => {
    nock(BASE_URL).get(paths.events()).query(true).reply(500, wireError('INTERNAL', 'db down'));
    const message = errorMessage(await caught(() => testAuth()));
    expect(message).toBe(
      'The service had a problem while fetching the list of your events (HTTP 500, INTERNAL: db down). This is usually temporary: try again in a few minutes.',
    );
  });

  it('a 429 asks to wait, as a plain error (nothing retries a connection test)', async () => {
    nock(BASE_URL)
      .get(paths.events())
      .query(true)
      .reply(429, wireError('RATE_LIMITED', 'slow'), { 'Retry-After': '30' });
    const error = await caught(() => testAuth());
    expect(error.name).not.toBe('ThrottledError');
    expect(errorMessage(error)).toMatch(/Wait 30 seconds, then try again\.$/);
  });

  it('an unknown Company ID is named, with where to find the right one', async () => {
    events();
    nock(BASE_URL)
      .get(paths.orders())
      .query({ companyId: 'cmp_typo', limit: '1' })
      .reply(404, notFound('Company not found'));
    expect(errorMessage(await caught(() => testAuth(authData({ companyId: 'cmp_typo' }))))).toBe(
      'The service knows no company "cmp_typo" for this API key, so its orders could not be read. Reconnect your account with the Company ID shown in the dashboard under Settings → Company (for example cmp_42).',
    );
  });

  it('labels tell two accounts apart: by company, else by the newest event, else by a fingerprint; never the key', async () => {
    const label = (inputData: Record<string, unknown>, auth = authData()) =>
      appTester(authentication.connectionLabel, { authData: auth, inputData });
    const host = 'api.connect.test';
    expect(
      await label({ host, companyId: 'cmp_42', latestEventTitle: 'TechWeek 2026', account: 'a1b2c3' }),
    ).toBe('Company cmp_42 on api.connect.test');
    expect(await label({ host, companyId: null, latestEventTitle: 'TechWeek 2026', account: 'a1b2c3' })).toBe(
      'Organizer of "TechWeek 2026" on api.connect.test',
    );
    expect(await label({ host, companyId: null, latestEventTitle: 'Side Meetup', account: 'd4e5f6' })).toBe(
      'Organizer of "Side Meetup" on api.connect.test',
    );
    const empty = await label({ host, companyId: null, latestEventTitle: null, account: 'd4e5f6' });
    expect(empty).toBe('Organizer account d4e5f6 (no events yet) on api.connect.test');
    expect(empty).not.toContain(SENTINEL_KEY);
  });

  it('two keys without events get two different fingerprints', async () => {
    nock(BASE_URL).get(paths.events()).query(true).reply(200, wireList([])).persist();
    const one = await testAuth(authData({ companyId: '', apiKey: 'sk_one' }));
    const two = await testAuth(authData({ companyId: '', apiKey: 'sk_two' }));
    expect(one.account).toMatch(/^[0-9a-f]{6}$/);
    expect(one.account).not.toBe(two.account);
  });
});

it('an order step for an unknown company names the company', async () => {
  nock(BASE_URL).get(paths.orders()).query(true).reply(404, notFound('Company not found'));
  const error = await caught(() => run((z, b) => listOrders(z, b, { companyId: 'cmp_gone' })));
  expect(errorMessage(error)).toMatch(/^The service knows no company "cmp_gone" for this API key/);
});

it('a Connect API URL without https:// that points at a local plain HTTP server says to type http://, without OpenSSL text', async () => {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(wireList([])));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    const typed = `127.0.0.1:${port}`;
    const error = await caught(() => run((z, b) => listEvents(z, b, 1), authData({ baseUrl: typed })));
    const message = errorMessage(error);
    expect(message).toBe(
      `The Connect API URL "${typed}" has no https://, so https://${typed} was tried, but the server there does not speak HTTPS (it answers like a plain HTTP server), so the list of your events could not be fetched. ${typed} is a local address, where plain http is accepted: if that server has no HTTPS, reconnect your account with http://${typed}.`,
    );
    expect(message).not.toMatch(/SSL|ssl3|routines|openssl/i);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
