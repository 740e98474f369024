/**
 * The settle margin: a kept entry says it holds every record up to the service's clock of its answer less
 * the visibility delay and the margin. The `Date` header has whole seconds: a service that rounds it up
 * dates its answer up to a second after it read, so without the margin a record that became visible just
 * after the read (2 minutes after it was made) would be taken as read, and never returned.
 */
import { type PollTimings, POLL_TIMINGS, pollTimings } from '../../src/polling';
import { EVENT_ID, FakeCache, MINUTE, START, ScriptedServer, Zap, fakeZ, performWith } from './harness';

const realNow = Date.now;
afterEach(() => {
  Date.now = realNow;
});

/**
 * One Zap polled every minute, 400 ms past the second, by a client whose clock is 5 s ahead of the service;
 * the service rounds its `Date` header up. Before each poll a registration is made that becomes visible
 * (the longest delay, 2 minutes) 300 ms after that poll reads. Returns the ones that never reached the Zap.
 */
const play = async (timings: PollTimings) => {
  const server = new ScriptedServer();
  server.dateRounding = 'up';
  const cache = new FakeCache(() => server.now);
  const zap = new Zap('Zap', fakeZ(server, cache), { eventId: EVENT_ID }, performWith(timings));
  Date.now = () => server.now + 5_000;
  server.now = START + 400;
  await zap.turnOn();
  const made: string[] = [];
  for (let i = 1; i <= 30; i++) {
    server.now = START + 400 + i * MINUTE;
    const id = `late_${String(i).padStart(3, '0')}`;
    server.add(id, server.now + 300 - timings.visibilityDelayMs, timings.visibilityDelayMs);
    made.push(id);
    await zap.poll();
  }
  // Two more polls, once the last one is visible.
  for (let i = 31; i <= 32; i++) {
    server.now = START + 400 + i * MINUTE;
    await zap.poll();
  }
  return made.filter((id) => !zap.seen.has(id));
};

describe('a service whose Date header is rounded up to the second', () => {
  it('loses nothing: the settle margin covers the rounding', async () => {
    expect(await play(POLL_TIMINGS)).toEqual([]);
  });

  it('without the margin, the registrations visible just after a read would be lost', async () => {
    const lost = await play(pollTimings({ settleMarginMs: 0 }));
    expect(lost.length).toBeGreaterThan(0);
  });
});
