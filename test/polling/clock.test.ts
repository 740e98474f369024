/**
 * The service's clock cannot make registrations vanish: an answer whose `Date` header runs ahead (of this
 * app's clock or of earlier polls), or a kept entry that claims to be complete up to a point in the future,
 * makes polls read more, never skip.
 */
import { POLL_TIMINGS } from '../../src/polling';
import { decodeWhole, pack } from '../../src/polling/kept';
import { EVENT_ID, FakeCache, HOUR, MINUTE, START, ScriptedServer, Zap, fakeZ } from './harness';

const realNow = Date.now;
afterEach(() => {
  Date.now = realNow;
});

/** A steady event (2 registrations a minute, each up to 2 minutes late) and one Zap polled every 5 minutes. */
const scene = () => {
  const server = new ScriptedServer();
  const cache = new FakeCache(() => server.now);
  const zap = new Zap('Zap', fakeZ(server, cache), { eventId: EVENT_ID });
  Date.now = () => server.now;
  let n = 0;
  const arrive = (t: number) => {
    for (let i = 0; i < 2; i++)
      server.add(`r_${String(n++).padStart(6, '0')}`, t - 1 - i * 20_000, (n * 7919) % (2 * MINUTE));
  };
  const play = async (from: number, to: number, beforePoll?: (t: number) => void) => {
    for (let t = from; t <= to; t += MINUTE) {
      server.now = t;
      arrive(t);
      if ((t - START) % (5 * MINUTE) !== 0) continue;
      beforePoll?.(t);
      await zap.poll();
    }
  };
  /** Every registration visible before the last poll reached the Zap. */
  const missing = (lastPoll: number) =>
    [...server.visibleAt(lastPoll - 1)].filter((id) => !zap.seen.has(id) && server.createdMsOf(id) > START);
  return { server, cache, zap, play, missing };
};

describe("the service's clock", () => {
  it.each([
    ['10 minutes', 10 * MINUTE],
    ['1 hour', HOUR],
    ['24 hours', 24 * HOUR],
  ])('one answer dated %s ahead loses nothing', async (_, aheadMs) => {
    const { server, zap, play, missing } = scene();
    server.now = START;
    await zap.turnOn();
    const end = START + 4 * HOUR;
    await play(START + MINUTE, end, (t) => {
      if (t === START + HOUR) server.dateAheadNextMs = aheadMs;
    });
    expect(missing(end)).toEqual([]);
    expect(zap.triggered.length).toBeGreaterThan(400);
  });

  it('answers dated ahead on every poll lose nothing either', async () => {
    const { server, zap, play, missing } = scene();
    server.now = START;
    await zap.turnOn();
    const end = START + 3 * HOUR;
    await play(START + MINUTE, end, () => {
      server.dateAheadNextMs = 10 * MINUTE;
    });
    expect(missing(end)).toEqual([]);
  });

  it('a kept entry complete "up to" a point 24 hours ahead loses nothing', async () => {
    const { server, cache, zap, play, missing } = scene();
    server.now = START;
    await zap.turnOn();
    const end = START + 4 * HOUR;
    let moved = false;
    await play(START + MINUTE, end, (t) => {
      if (t !== START + HOUR) return;
      // The stream's kept entry as another version or a clock far ahead could have written it.
      const key = cache.keys().find((k) => k.endsWith(':kept'));
      const stored = key ? (cache.peek(key) as { v: unknown; e: number }) : undefined;
      const whole = stored && decodeWhole(stored.v, POLL_TIMINGS.keptUnpackedCapBytes);
      if (!key || !stored || !whole) return;
      cache.poke(key, { ...stored, v: pack({ ...whole, settled: { ms: t + 24 * HOUR, id: '' } }) });
      moved = true;
    });
    expect(moved).toBe(true);
    expect(missing(end)).toEqual([]);
  });
});
