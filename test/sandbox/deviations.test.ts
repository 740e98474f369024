// Deviation switches: off by default, each one changes the answers it names and nothing else, and the CLI
// reads them from --deviate.

import { parseArgs } from '../../sandbox/cli';
import {
  DEVIATION_NAMES,
  SEED_TENANTS,
  type Deviation,
  parseDeviations,
  sandboxCall,
  startSandbox,
} from '../../sandbox';
import { LARGE_LIMIT_MAX } from '../../sandbox/connect/events';
import { DIALECT_SWITCHES } from '../../sandbox/deviations';
import { wireList } from '../../sandbox/wire';
import { errorOf, listWasCut, recordsOf, wireRecordsOf } from '../../src/connect/testing';

const KEY = SEED_TENANTS[0].apiKey;

const get = async (deviations: Deviation[], path: string, key: string | null = KEY) => {
  const sandbox = await startSandbox({ deviations });
  try {
    const response = await fetch(`${sandbox.url}${path}`, { headers: key ? { 'X-API-KEY': key } : {} });
    return { status: response.status, headers: response.headers, text: await response.text() };
  } finally {
    await sandbox.close();
  }
};

const EVENTS = '/api/v1/integrations/zapier/events?limit=2';

it('answers as the contract says with no switch on', async () => {
  const answer = await get([], EVENTS);
  const body = JSON.parse(answer.text) as unknown;
  // The contract's envelope, or, when the contract speaks another dialect, its writer's.
  if (DIALECT_SWITCHES.length === 0) expect(body).toEqual({ data: expect.any(Array) });
  expect(body).toEqual(wireList(recordsOf('event', body), undefined, listWasCut(body)));
  expect(wireRecordsOf(body)).toHaveLength(2);
  expect(answer.headers.get('date')).toBeTruthy();
});

it('bare-arrays: a list is a bare array', async () => {
  expect(JSON.parse((await get(['bare-arrays'], EVENTS)).text)).toEqual(expect.any(Array));
  const catalog = await get(['bare-arrays'], '/api/v1/public/events?limit=2', null);
  expect(JSON.parse(catalog.text)).toHaveLength(2);
});

it('items-envelope: a list is { items, next: null }, the submissions of an event too', async () => {
  const events = JSON.parse((await get(['items-envelope'], EVENTS)).text) as { items: Array<{ id: string }> };
  expect(events).toEqual({ items: expect.any(Array), next: null });
  const catalog = await get(['items-envelope'], '/api/v1/public/events?limit=2', null);
  expect(JSON.parse(catalog.text)).toEqual({ items: expect.any(Array), next: null });
  const sandbox = await startSandbox({ deviations: ['items-envelope'] });
  try {
    const headers = { 'X-API-KEY': KEY };
    const read = async (path: string) => JSON.parse(await (await fetch(path, { headers })).text()) as unknown;
    const list = (await read(`${sandbox.url}${EVENTS}`)) as typeof events;
    const since = '2000-01-01T00:00:00.000Z';
    const url = `${sandbox.url}/api/v1/integrations/zapier/submissions?eventId=${list.items[0]!.id}&since=${since}`;
    expect(await read(url)).toEqual({ items: expect.any(Array), next: null });
  } finally {
    await sandbox.close();
  }
});

it('snake-case: every field name is snake_case, and a registration is named by id', async () => {
  const sandbox = await startSandbox({ deviations: ['snake-case'] });
  try {
    const headers = { 'X-API-KEY': KEY };
    const read = async (path: string) =>
      JSON.parse(await (await fetch(`${sandbox.url}${path}`, { headers })).text()) as unknown;
    // The records as the wire holds them (in the dialect's list envelope), their names unread.
    const records = async (path: string) => wireRecordsOf(await read(path)) as Array<Record<string, unknown>>;
    const events = await records(EVENTS);
    expect(events[0]).toMatchObject({ id: expect.any(String), created_at: expect.any(String) });
    expect(events[0]).not.toHaveProperty('createdAt');
    const since = '2000-01-01T00:00:00.000Z';
    const all = await records(`/api/v1/integrations/zapier/events?limit=100`);
    const withSubmissions = await Promise.all(
      all.map(async (e) =>
        records(`/api/v1/integrations/zapier/submissions?eventId=${String(e.id)}&since=${since}`),
      ),
    );
    const submission = withSubmissions.flat()[0];
    expect(submission).toMatchObject({ id: expect.any(String), event_id: expect.any(String) });
    expect(Object.keys(submission ?? {}).filter((key) => /[A-Z]/.test(key))).toEqual([]);
    expect(submission).not.toHaveProperty('submission_id');
  } finally {
    await sandbox.close();
  }
});

