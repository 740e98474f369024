/**
 * The cursor suite: whole days of polling of New Form Submission against a scripted server that behaves as
 * badly as the contract allows. Every scenario asserts that each Zap received every registration created
 * (the ids ever returned to it, whether into its dedupe table or as runs, equal the set created), that
 * nothing which existed when the Zap was turned on ran it, and counts what was transferred.
 */
import { CURSOR_TIMING } from '../../../src/triggers/common/cursor';
import { FakeCache, type Failure, HOUR, MINUTE, Rng, START, ScriptedServer, Zap, fakeZ } from './harness';

const DAY = 24 * HOUR;

interface Schedule {
  zap: Zap;
  everyMs: number;
  offsetMs?: number;
  /** The failure of the poll at `t`, if any. */
  fail?: (t: number) => Failure | null;
  /** Whether Zapier loses the answer of the poll at `t`. */
  lose?: (t: number) => boolean;
}

interface Play {
  server: ScriptedServer;
  schedules: Schedule[];
  from: number;
  to: number;
  /** Adds the registrations created in the minute ending at `t`. */
  arrive?: (t: number) => void;
  /** Client clock minus server clock. */
  skewMs?: number;
  tick?: (t: number) => void;
}

let clientNow = START;
beforeAll(() => {
  jest.spyOn(Date, 'now').mockImplementation(() => clientNow);
});
afterAll(() => jest.restoreAllMocks());

const report: string[] = [];
afterAll(() => {
  if (report.length) console.log(['Cursor suite: what scheduled polls transferred', ...report].join('\n'));
});

/** Plays minute by minute from `from` to `to`, then 30 quiet minutes so that every late row shows up. */
const play = async (p: Play) => {
  for (let t = p.from; t <= p.to + 30 * MINUTE; t += MINUTE) {
    p.server.now = t;
    clientNow = t + (p.skewMs ?? 0);
    if (t > p.from && t <= p.to) p.arrive?.(t);
    p.tick?.(t);
    for (const s of p.schedules) {
      if ((t - p.from - (s.offsetMs ?? 0)) % s.everyMs !== 0) continue;
      p.server.failNextRequest(s.fail?.(t) ?? null);
      await s.zap.poll({ lose: s.lose?.(t) ?? false });
    }
  }
};

/** About `perMinute` registrations a minute, each up to 2 minutes late (deterministic). */
const steady = (server: ScriptedServer, perMinute: number, seed: number, prefix = 's') => {
  const rng = new Rng(seed);
  let n = 0;
  return (t: number) => {
    const count = Math.floor(perMinute) + (rng.next() < perMinute % 1 ? 1 : 0);
    for (let i = 0; i < count; i++) {
      const created = t - 1 - rng.int(MINUTE - 1);
      const lag = rng.int(CURSOR_TIMING.visibilityDelayMs + 1);
      server.add(`${prefix}_${String(n++).padStart(6, '0')}`, created, lag);
    }
  };
};

/** Registrations of the `hours` before `START` (the last ones still invisible when the Zap is turned on). */
const history = (server: ScriptedServer, hours: number, perHour: number) => {
  const rng = new Rng(99);
  for (let i = 0; i < hours * perHour; i++) {
    server.add(`h_${String(i).padStart(5, '0')}`, START - 1 - rng.int(hours * HOUR), rng.int(2 * MINUTE + 1));
  }
};

const setup = (zapIds: Array<number | undefined> = [undefined]) => {
  clientNow = START;
  const server = new ScriptedServer();
  const cache = new FakeCache();
  const z = fakeZ(server, cache);
  const zaps = zapIds.map((id, i) => new Zap(`Zap ${'AB'[i] ?? i}`, z, undefined, id));
  return { server, cache, zaps };
};

/**
 * The Zap received every registration created from a day before it was turned on, and nothing that was
 * already visible when it was turned on ran it (older ones may be in its dedupe table or nowhere).
 */
const expectComplete = (server: ScriptedServer, zap: Zap, turnedOnAt = START) => {
  const expected = [...server.createdSince(turnedOnAt - DAY)];
  const missing = expected.filter((id) => !zap.seen.has(id));
  expect({ zap: zap.name, missing: missing.slice(0, 5), count: missing.length }).toEqual({
    zap: zap.name,
    missing: [],
    count: 0,
  });
  const existing = server.visibleAt(turnedOnAt);
  expect({ zap: zap.name, ranForOld: zap.triggered.filter((id) => existing.has(id)) }).toEqual({
    zap: zap.name,
    ranForOld: [],
  });
};

