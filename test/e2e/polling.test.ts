/**
 * End to end against the sandbox: the polling triggers run through the app (appTester, real HTTP on
 * 127.0.0.1) while the sandbox's state changes. The clock of both sides is moved together, so that polls
 * happen minutes apart; the sandbox shuffles its lists, shows some registrations late, shares milliseconds
 * between them and fails on demand. Each Zap is played as Zapier would: turned on (dedupe), then polled.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { startSandbox, type RunningSandbox } from '../../sandbox';
import newEvent from '../../src/triggers/newEvent';
import newOrder from '../../src/triggers/newOrder';
import newSubmission from '../../src/triggers/newSubmission';
import { appTester, caught, errorMessage, meta, testerCache } from '../support/app';
import { NORTHWIND, authOf, simulate } from '../support/sandbox';
import { functionOf } from '../../scripts/lib/app';
import { useGenerousTimeLimits } from '../support/limits';

useGenerousTimeLimits();

type Item = Record<string, unknown> & { id: string };
type Perform = (z: ZObject, bundle: Bundle) => Promise<unknown>;

const MINUTE = 60_000;

const realNow = Date.now.bind(Date);
let offset = 0;
const now = () => realNow() + offset;

let sandbox: RunningSandbox;

beforeAll(async () => {
  jest.spyOn(Date, 'now').mockImplementation(now);
  sandbox = await startSandbox({ port: 0, now });
  testerCache(appTester).zcacheTestObj = {};
});

afterAll(async () => {
  jest.restoreAllMocks();
  await sandbox?.close();
});

const auth = (extra: Record<string, string> = {}) => authOf(sandbox, NORTHWIND, extra);

/** A change made in the service (dashboard, registration form, payment page). */
const sim = <T = Item>(method: string, path: string, body?: unknown): Promise<T> =>
  simulate<T>(sandbox, NORTHWIND, method, path, body);

const run = (perform: Perform, inputData: Record<string, unknown>, metaOverrides = {}, authData = auth()) =>
  appTester(perform, { authData, inputData, meta: meta(metaOverrides) }) as Promise<Item[]>;

/** One Zap: its dedupe table, and every item that ran it. */
const zapOf = (perform: Perform, inputData: Record<string, unknown>) => {
  const seen = new Set<string>();
  const ran: Item[] = [];
  return {
    seen,
    ran,
    turnOn: async () => {
      for (const item of await run(perform, inputData, { isPopulatingDedupe: true })) seen.add(item.id);
    },
    poll: async () => {
      const fresh = (await run(perform, inputData)).filter((item) => !seen.has(item.id));
      for (const item of fresh) {
        seen.add(item.id);
        ran.push(item);
      }
      return fresh;
    },
  };
};

let person = 0;
const register = (eventId: string, extra: Record<string, unknown> = {}) => {
  person += 1;
  return sim<Item & { submissionId: string; createdAt: string }>('POST', '/_sandbox/submissions', {
    eventId,
    email: `guest${person}@example.com`,
    firstName: 'Guest',
    lastName: `Number ${person}`,
    answers: [
      { key: 'company', label: 'Company', value: `Company ${person}` },
      { key: 'topics', label: 'Topics', value: ['cloud', 'data'] },
    ],
    ...extra,
  });
};

