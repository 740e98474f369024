/**
 * What the attendee lookup costs: one lookup per order however its fields are resolved (one after another,
 * all at once, through a cache that honours `nx` and TTL), one pass for many orders of one event, and reads
 * that stop at the match. The event is served in memory, as the sandbox serves it (the registrations made
 * since `since`, newest first), as a stream produced only as fast as the app reads it, so the bytes it sent
 * are what the lookup cost. Time is a test clock: nothing here depends on how fast the machine is.
 */
import { Readable } from 'node:stream';
import { type Bundle, type ZObject, errors } from 'zapier-platform-core';
import {
  ATTENDEE_TIMINGS,
  type AttendeeTimings,
  LOOKUP_FAILED,
  type LookupRead,
  attendeeHydrator,
} from '../../src/account/attendee';
import { type Clock as LookupClock, accountCache } from '../../src/memory';
import { ALL_TIME } from '../../src/account/registrations';
import { type Submission, errorText } from '../../src/connect';
import { SAMPLE_SUBMISSION } from '../../src/mappers/submission';
import { ATTENDEE_FIELD_KEYS } from '../../src/mappers/attendee';
import { FakeCache } from '../support/cache';
import { SENTINEL_KEY, authData, caught } from '../support/app';
import { virtualClock } from '../support/clock';
import { wireError, wireList } from '../../sandbox/wire';
import { queryAsRead } from '../support/wireDialect';

const EVENT_ID = SAMPLE_SUBMISSION.eventId;
const MINUTE = 60_000;
const FIELDS = ATTENDEE_FIELD_KEYS;

/** Yields to the event loop once (lets the other hydrations and the streams move on). */
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Waits until `condition` holds, counting turns of the event loop, never time. */
const until = async (condition: () => boolean, what: string) => {
  for (let turn = 0; turn < 200_000; turn++) {
    if (condition()) return;
    await tick();
  }
  throw new Error(`never happened: ${what}`);
};

/** The claims of the event's pass (its lease). */
const lookupClaims = (cache: FakeCache) => cache.claimsOf(`:attendee-pass:${EVENT_ID}`);

/** The registrations named in the event's note of waiting orders. */
const waitingIds = async (cache: FakeCache): Promise<string[]> => {
  const key = cache.keys().find((k) => k.includes(`:attendee-waiting:${EVENT_ID}`));
  const entry = key ? ((await cache.api.get(key)) as { v?: { ids?: string[] } } | null) : null;
  return entry?.v?.ids ?? [];
};

/** A clock that stands still: a waiting hydration polls until the result is there. */
const stillClock = (): LookupClock & { slept: number } => {
  const clock = {
    slept: 0,
    now: () => 1_000_000,
    sleep: async () => {
      clock.slept++;
      await tick();
    },
  };
  return clock;
};

/** A clock that moves only by what the lookup sleeps. */
const sleepingClock = (): LookupClock & { at: number } => {
  const clock = {
    at: 1_000_000,
    now: () => clock.at,
    sleep: async (ms: number) => {
      clock.at += ms;
      await tick();
    },
  };
  return clock;
};

const CHUNK = 4096;

/**
 * One event of `count` registrations, one every `spacingMs` up to a minute ago, served as the sandbox
 * serves them. `hold` keeps the answers from starting until `release()`; `fail` answers with an error.
 */
class EventServer {
  readonly registrations: Submission[];
  readonly requests: string[] = [];
  /** Bytes of the answers produced (read by the app, or buffered for it: a chunk or so). */
  sent = 0;
  aborted = 0;
  fail: number | null = null;
  private held: Promise<void> | null = null;
  private open: () => void = () => undefined;

  constructor(count: number, spacingMs: number) {
    const last = Date.now() - MINUTE;
    this.registrations = Array.from({ length: count }, (_, i) => ({
      ...SAMPLE_SUBMISSION,
      submissionId: `sub_${String(i).padStart(6, '0')}`,
      email: `person${i}@example.com`,
      firstName: `First${i}`,
      lastName: `Last${i}`,
      qrCode: `EVT1:7d0c6f1e:sub_${i}:9f2c`,
      createdAt: new Date(last - (count - 1 - i) * spacingMs).toISOString(),
    }));
  }

  hold(): void {
    this.held = new Promise((resolve) => (this.open = resolve));
  }

