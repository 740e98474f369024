import nock from 'nock';
import type { Bundle, ZObject } from 'zapier-platform-core';
import { z as zod } from 'zod';
import {
  EVENTS_LIMIT_MAX,
  appErrorCode,
  errorMeaning,
  connectRequest,
  connectRequestOrNull,
  listEvents,
  listPublicEvents,
  paths,
  retryAfterSeconds,
  unsubscribeHook,
} from '../../src/connect';
import { DIALECT, Event, buildUrl, headersFor } from '../../src/connect/testing';
import { SAMPLE_EVENT } from '../../src/mappers/event';
import { BASE_URL, SENTINEL_KEY, appTester, authData, caught, errorMessage } from '../support/app';
import { catalogByNumber, listsHoldMembers } from '../support/wireDialect';
import { listSubmissions } from '../support/submissions';
import { wireError, wireList } from '../../sandbox/wire';

const run = <T>(fn: (z: ZObject, bundle: Bundle) => Promise<T>, auth = authData()) =>
  appTester(fn, { authData: auth });

const listAnything = (z: ZObject, bundle: Bundle) =>
  connectRequest(z, bundle, {
    path: paths.events(),
    schema: zod.looseObject({}),
    what: 'the list of your events',
  });

const failWith = async (status: number, body: unknown, headers: Record<string, string> = {}) => {
  nock(BASE_URL)
    .get(paths.events())
    .reply(status, typeof body === 'string' ? body : JSON.stringify(body), {
      'Content-Type': typeof body === 'string' ? 'text/html' : 'application/json',
      ...headers,
    });
  return caught(() => run(listAnything));
};

afterEach(() => nock.cleanAll());

/** The public event page `gone`, or `null` when it is not found. */
const readGoneWidget = () =>
  run((z, b) =>
    connectRequestOrNull(z, b, {
      path: paths.eventWidget('gone'),
      schema: zod.object({}),
      what: 'x',
      public: true,
    }),
  );

describe('URLs and headers', () => {
  it('joins base URL, encoded path and defined query values only', () => {
    expect(
      buildUrl('https://h.example/p', paths.floorPlan('e:1', 'plan 1'), { limit: 5, x: undefined, y: '' }),
    ).toBe('https://h.example/p/connect/v1/events/e%3A1/floor-plans/plan%201?limit=5');
    expect(buildUrl('https://h.example', paths.submissions(), { since: '2026-11-22T10:00:00.000Z' })).toBe(
      'https://h.example/api/v1/integrations/zapier/submissions?since=2026-11-22T10%3A00%3A00.000Z',
    );
  });

  it('adds X-API-KEY only for the configured base URL, and never for public endpoints', () => {
    const auth = { apiKey: SENTINEL_KEY };
    expect(headersFor(`${BASE_URL}/api/v1/x`, BASE_URL, auth)['X-API-KEY']).toBe(SENTINEL_KEY);
    expect(headersFor('https://hooks.zapier.com/x', BASE_URL, auth)['X-API-KEY']).toBeUndefined();
    expect(headersFor('https://widgets.other.example/w', BASE_URL, auth)['X-API-KEY']).toBeUndefined();
    expect(headersFor(`${BASE_URL}/widgets/event/x`, BASE_URL, auth, {}, true)['X-API-KEY']).toBeUndefined();
    expect(headersFor('https://x.example', BASE_URL, auth, { 'x-api-key': 'smuggled' })).not.toHaveProperty(
      'x-api-key',
    );
  });

  it('sends the key to the base URL host over the wire', async () => {
    const scope = nock(BASE_URL, { reqheaders: { 'x-api-key': SENTINEL_KEY } })
      .get(paths.events())
      .query({ limit: '1' })
      .reply(200, wireList([SAMPLE_EVENT]));
    await expect(run((z, b) => listEvents(z, b, 1))).resolves.toHaveLength(1);
    scope.done();
  });

  // The catalog asked by page number (not played where it continues by a cursor, `catalog-cursor`).
  const byNumber = catalogByNumber() ? it : it.skip;

  byNumber('sends no key to public endpoints', async () => {
    const scope = nock(BASE_URL, { badheaders: ['x-api-key'] })
      .get(paths.publicEvents())
      .query({ page: '2', limit: '50' })
      .reply(200, wireList([SAMPLE_EVENT], { page: 2, limit: 50, total: 51 }));
    const page = await run((z, b) => listPublicEvents(z, b, { page: 2, limit: 50 }));
    // The catalog's `total`, where the dialect's lists hold members beside their records.
    expect(page.total).toBe(listsHoldMembers() ? 51 : undefined);
    scope.done();
  });

  byNumber('counts the catalog items it received, usable or not, so paging does not stop early', async () => {
    nock(BASE_URL)
      .get(paths.publicEvents())
      .query(true)
      .reply(
        200,
        wireList([SAMPLE_EVENT, { ...SAMPLE_EVENT, id: 'e2', createdAt: '' }], {
          page: 1,
          limit: 2,
          total: 'many',
        }),
      );
    const page = await run((z, b) => listPublicEvents(z, b, { page: 1, limit: 2 }));
    // With its `page` and `limit`, where the dialect's lists hold members beside their records.
    const paging = listsHoldMembers() ? { page: 1, limit: 2 } : {};
    expect(page).toEqual({ data: [SAMPLE_EVENT], ...paging, received: 2, last: false });
  });

  it('asks the events list for at most EVENTS_LIMIT_MAX events', async () => {
    const scope = nock(BASE_URL)
      .get(paths.events())
      .query({ limit: String(EVENTS_LIMIT_MAX) })
      .reply(200, wireList([]));
    await run((z, b) => listEvents(z, b, 5000));
    scope.done();
  });
});

