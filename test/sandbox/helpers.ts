// Shared helpers of the sandbox tests: an app on a controllable clock, a small request wrapper around
// fastify's inject, and a real webhook receiver on 127.0.0.1 that records the raw bytes it gets.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildSandbox, sandboxContext, SEED_TENANTS, type SandboxOptions } from '../../sandbox';
import {
  type RecordNoun,
  deliveryOf,
  errorOf,
  findSignatureHeader,
  inAppNames,
  recordsOf,
  signatureDigests,
  verifySignature,
} from '../../src/connect/testing';

// fastify's inject (light-my-request) requires `cookie`, an ES module that jest's CommonJS runtime cannot
// load. Inject uses it only to encode request cookies, which these tests never send.
jest.mock('cookie', () => ({
  stringifySetCookie: ({ name, value }: { name: string; value: string }) =>
    `${name}=${encodeURIComponent(value)}`,
}));

export const NOW = Date.parse('2026-11-22T10:00:00.000Z');
export const [NORTHWIND, LUMEN, HARBOR] = SEED_TENANTS;

/** A clock the test moves by hand. */
export class Clock {
  constructor(public ms = NOW) {}
  readonly now = (): number => this.ms;
  advance(ms: number): void {
    this.ms += ms;
  }
}

export function makeApp(options: SandboxOptions & { clock?: Clock } = {}): {
  app: FastifyInstance;
  clock: Clock;
} {
  const clock = options.clock ?? new Clock();
  const app = buildSandbox({ now: clock.now, ...options });
  return { app, clock };
}

export interface CallOptions {
  key?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
}

/** One request. `key` defaults to Northwind's; null sends none. */
export async function call(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  options: CallOptions = {},
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  const key = options.key === undefined ? NORTHWIND.apiKey : options.key;
  if (key !== null) headers['x-api-key'] = key;
  return app.inject({
    method,
    url,
    headers,
    ...(options.body !== undefined ? { payload: options.body as Record<string, unknown> } : {}),
  });
}

/** JSON body of a response, loosely typed for assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const json = (res: LightMyRequestResponse): any => JSON.parse(res.body);

/** The records of a Connect list answer under the app's names, read through src/connect. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const listed = (res: LightMyRequestResponse, noun: RecordNoun): any[] => recordsOf(noun, json(res));

/** A Connect answer that is one record, under the app's names, read through src/connect. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const record = (res: LightMyRequestResponse, noun: RecordNoun): any => inAppNames(noun, json(res));

/** An error answer's `error`, its code in the contract's spelling, read through src/connect. */
export const errorIn = (res: LightMyRequestResponse): Record<string, unknown> => errorOf(json(res));

export function expectError(
  res: LightMyRequestResponse,
  status: number,
  code: string,
  extra: object = {},
): void {
  expect({ status: res.statusCode, error: errorIn(res) }).toEqual({
    status,
    error: expect.objectContaining({ code, message: expect.any(String), ...extra }),
  });
}

export interface EventJson {
  id: string;
  slug: string;
  status: string;
  createdAt: string;
}

/** The tenant's events by slug. */
export async function eventsOf(
  app: FastifyInstance,
  key: string = NORTHWIND.apiKey,
): Promise<Map<string, EventJson>> {
  const res = await call(app, 'GET', '/api/v1/integrations/zapier/events?limit=100', { key });
  return new Map((listed(res, 'event') as EventJson[]).map((e) => [e.slug, e]));
}

export async function eventId(
  app: FastifyInstance,
  slug: string,
  key: string = NORTHWIND.apiKey,
): Promise<string> {
  const e = (await eventsOf(app, key)).get(slug);
  if (!e) throw new Error(`no event ${slug}`);
  return e.id;
}

export interface SubmissionJson {
  submissionId: string;
  eventId: string;
  status: string;
  qrCode: string | null;
  createdAt: string;
  checkedInAt: string | null;
  answers: { key: string; label: string; value: unknown }[];
}

export async function submissionsOf(
  app: FastifyInstance,
  event: string,
  key: string = NORTHWIND.apiKey,
  since = '2000-01-01T00:00:00.000Z',
): Promise<SubmissionJson[]> {
  const res = await call(
    app,
    'GET',
    `/api/v1/integrations/zapier/submissions?eventId=${event}&since=${since}`,
    {
      key,
    },
  );
  if (res.statusCode !== 200) throw new Error(res.body);
  return listed(res, 'submission');
}

