/**
 * The key goes only to the Connect API: a redirect is followed only under the base URL (same scheme, host,
 * port and path prefix), never to another origin and never from https to http; a refused redirect is an
 * error naming where it pointed. Public (keyless) requests may follow a redirect to another https host but
 * never a downgrade to http.
 */
import nock from 'nock';
import type { Bundle, ZObject } from 'zapier-platform-core';
import { checkIn, appErrorCode, listEvents, listPublicEvents, paths } from '../../src/connect';
import { SAMPLE_EVENT } from '../../src/mappers/event';
import { BASE_URL, SENTINEL_KEY, appTester, authData, caught, errorMessage } from '../support/app';
import { listsHoldMembers } from '../support/wireDialect';
import { wireList } from '../../sandbox/wire';

const run = <T>(fn: (z: ZObject, bundle: Bundle) => Promise<T>) => appTester(fn, { authData: authData() });
const STATUSES = [301, 302, 303, 307, 308];
const EVIL = 'https://collector.evil.example';
const CHECKIN_RESULT = {
  result: 'checked_in',
  submissionId: 'sub_1',
  eventId: SAMPLE_EVENT.id,
  checkInTime: '2026-12-01T08:01:12.000Z',
};

afterEach(() => nock.cleanAll());

describe.each(STATUSES)('HTTP %i on a keyed request', (status) => {
  it('is followed on the same origin, with the key', async () => {
    const first = nock(BASE_URL, { reqheaders: { 'x-api-key': SENTINEL_KEY } })
      .get(paths.events())
      .query(true)
      .reply(status, '', { Location: '/api/v1/integrations/zapier/events-v2?limit=1' });
    const second = nock(BASE_URL, { reqheaders: { 'x-api-key': SENTINEL_KEY } })
      .get('/api/v1/integrations/zapier/events-v2')
      .query({ limit: '1' })
      .reply(200, wireList([SAMPLE_EVENT]));
    await expect(run((z, b) => listEvents(z, b, 1))).resolves.toHaveLength(1);
    first.done();
    second.done();
  });

  it('to another origin is refused, the key is not sent there, and the message names the host', async () => {
    nock(BASE_URL)
      .get(paths.events())
      .query(true)
      .reply(status, '', { Location: `${EVIL}/steal?from=connect` });
    const evil = nock(EVIL).get('/steal').query(true).reply(200, wireList([]));
    const error = await caught(() => run((z, b) => listEvents(z, b, 1)));
    expect(evil.isDone()).toBe(false);
    expect(appErrorCode(error)).toBe('REDIRECT_REFUSED');
    expect(errorMessage(error)).toBe(
      `The service at api.connect.test answered the request for the list of your events with a redirect (HTTP ${status}) to ${EVIL}, outside your Connect API URL, so it was not followed and your API key was not sent there. The Connect API never redirects: check the Connect API URL of your connection (the address of the API host itself, with https).`,
    );
  });

  it('from https to http on the same host is refused as a downgrade', async () => {
    nock(BASE_URL)
      .get(paths.events())
      .query(true)
      .reply(status, '', { Location: `http://api.connect.test${paths.events()}` });
    const clear = nock('http://api.connect.test').get(paths.events()).query(true).reply(200, wireList([]));
    const error = await caught(() => run((z, b) => listEvents(z, b, 1)));
    expect(clear.isDone()).toBe(false);
    expect(errorMessage(error)).toContain(
      `with a redirect (HTTP ${status}) to the unencrypted address http://api.connect.test, so it was not followed and your API key was not sent there.`,
    );
  });

  it('on a check-in (POST) keeps method and body for 307/308 and becomes a GET for 301/302/303', async () => {
    const keepsBody = status === 307 || status === 308;
    nock(BASE_URL)
      .post(paths.checkIn(), { code: 'EVT1:x' })
      .reply(status, '', { Location: '/api/v2/checkin' });
    const next = keepsBody
      ? nock(BASE_URL, { reqheaders: { 'x-api-key': SENTINEL_KEY, 'idempotency-key': 'k1' } })
          .post('/api/v2/checkin', { code: 'EVT1:x' })
          .reply(200, CHECKIN_RESULT)
      : nock(BASE_URL, { reqheaders: { 'x-api-key': SENTINEL_KEY } })
          .get('/api/v2/checkin')
          .reply(200, CHECKIN_RESULT);
    await expect(run((z, b) => checkIn(z, b, { code: 'EVT1:x' }, 'k1'))).resolves.toMatchObject({
      result: 'checked_in',
    });
    next.done();
  });
});

describe('redirect limits', () => {
  it('stays under a base URL with a path: a redirect above that path is refused', async () => {
    nock('https://gw.example')
      .get(`/connect${paths.events()}`)
      .query(true)
      .reply(302, '', { Location: '/other-app/events' });
    const error = await caught(() =>
      appTester((z, b) => listEvents(z, b, 1), {
        authData: authData({ baseUrl: 'https://gw.example/connect' }),
      }),
    );
    expect(errorMessage(error)).toContain('to https://gw.example, outside your Connect API URL');
  });

  it('a redirect loop ends with a clear error after 5 hops', async () => {
    nock(BASE_URL)
      .get(/.*/)
      .times(6)
      .reply(307, '', { Location: `${paths.events()}?limit=1` });
    const error = await caught(() => run((z, b) => listEvents(z, b, 1)));
    expect(errorMessage(error)).toContain('more than 5 times in a row');
  });

  it('a 3xx without Location is an unexpected answer, not a crash', async () => {
    nock(BASE_URL).get(paths.events()).query(true).reply(302, '');
    const error = await caught(() => run((z, b) => listEvents(z, b, 1)));
    expect(errorMessage(error)).toMatch(/Unexpected answer .*HTTP 302/);
  });
});

describe('public requests (no key)', () => {
  it('follow a redirect to another https host, without a key', async () => {
    nock(BASE_URL, { badheaders: ['x-api-key'] })
      .get(paths.publicEvents())
      .query(true)
      .reply(301, '', { Location: 'https://cdn.example/catalog?page=1' });
    const cdn = nock('https://cdn.example', { badheaders: ['x-api-key'] })
      .get('/catalog')
      .query(true)
      .reply(200, wireList([SAMPLE_EVENT], { page: 1, limit: 20, total: 1 }));
    // The catalog's `total`, where the dialect's lists hold members beside their records.
    await expect(run((z, b) => listPublicEvents(z, b, { page: 1 }))).resolves.toMatchObject({
      total: listsHoldMembers() ? 1 : undefined,
    });
    cdn.done();
  });

  it('never follow a downgrade to http', async () => {
    nock(BASE_URL)
      .get(paths.publicEvents())
      .query(true)
      .reply(302, '', { Location: 'http://cdn.example/catalog' });
    const error = await caught(() => run((z, b) => listPublicEvents(z, b, { page: 1 })));
    expect(errorMessage(error)).toContain(
      'to the unencrypted address http://cdn.example, so it was not followed.',
    );
    expect(errorMessage(error)).not.toContain('API key');
  });
});
