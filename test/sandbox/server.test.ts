// The listening server, the CLI and logging: binds 127.0.0.1, closes cleanly, never logs the key.

import { buildSandbox, sandboxContext, SEED_TENANTS, startSandbox } from '../../sandbox';
import { NORTHWIND, Receiver, subscribe } from './helpers';
import { recordsOf } from '../../src/connect/testing';

describe('startSandbox', () => {
  it('listens on 127.0.0.1 (any free port by default) and serves Connect over HTTP', async () => {
    const sandbox = await startSandbox();
    try {
      expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(sandbox.tenants).toBe(SEED_TENANTS);
      const address = sandbox.app.server.address();
      expect(typeof address === 'object' && address?.address).toBe('127.0.0.1');
      const res = await fetch(`${sandbox.url}/api/v1/integrations/zapier/events?limit=1`, {
        headers: { 'X-API-KEY': NORTHWIND.apiKey },
      });
      expect(res.status).toBe(200);
      expect(recordsOf('event', await res.json())).toHaveLength(1);
    } finally {
      await sandbox.close();
    }
    await sandbox.close(); // idempotent
  });

  it("answers with the sandbox clock in the Date header, so clients see the service's time", async () => {
    const now = Date.parse('2026-12-01T08:00:00.000Z');
    const sandbox = await startSandbox({ now: () => now });
    try {
      const res = await fetch(`${sandbox.url}/api/v1/integrations/zapier/events?limit=1`, {
        headers: { 'X-API-KEY': NORTHWIND.apiKey },
      });
      expect(res.headers.get('date')).toBe('Tue, 01 Dec 2026 08:00:00 GMT');
      const missing = await fetch(`${sandbox.url}/no/such/route`);
      expect(missing.headers.get('date')).toBe('Tue, 01 Dec 2026 08:00:00 GMT');
    } finally {
      await sandbox.close();
    }
  });

  it('close() stops pending retries and in-flight deliveries', async () => {
    const sandbox = await startSandbox({ delivery: { baseDelayMs: 10_000 } });
    const receiver = await new Receiver(500).start();
    try {
      await subscribe(sandbox.app, `${receiver.url}/down`, 'EVENT_*');
      await fetch(`${sandbox.url}/_sandbox/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': NORTHWIND.apiKey },
        body: JSON.stringify({ title: 'Close me' }),
      });
      await receiver.waitFor(1);
      // The receiver answered 500: the delivery waits for its retry.
      const delivery = sandboxContext(sandbox.app).delivery;
      expect(delivery.pendingCount).toBe(1);
      await sandbox.close();
      expect(delivery.pendingCount).toBe(0);
      // Nothing is sent after close: an attempt made now would be refused, and none is left to make.
      expect(receiver.received).toHaveLength(1);
      expect(await delivery.whenIdle()).toBe(true);
    } finally {
      await sandbox.close();
      await receiver.close();
    }
  });
});

describe('logging', () => {
  it('redacts X-API-KEY and the signature header', async () => {
    const lines: string[] = [];
    const app = buildSandbox({ logger: true, logStream: { write: (l: string) => void lines.push(l) } });
    await app.inject({
      method: 'GET',
      url: '/api/v1/integrations/zapier/events',
      headers: { 'x-api-key': NORTHWIND.apiKey, 'x-connect-signature': 'sha256=abc123secret' },
    });
    await app.close();
    const log = lines.join('');
    expect(log).toContain('/api/v1/integrations/zapier/events');
    expect(log).toContain('[redacted]');
    expect(log).not.toContain(NORTHWIND.apiKey);
    expect(log).not.toContain('abc123secret');
  });

  it('is off by default', async () => {
    const write = jest.spyOn(process.stdout, 'write');
    try {
      const app = buildSandbox();
      await app.inject({ method: 'GET', url: '/api/v1/public/events' });
      await app.close();
      expect(write).not.toHaveBeenCalled();
    } finally {
      write.mockRestore();
    }
  });
});