  release(): void {
    this.held = null;
    this.open();
  }

  /** The body of the answer for `since`, newest first. */
  body(since: string): Buffer {
    const from = Date.parse(since);
    const rows = this.registrations.filter((r) => Date.parse(r.createdAt) >= from).reverse();
    return Buffer.from(JSON.stringify(wireList(rows)));
  }

  /** Bytes of a bare read of the whole event. */
  eventBytes(): number {
    return this.body(ALL_TIME).length;
  }

  answer(url: string, signal?: AbortSignal) {
    const query = queryAsRead(url);
    if (query.get('eventId') !== EVENT_ID) throw new Error(`unexpected request ${url}`);
    const since = query.get('since') ?? '';
    this.requests.push(since);
    const status = this.fail ?? 200;
    const body = status === 200 ? this.body(since) : Buffer.from(JSON.stringify(wireError('INTERNAL', 'x')));
    const held = this.held;
    let at = 0;
    const stream = new Readable({
      highWaterMark: CHUNK,
      read: () => {
        const push = () => {
          if (at >= body.length) return void stream.push(null);
          const chunk = body.subarray(at, at + CHUNK);
          at += chunk.length;
          this.sent += chunk.length;
          stream.push(chunk);
        };
        if (held) void held.then(push);
        else push();
      },
    });
    signal?.addEventListener('abort', () => {
      this.aborted++;
      stream.destroy();
    });
    return {
      status,
      headers: {
        get: (name: string) =>
          ({ 'content-type': 'application/json', date: new Date().toUTCString() })[name.toLowerCase()] ??
          null,
      },
      body: stream,
      get content(): string {
        throw new Error('raw responses have no content');
      },
    };
  }
}

const zFor = (server: EventServer, cache: FakeCache): ZObject =>
  ({
    request: async (options: { url: string; signal?: AbortSignal }) =>
      server.answer(options.url, options.signal),
    cache: cache.api,
    errors,
    console: { log: () => undefined, error: () => undefined },
  }) as unknown as ZObject;

/** The order of registration `i`, created `afterMs` after it. */
const orderOf = (server: EventServer, i: number, afterMs = 30_000) => {
  const registration = server.registrations[i]!;
  return {
    orderId: `ord_${i}`,
    eventId: EVENT_ID,
    submissionId: registration.submissionId,
    orderCreatedAt: new Date(Date.parse(registration.createdAt) + afterMs).toISOString(),
  };
};

const bundleOf = (inputData: Record<string, unknown>) =>
  ({ authData: authData(), inputData }) as unknown as Bundle;

interface Setup {
  server: EventServer;
  cache: FakeCache;
  clock?: LookupClock;
  timings?: AttendeeTimings;
  reads?: LookupRead[];
  z?: ZObject;
}

/** One hydration of `field` for `order`, as Zapier runs it for a later step. */
const hydrate = (setup: Setup, order: Record<string, string>, field: string) =>
  attendeeHydrator({
    clock: setup.clock ?? stillClock(),
    timings: setup.timings,
    onRead: (read) => setup.reads?.push(read),
  })(setup.z ?? zFor(setup.server, setup.cache), bundleOf({ ...order, field }));

const expected = (server: EventServer, i: number) => ({
  attendeeFound: true,
  attendeeFirstName: `First${i}`,
  attendeeLastName: `Last${i}`,
  attendeeFullName: `First${i} Last${i}`,
  attendeeEmail: `person${i}@example.com`,
  attendeeNote: '',
  submissionId: server.registrations[i]!.submissionId,
});