describe('New Form Submission', () => {
  it('delivers every registration of a busy, unreliable hour exactly once, with its event and answers', async () => {
    const event = await sim<{ id: string; title: string }>('POST', '/_sandbox/events', {
      title: 'Polling Summit',
      status: 'published',
    });
    const before = [];
    for (let i = 0; i < 5; i++)
      before.push(await register(event.id, { createdAt: new Date(now() - (i + 1) * MINUTE).toISOString() }));
    await sim('POST', '/_sandbox/config', { shuffle: true });

    const zap = zapOf(functionOf('triggers', newSubmission.key), { eventId: event.id });
    await zap.turnOn();
    expect([...zap.seen].sort()).toEqual(before.map((s) => s.submissionId).sort());

    const created: string[] = [];
    for (let round = 0; round < 8; round++) {
      // Three registrations in one millisecond, one that shows up only 2 minutes after its createdAt.
      const at = new Date(now() - 1000).toISOString();
      for (let i = 0; i < 3; i++) created.push((await register(event.id, { createdAt: at })).submissionId);
      const late = new Date(Date.parse(at) + 2 * MINUTE).toISOString();
      created.push((await register(event.id, { createdAt: at, visibleAt: late })).submissionId);
      if (round === 3) {
        await sim('POST', '/_sandbox/faults', {
          route: 'GET /api/v1/integrations/zapier/submissions',
          kind: '500',
          count: 1,
        });
        const error = await caught(() => zap.poll());
        expect(errorMessage(error)).toMatch(/had a problem while fetching the registrations of this event/);
      } else {
        await zap.poll();
      }
      offset += 5 * MINUTE;
    }
    await zap.poll();

    expect(zap.ran.map((item) => item.id).sort()).toEqual([...created].sort());
    const item = zap.ran[0];
    expect(item).toMatchObject({
      eventId: event.id,
      eventTitle: 'Polling Summit',
      answers__company: expect.stringMatching(/^Company \d+$/),
      answers__topics: 'cloud, data',
    });
    const fixed = (keys: string[]) => keys.filter((key) => !key.startsWith('answers__')).sort();
    expect(fixed(Object.keys(item ?? {}))).toEqual(fixed(Object.keys(newSubmission.operation.sample ?? {})));
    await sim('POST', '/_sandbox/config', { shuffle: false });
  });

  it('filters by status, and gives the editor 3 recent registrations', async () => {
    const event = await sim<{ id: string }>('POST', '/_sandbox/events', { title: 'Filter Day' });
    const zap = zapOf(functionOf('triggers', newSubmission.key), { eventId: event.id, status: 'approved' });
    await zap.turnOn();
    const approved = await register(event.id, { status: 'approved' });
    await register(event.id, { status: 'pending' });
    await register(event.id, { status: 'rejected' });
    offset += 5 * MINUTE;
    expect((await zap.poll()).map((item) => [item.id, item.status])).toEqual([
      [approved.submissionId, 'approved'],
    ]);

    for (let i = 0; i < 4; i++) await register(event.id, { status: 'approved' });
    const samples = await run(
      functionOf('triggers', newSubmission.key),
      { eventId: event.id, status: 'approved' },
      { isLoadingSample: true },
    );
    expect(samples).toHaveLength(3);
    expect(samples.every((s) => s.status === 'approved' && s.eventTitle === 'Filter Day')).toBe(true);
  });

  it('says clearly when the chosen event is gone', async () => {
    const event = await sim<{ id: string }>('POST', '/_sandbox/events', { title: 'Cancelled Fair' });
    await sim('DELETE', `/_sandbox/events/${event.id}`);
    const error = await caught(() => run(functionOf('triggers', newSubmission.key), { eventId: event.id }));
    expect(errorMessage(error)).toBe(
      `The event in the Event field (ID ${event.id}) is not among the events of the connected account: it may have been deleted, or it belongs to another organizer account. Choose the event again in the Event field, or map an event ID of this account from an earlier step.`,
    );
  });
});

describe('New Order', () => {
  it('runs once per new order, newest first, with line items and amounts in both forms', async () => {
    const event = await sim<{ id: string }>('POST', '/_sandbox/events', {
      title: 'Order Expo',
      status: 'published',
    });
    const zap = zapOf(functionOf('triggers', newOrder.key), {});
    await zap.turnOn();
    const buyer = await register(event.id, { status: 'approved' });
    offset += MINUTE;
    const first = await sim<{ id: string }>('POST', '/_sandbox/orders', {
      submissionId: buyer.submissionId,
      outcome: 'paid',
      items: [
        { name: 'Standard ticket', quantity: 2, unitAmount: 12900 },
        { name: 'Workshop', quantity: 1, unitAmount: 4550 },
      ],
    });
    offset += MINUTE;
    const second = await sim<{ id: string }>('POST', '/_sandbox/orders', {
      submissionId: buyer.submissionId,
      outcome: 'failed',
    });
    offset += 5 * MINUTE;

    const ran = await zap.poll();
    expect(ran.map((item) => item.id)).toEqual([second.id, first.id]);
    expect(ran[1]).toMatchObject({
      totalAmount: 30350,
      totalDecimal: '303.50',
      totalFormatted: '303.50 EUR',
      itemCount: 3,
      items: [
        { name: 'Standard ticket', quantity: 2, unitFormatted: '129.00 EUR', lineFormatted: '258.00 EUR' },
        { name: 'Workshop', quantity: 1, unitFormatted: '45.50 EUR' },
      ],
    });
    expect(await zap.poll()).toEqual([]);

    const paidOnly = await run(functionOf('triggers', newOrder.key), { status: 'paid' });
    expect(paidOnly.every((order) => order.status === 'paid')).toBe(true);
    expect(paidOnly.map((order) => order.id)).toContain(first.id);
  });

  it('a company that is not the account’s is a clear error', async () => {
    const error = await caught(() =>
      run(functionOf('triggers', newOrder.key), { companyId: 'cmp_someone_else' }),
    );
    expect(errorMessage(error)).toMatch(/^The service knows no company "cmp_someone_else" for this API key/);
  });
});

describe('New Event', () => {
  it('runs for an event created after the Zap was turned on, drafts included', async () => {
    const zap = zapOf(functionOf('triggers', newEvent.key), {});
    await zap.turnOn();
    expect(zap.seen.size).toBeGreaterThan(3);
    offset += MINUTE;
    const draft = await sim<{ id: string }>('POST', '/_sandbox/events', { title: 'Winter Meetup 2027' });
    offset += 5 * MINUTE;
    const ran = await zap.poll();
    expect(ran.map((item) => [item.id, item.title, item.status])).toEqual([
      [draft.id, 'Winter Meetup 2027', 'draft'],
    ]);
    expect(await zap.poll()).toEqual([]);
  });
});