describe('parsing and validation', () => {
  it('keeps unknown fields and sorts lists newest first', async () => {
    const older = {
      ...SAMPLE_EVENT,
      id: 'e-old',
      createdAt: '2026-01-01T00:00:00.000Z',
      brandNewField: { a: 1 },
    };
    const newer = { ...SAMPLE_EVENT, id: 'e-new', createdAt: '2026-02-01T00:00:00.000Z' };
    nock(BASE_URL)
      .get(paths.events())
      .query(true)
      .reply(200, wireList([older, newer], { extra: true }));
    const events = await run((z, b) => listEvents(z, b, 10));
    expect(events.map((e: Event) => e.id)).toEqual(['e-new', 'e-old']);
    expect(events[1]).toHaveProperty('brandNewField', { a: 1 });
  });

  it('reports the transfer size of submission lists', async () => {
    const body = JSON.stringify(wireList([]));
    nock(BASE_URL).get(paths.submissions()).query(true).reply(200, body);
    const page = await run((z, b) =>
      listSubmissions(z, b, { eventId: 'e', since: '2026-01-01T00:00:00.000Z' }),
    );
    expect(page).toEqual({ submissions: [], bytes: body.length, serverTime: null });
  });

  it('one odd record never fails a list: odd optional fields are dropped, unusable records skipped', async () => {
    nock(BASE_URL)
      .get(paths.events())
      .query(true)
      .reply(
        200,
        wireList([
          { ...SAMPLE_EVENT, id: 'e-bad-date', createdAt: 'yesterday' },
          { ...SAMPLE_EVENT, id: 'e-odd-start', startsAt: '' },
          { ...SAMPLE_EVENT, id: 'e-fine', createdAt: '2026-01-01T00:00:00.000Z' },
        ]),
      );
    const events = await run((z, b) => listEvents(z, b, 10));
    expect(events.map((e: Event) => e.id)).toEqual(['e-odd-start', 'e-fine']);
    expect(events[0]).not.toHaveProperty('startsAt');
  });

  it('a 200 that is not a list is a clear error naming what was wrong', async () => {
    nock(BASE_URL)
      .get(paths.events())
      .query(true)
      .reply(200, { events: [SAMPLE_EVENT] });
    const error = await caught(() => run((z, b) => listEvents(z, b, 1)));
    expect(errorMessage(error)).toContain(
      DIALECT.list.member === ''
        ? 'did not have the expected shape (HTTP 200): the answer is an object, not a list'
        : `did not have the expected shape (HTTP 200): the answer has no "${DIALECT.list.member}" list`,
    );
    expect(appErrorCode(error)).toBe('INVALID_RESPONSE');
  });

  it('a 200 whose body fails the schema of a single object is a clear error naming what was wrong', async () => {
    nock(BASE_URL)
      .get(paths.eventWidget('techweek'))
      .reply(200, { ...SAMPLE_EVENT, createdAt: 'yesterday' });
    const error = await caught(() =>
      run((z, b) =>
        connectRequest(z, b, {
          path: paths.eventWidget('techweek'),
          schema: Event,
          what: 'the event page',
          public: true,
        }),
      ),
    );
    expect(errorMessage(error)).toMatch(/did not have the expected shape \(HTTP 200\): createdAt/);
    expect(appErrorCode(error)).toBe('INVALID_RESPONSE');
  });

  it('a 200 that is not JSON is a clear error, never a TypeError', async () => {
    nock(BASE_URL).get(paths.events()).query(true).reply(200, '<html><body>Maintenance</body></html>', {
      'Content-Type': 'text/html',
    });
    const error = await caught(() => run((z, b) => listEvents(z, b, 1)));
    expect(error).not.toBeInstanceOf(TypeError);
    expect(errorMessage(error)).toMatch(/was not JSON \(HTTP 200, text\/html\): "<html><body>Maintenance/);
  });

  it('a network failure names the host and what to check', async () => {
    nock(BASE_URL).get(paths.events()).query(true).replyWithError('connect ECONNREFUSED');
    const error = await caught(() => run((z, b) => listEvents(z, b, 1)));
    expect(errorMessage(error)).toMatch(
      /^Could not reach the service at api\.connect\.test while fetching the list of your events: nothing accepts connections at this address and port \(ECONNREFUSED\)\. Check the Connect API URL/,
    );
  });

  it('a 204 without a body is fine when no body is expected', async () => {
    nock(BASE_URL).delete(paths.hook('hook_1')).reply(204);
    await expect(run((z, b) => unsubscribeHook(z, b, 'hook_1'))).resolves.toBeUndefined();
  });
});

describe('error rows of the contract', () => {
  it('401 INVALID_API_KEY asks to reconnect with a valid key', async () => {
    const error = await failWith(401, wireError('INVALID_API_KEY', 'bad key'));
    expect(error.name).toBe('ExpiredAuthError');
    expect(error.message).toMatch(/Reconnect your account .* valid key/);
  });

  it.each([
    ['qrScan', 'QR Check-in'],
    ['venue', 'Venue Floor Plans'],
    ['agenda', 'Agenda'],
  ])('403 ENTITLEMENT_REQUIRED %s names the feature in plain words', async (entitlement, words) => {
    const error = await failWith(403, wireError('ENTITLEMENT_REQUIRED', 'x', { entitlement }));
    expect(errorMessage(error)).toBe(
      `Your plan does not include the ${words} feature, so the service refused the request for the list of your events. Ask the owner of the organizer account to add ${words} to the plan, then try again.`,
    );
    expect(appErrorCode(error)).toBe('ENTITLEMENT_REQUIRED');
  });

  it('400 VALIDATION_ERROR gives the API message and the field', async () => {
    const error = await failWith(
      400,
      wireError('VALIDATION_ERROR', 'since must be an ISO 8601 timestamp', { field: 'since' }),
    );
    expect(errorMessage(error)).toBe(
      'The service rejected the request for the list of your events: since must be an ISO 8601 timestamp (field "since").',
    );
  });

  it.each([
    ['SUBMISSION_NOT_APPROVED', 'not_approved'],
    ['IDEMPOTENCY_KEY_REUSED', 'scan_reference_reused'],
  ] as const)('422 %s has its meaning (%s) and keeps the message', async (code, meaning) => {
    const error = await failWith(422, wireError(code, `the ${code} message`));
    expect(errorMeaning(error)).toBe(meaning);
    expect(errorMessage(error)).toContain(`the ${code} message`);
  });

  it('404 NOT_FOUND is distinguishable, and connectRequestOrNull turns it into null', async () => {
    nock(BASE_URL)
      .get(paths.floorPlan(SAMPLE_EVENT.id, 'plan_gone'))
      .reply(404, wireError('NOT_FOUND', 'no'));
    const error = await caught(() =>
      run((z, b) =>
        connectRequest(z, b, {
          path: paths.floorPlan(SAMPLE_EVENT.id, 'plan_gone'),
          schema: zod.object({}),
          what: 'this floor plan',
        }),
      ),
    );
    expect(errorMeaning(error)).toBe('not_found');
    nock(BASE_URL).get(paths.eventWidget('gone')).reply(404, wireError('NOT_FOUND', 'no'));
    const result = await readGoneWidget();
    expect(result).toBeNull();
  });

  it('404 TICKET_NOT_FOUND tells the door volunteer no ticket matches', async () => {
    const error = await failWith(404, wireError('TICKET_NOT_FOUND', 'no'));
    expect(errorMessage(error)).toMatch(/^No ticket of your events matches the list of your events\./);
  });

  it('409 IDEMPOTENCY_KEY_IN_USE is retried later, not a failure', async () => {
    const error = await failWith(409, wireError('IDEMPOTENCY_KEY_IN_USE', 'busy'));
    expect(error.name).toBe('ThrottledError');
    expect(JSON.parse(error.message)).toMatchObject({ delay: 5 });
  });

  it('429 RATE_LIMITED becomes ThrottledError honouring Retry-After', async () => {
    const error = await failWith(429, wireError('RATE_LIMITED', 'slow down'), { 'Retry-After': '17' });
    expect(error.name).toBe('ThrottledError');
    expect(JSON.parse(error.message)).toMatchObject({ delay: 17 });
    expect(errorMessage(error)).toMatch(/try again in 17 seconds; nothing is lost/);
  });

  it('5xx with JSON INTERNAL says it is temporary', async () => {
    const error = await failWith(503, wireError('INTERNAL', 'db down'));
    expect(error.name).not.toBe('ThrottledError');
    expect(errorMessage(error)).toBe(
      'The service had a problem while fetching the list of your events (HTTP 503, INTERNAL: db down). This is usually temporary: a trigger checks again at its next poll and misses nothing; a stopped action or search can be replayed from the Zap history.',
    );
  });

  it('5xx with an HTML body shows the status and an excerpt', async () => {
    const error = await failWith(502, '<html><h1>Bad Gateway</h1></html>');
    expect(errorMessage(error)).toMatch(/HTTP 502, it answered text\/html: "<html><h1>Bad Gateway/);
    expect(errorMeaning(error)).toBe('service_failed');
    expect(appErrorCode(error)).toBe('SERVICE_ERROR');
  });

  it('an unexpected status is still a clear error', async () => {
    const error = await failWith(418, '');
    expect(errorMessage(error)).toMatch(/Unexpected answer .*HTTP 418, the answer was empty/);
  });
});

describe('retryAfterSeconds', () => {
  it('reads seconds and HTTP dates, with a safe default', () => {
    const now = Date.parse('2026-11-22T10:00:00.000Z');
    expect(retryAfterSeconds('30', now)).toBe(30);
    expect(retryAfterSeconds('Sun, 22 Nov 2026 10:01:00 GMT', now)).toBe(60);
    expect(retryAfterSeconds(null, now)).toBe(60);
    expect(retryAfterSeconds('soon', now)).toBe(60);
    expect(retryAfterSeconds('0', now)).toBe(1);
  });
});

describe('a "not found" read in the light of the Connect API URL', () => {
  const WRONG = (where: string) =>
    `${where} does not answer like a Connect API (the events endpoint was not found). Check the Connect API URL of your connection: it is the address of the API host, without any path after it.`;
  const plan = (prefix = '') => nock(BASE_URL).get(`${prefix}${paths.floorPlan(SAMPLE_EVENT.id, 'p1')}`);
  const readPlan = (auth = authData()) =>
    caught(() =>
      run(
        (z, b) =>
          connectRequest(z, b, {
            path: paths.floorPlan(SAMPLE_EVENT.id, 'p1'),
            schema: zod.object({}),
            what: 'this floor plan',
          }),
        auth,
      ),
    );

  it('a 404 of the events list itself is a wrong URL, in the connection test’s words', async () => {
    nock(BASE_URL).get(paths.events()).query(true).reply(404, 'Not Found', { 'Content-Type': 'text/plain' });
    const error = await caught(() => run((z, b) => listEvents(z, b, 1)));
    expect(errorMessage(error)).toBe(WRONG('api.connect.test'));
    expect(JSON.parse(error.message)).toMatchObject({ code: 'WRONG_BASE_URL', status: 404 });
  });

  it('under a URL with a path, a NOT_FOUND asks the events list, and a missing list makes it a wrong URL', async () => {
    const base = `${BASE_URL}/embed`;
    plan('/embed').reply(404, wireError('NOT_FOUND', 'No route'));
    const events = nock(BASE_URL)
      .get(`/embed${paths.events()}`)
      .query({ limit: '1' })
      .reply(404, {
        error: { code: 'NOT_FOUND', message: 'No route' },
      });
    const error = await readPlan(authData({ baseUrl: base }));
    expect(errorMessage(error)).toBe(WRONG('api.connect.test/embed'));
    // The status is the host's own: not found, never a request the user sent wrong.
    expect(JSON.parse(error.message)).toMatchObject({ code: 'WRONG_BASE_URL', status: 404 });
    events.done();
  });

  it('a plain 404 asks the events list; where the list answers, the 404 is the record’s own', async () => {
    plan().reply(404, 'Not Found', { 'Content-Type': 'text/plain' });
    const events = nock(BASE_URL).get(paths.events()).query({ limit: '1' }).reply(200, wireList([]));
    const error = await readPlan();
    expect(errorMeaning(error)).toBe('endpoint_missing');
    events.done();
  });

  it("the API's own NOT_FOUND under a URL without a path is the record's, without another request", async () => {
    plan().reply(404, wireError('NOT_FOUND', 'Floor plan not found'));
    const events = nock(BASE_URL).get(paths.events()).query(true).reply(200, wireList([]));
    expect(errorMeaning(await readPlan())).toBe('not_found');
    expect(events.isDone()).toBe(false);
  });

  it('a public page that is not found asks nothing more', async () => {
    nock(BASE_URL).get(paths.eventWidget('gone')).reply(404, 'Not Found', { 'Content-Type': 'text/plain' });
    const events = nock(BASE_URL).get(paths.events()).query(true).reply(200, wireList([]));
    const result = await readGoneWidget().catch((error: unknown) => error);
    expect(errorMeaning(result)).toBe('endpoint_missing');
    expect(events.isDone()).toBe(false);
  });
});