describe('one order: at most one lookup, however its fields are resolved', () => {
  it('six fields resolved concurrently cost one lookup', async () => {
    const server = new EventServer(2_000, MINUTE);
    const cache = new FakeCache();
    const order = orderOf(server, 1_990);
    server.hold();
    const running = FIELDS.map((field) => hydrate({ server, cache }, order, field));
    // All six are under way before any answer arrives: one holds the lookup, five wait for it.
    await until(() => lookupClaims(cache).won === 1 && lookupClaims(cache).lost === 5, 'six claims');
    server.release();
    const values = await Promise.all(running);
    const want = expected(server, 1_990);
    expect(Object.fromEntries(FIELDS.map((field, i) => [field, values[i]]))).toEqual(
      Object.fromEntries(FIELDS.map((field) => [field, want[field]])),
    );
    expect(server.requests).toHaveLength(1);
  });

  it('fields resolved one after another, in any order, cost one lookup', async () => {
    const server = new EventServer(2_000, MINUTE);
    const setup = { server, cache: new FakeCache() };
    const order = orderOf(server, 1_500);
    for (const field of [...FIELDS].reverse()) await hydrate(setup, order, field);
    expect(await hydrate(setup, order, 'attendeeEmail')).toBe('person1500@example.com');
    expect(server.requests).toHaveLength(1);
  });

  it('a failed lookup is shared with the fields waiting for it: one request, the same message for each', async () => {
    const server = new EventServer(100, MINUTE);
    const cache = new FakeCache();
    const order = orderOf(server, 90);
    server.fail = 500;
    server.hold();
    const running = FIELDS.map((field) => caught(() => hydrate({ server, cache }, order, field)));
    await until(() => lookupClaims(cache).won === 1 && lookupClaims(cache).lost === 5, 'six claims');
    server.release();
    const failures = (await Promise.all(running)).map(errorText);
    expect(new Set(failures).size).toBe(1);
    expect(failures[0]).toMatch(
      /^The attendee of order ord_90 \(registration sub_000090\) could not be read: The service had a problem .*HTTP 500.* Replay this Zap run from the Zap history once the service answers again\.$/,
    );
    expect(failures[0]).not.toContain(SENTINEL_KEY);
    expect(server.requests).toHaveLength(1);
  });

  it('so is a throttled lookup, which each field rethrows as throttled (Zapier runs it again later)', async () => {
    const server = new EventServer(100, MINUTE);
    const cache = new FakeCache();
    server.fail = 429;
    server.hold();
    const running = FIELDS.map((field) =>
      caught(() => hydrate({ server, cache }, orderOf(server, 90), field)),
    );
    await until(() => lookupClaims(cache).won === 1 && lookupClaims(cache).lost === 5, 'six claims');
    server.release();
    const failures = await Promise.all(running);
    expect(failures.map((error) => error.name)).toEqual(FIELDS.map(() => 'ThrottledError'));
    expect(new Set(failures.map((error) => error.message)).size).toBe(1);
    expect(server.requests).toHaveLength(1);
  });

  it('an order that arrives while a pass is reading is served by it, its registration read before it came', async () => {
    const server = new EventServer(2_000, MINUTE);
    const cache = new FakeCache();
    server.hold();
    const first = hydrate({ server, cache }, orderOf(server, 1_900), 'attendeeEmail');
    await until(() => server.requests.length === 1, 'the first pass reads');
    const late = hydrate({ server, cache }, orderOf(server, 1_950), 'attendeeEmail');
    let named = false;
    while (!named) {
      await tick();
      named = lookupClaims(cache).lost === 1 && (await waitingIds(cache)).includes('sub_001950');
    }
    server.release();
    expect(await Promise.all([first, late])).toEqual(['person1900@example.com', 'person1950@example.com']);
    expect(lookupClaims(cache).won).toBe(1);
    expect(server.requests).toHaveLength(1);
  });

  it('an order that arrives while a pass is reading is collected by it when its registration comes later', async () => {
    const server = new EventServer(2_000, MINUTE);
    const cache = new FakeCache();
    // The clock of the hydration that runs the pass moves only when the test moves it.
    const clock = { at: 1_000_000, now: () => clock.at, sleep: tick };
    server.hold();
    // Newest first, the first order's registration comes 1,300 records into the answer, the late one's 500.
    const first = hydrate({ server, cache, clock }, orderOf(server, 700), 'attendeeEmail');
    await until(() => server.requests.length === 1, 'the pass reads');
    const late = hydrate({ server, cache }, orderOf(server, 1_500), 'attendeeEmail');
    let named = false;
    while (!named) {
      await tick();
      named = lookupClaims(cache).lost === 1 && (await waitingIds(cache)).includes('sub_001500');
    }
    server.release();
    expect(await Promise.all([first, late])).toEqual(['person700@example.com', 'person1500@example.com']);
    expect(lookupClaims(cache).won).toBe(1);
    expect(server.requests).toHaveLength(1);
  });

  it('a waiter does not wait forever: after the bounded wait it looks up itself', async () => {
    const server = new EventServer(100, MINUTE);
    const cache = new FakeCache();
    const clock = sleepingClock();
    // A pass of the event that never ends (its invocation was stopped): its lease stays in the cache.
    const z = zFor(server, cache);
    expect(
      await accountCache(z, { authData: authData() }, clock.now).setIfAbsent(
        `attendee-pass:${EVENT_ID}`,
        'elsewhere',
        60,
      ),
    ).toBe(true);
    const started = clock.now();
    expect(await hydrate({ server, cache, clock }, orderOf(server, 42), 'attendeeEmail')).toBe(
      'person42@example.com',
    );
    expect(clock.now() - started).toBeGreaterThanOrEqual(ATTENDEE_TIMINGS.lease.waitMs);
    expect(server.requests).toHaveLength(1);
  });

  it('a failing cache costs requests, never a result, and no waiting', async () => {
    const server = new EventServer(100, MINUTE);
    const cache = new FakeCache();
    cache.broken = true;
    const clock = stillClock();
    const order = orderOf(server, 7);
    expect(await hydrate({ server, cache, clock }, order, 'attendeeFullName')).toBe('First7 Last7');
    expect(await hydrate({ server, cache, clock }, order, 'attendeeFound')).toBe(true);
    expect(clock.slept).toBe(0);
    expect(server.requests).toHaveLength(2);
  });
});

