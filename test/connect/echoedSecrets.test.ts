/**
 * A server that echoes request headers back must not get the key or a secret into anything the app
 * produces: HTML and other non-JSON excerpts, a JSON `error.message`, a network error, a redirect's address,
 * log lines, and the error an unsubscribe gets (which zapier-platform-core would otherwise extend with a
 * "What happened" dump of the bundle, `subscribeData` and its secret included).
 */
import nock from 'nock';
import type { Bundle, ZObject } from 'zapier-platform-core';
import { z as zod } from 'zod';
import { REDACTED, connectRequest, listEvents, paths, redactor } from '../../src/connect';
import { App, BASE_URL, SENTINEL_KEY, appTester, authData, caught, testerCache } from '../support/app';
import { deliveryBody, hookBundle, signedDelivery } from '../support/deliveries';
import { SAMPLE_SUBMISSION } from '../../src/mappers/submission';
import { serviceHooks } from '../support/serviceHooks';
import { wireError } from '../../sandbox/wire';

const WEBHOOK_SECRET = 'whsec_ACCOUNT_7d1e55aa90c3';
const HOOK_SECRET = 'whsec_HOOK_0c9b2f41e6a8';
const SECRETS = [SENTINEL_KEY, WEBHOOK_SECRET, HOOK_SECRET];
const auth = () => authData({ webhookSecret: WEBHOOK_SECRET });
const subscribeData = { id: 'hook_1', secret: HOOK_SECRET, kind: 'FORM_SUBMISSION', eventId: null };

type Fn = (z: ZObject, bundle: Bundle) => Promise<unknown>;
const op = (key: string) =>
  (App.triggers as unknown as Record<string, { operation: Record<string, Fn> }>)[key]!.operation;

/** Everything a user or a log reader could see of an error. */
const visible = (error: Error): string =>
  `${error.name} ${error.message} ${error.stack ?? ''} ${JSON.stringify(error)}`;

/** Asserts that no secret, nor its first 8 characters (a cut excerpt), shows in `text`. */
const expectClean = (text: string) => {
  for (const secret of SECRETS) {
    expect(text).not.toContain(secret);
    expect(text).not.toContain(secret.slice(0, 8));
  }
};

const echo = `X-API-KEY: ${SENTINEL_KEY}; X-Webhook-Secret: ${WEBHOOK_SECRET}; Hook: ${HOOK_SECRET}`;
const request = (z: ZObject, bundle: Bundle) =>
  connectRequest(z, bundle, {
    path: paths.events(),
    schema: zod.looseObject({}),
    what: 'the list of your events',
  });
const fail = () =>
  caught(() =>
    appTester(request, { authData: auth(), subscribeData } as unknown as Parameters<typeof appTester>[1]),
  );

const logs: string[] = [];
let logSpy: jest.SpyInstance;
beforeEach(() => {
  testerCache(appTester).zcacheTestObj = {};
  serviceHooks(HOOK_SECRET);
  logs.length = 0;
  logSpy = jest.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    logs.push(args.map(String).join(' '));
  });
});
afterEach(() => {
  logSpy.mockRestore();
  nock.cleanAll();
});

describe('redactor', () => {
  it('blanks each secret in every spelling an echo may use, and leaves other text alone', () => {
    const redact = redactor(['s3cr"et<&>/x', null, '', 'ab']);
    expect(
      redact(
        'raw s3cr"et<&>/x json s3cr\\"et<&>/x url s3cr%22et%3C%26%3E%2Fx html s3cr&quot;et&lt;&amp;&gt;/x',
      ),
    ).toBe(`raw ${REDACTED} json ${REDACTED} url ${REDACTED} html ${REDACTED}`);
    // Too short to be a secret: "ab" is left in words.
    expect(redact('about')).toBe('about');
  });
});

