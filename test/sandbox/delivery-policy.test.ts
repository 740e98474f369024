// The delivery policy: the contract's 72 h retry schedule (compressed by default), the bounds of the queue
// and the log entries that say what was given up and why.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { sandboxContext, type DeliveryLogEntry } from '../../sandbox';
import {
  CONTRACT_RETRY_WINDOW_MS,
  DEFAULT_TIME_SCALE,
  deliveryPolicy,
  nextRetry,
} from '../../sandbox/delivery-policy';
import { GENEROUS_MS } from '../support/limits';
import { call, deliveriesIdle, eventId, json, makeApp, NORTHWIND, subscribe } from './helpers';

const MIN = 60_000;
const HOUR = 60 * MIN;

/** Every attempt of one delivery that always fails instantly: start times, and why it was given up. */
function playSchedule(options: Parameters<typeof deliveryPolicy>[0]): { starts: number[]; givenUp: string } {
  const policy = deliveryPolicy(options);
  const starts = [0];
  for (;;) {
    const attempt = starts.length;
    const elapsed = starts[attempt - 1] as number;
    const next = nextRetry(policy, attempt, elapsed);
    if ('givenUp' in next) return { starts, givenUp: next.givenUp };
    starts.push(elapsed + next.delayMs);
  }
}

describe('retry schedule', () => {
  it('in real time: 1 min, doubling, at most 12 h apart, no retry later than 72 h after the first attempt', () => {
    const { starts, givenUp } = playSchedule({ timeScale: 1 });
    const gaps = starts.slice(1).map((s, i) => s - (starts[i] as number));
    expect(gaps.slice(0, 4)).toEqual([MIN, 2 * MIN, 4 * MIN, 8 * MIN]);
    expect(Math.max(...gaps)).toBe(12 * HOUR);
    expect(starts[starts.length - 1]).toBeLessThanOrEqual(72 * HOUR);
    expect(starts[starts.length - 1]).toBeGreaterThan(60 * HOUR);
    expect(starts).toHaveLength(15);
    expect(givenUp).toBe(
      'given up after 15 attempts: the next retry would fall outside the 72 h retry window',
    );
  });

  it('compressed by default: the same attempts, the 72 h window in 7.2 s', () => {
    const real = playSchedule({ timeScale: 1 }).starts;
    const { starts, givenUp } = playSchedule({});
    expect(DEFAULT_TIME_SCALE).toBe(36_000);
    expect(deliveryPolicy({}).windowMs).toBe(CONTRACT_RETRY_WINDOW_MS / DEFAULT_TIME_SCALE);
    expect(starts).toHaveLength(real.length);
    starts.forEach((s, i) => expect(s).toBeCloseTo((real[i] as number) / DEFAULT_TIME_SCALE, 6));
    expect(givenUp).toContain('compressed 36000× here');
  });

  it('each knob can be set: window, first delay, cap, attempts', () => {
    const short = playSchedule({ timeScale: 1, retryWindowMs: 10 * MIN });
    expect(short.starts).toEqual([0, MIN, 3 * MIN, 7 * MIN]);
    expect(short.givenUp).toContain('10 min retry window');
    const fixed = playSchedule({ baseDelayMs: 20, maxDelayMs: 50, maxAttempts: 5 });
    expect(fixed.starts).toEqual([0, 20, 60, 110, 160]);
    expect(fixed.givenUp).toBe('given up after 5 attempts (maxAttempts 5)');
  });
});