describe('the lookup stops reading at the match', () => {
  // 20,000 registrations over about two weeks (one a minute).
  const server = new EventServer(20_000, MINUTE);
  const eventBytes = server.eventBytes();

  beforeEach(() => {
    server.requests.length = 0;
    server.sent = 0;
    server.aborted = 0;
  });

  it('a registration made just before its order costs a small part of the event', async () => {
    const reads: LookupRead[] = [];
    const i = 19_990;
    const value = await hydrate(
      { server, cache: new FakeCache(), reads },
      orderOf(server, i),
      'attendeeEmail',
    );
    expect(value).toBe(`person${i}@example.com`);
    expect(server.requests).toHaveLength(1);
    expect(reads).toEqual([expect.objectContaining({ complete: false })]);
    expect(server.aborted).toBe(1);
    expect(server.sent).toBeLessThan(0.01 * eventBytes);
  });

  it('a registration from the middle of the event, ordered now, costs about half the event', async () => {
    const reads: LookupRead[] = [];
    const i = 10_000;
    const value = await hydrate(
      { server, cache: new FakeCache(), reads },
      orderOf(server, i, Date.now() - Date.parse(server.registrations[i]!.createdAt)),
      'attendeeEmail',
    );
    expect(value).toBe(`person${i}@example.com`);
    // The day before the order, read to its end without the registration; then the event, until the match.
    expect(reads.map((read) => read.complete)).toEqual([true, false]);
    expect(server.requests[1]).toBe(ALL_TIME);
    expect(server.sent).toBeLessThan(0.6 * eventBytes);
  });

  it('a registration that is not there is looked for through the whole event, to its end', async () => {
    const reads: LookupRead[] = [];
    const order = { ...orderOf(server, 19_000), submissionId: 'sub_gone' };
    expect(await hydrate({ server, cache: new FakeCache(), reads }, order, 'attendeeFound')).toBe(false);
    expect(reads.map((read) => read.complete)).toEqual([true, true]);
    expect(server.aborted).toBe(0);
  });

  it('100 orders of the event looked up together cost one pass, less than one read of the event', async () => {
    const cache = new FakeCache();
    const z = zFor(server, cache);
    const store = accountCache(z, { authData: authData() }, stillClock().now);
    // A pass of the event is under way while the 100 hydrations arrive, one after another.
    await store.setIfAbsent(`attendee-pass:${EVENT_ID}`, 'elsewhere', 60);
    const picks = Array.from({ length: 100 }, (_, k) => 5_000 + k * 150);
    const running: Array<Promise<unknown>> = [];
    for (const i of picks) {
      running.push(hydrate({ server, cache }, orderOf(server, i), 'attendeeEmail'));
      // The next one arrives once this one has asked for its registration (and found the lookup busy).
      const lost = running.length;
      await until(() => lookupClaims(cache).lost >= lost, 'the hydration found the pass under way');
    }
    for (let named = 0; named < picks.length; ) {
      await tick();
      named = (await waitingIds(cache)).length;
    }
    await store.delete(`attendee-pass:${EVENT_ID}`);
    const values = await Promise.all(running);
    expect(values).toEqual(picks.map((i) => `person${i}@example.com`));
    expect(server.requests).toHaveLength(1);
    expect(server.sent).toBeLessThan(eventBytes);
  });

  it('100 orders of the event looked up all at the same moment cost at most two passes', async () => {
    const cache = new FakeCache();
    const picks = Array.from({ length: 100 }, (_, k) => 5_000 + k * 150);
    const values = await Promise.all(
      picks.map((i) => hydrate({ server, cache }, orderOf(server, i), 'attendeeEmail')),
    );
    expect(values).toEqual(picks.map((i) => `person${i}@example.com`));
    expect(lookupClaims(cache).won).toBeLessThanOrEqual(2);
    expect(server.sent).toBeLessThan(2 * eventBytes);
  });
});