/** A fresh submission of the given status on Northwind's TechWeek, made through the simulation API. */
export async function newSubmission(
  app: FastifyInstance,
  status: 'pending' | 'approved' | 'rejected' = 'approved',
  key: string = NORTHWIND.apiKey,
  slug = 'techweek-paris-2026',
): Promise<SubmissionJson> {
  const res = await call(app, 'POST', '/_sandbox/submissions', {
    key,
    body: {
      eventId: await eventId(app, slug, key),
      email: `guest${Math.random().toString(36).slice(2, 8)}@example.com`,
      firstName: 'Test',
      lastName: 'Guest',
      status,
    },
  });
  if (res.statusCode !== 201) throw new Error(res.body);
  return record(res, 'hook');
}

/** Waits until no delivery is pending; `false` only after `ms`, far beyond what a busy machine needs. */
export const deliveriesIdle = (app: FastifyInstance, ms = 120_000): Promise<boolean> =>
  sandboxContext(app).delivery.whenIdle(ms);

// ---- webhook receiver ---------------------------------------------------------------------------------

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
  /** The delivery read through src/connect (its envelope and record under the app's names). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  at: number;
}

/** What the receiver answers: a status, or a status after a delay. */
export type Answer = number | { status: number; delayMs: number };

export class Receiver {
  readonly received: Received[] = [];
  private readonly server: http.Server;
  private readonly answers: Answer[] = [];
  private waiters: { n: number; resolve: () => void }[] = [];
  url = '';

  constructor(private readonly fallback: Answer = 200) {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        const answer = this.answers.shift() ?? this.fallback;
        const status = typeof answer === 'number' ? answer : answer.status;
        const delay = typeof answer === 'number' ? 0 : answer.delayMs;
        const respond = (): void => {
          if (res.destroyed) return;
          res.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
        };
        this.received.push({
          path: req.url ?? '',
          headers: req.headers,
          raw,
          body: deliveryOf(raw.toString('utf8')),
          at: Date.now(),
        });
        this.waiters = this.waiters.filter((w) => {
          if (this.received.length < w.n) return true;
          w.resolve();
          return false;
        });
        if (delay > 0) setTimeout(respond, delay).unref();
        else respond();
      });
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Answers for the next requests, in order; afterwards the fallback. */
  answerWith(...answers: Answer[]): void {
    this.answers.push(...answers);
  }

  /** Resolves once `n` requests in all were received (rejects after timeoutMs, far beyond what a busy machine needs). */
  waitFor(n: number, timeoutMs = 120_000): Promise<Received[]> {
    if (this.received.length >= n) return Promise.resolve(this.received);
    return new Promise((resolve, reject) => {
      const t = setTimeout(
        () => reject(new Error(`receiver got ${this.received.length} of ${n} requests`)),
        timeoutMs,
      );
      this.waiters.push({
        n,
        resolve: () => {
          clearTimeout(t);
          resolve(this.received);
        },
      });
    });
  }

  ofType(type: string): Received[] {
    return this.received.filter((r) => r.body.type === type);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Whether `secret` signed the delivery, checked by the app's verifier (any of the header's values). */
export function signatureMatches(r: Received, secret: string): boolean {
  const header = findSignatureHeader(r.headers);
  return verifySignature(r.raw.toString('utf8'), header, [secret]).ok;
}

/** How many signatures the delivery's header carries (one per signing secret), read by the app's verifier. */
export function signatureCount(r: { headers: Record<string, unknown> }): number {
  return signatureDigests(findSignatureHeader(r.headers) ?? '').length;
}

/** Subscribes through the Connect endpoint; returns the 201 body. */
export async function subscribe(
  app: FastifyInstance,
  targetUrl: string,
  event: string,
  eventIdOrNull: string | null = null,
  key: string = NORTHWIND.apiKey,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<any> {
  const res = await call(app, 'POST', '/api/v1/integrations/zapier/hooks', {
    key,
    body: { targetUrl, event, eventId: eventIdOrNull },
  });
  if (res.statusCode !== 201) throw new Error(res.body);
  return record(res, 'hook');
}
