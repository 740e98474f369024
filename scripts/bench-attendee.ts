/**
 * The attendee lookup under a payment wave: 100 orders of one event arriving together, each with the six
 * attendee fields used by a later step, as 600 concurrent hydrations sharing the account's cache (one that
 * honours `nx` and TTL, 5 ms a call), on the real clock. Then the same after a pass holder died: its lease
 * is left in the cache and 10 orders (60 runs) arrive. Prints, for each: runs resolved, reads of the event,
 * cache calls a run on average, peak RSS of the process and wall time.
 *
 *   npm run bench:attendee
 */
import { Readable } from 'node:stream';
import { type Bundle, type ZObject, errors } from 'zapier-platform-core';
import { ATTENDEE_TIMINGS, attendeeHydrator } from '../src/account/attendee';
import { ATTENDEE_FIELD_KEYS } from '../src/mappers/attendee';
import { SAMPLE_SUBMISSION } from '../src/mappers/submission';
import { accountCache } from '../src/memory';
import { wireList } from '../sandbox/wire';
import { FakeCache } from './lib/fakeCache';

const EVENT_ID = SAMPLE_SUBMISSION.eventId;
const REGISTRATIONS = 20_000;
const CACHE_CALL_MS = 5;
const MINUTE = 60_000;
const AUTH = { apiKey: 'bench-key', baseUrl: 'http://127.0.0.1:9' };

/** The event's registrations, one a minute up to a minute ago, served newest first as the sandbox does. */
const registrations = (() => {
  const last = Date.now() - MINUTE;
  return Array.from({ length: REGISTRATIONS }, (_, i) => ({
    ...SAMPLE_SUBMISSION,
    submissionId: `sub_${String(i).padStart(6, '0')}`,
    email: `person${i}@example.com`,
    firstName: `First${i}`,
    lastName: `Last${i}`,
    createdAt: new Date(last - (REGISTRATIONS - 1 - i) * MINUTE).toISOString(),
  }));
})();

interface Scenario {
  reads: number;
  calls: number;
}

const answer = (scenario: Scenario, url: string, signal?: AbortSignal) => {
  const since = Date.parse(new URL(url).searchParams.get('since') ?? '');
  scenario.reads += 1;
  const rows = registrations.filter((r) => Date.parse(r.createdAt) >= since).reverse();
  const body = Buffer.from(JSON.stringify(wireList(rows)));
  let at = 0;
  const stream = new Readable({
    highWaterMark: 16_384,
    read: () => {
      // The service sends about 20 MB/s.
      setTimeout(() => {
        if (at >= body.length) return void stream.push(null);
        stream.push(body.subarray(at, at + 16_384));
        at += 16_384;
      }, 1);
    },
  });
  signal?.addEventListener('abort', () => stream.destroy());
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    date: new Date().toUTCString(),
  };
  return {
    status: 200,
    headers: { get: (name: string) => headers[name.toLowerCase()] ?? null },
    body: stream,
  };
};

const zOf = (scenario: Scenario, cache: FakeCache): ZObject => {
  const slow =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      scenario.calls += 1;
      await new Promise((resolve) => setTimeout(resolve, CACHE_CALL_MS));
      return call(...args);
    };
  return {
    request: async (options: { url: string; signal?: AbortSignal }) =>
      answer(scenario, options.url, options.signal),
    cache: { get: slow(cache.api.get), set: slow(cache.api.set), delete: slow(cache.api.delete) },
    errors,
    console: { log: () => undefined, error: () => undefined },
  } as unknown as ZObject;
};

const hydrate = attendeeHydrator();

/** `orders` orders of the newest registrations (each made 1 to 30 minutes after its registration). */
const run = async (name: string, orders: number, deadHolder: boolean) => {
  const scenario: Scenario = { reads: 0, calls: 0 };
  const z = zOf(scenario, new FakeCache());
  if (deadHolder) {
    const store = accountCache(z, { authData: AUTH });
    await store.setIfAbsent(`attendee-pass:${EVENT_ID}`, 'dead', ATTENDEE_TIMINGS.lease.leaseSeconds);
    scenario.calls = 0;
  }
  const started = performance.now();
  const picks = Array.from({ length: orders }, (_, k) => REGISTRATIONS - 1 - k * 3);
  const runs = picks.flatMap((i) => {
    const registration = registrations[i]!;
    const order = {
      orderId: `ord_${i}`,
      eventId: EVENT_ID,
      submissionId: registration.submissionId,
      orderCreatedAt: new Date(Date.parse(registration.createdAt) + (1 + (i % 30)) * MINUTE).toISOString(),
    };
    return ATTENDEE_FIELD_KEYS.map((field) =>
      hydrate(z, { authData: AUTH, inputData: { ...order, field } } as unknown as Bundle).then(
        (value) => (field === 'attendeeEmail' ? value === registration.email : value !== undefined),
        () => false,
      ),
    );
  });
  const resolved = (await Promise.all(runs)).filter(Boolean).length;
  const wallMs = performance.now() - started;
  console.log(
    `${name.padEnd(34)} resolved ${resolved}/${runs.length}  reads of the event ${scenario.reads}  ` +
      `cache calls/run ${(scenario.calls / runs.length).toFixed(1)}  ` +
      `peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB  wall ${(wallMs / 1000).toFixed(2)} s`,
  );
};

const main = async () => {
  console.log(`event of ${REGISTRATIONS} registrations; ${CACHE_CALL_MS} ms a cache call; real clock`);
  await run('payment wave (100 orders x 6)', 100, false);
  await run('dead holder, then 10 orders x 6', 10, true);
};

void main();
