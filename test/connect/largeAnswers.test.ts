/**
 * Large answers (`large: true`, used for the registrations list): the body is read once as text, never
 * parsed by Zapier, and every error row of the contract is still mapped the same way.
 */
import nock from 'nock';
import { type Bundle, type ZObject, errors } from 'zapier-platform-core';
import { connectErrorCode, listSubmissionKeys, listSubmissions, paths } from '../../src/connect';
import { SAMPLE_SUBMISSION } from '../../src/mappers/submission';
import { BASE_URL, appTester, authData, caught, errorMessage } from '../support/app';

const params = { eventId: SAMPLE_SUBMISSION.eventId, since: '2026-11-21T00:00:00.000Z' };

afterEach(() => nock.cleanAll());

it('asks Zapier for the raw answer and parses it once', async () => {
  const body = JSON.stringify({ data: [SAMPLE_SUBMISSION] });
  const calls: Array<Record<string, unknown>> = [];
  const z = {
    request: async (options: Record<string, unknown>) => {
      calls.push(options);
      return {
        status: 200,
        headers: { get: (name: string) => (name === 'content-type' ? 'application/json' : null) },
        text: async () => body,
        get content(): string {
          throw new Error('a raw answer has no content');
        },
      };
    },
    errors,
  } as unknown as ZObject;
  const page = await listSubmissions(z, { authData: authData() } as unknown as Bundle, {
    ...params,
    timeoutMs: 7000,
  });
  expect(page).toEqual({
    submissions: [SAMPLE_SUBMISSION],
    bytes: Buffer.byteLength(body),
    serverTime: null,
  });
  expect(calls[0]).toMatchObject({ raw: true, timeout: 7000, skipThrowForStatus: true });
});

it('over HTTP, returns the registrations newest first with the transfer size', async () => {
  const older = { ...SAMPLE_SUBMISSION, submissionId: 'sub_1', createdAt: '2026-11-21T10:00:00.000Z' };
  const newer = { ...SAMPLE_SUBMISSION, submissionId: 'sub_2', createdAt: '2026-11-21T11:00:00.000+00:00' };
  const body = JSON.stringify({ data: [older, newer] });
  nock(BASE_URL)
    .get(paths.submissions())
    .query(params)
    .reply(200, body, { 'Content-Type': 'application/json' });
  const page = await appTester((z: ZObject, b: Bundle) => listSubmissions(z, b, params), {
    authData: authData(),
  });
  expect(page.submissions.map((s) => s.submissionId)).toEqual(['sub_2', 'sub_1']);
  expect(page.bytes).toBe(Buffer.byteLength(body));
});

it.each([
  [
    500,
    JSON.stringify({ error: { code: 'INTERNAL', message: 'db down' } }),
    'application/json',
    /HTTP 500, INTERNAL: db down/,
  ],
  [502, '<html>Bad Gateway</html>', 'text/html', /HTTP 502, it answered text\/html: "<html>Bad Gateway/],
  [200, '<html>maintenance</html>', 'text/html', /was not JSON \(HTTP 200, text\/html\)/],
  [
    404,
    JSON.stringify({ error: { code: 'NOT_FOUND', message: 'no event' } }),
    'application/json',
    /could not find the registrations of this event/,
  ],
])('maps a %i answer like any other', async (status, body, type, message) => {
  nock(BASE_URL).get(paths.submissions()).query(true).reply(status, body, { 'Content-Type': type });
  const error = await caught(() =>
    appTester((z: ZObject, b: Bundle) => listSubmissions(z, b, params), { authData: authData() }),
  );
  expect(errorMessage(error)).toMatch(message);
});

it('keeps Retry-After on a 429', async () => {
  nock(BASE_URL)
    .get(paths.submissions())
    .query(true)
    .reply(429, { error: { code: 'RATE_LIMITED', message: 'slow' } }, { 'Retry-After': '12' });
  const error = await caught(() =>
    appTester((z: ZObject, b: Bundle) => listSubmissions(z, b, params), { authData: authData() }),
  );
  expect(error.name).toBe('ThrottledError');
  expect(JSON.parse(error.message)).toMatchObject({ delay: 12 });
  expect(connectErrorCode(error)).toBeUndefined();
});

it('reads only the keys of the registrations when asked to (a Zap being turned on)', async () => {
  const body = JSON.stringify({ data: [SAMPLE_SUBMISSION], total: 1 });
  nock(BASE_URL)
    .get(paths.submissions())
    .query(params)
    .reply(200, body, { 'Content-Type': 'application/json' });
  const page = await appTester((z: ZObject, b: Bundle) => listSubmissionKeys(z, b, params), {
    authData: authData(),
  });
  expect(page).toEqual({
    submissions: [
      {
        submissionId: SAMPLE_SUBMISSION.submissionId,
        eventId: SAMPLE_SUBMISSION.eventId,
        status: 'approved',
        createdAt: SAMPLE_SUBMISSION.createdAt,
      },
    ],
    bytes: Buffer.byteLength(body),
    serverTime: null,
  });

  nock(BASE_URL)
    .get(paths.submissions())
    .query(true)
    .reply(200, { data: [{ ...SAMPLE_SUBMISSION, createdAt: 'yesterday' }] });
  const error = await caught(() =>
    appTester((z: ZObject, b: Bundle) => listSubmissionKeys(z, b, params), { authData: authData() }),
  );
  expect(errorMessage(error)).toMatch(/did not have the expected shape \(HTTP 200\): data\.0\.createdAt/);
});
