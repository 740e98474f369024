// The load event at scale: started programmatically with its id at hand, and the submissions answer
// streamed in slices (so 200,000 records never become one string) yet identical to one JSON document.

import type { FastifyInstance } from 'fastify';
import { sandboxContext, startSandbox, type RunningSandbox } from '../../sandbox';
import { submissionsBody } from '../../sandbox/connect/submissions';
import { NORTHWIND } from './helpers';
import { recordsOf } from '../../src/connect/testing';

describe('submissionsBody', () => {
  it('is valid JSON for 0, 1, one slice and one more, newest first as ordered', () => {
    const { state } = sandboxContext(app);
    const tenant = state.tenantsByKey.get(NORTHWIND.apiKey)!;
    const event = state.eventsBySlug.get('load-test-expo')!;
    const all = state.submissionsSince(tenant, event.id, 0);
    for (const n of [0, 1, 500, 501, 1234]) {
      const list = all.slice(0, n);
      const order = Uint32Array.from(list.map((_, i) => n - 1 - i));
      const chunks = [...submissionsBody(state, list, order)];
      const parsed = recordsOf<{ submissionId: string }>('submission', JSON.parse(chunks.join('')));
      expect(parsed).toHaveLength(n);
      expect(parsed.map((s) => s.submissionId)).toEqual(list.map((s) => s.submissionId).reverse());
      expect(chunks.length).toBe(2 + Math.ceil(n / 500));
    }
  });
});

let sandbox: RunningSandbox;
let app: FastifyInstance;
beforeAll(async () => {
  sandbox = await startSandbox({ scale: 2_000 });
  app = sandbox.app;
});
afterAll(() => sandbox.close());

describe('the load event over HTTP', () => {
  const list = (query: string) =>
    fetch(`${sandbox.url}/api/v1/integrations/zapier/submissions?eventId=${sandbox.scaleEventId}&${query}`, {
      headers: { 'x-api-key': NORTHWIND.apiKey },
    });
  /** The records of the submissions answer to `query`, read through src/connect. */
  const submissions = async (query: string): Promise<{ submissionId: string }[]> =>
    recordsOf('submission', await (await list(query)).json());

  it('startSandbox({ scale }) names the load event', async () => {
    expect(sandbox.scaleEventId).toMatch(/^[0-9a-f-]{36}$/);
    const plain = await startSandbox({ seed: true });
    expect(plain.scaleEventId).toBeNull();
    await plain.close();
  });

  it('streams the whole list (chunked, JSON content type), newest first', async () => {
    const res = await list('since=2000-01-01T00:00:00Z');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    const data = recordsOf<{ submissionId: string; createdAt: string }>('submission', await res.json());
    expect(data).toHaveLength(2_000);
    expect(new Set(data.map((s) => s.submissionId)).size).toBe(2_000);
    const times = data.map((s) => Date.parse(s.createdAt));
    expect(times.every((t, i) => i === 0 || t <= (times[i - 1] as number))).toBe(true);
  });

  it('limit keeps the newest; shuffle changes the order, never the set', async () => {
    const all = await submissions('since=2000-01-01T00:00:00Z');
    const limited = await submissions('since=2000-01-01T00:00:00Z&limit=100');
    expect(limited.map((s) => s.submissionId)).toEqual(all.slice(0, 100).map((s) => s.submissionId));
    const config = (shuffle: boolean) =>
      fetch(`${sandbox.url}/_sandbox/config`, {
        method: 'POST',
        headers: { 'x-api-key': NORTHWIND.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ shuffle }),
      });
    await config(true);
    try {
      const shuffled = await submissions('since=2000-01-01T00:00:00Z');
      expect(shuffled.map((s) => s.submissionId)).not.toEqual(all.map((s) => s.submissionId));
      expect(shuffled.map((s) => s.submissionId).sort()).toEqual(all.map((s) => s.submissionId).sort());
    } finally {
      await config(false);
    }
  });

  it('an odd record goes out in the stream like any other', async () => {
    const first = (await submissions('since=2000-01-01T00:00:00Z&limit=1'))[0]!;
    await fetch(`${sandbox.url}/_sandbox/submissions/${first.submissionId}/odd`, {
      method: 'POST',
      headers: { 'x-api-key': NORTHWIND.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ set: { approvedAt: '' } }),
    });
    const data = recordsOf<{ submissionId: string; approvedAt: unknown }>(
      'submission',
      await (await list('since=2000-01-01T00:00:00Z')).json(),
    );
    expect(data.filter((s) => s.approvedAt === '').map((s) => s.submissionId)).toEqual([first.submissionId]);
  });
});
