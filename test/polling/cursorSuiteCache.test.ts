/**
 * The cursor suite (play in suitePlay.ts). Whole days of polling: the cache is an optimisation (none, emptied, lost once, evicted, broken).
 */
import {
  BUSY,
  client,
  CURSOR_TIMING,
  DAY,
  delayedTimes,
  expectComplete,
  history,
  HOUR,
  MINUTE,
  play,
  record,
  setup,
  START,
  statelessPolls,
  forgottenPolls,
  steady,
  fiveAndFifteen,
} from './suitePlay';
import { Zap } from './harness';

describe('the cache is an optimisation: losing it costs bytes, never registrations', () => {
  it('no cache at all (every get and set fails): two Zaps, 20,000 registrations a day', async () => {
    const { server, cache, zaps } = setup(2);
    const [a, b] = zaps as [Zap, Zap];
    cache.broken = true;
    history(server, 26, 300);
    await a.turnOn();
    await b.turnOn();
    await play({
      server,
      schedules: fiveAndFifteen(a, b),
      from: START,
      to: START + 2 * HOUR,
      arrive: steady(server, BUSY, 59),
    });
    expectComplete(server, a);
    expectComplete(server, b);
    // Every poll read the stateless window, and nothing else.
    expect(statelessPolls(server).length).toBe(a.polls + b.polls);
    record('no cache at all, 20,000 a day', server, BUSY);
  });

  it('the cache emptied before every poll: two Zaps, 20,000 registrations a day, one run late', async () => {
    const { server, cache, zaps } = setup(2);
    const [a, b] = zaps as [Zap, Zap];
    history(server, 26, 300);
    await a.turnOn();
    await b.turnOn();
    await play({
      server,
      schedules: [
        { zap: a, everyMs: 15 * MINUTE },
        {
          zap: b,
          everyMs: 0,
          at: delayedTimes(START + 7 * MINUTE, START + 2 * HOUR, 15 * MINUTE, 30 * MINUTE, 61),
        },
      ],
      from: START,
      to: START + 2 * HOUR,
      arrive: steady(server, BUSY, 67),
      beforePoll: () => cache.evict(),
    });
    expectComplete(server, a);
    expectComplete(server, b);
    // The cache answered, empty: every poll read as far back as the kept entry keeps (a Zap held 2 hours
    // still finds what it lacks), not the 80 minutes of a failing cache.
    expect(forgottenPolls(server).length).toBe(a.polls + b.polls);
  });

  it('a state lost once: one stateless poll creates it again, then the windows are back to the hold', async () => {
    const { server, cache, zaps } = setup(2);
    const [a, b] = zaps as [Zap, Zap];
    history(server, 26, 30);
    await a.turnOn();
    await b.turnOn();
    const lostAt = START + HOUR;
    await play({
      server,
      schedules: fiveAndFifteen(a, b),
      from: START,
      to: START + 4 * HOUR,
      arrive: steady(server, 3, 71),
      tick: (t) => {
        if (t === lostAt) cache.evict();
      },
    });
    expectComplete(server, a);
    expectComplete(server, b);
    // The first poll of the day (the Zaps turned on, nothing read yet) and the first after the loss.
    expect(statelessPolls(server).map((entry) => entry.at)).toEqual([START]);
    expect(forgottenPolls(server).map((entry) => entry.at)).toEqual([lostAt]);
    const { holdMs, visibilityDelayMs, marginMs } = CURSOR_TIMING;
    const later = server.log.filter((entry) => entry.at >= lostAt + 2 * holdMs);
    expect(later.length).toBeGreaterThan(30);
    for (const { at, sinceMs } of later) {
      expect(at - sinceMs).toBeLessThanOrEqual(holdMs + visibilityDelayMs + marginMs + 6 * MINUTE);
    }
    record('state lost once, 3 a minute', server, 3);
  });

  it.each([14, -14])(
    'a client clock %i minutes off the server misses nothing, even when the state is lost',
    async (minutes) => {
      const { server, cache, zaps } = setup();
      const [zap] = zaps as [Zap];
      history(server, 26, 30);
      client.now = START + minutes * MINUTE;
      await zap.turnOn();
      await play({
        server,
        schedules: [{ zap, everyMs: 5 * MINUTE }],
        from: START,
        to: START + 12 * HOUR,
        skewMs: minutes * MINUTE,
        arrive: steady(server, 1, 29),
        tick: (t) => {
          if ((t - START) % (6 * HOUR) === 3 * HOUR) cache.evict();
        },
      });
      expectComplete(server, zap);
    },
  );

  it('an evicted cache (every 2 hours) and a broken one (for an hour) fall back to the stateless window, or read as far back as the kept entry keeps', async () => {
    const { server, cache, zaps } = setup();
    const [zap] = zaps as [Zap];
    history(server, 26, 30);
    await zap.turnOn();
    await play({
      server,
      schedules: [{ zap, everyMs: 5 * MINUTE }],
      from: START,
      to: START + DAY,
      arrive: steady(server, 1, 31),
      tick: (t) => {
        if ((t - START) % (2 * HOUR) === HOUR) cache.evict();
        cache.broken = t >= START + 15 * HOUR && t < START + 16 * HOUR;
      },
    });
    expectComplete(server, zap);
    // The stateless window: the first poll, and the 12 polls while the cache was broken (it failed). Read as
    // far back as the kept entry keeps: the first after each eviction outside the broken hour (12, the last
    // in the quiet hour after the day; the eviction at 15 h falls in that hour), and the first poll after it.
    expect(statelessPolls(server).length).toBe(1 + 12);
    expect(forgottenPolls(server).length).toBe(12 + 1);
    record('evicted every 2 h, broken for 1 h', server, 1);
  });
});