describe('every error path of a request', () => {
  it.each([
    ['a 500 HTML page', 500, `<html><body><pre>${'x'.repeat(90)} ${echo}</pre></body></html>`, 'text/html'],
    ['a 502 plain-text page', 502, `upstream said: ${echo}`, 'text/plain'],
    [
      'a 400 JSON error.message',
      400,
      JSON.stringify(wireError('VALIDATION_ERROR', echo, { field: SENTINEL_KEY })),
      'application/json',
    ],
    ['a 403 JSON error.message', 403, JSON.stringify(wireError('FORBIDDEN', echo)), 'application/json'],
    ['a 503 JSON error.message', 503, JSON.stringify(wireError('INTERNAL', echo)), 'application/json'],
    ['a 418 with a body', 418, echo, 'text/plain'],
    ['a 200 that is not JSON', 200, `<html>${echo}</html>`, 'text/html'],
    [
      'a JSON message with escaped characters',
      400,
      `{"error":{"code":"VALIDATION_ERROR","message":"${SENTINEL_KEY.replace('s', '\\u0073')} / ${HOOK_SECRET}"}}`,
      'application/json',
    ],
  ])('%s', async (_name, status, body, contentType) => {
    nock(BASE_URL).get(paths.events()).reply(status, body, { 'Content-Type': contentType });
    const error = await fail();
    // Blanked before the excerpt is cut: the cut may fall inside "[redacted]", never inside a secret.
    expect(error.message).toMatch(/\[redacted\]|\[…/);
    expectClean(visible(error));
  });

  it('a network error quoting the key', async () => {
    nock(BASE_URL).get(paths.events()).replyWithError(`proxy refused header X-API-KEY=${SENTINEL_KEY}`);
    const error = await fail();
    expect(error.message).toContain('Could not reach the service');
    expectClean(visible(error));
  });

  it('a redirect whose address carries the key', async () => {
    nock(BASE_URL)
      .get(paths.events())
      .reply(302, '', { Location: `https://other.example/?k=${SENTINEL_KEY}&s=${HOOK_SECRET}` });
    const error = await fail();
    expect(error.message).toContain('https://other.example');
    expectClean(visible(error));
  });
});

describe('log lines and Zapier’s own error dump', () => {
  it('the log line of a failed event lookup during a delivery is blanked', async () => {
    nock(BASE_URL)
      .get(paths.events())
      .query(true)
      .times(2)
      .reply(500, wireError('INTERNAL', `echo ${echo}`));
    const body = deliveryBody('FORM_SUBMISSION', SAMPLE_SUBMISSION);
    const items = await appTester(
      op('new_registration').perform!,
      hookBundle(signedDelivery(body, HOOK_SECRET), { authData: auth(), subscribeData }),
    );
    expect(items).toHaveLength(1);
    const logged = logs.join('\n');
    expect(logged).toContain('could not be added');
    expect(logged).toContain(REDACTED);
    expectClean(logged);
  });

  it('a 401 when a Zap is turned off shows no secret and no bundle dump', async () => {
    nock(BASE_URL)
      .delete(paths.hook('hook_1'))
      .reply(401, wireError('INVALID_API_KEY', `revoked: ${SENTINEL_KEY}`));
    const error = await caught(() =>
      appTester(op('new_registration').performUnsubscribe!, {
        authData: auth(),
        subscribeData,
        inputData: {},
      }),
    );
    expect(error.name).toBe('ExpiredAuthError');
    expect(error.message).toMatch(/^The service did not accept your API key/);
    expect(error.message).not.toContain('What happened');
    expect((error as Error & { doNotContextify?: boolean }).doNotContextify).toBe(true);
    expectClean(visible(error));
  });

  it('an unexpected failure inside an operation is blanked and not dumped either', async () => {
    nock(BASE_URL).get(paths.events()).query(true).reply(200, { data: 'not a list' });
    const error = await caught(() =>
      appTester((z: ZObject, b: Bundle) => listEvents(z, b, 1), { authData: auth() }),
    );
    expectClean(visible(error));
  });
});

describe('a key containing + or / echoed in an escaped form', () => {
  const KEY = 'sk_live_Pl+s/Sl4sh+Key/9f8e7d6c5b';
  const spelled = (plus: string, slash: string) => KEY.replace(/\+/g, plus).replace(/\//g, slash);
  const escapedForms: Array<[string, number, string, string]> = [
    [
      'JSON \\u002B outside the error shape',
      502,
      `{"detail":"${spelled('\\u002B', '\\u002f')}"}`,
      'application/json',
    ],
    ['JSON \\/ in a page', 500, `<script>var k = "${spelled('+', '\\/')}";</script>`, 'text/html'],
    ['HTML numeric entities', 500, `<html><p>${spelled('&#43;', '&#x2F;')}</p></html>`, 'text/html'],
    ['lowercase percent-encoding', 502, `upstream rejected ?key=${spelled('%2b', '%2f')}`, 'text/plain'],
    ['a 200 answer that is not JSON', 200, `<html>${spelled('&#43;', '\\/')}</html>`, 'text/html'],
  ];
  /** No spelling of the key, nor a piece of it, shows in `text`. */
  const expectNoKey = (text: string) => {
    expect(text).not.toContain('Pl+s');
    expect(text).not.toMatch(/Sl4sh|9f8e7d6c5b/);
    expect(text).not.toContain(KEY.slice(0, 10));
  };
  const keyed = () => ({ ...auth(), apiKey: KEY });
  type Operations = Record<string, { operation: Record<string, Fn> }>;
  const operations: Array<[string, Fn]> = [
    ['New Event', (z, b) => (App.triggers as unknown as Operations).new_event!.operation.perform!(z, b)],
    ['Find Event', (z, b) => (App.searches as unknown as Operations).find_event!.operation.perform!(z, b)],
    ['the auth test', (z, b) => (App.authentication as unknown as { test: Fn }).test(z, b)],
  ];

  describe.each(operations)('%s', (_name, operation) => {
    it.each(escapedForms)('%s', async (_form, status, body, contentType) => {
      nock(BASE_URL)
        .get(() => true)
        .query(true)
        .reply(status, body, { 'Content-Type': contentType })
        .persist();
      const error = await caught(() =>
        appTester(operation, { authData: keyed(), inputData: { query: 'Summit' } } as unknown as Parameters<
          typeof appTester
        >[1]),
      );
      // The answer's words are shown (blanked), or the answer is named without them (the auth test's 200).
      expect(visible(error)).toMatch(/\[redacted\]|\[…|does not answer like a Connect API/);
      expectNoKey(visible(error));
      expectNoKey(logs.join('\n'));
    });
  });
});
