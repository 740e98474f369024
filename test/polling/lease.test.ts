/**
 * The scheduled polls of one stream run one at a time (`readNew` on `oneAtATime`): two Zaps of the stream
 * polling at once do not read the same window twice, and a poll that finds the lease held by a run that died
 * waits a bounded while, then reads alone.
 */
import { newSubmissionTrigger, submissionStreamKey } from '../../src/triggers/newSubmission';
import { accountCache } from '../../src/memory';
import { pollLeaseKey, pollTimings } from '../../src/polling';
import { callable } from '../../scripts/lib/app';
import { virtualClock } from '../support/clock';
import { BASE_URL, EVENT_ID, FakeCache, MINUTE, START, ScriptedServer, Zap, fakeZ } from './harness';

const realNow = Date.now;
afterEach(() => {
  Date.now = realNow;
});

/** An event with a registration a minute for the last hour, and two Zaps of one stream turned on. */
const scene = async (perform?: ReturnType<typeof callable>) => {
  const server = new ScriptedServer();
  const cache = new FakeCache(() => server.now);
  const z = fakeZ(server, cache);
  Date.now = () => server.now;
  for (let i = 0; i < 60; i++) server.add(`r_old_${String(i).padStart(3, '0')}`, START - (60 - i) * MINUTE);
  const zaps = [
    new Zap('A', z, { eventId: EVENT_ID }, perform),
    new Zap('B', z, { eventId: EVENT_ID }, perform),
  ];
  for (const zap of zaps) await zap.turnOn();
  return { server, cache, z, zaps };
};

/** `count` new registrations of about `bytes` each, made in the last minutes. */
const rush = (server: ScriptedServer, count: number) => {
  for (let i = 0; i < count; i++)
    server.add(`r_new_${String(i).padStart(4, '0')}`, server.now - 4 * MINUTE + i * 100);
};

describe('polls of one stream run one at a time', () => {
  it('two Zaps polling at once both get every new registration, and the second reads only what follows the first', async () => {
    const { server, zaps } = await scene();
    server.now = START + 5 * MINUTE;
    rush(server, 400);
    server.now = START + 10 * MINUTE;
    const before = server.log.length;
    const outcomes = await Promise.all(zaps.map((zap) => zap.poll()));
    expect(outcomes).toEqual(['ok', 'ok']);
    for (const zap of zaps) {
      const fresh = zap.triggered.filter((id) => id.startsWith('r_new_'));
      expect(new Set(fresh).size).toBe(400);
    }
    const [first, second] = server.log.slice(before);
    expect(first?.items).toBeGreaterThanOrEqual(400);
    // The second poll starts after the first one's kept records: what the service re-sends is the last
    // few minutes a settled position leaves open, not the 400 registrations again.
    expect(second?.items).toBeLessThan(first!.items / 4);
    expect(second!.bytes).toBeLessThan(first!.bytes / 4);
  });

  it('a lease held by a run that died costs one bounded wait, then the poll reads alone', async () => {
    const timings = pollTimings({ leaseWaitMs: 8_000 });
    const clock = virtualClock(START);
    const perform = callable(
      (newSubmissionTrigger({ timings, clock }).operation as { perform?: unknown }).perform,
    );
    const { server, z, zaps } = await scene(perform);
    const [zap] = zaps;
    server.now = START + 5 * MINUTE;
    rush(server, 50);
    // A poll that Zapier stopped mid-way: its lease stays until it expires.
    const store = accountCache(z, { authData: { apiKey: 'sk_test_cursor', baseUrl: BASE_URL } }, () =>
      clock.now(),
    );
    const lease = pollLeaseKey(submissionStreamKey(EVENT_ID, null));
    expect(await store.setIfAbsent(lease, 'a-run-that-died', timings.lease.leaseSeconds)).toBe(true);
    const started = clock.now();
    const sleepsBefore = clock.sleeps;
    expect(await zap!.poll()).toBe('ok');
    expect(zap!.triggered.filter((id) => id.startsWith('r_new_'))).toHaveLength(50);
    // One bounded wait (looks backing off from 250 ms to 2 s), not a loop and not a failure.
    expect(clock.now() - started).toBeGreaterThanOrEqual(timings.lease.waitMs);
    expect(clock.now() - started).toBeLessThan(timings.lease.waitMs + 2_000);
    expect(clock.sleeps - sleepsBefore).toBeLessThanOrEqual(8);
    // The waiter never takes away a lease that is not its own.
    expect(await store.get(lease)).toBe('a-run-that-died');
  });

  it('the time a poll waited counts against its request (Zapier stops the run at 30 s)', () => {
    const timings = pollTimings();
    expect(timings.lease.waitMs).toBeLessThan(
      timings.runLimitMs - timings.requestMarginMs - timings.minRequestTimeoutMs,
    );
    expect(timings.lease.leaseSeconds * 1000).toBeGreaterThan(timings.runLimitMs);
  });
});