/** A receiver that answers 200 after `delayMs` and records how many requests it held at once. */
async function slowReceiver(delayMs: number): Promise<{
  url: string;
  bodies: { id: string }[];
  maxConcurrent: () => number;
  close: () => Promise<void>;
}> {
  let active = 0;
  let max = 0;
  const bodies: { id: string }[] = [];
  const server = http.createServer((req, res) => {
    active++;
    max = Math.max(max, active);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      setTimeout(() => {
        active--;
        res.writeHead(200).end();
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bodies,
    maxConcurrent: () => max,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** `n` registrations in one synchronous burst (one event-loop turn, as a bulk import would make them). */
async function burst(app: FastifyInstance, n: number): Promise<void> {
  const { state } = sandboxContext(app);
  const tenant = state.tenantsByKey.get(NORTHWIND.apiKey)!;
  const event = await eventId(app, 'techweek-paris-2026');
  for (let i = 0; i < n; i++) {
    state.addSubmission(tenant, {
      eventId: event,
      email: `b${i}@example.com`,
      firstName: 'B',
      lastName: `${i}`,
    });
  }
}

const logOf = async (app: FastifyInstance): Promise<DeliveryLogEntry[]> =>
  json(await call(app, 'GET', '/_sandbox/deliveries')).data;

describe('bounded queue', () => {
  it('keeps at most maxPendingPerHook per subscription: the oldest waiting ones are dropped, with a log line', async () => {
    const receiver = await slowReceiver(60);
    const lines: string[] = [];
    const { app } = makeApp({
      delivery: { maxPendingPerHook: 5, maxInFlightPerHook: 2, timeoutMs: GENEROUS_MS },
      logger: true,
      logStream: { write: (line) => void lines.push(line) },
    });
    try {
      await subscribe(app, `${receiver.url}/zap`, 'FORM_SUBMISSION');
      await burst(app, 12);
      expect(sandboxContext(app).delivery.pendingCount).toBe(5);
      expect(await deliveriesIdle(app)).toBe(true);
      const log = await logOf(app);
      const dropped = log.filter((e) => e.state === 'dropped');
      const delivered = log.filter((e) => e.state === 'delivered');
      expect(dropped).toHaveLength(7);
      expect(delivered).toHaveLength(5);
      for (const e of dropped) {
        expect(e).toMatchObject({ attempt: 0, statusCode: null, finishedAt: expect.any(String) });
        expect(e.givenUp).toMatch(/5 deliveries were pending for this subscription \(maxPendingPerHook\)/);
      }
      // The newest five are the ones delivered, and no more than two were in flight at once.
      const ids = log
        .filter((e) => e.state === 'dropped' || e.state === 'delivered')
        .map((e) => e.deliveryId);
      expect(new Set(ids).size).toBe(12);
      expect(receiver.bodies.map((b) => b.id).sort()).toEqual(delivered.map((e) => e.deliveryId).sort());
      expect(dropped.every((d) => delivered.every((e) => d.deliveryId < e.deliveryId))).toBe(true);
      expect(receiver.maxConcurrent()).toBeLessThanOrEqual(2);
      const givenUpLines = lines
        .map((l) => JSON.parse(l))
        .filter((l) => l.msg === 'webhook delivery given up');
      expect(givenUpLines).toHaveLength(7);
      expect(givenUpLines[0].delivery).toMatchObject({
        state: 'dropped',
        givenUp: expect.stringMatching(/oldest/),
      });
    } finally {
      await app.close();
      await receiver.close();
    }
  });

  it('keeps at most maxPending in the whole sandbox, across subscriptions', async () => {
    const receiver = await slowReceiver(20);
    const { app } = makeApp({ delivery: { maxPending: 6, timeoutMs: GENEROUS_MS } });
    try {
      for (const path of ['a', 'b', 'c']) await subscribe(app, `${receiver.url}/${path}`, 'FORM_SUBMISSION');
      await burst(app, 4);
      expect(sandboxContext(app).delivery.pendingCount).toBe(6);
      expect(await deliveriesIdle(app)).toBe(true);
      const log = await logOf(app);
      expect(log.filter((e) => e.state === 'dropped')).toHaveLength(6);
      expect(log.filter((e) => e.state === 'dropped')[0]?.givenUp).toMatch(/\(maxPending\)/);
      expect(receiver.bodies).toHaveLength(6);
    } finally {
      await app.close();
      await receiver.close();
    }
  });

  it('a dead receiver: retried until the retry window is over, then exhausted with the reason', async () => {
    // The contract's 72 h in 300 ms.
    const { app } = makeApp({ delivery: { timeScale: CONTRACT_RETRY_WINDOW_MS / 300, timeoutMs: 500 } });
    try {
      await subscribe(app, 'http://127.0.0.1:9/closed-port', 'FORM_SUBMISSION');
      await burst(app, 1);
      expect(await deliveriesIdle(app)).toBe(true);
      const log = await logOf(app);
      expect(log.length).toBeGreaterThan(2);
      expect(log.slice(0, -1).every((e) => e.state === 'failed' && e.nextRetryAt !== null)).toBe(true);
      const last = log[log.length - 1]!;
      expect(last).toMatchObject({ state: 'exhausted', attempt: log.length, nextRetryAt: null });
      expect(last.givenUp).toMatch(
        /^given up after \d+ attempts: the next retry would fall outside the 72 h/,
      );
    } finally {
      await app.close();
    }
  });

  it('holds memory flat for 2,000 registrations to three receivers that never answer', async () => {
    const hanging = http.createServer(() => undefined);
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
    const { app } = makeApp({
      delivery: { maxPendingPerHook: 300, maxInFlightPerHook: 8, timeoutMs: 10_000 },
    });
    try {
      for (const path of ['x', 'y', 'z']) await subscribe(app, `${url}/${path}`, 'FORM_SUBMISSION');
      await burst(app, 2_000);
      await new Promise((r) => setImmediate(r));
      const { delivery } = sandboxContext(app);
      expect(delivery.pendingCount).toBe(900);
      const log = await logOf(app);
      expect(log.filter((e) => e.state === 'in_flight')).toHaveLength(24);
      expect(log.filter((e) => e.state === 'dropped')).toHaveLength(5_100);
    } finally {
      await app.close();
      hanging.closeAllConnections();
      await new Promise<void>((resolve) => hanging.close(() => resolve()));
    }
  });
});
