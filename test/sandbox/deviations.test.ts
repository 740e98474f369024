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
  expect(JSON.parse(answer.text)).toEqual({ data: expect.any(Array) });
  expect(answer.headers.get('date')).toBeTruthy();
});

it('bare-arrays: a list is a bare array', async () => {
  expect(JSON.parse((await get(['bare-arrays'], EVENTS)).text)).toEqual(expect.any(Array));
  const catalog = await get(['bare-arrays'], '/api/v1/public/events?limit=2', null);
  expect(JSON.parse(catalog.text)).toHaveLength(2);
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
  expect(JSON.parse(answer.text)).toMatchObject({ error: { code: 'VALIDATION_ERROR', field: 'limit' } });
  expect((await get(['limit-rejected'], EVENTS)).status).toBe(200);
});

it('large-limits: the events list honours a limit up to 1000 instead of clamping it to 100', async () => {
  const many = async (deviations: Deviation[]) => {
    const sandbox = await startSandbox({ deviations });
    try {
      const call = (method: string, path: string, body?: unknown) =>
        sandboxCall<{ data: unknown[] }>(sandbox.url, KEY, method, path, body);
      for (let i = 0; i < 130; i++) await call('POST', '/_sandbox/events', { title: `Event ${i}` });
      return {
        asked: (await call('GET', '/api/v1/integrations/zapier/events?limit=1000')).data.length,
        cut: (await call('GET', '/api/v1/integrations/zapier/events?limit=120')).data.length,
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