/**
 * A payment wave: 100 orders of one event, each with six attendee fields used by a later step, as 600
 * concurrent runs sharing the account's cache (5 ms a cache call, on the virtual clock: waits are instant).
 */
describe('a payment wave', () => {
  const ORDERS = 100;

  const wave = (pass?: string) => {
    const clock = virtualClock(Date.now());
    const server = new EventServer(5_000, MINUTE);
    const cache = new FakeCache(() => clock.now());
    let calls = 0;
    const slow =
      <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
      async (...args: A): Promise<R> => {
        calls += 1;
        await clock.sleep(5);
        return call(...args);
      };
    const api = { get: slow(cache.api.get), set: slow(cache.api.set), delete: slow(cache.api.delete) };
    const z = { ...zFor(server, cache), cache: api } as unknown as ZObject;
    const run = async (first: number, count: number) => {
      const picks = Array.from({ length: count }, (_, k) => first + k);
      const runs = picks.flatMap((i) =>
        FIELDS.map((field) =>
          hydrate({ server, cache, clock, z }, orderOf(server, i), field).then(
            (value) => value,
            (error: unknown) => error,
          ),
        ),
      );
      return { picks, values: await Promise.all(runs), runs: runs.length };
    };
    const deadHolder = () =>
      accountCache(z, { authData: authData() }, clock.now).setIfAbsent(
        `attendee-pass:${EVENT_ID}`,
        pass ?? 'dead',
        ATTENDEE_TIMINGS.lease.leaseSeconds,
      );
    return { clock, server, run, deadHolder, calls: () => calls };
  };

  const resolved = (server: EventServer, picks: number[], values: unknown[]) =>
    values.filter((value, k) => {
      const want = expected(server, picks[Math.floor(k / FIELDS.length)]!);
      return value === want[FIELDS[k % FIELDS.length]!];
    }).length;

  it('600 runs resolve with at most 3 reads of the event and at most 50 cache calls a run', async () => {
    const { server, run, calls } = wave();
    const { picks, values, runs } = await run(4_900, ORDERS);
    expect(resolved(server, picks, values)).toBe(600);
    expect(server.requests.length).toBeLessThanOrEqual(3);
    expect(calls() / runs).toBeLessThanOrEqual(50);
  });

  it('a dead pass holder costs one bounded wait, then 10 orders all resolve', async () => {
    const { clock, server, run, deadHolder, calls } = wave();
    expect(await deadHolder()).toBe(true);
    const started = clock.now();
    const { picks, values, runs } = await run(4_980, 10);
    expect(resolved(server, picks, values)).toBe(60);
    // The lease lapses once its holder stops renewing it: the others wait that long, not their whole bound.
    expect(clock.now() - started).toBeLessThan(ATTENDEE_TIMINGS.lease.waitMs);
    expect(server.requests.length).toBeLessThanOrEqual(2);
    expect(calls() / runs).toBeLessThanOrEqual(50);
  });

  it("a failure keeps the app's own code, never the service's", async () => {
    const { server, run } = wave();
    server.fail = 500;
    const { values } = await run(4_990, 2);
    for (const value of values) {
      expect(value).toBeInstanceOf(Error);
      expect(JSON.parse((value as Error).message)).toMatchObject({ code: LOOKUP_FAILED, status: 502 });
    }
  });
});
