/**
 * The cursor suite (play in suitePlay.ts). Whole days of polling: several Zaps of one stream, a Zap Zapier holds, polls at the same moment.
 */
import {
  client,
  CURSOR_TIMING,
  DAY,
  delayedTimes,
  expectComplete,
  heldTimes,
  history,
  HOUR,
  keptPolls,
  largestKept,
  MINUTE,
  play,
  record,
  setup,
  START,
  statelessPolls,
  forgottenPolls,
  steady,
} from './suitePlay';
import { FakeCache, Zap, playClock } from './harness';

describe('several Zaps of one account on the same event (Zapier cannot tell them apart: one stream)', () => {
  it('B polls every 15 min and fails for 3 hours while A succeeds every minute', async () => {
    const { server, zaps } = setup(2);
    const [a, b] = zaps as [Zap, Zap];
    history(server, 10, 20);
    await a.turnOn();
    await b.turnOn();
    const outage = (t: number) => t >= START + HOUR && t < START + 4 * HOUR;
    await play({
      server,
      schedules: [
        { zap: a, everyMs: MINUTE },
        { zap: b, everyMs: 15 * MINUTE, offsetMs: 7 * MINUTE, fail: (t) => (outage(t) ? '500' : null) },
      ],
      from: START,
      to: START + 5 * HOUR,
      arrive: steady(server, 1, 19),
    });
    expect(b.failures).toBe(12);
    expectComplete(server, a);
    expectComplete(server, b);
  });

  it('three Zaps polled on time through a burst of 10,000 in a minute each receive every registration', async () => {
    const { server, zaps } = setup(3);
    const [a, b, c] = zaps as [Zap, Zap, Zap];
    for (const zap of zaps) await zap.turnOn();
    const base = steady(server, 2, 43);
    let n = 0;
    await play({
      server,
      schedules: [
        { zap: a, everyMs: 5 * MINUTE },
        { zap: b, everyMs: 15 * MINUTE, offsetMs: 2 * MINUTE },
        { zap: c, everyMs: 15 * MINUTE, offsetMs: 9 * MINUTE },
      ],
      from: START,
      to: START + 90 * MINUTE,
      arrive: (t) => {
        base(t);
        if (t !== START + 33 * MINUTE) return;
        // Each visible up to 2 minutes late: the polls of the next minutes see a part only.
        for (let i = 0; i < 10_000; i++) {
          const created = t - 1 - (i % 59) * 1000;
          server.add(`burst_${String(n++).padStart(5, '0')}`, created, (i % 121) * 1000, 'approved', true);
        }
      },
    });
    for (const zap of [a, b, c]) {
      expectComplete(server, zap);
      expect(zap.triggered.filter((id) => id.startsWith('burst_'))).toHaveLength(10_000);
      expect(zap.maxBytes).toBeLessThan(CURSOR_TIMING.answerBudgetBytes);
    }
    record('a burst of 10,000, three Zaps', server, 2);
  });

  it('one Zap run up to 30 minutes late while another polls every 5 minutes misses nothing', async () => {
    const { server, zaps } = setup(2);
    const [a, b] = zaps as [Zap, Zap];
    history(server, 26, 30);
    await a.turnOn();
    await b.turnOn();
    const to = START + 3 * HOUR;
    const late = delayedTimes(START + 3 * MINUTE, to, 15 * MINUTE, 30 * MINUTE, 47);
    const gaps = [...late].slice(1).map((t, i) => t - ([...late][i] ?? t));
    expect(Math.max(...gaps)).toBe(45 * MINUTE);
    let n = 0;
    const base = steady(server, 3, 53);
    await play({
      server,
      schedules: [
        { zap: a, everyMs: 5 * MINUTE },
        { zap: b, everyMs: 0, at: late },
      ],
      from: START,
      to,
      arrive: (t) => {
        base(t);
        // Two hours before the end: 10,000 registrations are two answers (each under 6 MiB), and the late
        // Zap is given what the other Zap's polls returned first once the burst is drained.
        if (t !== START + 2 * HOUR) return;
        for (let i = 0; i < 10_000; i++)
          server.add(`burst_${String(n++).padStart(5, '0')}`, t - 1 - (i % 50));
      },
    });
    expectComplete(server, a);
    expectComplete(server, b);
    record('one Zap up to 30 min late, 3 a minute', server, 3);
  });

  it('a Zap turned on weeks after the last registration runs for nothing old', async () => {
    const { server, zaps } = setup(2);
    const [a, b] = zaps as [Zap, Zap];
    // A was turned on when the event's last registrations came in, three weeks ago: its state is that old.
    const then = START - 21 * DAY;
    server.add('old_1', then - 2 * HOUR);
    server.add('old_2', then - HOUR);
    server.now = then;
    client.now = then;
    await a.turnOn();
    await play({ server, schedules: [{ zap: a, everyMs: 5 * MINUTE }], from: then, to: then + HOUR });
    expect(a.seen).toEqual(new Set(['old_1', 'old_2']));

    server.now = START;
    client.now = START;
    await b.turnOn();
    await play({
      server,
      schedules: [
        { zap: a, everyMs: 5 * MINUTE },
        { zap: b, everyMs: 5 * MINUTE, offsetMs: 2 * MINUTE },
      ],
      from: START,
      to: START + 2 * HOUR,
      arrive: steady(server, 0.2, 23, 'new'),
    });
    expect(b.triggered.filter((id) => id.startsWith('old_'))).toEqual([]);
    expect(a.triggered.filter((id) => id.startsWith('old_'))).toEqual([]);
    expectComplete(server, b);
    expect(b.triggered.length).toBeGreaterThan(10);
  });
});
describe('a Zap that Zapier holds while another Zap of the stream keeps polling', () => {
  it('one Zap held 2 hours past its 15-minute interval misses nothing while the cache works', async () => {
    const { server, cache, zaps } = setup(2);
    const [a, b] = zaps as [Zap, Zap];
    history(server, 26, 30);
    await a.turnOn();
    await b.turnOn();
    const to = START + 4 * HOUR;
    const heldAt = START + HOUR + 3 * MINUTE;
    const held = heldTimes(START + 3 * MINUTE, to, 15 * MINUTE, heldAt, 2 * HOUR + 15 * MINUTE);
    await play({
      server,
      schedules: [
        { zap: a, everyMs: 5 * MINUTE },
        { zap: b, everyMs: 0, at: held },
      ],
      from: START,
      to,
      arrive: steady(server, 3, 101),
    });
    // B did not poll for 2 h 15 min, while A's polls read each registration once and moved on.
    expect([...held].includes(heldAt + 2 * HOUR + 15 * MINUTE)).toBe(true);
    expect([...held].some((t) => t > heldAt && t < heldAt + 2 * HOUR + 15 * MINUTE)).toBe(false);
    expectComplete(server, a);
    expectComplete(server, b);
    // Every poll but the first (and the two turning the Zaps on) read only after the newest settled point.
    expect(keptPolls(server, 5 * MINUTE).length).toBe(server.log.length - 3);
    expect(largestKept(cache)).toBeLessThan(CURSOR_TIMING.keptCapBytes);
    record('one Zap held 2 h, 3 a minute', server, 3);
  });

  it.each([
    ['throws', (cache: FakeCache) => (cache.broken = true)],
    ['answers null', (cache: FakeCache) => (cache.nulls = true)],
  ])(
    'one Zap held 60 minutes past its 15-minute interval misses nothing when the cache %s',
    async (how, fail) => {
      const { server, cache, zaps } = setup(2);
      const [a, b] = zaps as [Zap, Zap];
      fail(cache);
      history(server, 26, 30);
      await a.turnOn();
      await b.turnOn();
      const to = START + 3 * HOUR;
      const heldAt = START + HOUR + 3 * MINUTE;
      await play({
        server,
        schedules: [
          { zap: a, everyMs: 5 * MINUTE },
          { zap: b, everyMs: 0, at: heldTimes(START + 3 * MINUTE, to, 15 * MINUTE, heldAt, 75 * MINUTE) },
        ],
        from: START,
        to,
        arrive: steady(server, 3, 103),
      });
      expectComplete(server, a);
      expectComplete(server, b);
      // Every poll read the stateless window when the cache failed, as far back as the kept entry keeps when
      // it answered null (nothing there: the stream forgotten).
      const windows = how === 'throws' ? statelessPolls(server) : forgottenPolls(server);
      expect(windows.length).toBe(a.polls + b.polls);
    },
  );
});
describe('polls of one stream at the same moment', () => {
  it('overwrite each other’s kept entry (the last write wins) and lose nothing, with a Zap held 2 hours', async () => {
    // Polls at the same moment run one at a time: the one that waits looks again at once, not after real time.
    const { server, cache, zaps } = setup(3, undefined, playClock);
    const [a, b, c] = zaps as [Zap, Zap, Zap];
    for (const zap of zaps) await zap.turnOn();
    const to = START + 4 * HOUR;
    const heldAt = START + HOUR;
    const writes = cache.bytesWritten;
    await play({
      server,
      schedules: [
        { zap: a, everyMs: 5 * MINUTE },
        { zap: b, everyMs: 5 * MINUTE },
        { zap: c, everyMs: 0, at: heldTimes(START, to, 15 * MINUTE, heldAt, 2 * HOUR + 15 * MINUTE) },
      ],
      from: START,
      to,
      arrive: steady(server, 3, 113),
      together: true,
    });
    for (const zap of zaps) expectComplete(server, zap);
    expect(cache.bytesWritten).toBeGreaterThan(writes);
  });
});