/** A line of the transfer report, against a stateless 24-hour window polled as often. */
const record = (name: string, server: ScriptedServer, perMinute: number) => {
  const polls = server.log.filter((entry) => entry.at > START);
  const items = polls.reduce((sum, entry) => sum + entry.items, 0) / polls.length;
  const kib = polls.reduce((sum, entry) => sum + entry.bytes, 0) / polls.length / 1024;
  const naive = 24 * 60 * perMinute;
  report.push(
    `  ${name.padEnd(42)} ${String(polls.length).padStart(5)} polls, ${items.toFixed(0).padStart(4)} items (${kib.toFixed(1).padStart(5)} KiB) a poll; a 24 h window: ~${naive.toFixed(0)} items (${(naive / items).toFixed(0)}x)`,
  );
};

describe('a day of polling every 5 minutes, about one registration a minute', () => {
  it.each(['exclusive', 'inclusive'] as const)(
    'misses nothing with an %s since boundary, shuffled answers and rows up to 2 min late',
    async (boundary) => {
      const { server, zaps } = setup();
      const [zap] = zaps as [Zap];
      server.boundary = boundary;
      history(server, 26, 30);
      await zap.turnOn();
      const before = server.requests;
      await play({
        server,
        schedules: [{ zap, everyMs: 5 * MINUTE }],
        from: START,
        to: START + DAY,
        arrive: steady(server, 1, 1),
      });
      expectComplete(server, zap);
      // Exactly one request a poll, plus one event lookup every 6 hours.
      expect(server.log.length - 1).toBe(zap.polls);
      expect(server.requests - before - zap.polls).toBe(server.eventRequests);
      expect(server.eventRequests).toBe(5);
      record(`steady, ${boundary} boundary`, server, 1);
    },
  );

  it('at steady state, each poll asks for its interval plus the 20-minute overlap, not a day', async () => {
    const { server, zaps } = setup();
    const [zap] = zaps as [Zap];
    await zap.turnOn();
    await play({
      server,
      schedules: [{ zap, everyMs: 5 * MINUTE }],
      from: START,
      to: START + 6 * HOUR,
      arrive: steady(server, 2, 3),
    });
    expectComplete(server, zap);
    // From the second poll on, while registrations keep coming (the play ends with 30 quiet minutes).
    const steadyPolls = server.log.filter(
      (entry) => entry.at >= START + 10 * MINUTE && entry.at <= START + 6 * HOUR,
    );
    expect(steadyPolls.length).toBeGreaterThan(70);
    // The overlap, the interval, and how much older than its poll the newest visible row could be.
    const widest = CURSOR_TIMING.overlapMs + 5 * MINUTE + CURSOR_TIMING.visibilityDelayMs + MINUTE;
    for (const { at, sinceMs } of steadyPolls) {
      expect(at - sinceMs).toBeGreaterThanOrEqual(CURSOR_TIMING.overlapMs);
      expect(at - sinceMs).toBeLessThanOrEqual(widest);
    }
    record('steady, 2 a minute (6 h)', server, 2);
  });
});

