// Property tests: whatever arrives in a query or a body, the sandbox answers with the contract's shapes and
// never with a 500 (only injected faults produce those).

import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { parseIdempotencyKey } from '../../sandbox/validate';
import { call, eventId, makeApp, NORTHWIND } from './helpers';
import { errorOf } from '../../src/connect/testing';

let app: FastifyInstance;
let techweek: string;

beforeAll(async () => {
  app = makeApp().app;
  techweek = await eventId(app, 'techweek-paris-2026');
});
afterAll(() => app.close());

function expectContractShape(status: number, body: string): void {
  expect(status).toBeLessThan(500);
  if (status >= 400) {
    // The error body as the app reads it (the contract's, or its dialect's), with a code and a message.
    const error = errorOf(JSON.parse(body));
    expect(typeof error.code).toBe('string');
    expect(typeof error.message).toBe('string');
    if (error.code === 'VALIDATION_ERROR') expect(typeof error.field).toBe('string');
  }
}

const queryValue = fc.oneof(
  fc.string(),
  fc.integer().map(String),
  fc.constantFrom(
    '',
    '0',
    '-1',
    '100',
    '101',
    '1e3',
    '2026-11-22T09:00:00.000Z',
    '2026-02-30T00:00:00Z',
    'null',
  ),
);

describe('never a 500', () => {
  it('for any query of the list endpoints', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          '/api/v1/integrations/zapier/events',
          '/api/v1/integrations/zapier/submissions',
          '/api/v1/integrations/zapier/orders',
          '/api/v1/public/events',
        ),
        fc.dictionary(fc.constantFrom('limit', 'page', 'since', 'eventId', 'companyId', 'x'), queryValue),
        fc.boolean(),
        async (path, query, realEvent) => {
          const q = new URLSearchParams(query);
          if (realEvent && q.has('eventId')) q.set('eventId', techweek);
          const res = await call(app, 'GET', `${path}?${q.toString()}`);
          expectContractShape(res.statusCode, res.body);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('for any JSON body sent to the check-in, hook and simulation endpoints', async () => {
    const routes = [
      '/api/v1/checkin',
      '/api/v1/integrations/zapier/hooks',
      '/_sandbox/events',
      '/_sandbox/submissions',
      '/_sandbox/orders',
      '/_sandbox/scan',
      '/_sandbox/faults',
      '/_sandbox/config',
      '/_sandbox/secrets/rotate',
    ] as const;
    const field = fc.constantFrom(
      'code',
      'eventId',
      'submissionId',
      'checkInTime',
      'targetUrl',
      'event',
      'title',
      'slug',
      'email',
      'firstName',
      'lastName',
      'answers',
      'outcome',
      'items',
      'route',
      'kind',
      'count',
      'shuffle',
      'hookId',
      'status',
      'createdAt',
      'visibleAt',
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        fc.dictionary(field, fc.jsonValue({ maxDepth: 2 })),
        fc.option(fc.string({ maxLength: 300 }), { nil: undefined }),
        async (route, body, key) => {
          const headers: Record<string, string> = {};
          if (key !== undefined && /^[\x20-\x7e]*$/.test(key)) headers['idempotency-key'] = key;
          const res = await call(app, 'POST', route, { body, headers });
          expectContractShape(res.statusCode, res.body);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('for any raw bytes with a JSON content type', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 200 }), async (payload) => {
        const res = await app.inject({
          method: 'POST',
          url: '/api/v1/checkin',
          headers: { 'content-type': 'application/json', 'x-api-key': NORTHWIND.apiKey },
          payload,
        });
        expectContractShape(res.statusCode, res.body);
      }),
      { numRuns: 150 },
    );
  });
});

describe('Idempotency-Key parsing', () => {
  it('reads a token and its RFC 8941 quoted form as the same key', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[\x21\x23-\x5b\x5d-\x7e]{1,255}$/), (token) => {
        const quoted = `"${token}"`;
        expect(parseIdempotencyKey(token)).toBe(token);
        expect(parseIdempotencyKey(quoted)).toBe(token);
      }),
    );
  });

  it('round-trips any printable string through sf-string escaping', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[\x20-\x7e]{1,255}$/), (value) => {
        const quoted = `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
        expect(parseIdempotencyKey(quoted)).toBe(value);
      }),
    );
  });
});