it('error-type: an error body is { error: { type, message } }', async () => {
  const answer = await get(['error-type'], EVENTS, 'not-a-key');
  expect(answer.status).toBe(401);
  expect(JSON.parse(answer.text)).toEqual({
    error: { type: 'invalid_api_key', message: expect.any(String) },
  });
  const limit = await get(['error-type', 'limit-rejected'], '/api/v1/integrations/zapier/events?limit=101');
  expect(JSON.parse(limit.text)).toEqual({
    error: { type: 'validation_error', message: expect.any(String), field: 'limit' },
  });
});

it('plain-errors: an error is plain text', async () => {
  const answer = await get(['plain-errors'], EVENTS, 'not-a-key');
  expect(answer.status).toBe(401);
  expect(answer.headers.get('content-type')).toMatch(/^text\/plain/);
  expect(answer.text).toBe('401 Unauthorized');
});

it('no-date and skewed-clock: the Date header is gone, or 30 minutes ahead', async () => {
  expect((await get(['no-date'], EVENTS)).headers.get('date')).toBeNull();
  const skewed = await get(['skewed-clock'], EVENTS);
  expect(Date.parse(skewed.headers.get('date') ?? '') - Date.now()).toBeGreaterThan(25 * 60_000);
});

it('limit-rejected: a limit above 100 is a 400 naming the field', async () => {
  const answer = await get(['limit-rejected'], '/api/v1/integrations/zapier/events?limit=101');
  expect(answer.status).toBe(400);
  expect(errorOf(JSON.parse(answer.text))).toMatchObject({ code: 'VALIDATION_ERROR', field: 'limit' });
  expect((await get(['limit-rejected'], EVENTS)).status).toBe(200);
});

it('large-limits: the events list honours a limit up to 1000 instead of clamping it to 100', async () => {
  const many = async (deviations: Deviation[]) => {
    const sandbox = await startSandbox({ deviations });
    try {
      const call = (method: string, path: string, body?: unknown) =>
        sandboxCall(sandbox.url, KEY, method, path, body);
      for (let i = 0; i < 130; i++) await call('POST', '/_sandbox/events', { title: `Event ${i}` });
      return {
        asked: wireRecordsOf(await call('GET', '/api/v1/integrations/zapier/events?limit=1000')).length,
        cut: wireRecordsOf(await call('GET', '/api/v1/integrations/zapier/events?limit=120')).length,
      };
    } finally {
      await sandbox.close();
    }
  };
  const large = await many(['large-limits']);
  expect(large.asked).toBeGreaterThan(130);
  expect(large.asked).toBeLessThanOrEqual(LARGE_LIMIT_MAX);
  expect(large.cut).toBe(120);
  expect(await many([])).toEqual({ asked: 100, cut: 100 });
});

describe('names', () => {
  it('are read from a comma-separated list, an unknown one refused by name', () => {
    expect(parseDeviations(' bare-arrays, no-date ')).toEqual(['bare-arrays', 'no-date']);
    expect(() => parseDeviations('bare-arrays,xml')).toThrow(/unknown deviation "xml"/);
    expect(DEVIATION_NAMES).toContain('since-ignored');
  });

  it('come from --deviate, repeated or not', () => {
    const args = parseArgs(['--deviate', 'shuffle', '--deviate=since-exclusive,shuffle'], {});
    expect(args.deviations).toEqual(['shuffle', 'since-exclusive']);
    expect(parseArgs([], {}).deviations).toEqual([]);
  });
});