describe('the contract at its worst', () => {
  it('ties: bursts sharing one millisecond, half of them visible only 2 minutes later', async () => {
    const { server, zaps } = setup();
    const [zap] = zaps as [Zap];
    await zap.turnOn();
    let n = 0;
    const rng = new Rng(5);
    await play({
      server,
      schedules: [{ zap, everyMs: 5 * MINUTE }],
      from: START,
      to: START + DAY,
      arrive: (t) => {
        if (t % (7 * MINUTE) !== 0) return;
        const ms = t - 1 - rng.int(30_000);
        for (let i = 0; i < 6; i++)
          server.add(`tie_${String(n++).padStart(5, '0')}`, ms, i % 2 ? 2 * MINUTE : 0);
      },
    });
    expectComplete(server, zap);
    record('ties in one millisecond', server, 6 / 7);
  });

  it('late rows: every registration appears exactly 2 minutes after its createdAt', async () => {
    const { server, zaps } = setup();
    const [zap] = zaps as [Zap];
    await zap.turnOn();
    let n = 0;
    await play({
      server,
      schedules: [{ zap, everyMs: 5 * MINUTE }],
      from: START,
      to: START + DAY,
      arrive: (t) =>
        server.add(`late_${String(n++).padStart(5, '0')}`, t - 1, CURSOR_TIMING.visibilityDelayMs),
    });
    expectComplete(server, zap);
    record('every row 2 min late', server, 1);
  });

  it('a 3-hour outage (429, 500, timeouts, HTML error pages), then success', async () => {
    const { server, zaps } = setup();
    const [zap] = zaps as [Zap];
    await zap.turnOn();
    const kinds: Failure[] = ['429', '500', 'timeout', 'html'];
    const outage = (t: number) => t >= START + 8 * HOUR && t < START + 11 * HOUR;
    await play({
      server,
      schedules: [
        {
          zap,
          everyMs: 5 * MINUTE,
          fail: (t) => (outage(t) ? (kinds[(t / (5 * MINUTE)) % 4] ?? null) : null),
        },
      ],
      from: START,
      to: START + DAY,
      arrive: steady(server, 1, 11),
    });
    expect(zap.failures).toBe(36);
    expectComplete(server, zap);
    record('3-hour outage', server, 1);
  });

  it('a burst of 6,000 in two minutes is caught up over the next polls, oldest first, within the cap', async () => {
    const { server, zaps } = setup();
    const [zap] = zaps as [Zap];
    await zap.turnOn();
    const base = steady(server, 0.5, 13);
    let n = 0;
    await play({
      server,
      schedules: [{ zap, everyMs: 5 * MINUTE }],
      from: START,
      to: START + 6 * HOUR,
      arrive: (t) => {
        base(t);
        if (t !== START + 2 * HOUR && t !== START + 2 * HOUR + MINUTE) return;
        for (let i = 0; i < 3000; i++) server.add(`burst_${String(n++).padStart(5, '0')}`, t - 1 - (i % 50));
      },
    });
    expectComplete(server, zap);
    expect(zap.triggered.filter((id) => id.startsWith('burst_'))).toHaveLength(6000);
    // Rows made in the minutes before a poll are sent again once (they could have been late): one answer
    // carries them on top of the usual share of new ones.
    expect(zap.maxReturned).toBeLessThanOrEqual(CURSOR_TIMING.maxItems + CURSOR_TIMING.minNewItems);
    expect(zap.answers.filter((ids) => ids.length > 0).length).toBeGreaterThanOrEqual(3);
    // Oldest first: each poll after the burst ran the Zap only for rows newer than the previous one's.
    const burstPolls = zap.answers
      .map((ids) => ids.filter((id) => id.startsWith('burst_')).map((id) => server.createdMsOf(id)))
      .filter((times) => times.length > 0);
    expect(burstPolls.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < burstPolls.length; i++) {
      expect(Math.min(...(burstPolls[i] ?? []))).toBeGreaterThanOrEqual(
        Math.max(...(burstPolls[i - 1] ?? [])),
      );
    }
    record('burst of 6,000 (answers of 4,000 at most)', server, 0.5);
  });

  it('a burst of 6,000 whose rows show up over 2 minutes, while a poll runs, loses none', async () => {
    const { server, zaps } = setup();
    const [zap] = zaps as [Zap];
    await zap.turnOn();
    const base = steady(server, 0.5, 37);
    let n = 0;
    await play({
      server,
      schedules: [{ zap, everyMs: 5 * MINUTE }],
      from: START,
      to: START + 6 * HOUR,
      arrive: (t) => {
        base(t);
        if (t !== START + 2 * HOUR && t !== START + 2 * HOUR + MINUTE) return;
        // Created in the last minute, each visible up to 2 minutes later: the 2 h poll sees a part only.
        for (let i = 0; i < 3000; i++) {
          server.add(`burst_${String(n++).padStart(5, '0')}`, t - 1 - (i % 59) * 1000, (i % 121) * 1000);
        }
      },
    });
    expectComplete(server, zap);
    expect(zap.triggered.filter((id) => id.startsWith('burst_'))).toHaveLength(6000);
  });

  it("a lost answer (Zapier never got a poll's result) is repaired by the overlap", async () => {
    const { server, zaps } = setup();
    const [zap] = zaps as [Zap];
    await zap.turnOn();
    await play({
      server,
      schedules: [{ zap, everyMs: 5 * MINUTE, lose: (t) => t % (2 * HOUR) === 0 }],
      from: START,
      to: START + 12 * HOUR,
      arrive: steady(server, 1, 17),
    });
    expect(zap.lost).toBe(7);
    expectComplete(server, zap);
  });
});

