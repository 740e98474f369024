/**
 * A poll has one deadline, Zapier's 30 s less a margin, counted from the start of the invocation: the
 * event's lookup, a wait for another poll of the stream and the read all fit in it, and a poll left
 * without time for a read gives up cleanly (it records nothing and answers nothing new) before Zapier
 * stops it. On a virtual clock: nothing depends on how fast the machine is.
 */
import type { ZObject } from 'zapier-platform-core';
import { callable } from '../../scripts/lib/app';
import { accountCache } from '../../src/memory';
import { POLL_TIMINGS, pollLeaseKey } from '../../src/polling';
import { newSubmissionTrigger, submissionStreamKey } from '../../src/triggers/newSubmission';
import { virtualClock } from '../support/clock';
import { setRunLimits } from '../support/limits';
import { BASE_URL, EVENT_ID, FakeCache, MINUTE, START, ScriptedServer, Zap, fakeZ } from './harness';

const realNow = Date.now;
afterEach(() => {
  Date.now = realNow;
});

// This file tests the run's limit itself: Zapier's 30 s, on a virtual clock, whatever the suite's
// environment gives the other files.
let restoreLimits: () => void;
beforeAll(() => {
  restoreLimits = setRunLimits({ runMs: POLL_TIMINGS.runLimitMs });
});
afterAll(() => restoreLimits());

const timings = POLL_TIMINGS;
const DEADLINE = timings.runLimitMs - timings.requestMarginMs;

/**
 * A Zap whose event lookups take `lookupMs` (on the virtual clock), an event with 50 new registrations,
 * and, if `held`, the stream's lease left taken by a poll Zapier stopped.
 */
const scene = async (lookupMs: number, held: boolean) => {
  const clock = virtualClock(START);
  const server = new ScriptedServer();
  const cache = new FakeCache(() => clock.now());
  const inner = fakeZ(server, cache);
  const reads: Array<{ at: number; timeout: number | undefined }> = [];
  const z = {
    ...inner,
    request: async (options: { url: string; timeout?: number }) => {
      if (options.url.includes('/events')) await clock.sleep(lookupMs);
      else reads.push({ at: clock.now(), timeout: options.timeout });
      server.now = clock.now();
      return inner.request(options as never);
    },
  } as unknown as ZObject;
  Date.now = () => clock.now();
  const perform = callable(
    (newSubmissionTrigger({ timings, clock }).operation as { perform?: unknown }).perform,
  );
  const zap = new Zap('Zap', z, { eventId: EVENT_ID }, perform);
  server.now = clock.now();
  await zap.turnOn();
  for (let i = 0; i < 50; i++) server.add(`r_new_${String(i).padStart(3, '0')}`, START + MINUTE + i * 1000);
  await clock.sleep(10 * MINUTE);
  if (held) {
    const store = accountCache(z, { authData: { apiKey: 'sk_test_cursor', baseUrl: BASE_URL } }, () =>
      clock.now(),
    );
    await store.setIfAbsent(pollLeaseKey(submissionStreamKey(EVENT_ID, null)), 'a stopped poll', 60);
  }
  return { clock, server, zap, reads, z };
};

describe('one deadline from the start of the invocation', () => {
  it('a slow event lookup (12 s) and a lease left taken: the poll ends within its deadline with every registration', async () => {
    const { clock, zap, reads } = await scene(12_000, true);
    const started = clock.now();
    expect(await zap.poll()).toBe('ok');
    expect(clock.now() - started).toBeLessThanOrEqual(DEADLINE);
    expect(zap.triggered.filter((id) => id.startsWith('r_new_'))).toHaveLength(50);
    // The read was given only what was left of the run.
    const read = reads[reads.length - 1];
    expect(read?.timeout).toBeDefined();
    expect((read?.at ?? Infinity) - started + (read?.timeout ?? Infinity)).toBeLessThanOrEqual(DEADLINE);
  });

  it('an event lookup that never ends is given up on: the poll still reads, within its deadline', async () => {
    const { clock, zap } = await scene(10 * MINUTE, true);
    const started = clock.now();
    expect(await zap.poll()).toBe('ok');
    expect(clock.now() - started).toBeLessThanOrEqual(DEADLINE);
    expect(zap.triggered.filter((id) => id.startsWith('r_new_'))).toHaveLength(50);
  });

  it('a run with no time left for a read gives up cleanly, and the next poll returns what it would have', async () => {
    const { clock, zap, z, reads } = await scene(0, false);
    // An invocation whose start was 27 s ago by the time the poll could read (as if something before it hung).
    let calls = 0;
    const hurried = callable(
      (
        newSubmissionTrigger({
          timings,
          clock: { now: () => clock.now() + (calls++ === 0 ? 0 : DEADLINE - 1000), sleep: clock.sleep },
        }).operation as { perform?: unknown }
      ).perform,
    );
    const late = new Zap('Zap', z, { eventId: EVENT_ID }, hurried);
    for (const id of zap.seen) late.seen.add(id);
    const before = reads.length;
    expect(await late.poll()).toBe('ok');
    expect(late.triggered).toHaveLength(0);
    expect(reads).toHaveLength(before);
    await clock.sleep(MINUTE);
    expect(await zap.poll()).toBe('ok');
    expect(zap.triggered.filter((id) => id.startsWith('r_new_'))).toHaveLength(50);
  });
});
