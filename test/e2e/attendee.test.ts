/**
 * End to end against the sandbox, with one event of 20,000 registrations: the attendee fields of an order
 * item resolved as Zapier resolves them (each field its own hydration, all at once), through a cache that
 * honours `nx` and TTL as Zapier's does. However many fields and orders, one read of the event's
 * registrations serves them.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { type RunningSandbox, startSandbox } from '../../sandbox';
import { ATTENDEE_TIMINGS, type AttendeeTimings, attendeeHydrator } from '../../src/account/attendee';
import { accountCache } from '../../src/memory';
import { paths } from '../../src/connect/paths';
import { FakeCache } from '../support/cache';
import { appTester } from '../support/app';
import { GENEROUS_MS, useGenerousTimeLimits } from '../support/limits';
import { NORTHWIND, authOf, readWholeList, simulate } from '../support/sandbox';

useGenerousTimeLimits();

const SIZE = 20_000;
const FIELDS = ['attendeeFound', 'attendeeFirstName', 'attendeeLastName', 'attendeeEmail', 'attendeeNote'];
const READS = `GET /api/v1/integrations/zapier/submissions`;

type OrderJson = { id: string; eventId: string; submissionId: string; createdAt: string };

/**
 * Limits no machine reaches: a waiting field never reaches its bound and reads alone, however slow the
 * machine, so the number of reads does not depend on timing.
 */
const TIMINGS: AttendeeTimings = {
  lookupMs: GENEROUS_MS,
  hydrationMs: GENEROUS_MS,
  lease: { ...ATTENDEE_TIMINGS.lease, leaseSeconds: GENEROUS_MS / 1000, waitMs: GENEROUS_MS },
};
const hydrateAttendee = attendeeHydrator({ timings: TIMINGS });

let sandbox: RunningSandbox;
let eventId: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, scale: SIZE });
  eventId = sandbox.scaleEventId!;
});

afterAll(async () => {
  await sandbox.close();
});

const reads = async () =>
  (
    await simulate<{ count: number }>(
      sandbox,
      NORTHWIND,
      'GET',
      `/_sandbox/requests?route=${encodeURIComponent(READS)}`,
    )
  ).count;

const orderFor = (submissionId: string) =>
  simulate<OrderJson>(sandbox, NORTHWIND, 'POST', '/_sandbox/orders', { submissionId, outcome: 'paid' });

/** One hydration of `field` of `order`, with `cache` as the app's `z.cache`. */
const hydrate = (cache: FakeCache, order: OrderJson, field: string) =>
  appTester(
    ((z: ZObject, bundle: Bundle) => {
      (z as { cache: unknown }).cache = cache.api;
      return hydrateAttendee(z, bundle);
    }) as never,
    {
      authData: authOf(sandbox, NORTHWIND),
      inputData: {
        orderId: order.id,
        eventId: order.eventId,
        submissionId: order.submissionId,
        orderCreatedAt: order.createdAt,
        field,
      },
    },
  );

it('the fields of an order for a registration just made, resolved at once, cost one read', async () => {
  const registration = await simulate<{ submissionId: string }>(
    sandbox,
    NORTHWIND,
    'POST',
    '/_sandbox/submissions',
    { eventId, email: 'grace@example.com', firstName: 'Grace', lastName: 'Hopper' },
  );
  const order = await orderFor(registration.submissionId);
  const before = await reads();
  const cache = new FakeCache();
  const values = await Promise.all(FIELDS.map((field) => hydrate(cache, order, field)));
  expect(values).toEqual([true, 'Grace', 'Hopper', 'grace@example.com', '']);
  expect((await reads()) - before).toBe(1);
});

it('20 orders spread over the event, with all their fields resolved together, cost one read', async () => {
  // One read of the whole event is one request, or one per page where the service pages its lists.
  const start = await reads();
  const registrations = await readWholeList<{ submissionId: string; email: string }>(
    sandbox,
    NORTHWIND,
    'submission',
    paths.submissions(),
    { eventId, since: '2000-01-01T00:00:00.000Z' },
  );
  const picked = Array.from({ length: 20 }, (_, k) => registrations[Math.floor(((k + 0.5) * SIZE) / 20)]!);
  const orders: OrderJson[] = [];
  const oneRead = (await reads()) - start;
  for (const registration of picked) orders.push(await orderFor(registration.submissionId));
  const before = await reads();
  const cache = new FakeCache();
  // A pass over the event is under way while the 100 hydrations arrive: each says it waits.
  const store = accountCache({ cache: cache.api } as unknown as ZObject, {
    authData: authOf(sandbox, NORTHWIND),
  });
  await store.setIfAbsent(`attendee-pass:${eventId}`, 'elsewhere', 60);
  const running = orders.flatMap((order) => FIELDS.map((field) => hydrate(cache, order, field)));
  const asked = () => cache.claimsOf(':attendee-pass:').lost;
  for (let turn = 0; asked() < running.length; turn++) {
    if (turn > 100_000) throw new Error('the hydrations never found the pass under way');
    await new Promise((resolve) => setImmediate(resolve));
  }
  for (let turn = 0; turn < 1_000; turn++) await new Promise((resolve) => setImmediate(resolve));
  // That pass ends: one of the hydrations runs the next pass, for all of them.
  await store.delete(`attendee-pass:${eventId}`);
  const values = await Promise.all(running);
  const emails = values.filter((_, i) => FIELDS[i % FIELDS.length] === 'attendeeEmail');
  expect(emails).toEqual(picked.map((registration) => registration.email));
  // One pass over the event, which may stop at the page holding the last one it needs.
  const pass = (await reads()) - before;
  expect(pass).toBeGreaterThan(0);
  expect(pass).toBeLessThanOrEqual(oneRead);
});
