import nock from 'nock';
import authentication from '../src/authentication';
import { paths } from '../src/connect';
import { SAMPLE_EVENT } from '../src/mappers/event';
import { BASE_URL, SENTINEL_KEY, appTester, authData, caught, errorMessage } from './support/app';
import { wireError, wireList } from '../sandbox/wire';

const testAuth = (auth = authData()) => appTester(authentication.test, { authData: auth });

afterEach(() => {
  nock.cleanAll();
  delete process.env.CONNECT_BASE_URL;
});

describe('authentication test', () => {
  it('lists one event with the key and labels the connection without a secret', async () => {
    const scope = nock(BASE_URL, { reqheaders: { 'x-api-key': SENTINEL_KEY } })
      .get(paths.events())
      .query({ limit: '1' })
      .reply(200, wireList([SAMPLE_EVENT]))
      .get(paths.orders())
      .query({ companyId: 'cmp_42', limit: '1' })
      .reply(200, wireList([]));
    const result = await testAuth();
    scope.done();
    expect(result).toEqual({
      host: 'api.connect.test',
      companyId: 'cmp_42',
      latestEventTitle: 'TechWeek 2026',
      account: expect.stringMatching(/^[0-9a-f]{6}$/),
    });
    const label = await appTester(authentication.connectionLabel, {
      authData: authData(),
      inputData: result,
    });
    expect(label).toBe('Company cmp_42 on api.connect.test');
    expect(label).not.toContain(SENTINEL_KEY);
  });

  it('uses CONNECT_BASE_URL when the account sets no URL', async () => {
    process.env.CONNECT_BASE_URL = 'https://env-host.connect.test/';
    const scope = nock('https://env-host.connect.test')
      .get(paths.events())
      .query(true)
      .reply(200, wireList([]));
    const result = await testAuth(authData({ baseUrl: '', companyId: '' }));
    scope.done();
    expect(result.host).toBe('env-host.connect.test');
  });

  it('a wrong key asks to reconnect with a valid key', async () => {
    nock(BASE_URL).get(paths.events()).query(true).reply(401, wireError('INVALID_API_KEY', 'unknown key'));
    const error = await caught(() => testAuth());
    expect(error.name).toBe('ExpiredAuthError');
    expect(error.message).toMatch(/did not accept your API key/);
  });

  it('a wrong URL that answers 404 or HTML says to check the Connect API URL', async () => {
    nock(BASE_URL).get(paths.events()).query(true).reply(404, 'Not Found', { 'Content-Type': 'text/plain' });
    expect(errorMessage(await caught(() => testAuth()))).toMatch(
      /api\.connect\.test does not answer like a Connect API .*Check the Connect API URL/,
    );
    nock(BASE_URL)
      .get(paths.events())
      .query(true)
      .reply(200, '<html>welcome</html>', { 'Content-Type': 'text/html' });
    expect(errorMessage(await caught(() => testAuth()))).toMatch(/does not answer like a Connect API/);
  });

  it('an http URL to a public host is refused before any request', async () => {
    const error = await caught(() => testAuth(authData({ baseUrl: 'http://api.example.com' })));
    expect(errorMessage(error)).toMatch(
      /"http:\/\/api\.example\.com" cannot be used: it must start with https:\/\//,
    );
  });

  it('no URL at all says what to configure', async () => {
    const error = await caught(() => testAuth(authData({ baseUrl: '' })));
    expect(errorMessage(error)).toMatch(/No Connect API URL is configured/);
  });

  it('a missing entitlement names the feature', async () => {
    nock(BASE_URL)
      .get(paths.events())
      .query(true)
      .reply(403, wireError('ENTITLEMENT_REQUIRED', 'no', { entitlement: 'agenda' }));
    expect(errorMessage(await caught(() => testAuth()))).toMatch(
      /Your plan does not include the Agenda feature/,
    );
  });
});
