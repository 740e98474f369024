/**
 * The API key must never leave the X-API-KEY header: not in stdout, stderr, error messages or results,
 * whatever happens (success, failure, throttling), with Zapier's own request logging switched on.
 */
import nock from 'nock';
import authentication from '../../src/authentication';
import { paths } from '../../src/connect';
import { SAMPLE_EVENT } from '../../src/mappers/event';
import { BASE_URL, SENTINEL_KEY, appTester, authData } from '../support/app';
import { wireError, wireList } from '../../sandbox/wire';

const captured: string[] = [];
const originalStdout = process.stdout.write.bind(process.stdout);
const originalStderr = process.stderr.write.bind(process.stderr);

beforeAll(() => {
  process.env.LOG_TO_STDOUT = 'true';
  process.env.DETAILED_LOG_TO_STDOUT = 'true';
  const capture =
    (original: typeof process.stdout.write) =>
    (chunk: unknown, ...rest: unknown[]): boolean => {
      captured.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
      return (original as (...args: unknown[]) => boolean)(chunk, ...rest);
    };
  process.stdout.write = capture(originalStdout) as typeof process.stdout.write;
  process.stderr.write = capture(originalStderr) as typeof process.stderr.write;
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    jest.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      captured.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
    });
  }
});

afterAll(() => {
  process.stdout.write = originalStdout;
  process.stderr.write = originalStderr;
  jest.restoreAllMocks();
  delete process.env.LOG_TO_STDOUT;
  delete process.env.DETAILED_LOG_TO_STDOUT;
  nock.cleanAll();
});

const outcome = async (fn: () => Promise<unknown>): Promise<string> => {
  try {
    return JSON.stringify(await fn());
  } catch (error) {
    const e = error as Error;
    return `${e.name} ${e.message} ${e.stack ?? ''} ${JSON.stringify(e)}`;
  }
};

it('the key appears in no output, error or result', async () => {
  const texts: string[] = [];
  const testAuth = () => appTester(authentication.test, { authData: authData() });

  nock(BASE_URL)
    .get(paths.events())
    .query(true)
    .reply(200, wireList([SAMPLE_EVENT]))
    .get(paths.orders())
    .query(true)
    .reply(200, wireList([]));
  texts.push(await outcome(testAuth));

  nock(BASE_URL).get(paths.events()).query(true).reply(401, wireError('INVALID_API_KEY', 'unknown key'));
  texts.push(await outcome(testAuth));

  nock(BASE_URL)
    .get(paths.events())
    .query(true)
    .reply(429, wireError('RATE_LIMITED', 'slow'), { 'Retry-After': '3' });
  texts.push(await outcome(testAuth));

  nock(BASE_URL)
    .get(paths.events())
    .query(true)
    .reply(500, `<html>${SENTINEL_KEY.slice(0, 4)}</html>`);
  texts.push(await outcome(testAuth));

  nock(BASE_URL).get(paths.events()).query(true).replyWithError('socket hang up');
  texts.push(await outcome(testAuth));

  // The checks above really ran and produced output.
  expect(texts).toHaveLength(5);
  expect(texts[0]).toContain('api.connect.test');
  expect(texts[2]).toContain('RATE_LIMITED');
  expect(captured.join('')).toContain(paths.events());

  for (const text of [...texts, captured.join('')]) expect(text).not.toContain(SENTINEL_KEY);
});