describe('two Zaps of one account on the same event', () => {
  it.each([
    ['without Zap ids (one shared cursor)', [undefined, undefined]],
    ['with Zap ids (a cursor each)', [101, 202]],
  ] as const)(
    '%s: B polls every 15 min and fails for 3 hours while A succeeds every minute',
    async (_name, ids) => {
      const { server, zaps } = setup([...ids]);
      const [a, b] = zaps as [Zap, Zap];
      history(server, 10, 20);
      await a.turnOn();
      await b.turnOn();
      const outage = (t: number) => t >= START + 5 * HOUR && t < START + 8 * HOUR;
      await play({
        server,
        schedules: [
          { zap: a, everyMs: MINUTE },
          { zap: b, everyMs: 15 * MINUTE, offsetMs: 7 * MINUTE, fail: (t) => (outage(t) ? '500' : null) },
        ],
        from: START,
        to: START + 12 * HOUR,
        arrive: steady(server, 1, 19),
      });
      expect(b.failures).toBe(12);
      expectComplete(server, a);
      expectComplete(server, b);
    },
  );

  it('a Zap turned on weeks after the last registration runs for nothing old', async () => {
    const { server, zaps } = setup([undefined, undefined]);
    const [a, b] = zaps as [Zap, Zap];
    // A was turned on when the event's last registrations came in, three weeks ago: its cursor is that old.
    const then = START - 21 * DAY;
    server.add('old_1', then - 2 * HOUR);
    server.add('old_2', then - HOUR);
    server.now = then;
    clientNow = then;
    await a.turnOn();
    await play({ server, schedules: [{ zap: a, everyMs: 5 * MINUTE }], from: then, to: then + HOUR });
    expect(a.seen).toEqual(new Set(['old_1', 'old_2']));

    server.now = START;
    clientNow = START;
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

describe('the client side', () => {
  it.each([14, -14])(
    'a client clock %i minutes off the server misses nothing, even when the cursor is lost',
    async (minutes) => {
      const { server, cache, zaps } = setup();
      const [zap] = zaps as [Zap];
      history(server, 26, 30);
      clientNow = START + minutes * MINUTE;
      await zap.turnOn();
      await play({
        server,
        schedules: [{ zap, everyMs: 5 * MINUTE }],
        from: START,
        to: START + DAY,
        skewMs: minutes * MINUTE,
        arrive: steady(server, 1, 29),
        tick: (t) => {
          if ((t - START) % (6 * HOUR) === 3 * HOUR) cache.evict();
        },
      });
      expectComplete(server, zap);
    },
  );

  it('a busy event whose cursor is evicted walks its day oldest first and is back to steady within 3 polls', async () => {
    const { server, cache, zaps } = setup();
    const [zap] = zaps as [Zap];
    history(server, 24, 300);
    await zap.turnOn();
    const evictAt = START + 2 * HOUR;
    await play({
      server,
      schedules: [{ zap, everyMs: 5 * MINUTE }],
      from: START,
      to: START + 3 * HOUR,
      arrive: steady(server, 5, 41),
      tick: (t) => {
        if (t === evictAt) cache.evict();
      },
    });
    expectComplete(server, zap);
    const after = server.log.filter((entry) => entry.at >= evictAt);
    // The walk: 7,800 rows of the last day at 4,000 a poll, then the usual window again.
    expect(after.slice(0, 2).map((entry) => entry.at - entry.sinceMs > 23 * HOUR)).toEqual([true, false]);
    expect(after[2]?.items).toBeLessThan(300);
    // Every registration made after the eviction reached the Zap within 3 polls (15 minutes).
    const made = [...server.createdSince(evictAt)];
    const answersAfter = zap.answers.slice(-after.length);
    const deliveredBy = new Map<string, number>();
    answersAfter.forEach((ids, i) => ids.forEach((id) => deliveredBy.set(id, i)));
    const lateness = made.map((id) => deliveredBy.get(id) ?? 99);
    expect(Math.max(...lateness.slice(0, 30))).toBeLessThanOrEqual(3);
  });

  it('an evicted cache (every 2 hours) and a broken one (for an hour) fall back to the wide window', async () => {
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
    const wide = server.log.filter((entry) => entry.at > START && entry.at - entry.sinceMs > 23 * HOUR);
    // The first poll after each of the 12 evictions, and the 12 polls while the cache was broken.
    expect(wide.length).toBe(24);
    record('evicted every 2 h, broken for 1 h', server, 1);
  });
});
