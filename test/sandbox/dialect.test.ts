// The sandbox's dialect switches beyond the read answers: `has-more` says when `limit` cut a list,
// `snake-case` reads request bodies and writes subscriptions, check-in results and deliveries in snake_case,
// and `timestamped-signature` signs deliveries `t=…,v1=…`. What a delivery carries is checked with
// src/connect's own schemes; `sandbox/wire.ts` writes the same bodies for a sandbox with those switches.

import { type Deviation, SEED_TENANTS, sandboxCall, startSandbox } from '../../sandbox';
import { wireWriter } from '../../sandbox/wire';
import { SCHEMES, signedWith } from '../../src/connect/testing';
import { startHookReceiver } from '../../scripts/lib/hookRequest';

const { apiKey: KEY } = SEED_TENANTS[0];

const withSandbox = async <T>(deviations: Deviation[], fn: (url: string) => Promise<T>): Promise<T> => {
  const sandbox = await startSandbox({ deviations });
  try {
    return await fn(sandbox.url);
  } finally {
    await sandbox.close();
  }
};

it('has-more: a list is { items, has_more }, true only when limit left records out', async () => {
  await withSandbox(['has-more'], async (url) => {
    const read = async (limit: number) =>
      sandboxCall<{ items: unknown[]; has_more: boolean }>(
        url,
        KEY,
        'GET',
        `/api/v1/integrations/zapier/events?limit=${limit}`,
      );
    const all = await read(100);
    expect(all).toEqual({ items: expect.any(Array), has_more: false });
    expect(all.items.length).toBeGreaterThan(1);
    expect(await read(1)).toEqual({ items: [expect.any(Object)], has_more: true });
    const catalog = await sandboxCall<Record<string, unknown>>(
      url,
      KEY,
      'GET',
      '/api/v1/public/events?page=1&limit=2',
    );
    expect(catalog).toEqual({
      items: expect.any(Array),
      page: 1,
      limit: 2,
      total: expect.any(Number),
      has_more: true,
    });
  });
});

it('snake-case: a subscribe request is read in snake_case, and the subscription and its deliveries answered so', async () => {
  const receiver = await startHookReceiver();
  try {
    await withSandbox(['snake-case', 'timestamped-signature'], async (url) => {
      const wire = wireWriter(['snake-case', 'timestamped-signature']);
      const hook = await sandboxCall<Record<string, unknown>>(
        url,
        KEY,
        'POST',
        '/api/v1/integrations/zapier/hooks',
        wire.requestBody({ targetUrl: receiver.targetUrl('dialect'), event: 'EVENT_CREATED', eventId: null }),
      );
      expect(Object.keys(hook).sort()).toEqual([
        'created_at',
        'event',
        'event_id',
        'id',
        'secret',
        'target_url',
      ]);
      await sandboxCall(url, KEY, 'POST', '/_sandbox/events', { title: 'Dialect Day' });
      await receiver.waitFor(1, { timeoutMs: 30_000 });
      const [delivery] = receiver.received;
      const body = JSON.parse(delivery!.body) as Record<string, unknown>;
      expect(Object.keys(body)).toEqual(['id', 'type', 'created_at', 'hook_id', 'data']);
      expect(Object.keys(body.data as object)).toEqual(expect.arrayContaining(['starts_at', 'venue_name']));
      // The signature: `t=…,v1=…` over "<t>.<body>", with the subscription's secret.
      const header = delivery!.headers[wire.signatureHeader.toLowerCase()]!;
      expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      const scheme = SCHEMES.timestamped;
      expect(
        signedWith(scheme.payload(header, delivery!.body), String(hook.secret), scheme.digests(header)),
      ).toBe(true);
      // The same body and header as the writer of such a sandbox gives.
      const at = Number(/^t=(\d+)/.exec(header)![1]) * 1000;
      expect(wire.signatureOf(delivery!.body, String(hook.secret), at)).toBe(header);
    });
  } finally {
    await receiver.close();
  }
});

it('snake-case: a check-in request is read in snake_case and its result answered so', async () => {
  await withSandbox(['snake-case'], async (url) => {
    const wire = wireWriter(['snake-case']);
    const events = await sandboxCall<{ data: Array<{ id: string }> }>(
      url,
      KEY,
      'GET',
      '/_sandbox/events?q=techweek-paris-2026',
    );
    const eventId = events.data[0]!.id;
    const made = await sandboxCall<{ submissionId: string }>(url, KEY, 'POST', '/_sandbox/submissions', {
      eventId,
      email: 'snake@example.com',
      firstName: 'Sam',
      lastName: 'Snake',
    });
    await sandboxCall(url, KEY, 'POST', `/_sandbox/submissions/${made.submissionId}/approve`);
    const result = await sandboxCall<Record<string, unknown>>(
      url,
      KEY,
      'POST',
      '/api/v1/checkin',
      wire.requestBody({ eventId, submissionId: made.submissionId }),
    );
    expect(result).toMatchObject({
      result: 'checked_in',
      submission_id: made.submissionId,
      event_id: eventId,
    });
    expect(Object.keys(result.attendee as object).sort()).toEqual(['email', 'first_name', 'last_name']);
  });
});
