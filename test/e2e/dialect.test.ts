/**
 * A service that differs from the contract everywhere the dialect can say, all at once (`EVERY_SWITCH`:
 * snake_case names and query parameters, lists nested in `{ "result": { "items" } }` with registrations and
 * orders in cursor pages, statuses in capitals and dotted kinds, `{ error: { type } }` errors, `t=…,v1=…`
 * signatures under `X-Signature`), played by the sandbox's switches: the app, taught that dialect in
 * src/connect/dialect.ts alone, runs the whole journey against it and reads every page of its lists.
 * (test/e2e/dialectShapes.test.ts plays the four shapes of an earlier round, `{ items, has_more }` lists
 * among them, with the kit.)
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { type RunningSandbox, sandboxContext, startSandbox } from '../../sandbox';
import { runJourney } from '../../scripts/journey';
import { listEvents, listOrders, readSubmissions } from '../../src/connect';
import { appTester } from '../support/app';
import { NORTHWIND, authOf } from '../support/sandbox';
import { EVERY_SWITCH } from '../support/serviceDialect';

jest.mock('../../src/connect/dialect', () =>
  jest.requireActual<typeof import('../support/serviceDialect')>('../support/serviceDialect').taughtEvery(),
);

it('runs the whole journey against a service differing everywhere at once, every step passing', async () => {
  const lines: string[] = [];
  const result = await runJourney({
    out: { line: (text) => lines.push(text), color: false },
    deviations: EVERY_SWITCH,
  });
  const failed = result.rows.filter((row) => !row.ok).map((row) => `${row.step}: ${row.detail}`);
  expect(failed).toEqual([]);
});

describe('lists in cursor pages, nested, with snake_case parameters and statuses in capitals', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ deviations: EVERY_SWITCH });
  });
  afterAll(() => sandbox.close());

  const run = <T>(perform: (z: ZObject, bundle: Bundle) => Promise<T>) =>
    appTester(perform as never, { authData: authOf(sandbox, NORTHWIND) }) as Promise<T>;
  const tenant = () => sandboxContext(sandbox.app).state.tenants.get(NORTHWIND.id)!;

  it('reads every order of the company, page after page, each status in the app’s spelling', async () => {
    const held = tenant().orders.size;
    expect(held).toBeGreaterThan(10);
    const orders = await run((z, b) => listOrders(z, b, { companyId: NORTHWIND.companyId }));
    expect(new Set(orders.map((order) => order.id)).size).toBe(Math.min(held, orders.length));
    expect(orders.length).toBe(held);
    expect(orders.some((order) => order.status === 'paid')).toBe(true);
    expect(orders.every((order) => order.status === order.status.toLowerCase())).toBe(true);
  });

  it('reads every registration of an event, page after page, in positions counted across pages', async () => {
    const events = await run((z, b) => listEvents(z, b));
    const byEvent = tenant().submissionsByEvent;
    const event = events.find((e) => (byEvent.get(e.id)?.length ?? 0) > 10)!;
    expect(event).toBeDefined();
    const seen: Array<{ id: string; position: number; status: string }> = [];
    const read = await run((z, b) =>
      readSubmissions(z, b, { eventId: event.id, since: '2000-01-01T00:00:00.000Z' }, (s, position) =>
        seen.push({ id: s.submissionId, position, status: s.status }),
      ),
    );
    const visible = byEvent.get(event.id)!.length;
    expect(read.complete).toBe(true);
    expect(new Set(seen.map((s) => s.id)).size).toBe(seen.length);
    expect(seen.length).toBeGreaterThan(10);
    expect(seen.length).toBeLessThanOrEqual(visible);
    expect(seen.map((s) => s.position)).toEqual(seen.map((_, i) => i));
    expect(seen.every((s) => s.status === s.status.toLowerCase())).toBe(true);
  });
});
