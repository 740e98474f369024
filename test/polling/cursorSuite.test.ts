/**
 * The cursor suite: whole days of polling of New Form Submission against a scripted server that behaves as
 * badly as the contract allows. Every scenario asserts that each Zap received every registration created
 * (the ids ever returned to it, whether into its dedupe table or as runs, equal the set created), that
 * nothing which existed when the Zap was turned on ran it, and counts what was transferred.
 */
import { POLL_TIMINGS as CURSOR_TIMING, type PollTimings } from '../../src/polling';
import {
  EVENT_ID,
  FakeCache,
  type Failure,
  HOUR,
  MINUTE,
  Rng,
  START,
  ScriptedServer,
  Zap,
  fakeZ,
  logLines,
  performWith,
} from './harness';

const DAY = 24 * HOUR;

interface Schedule {
  zap: Zap;
  everyMs: number;
  offsetMs?: number;
  /** Explicit poll times instead of `everyMs` (a Zap that Zapier runs late). */
  at?: Set<number>;
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
  /** Runs before every poll (a cache emptied before each one). */
  beforePoll?: () => void;
  /** Polls due in the same minute run at the same time (their reads and writes of the cache interleave). */
  together?: boolean;
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

/** Plays minute by minute from `from` to `to`, then 60 quiet minutes so that every late row and Zap shows up. */
const play = async (p: Play) => {
  for (let t = p.from; t <= p.to + 60 * MINUTE; t += MINUTE) {
    p.server.now = t;
    clientNow = t + (p.skewMs ?? 0);
    if (t > p.from && t <= p.to) p.arrive?.(t);
    p.tick?.(t);
    const due = p.schedules.filter((s) =>
      s.at ? s.at.has(t) : (t - p.from - (s.offsetMs ?? 0)) % s.everyMs === 0,
    );
    if (p.together) {
      await Promise.all(due.map((s) => s.zap.poll()));
      continue;
    }
    for (const s of due) {
      p.beforePoll?.();
      p.server.failNextRequest(s.fail?.(t) ?? null);
      await s.zap.poll({ lose: s.lose?.(t) ?? false });
    }
  }
};

/**
 * Poll times of a Zap polled every `everyMs` whose every poll Zapier may start up to `maxDelayMs` late: the
 * gap between two polls is the interval plus a delay (deterministic), up to 45 minutes.
 */
const delayedTimes = (from: number, to: number, everyMs: number, maxDelayMs: number, seed: number) => {
  const rng = new Rng(seed);
  const times = new Set<number>();
  for (let t = from; t <= to + 60 * MINUTE; ) {
    times.add(t);
    t += everyMs + (rng.next() < 0.3 ? maxDelayMs : rng.int(maxDelayMs / MINUTE + 1) * MINUTE);
  }
  return times;
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

const setup = (count = 1, timings?: PollTimings) => {
  clientNow = START;
  const server = new ScriptedServer();
  const cache = new FakeCache();
  const z = fakeZ(server, cache);
  const perform = performWith(timings);
  const zaps = Array.from(
    { length: count },
    (_, i) => new Zap(`Zap ${'ABCD'[i] ?? i}`, z, { eventId: EVENT_ID }, perform),
  );
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

  it('at steady state, each poll reads only its interval, the visibility delay and the settle margin', async () => {
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
    // Once the first poll has kept what it read, while registrations keep coming.
    const steadyPolls = server.log.filter((entry) => entry.at > START && entry.at <= START + 6 * HOUR);
    expect(steadyPolls.length).toBe(72);
    const { visibilityDelayMs, settleMarginMs } = CURSOR_TIMING;
    for (const { at, sinceMs } of steadyPolls) {
      // The previous poll's answer (5 minutes ago) minus the delay and the margin, and the millisecond that
      // makes either boundary right.
      expect(at - sinceMs).toBe(5 * MINUTE + visibilityDelayMs + settleMarginMs + 1);
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

  it('a burst larger than one answer drains oldest first over a few polls, and both Zaps get all of it', async () => {
    // One answer carries about 1,000 of these registrations here (6 MiB, about 5,000 full ones, in production).
    const { server, zaps } = setup(2, { ...CURSOR_TIMING, answerBudgetBytes: 500_000 });
    const [a, b] = zaps as [Zap, Zap];
    await a.turnOn();
    await b.turnOn();
    const base = steady(server, 0.5, 13);
    let n = 0;
    const burst = START + 2 * HOUR;
    await play({
      server,
      schedules: [
        { zap: a, everyMs: 5 * MINUTE },
        { zap: b, everyMs: 15 * MINUTE, offsetMs: 3 * MINUTE },
      ],
      from: START,
      to: START + 6 * HOUR,
      arrive: (t) => {
        base(t);
        if (t < burst || t > burst + 2 * MINUTE) return;
        for (let i = 0; i < 1000; i++) {
          server.add(`burst_${String(n++).padStart(5, '0')}`, t - 1 - (i % 50), 0, 'approved', true);
        }
      },
    });
    for (const zap of [a, b]) {
      expectComplete(server, zap);
      expect(zap.triggered.filter((id) => id.startsWith('burst_'))).toHaveLength(3000);
      expect(zap.maxReturned).toBeLessThan(1100);
    }
    // The burst reached A over several polls, oldest first: its first part was the oldest rows. (Rows that
    // B's polls were first to return reach A later, returned again once the burst is drained.)
    const burstPolls = a.answers
      .map((ids) => ids.filter((id) => id.startsWith('burst_')).map((id) => server.createdMsOf(id)))
      .filter((times) => times.length > 0);
    expect(burstPolls.length).toBeGreaterThanOrEqual(3);
    const all = burstPolls.flat();
    expect(Math.min(...(burstPolls[0] ?? []))).toBe(Math.min(...all));
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
          server.add(
            `burst_${String(n++).padStart(5, '0')}`,
            t - 1 - (i % 59) * 1000,
            (i % 121) * 1000,
            'approved',
            true,
          );
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

  it('odd records: a bad optional field is delivered empty, a record without id or createdAt is skipped', async () => {
    const { server, zaps } = setup(2);
    const [a, b] = zaps as [Zap, Zap];
    await a.turnOn();
    await b.turnOn();
    logLines.length = 0;
    const arrive = steady(server, BUSY, 21);
    const odd = ['odd_approved', 'odd_number', 'odd_answer'];
    await play({
      server,
      schedules: [
        { zap: a, everyMs: 5 * MINUTE },
        { zap: b, everyMs: 15 * MINUTE, offsetMs: 7 * MINUTE },
      ],
      from: START,
      to: START + 6 * HOUR,
      arrive: (t) => {
        arrive(t);
        if (t === START + 2 * HOUR) {
          server.add(odd[0]!, t - 1, 0, 'approved', false, { approvedAt: '' });
          server.add(odd[1]!, t - 2, 0, 'approved', false, { approvedAt: 1764590400 });
          server.add(odd[2]!, t - 3, 0, 'approved', false, {
            answers: [{ key: 'company', label: 'Company', value: 'Acme' }, { key: 42 }],
          });
          server.addUnusable({ submissionId: 'no_created_at', eventId: 'evt', status: 'approved' }, t);
          server.addUnusable({ eventId: 'evt', status: 'approved', createdAt: new Date(t).toISOString() }, t);
          server.addUnusable('not a record', t);
        }
      },
    });
    for (const zap of [a, b]) {
      // Every poll succeeded: the odd records never failed a list.
      expect({ zap: zap.name, failures: zap.failures }).toEqual({ zap: zap.name, failures: 0 });
      expectComplete(server, zap);
      for (const id of odd) expect(zap.items.get(id)).toBeDefined();
      expect(zap.items.get('odd_approved')?.approvedAt).toBeNull();
      expect(zap.items.get('odd_number')?.approvedAt).toBeNull();
      expect(zap.items.get('odd_answer')?.answers__company).toBe('Acme');
      expect(zap.seen.has('no_created_at')).toBe(false);
    }
    const log = logLines.join('\n');
    expect(log).toContain('registration "odd_approved" kept without approvedAt');
    expect(log).toContain('registration "no_created_at"');
    expect(log).toMatch(/item \d+ skipped: its submissionId is missing or unusable/);
    expect(log).toMatch(/item \d+ skipped: it is a string, not an object/);
  });
});

/** About 20,000 registrations a day. */
const BUSY = 20_000 / (24 * 60);

/** Polls whose window is the stateless one (no state was read). */
const statelessPolls = (server: ScriptedServer, skewMs = 0) =>
  server.log.filter(
    (entry) => entry.at >= START && entry.at + skewMs - entry.sinceMs === CURSOR_TIMING.statelessMs + 1,
  );

describe('several Zaps of one account on the same event (Zapier cannot tell them apart: one stream)', () => {
  it('B polls every 15 min and fails for 3 hours while A succeeds every minute', async () => {
    const { server, zaps } = setup(2);
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
    const to = START + 4 * HOUR;
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
      schedules: [
        { zap: a, everyMs: 5 * MINUTE },
        { zap: b, everyMs: 15 * MINUTE, offsetMs: 3 * MINUTE },
      ],
      from: START,
      to: START + 3 * HOUR,
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
          at: delayedTimes(START + 7 * MINUTE, START + 3 * HOUR, 15 * MINUTE, 30 * MINUTE, 61),
        },
      ],
      from: START,
      to: START + 3 * HOUR,
      arrive: steady(server, BUSY, 67),
      beforePoll: () => cache.evict(),
    });
    expectComplete(server, a);
    expectComplete(server, b);
    expect(statelessPolls(server).length).toBe(a.polls + b.polls);
  });

  it('a state lost once: one stateless poll creates it again, then the windows are back to the hold', async () => {
    const { server, cache, zaps } = setup(2);
    const [a, b] = zaps as [Zap, Zap];
    history(server, 26, 300);
    await a.turnOn();
    await b.turnOn();
    const lostAt = START + HOUR;
    await play({
      server,
      schedules: [
        { zap: a, everyMs: 5 * MINUTE },
        { zap: b, everyMs: 15 * MINUTE, offsetMs: 3 * MINUTE },
      ],
      from: START,
      to: START + 4 * HOUR,
      arrive: steady(server, BUSY, 71),
      tick: (t) => {
        if (t === lostAt) cache.evict();
      },
    });
    expectComplete(server, a);
    expectComplete(server, b);
    // The first poll of the day and the first after the loss.
    expect(statelessPolls(server).map((entry) => entry.at)).toEqual([START, lostAt]);
    const { holdMs, visibilityDelayMs, marginMs } = CURSOR_TIMING;
    const later = server.log.filter((entry) => entry.at >= lostAt + 2 * holdMs);
    expect(later.length).toBeGreaterThan(30);
    for (const { at, sinceMs } of later) {
      expect(at - sinceMs).toBeLessThanOrEqual(holdMs + visibilityDelayMs + marginMs + 6 * MINUTE);
    }
    record('state lost once, 20,000 a day', server, BUSY);
  });

  it.each([14, -14])(
    'a client clock %i minutes off the server misses nothing, even when the state is lost',
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

  it('an evicted cache (every 2 hours) and a broken one (for an hour) fall back to the stateless window', async () => {
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
    // The first poll; the first after each eviction outside the broken hour (12, the last in the quiet hour
    // after the day); the 12 polls while the cache was broken (the eviction at 15 h falls in that hour); and
    // the first poll after it.
    expect(statelessPolls(server).length).toBe(1 + 12 + 12 + 1);
    record('evicted every 2 h, broken for 1 h', server, 1);
  });
});

/** Ids of the Zap's poll times: every `everyMs` from `from`, with one gap of `gapMs` starting at `heldAt`. */
const heldTimes = (from: number, to: number, everyMs: number, heldAt: number, gapMs: number) => {
  const times = new Set<number>();
  for (let t = from; t <= to + 60 * MINUTE; t += t === heldAt ? gapMs : everyMs) times.add(t);
  return times;
};

/** The largest kept entry written, in characters of JSON. */
const largestKept = (cache: FakeCache) =>
  Math.max(0, ...[...cache.largest].filter(([key]) => key.endsWith(':kept')).map(([, size]) => size));

/** Polls that read the service only after the newest settled point (a kept-records poll every `everyMs`). */
const keptPolls = (server: ScriptedServer, everyMs: number) =>
  server.log.filter(
    (entry) =>
      entry.at - entry.sinceMs <=
      everyMs + CURSOR_TIMING.visibilityDelayMs + CURSOR_TIMING.settleMarginMs + 1,
  );

describe('a Zap that Zapier holds while another Zap of the stream keeps polling', () => {
  it('one Zap held 2 hours past its 15-minute interval misses nothing while the cache works', async () => {
    const { server, cache, zaps } = setup(2);
    const [a, b] = zaps as [Zap, Zap];
    history(server, 26, 30);
    await a.turnOn();
    await b.turnOn();
    const to = START + 6 * HOUR;
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
    async (_, fail) => {
      const { server, cache, zaps } = setup(2);
      const [a, b] = zaps as [Zap, Zap];
      fail(cache);
      history(server, 26, 30);
      await a.turnOn();
      await b.turnOn();
      const to = START + 4 * HOUR;
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
      // Every poll read the stateless window.
      expect(statelessPolls(server).length).toBe(a.polls + b.polls);
    },
  );
});

describe('polls of one stream at the same moment', () => {
  it('overwrite each other’s kept entry (the last write wins) and lose nothing, with a Zap held 2 hours', async () => {
    const { server, cache, zaps } = setup(3);
    const [a, b, c] = zaps as [Zap, Zap, Zap];
    for (const zap of zaps) await zap.turnOn();
    const to = START + 6 * HOUR;
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

describe('the kept entry is capped: beyond it, it keeps its newest records', () => {
  it('at 1,000 registrations an hour the kept entry stays under 1 MB and every steady poll uses it', async () => {
    const { server, cache, zaps } = setup();
    const [zap] = zaps as [Zap];
    await zap.turnOn();
    await play({
      server,
      schedules: [{ zap, everyMs: 5 * MINUTE }],
      from: START,
      to: START + 4 * HOUR,
      arrive: steady(server, 1000 / 60, 107),
    });
    expectComplete(server, zap);
    expect(CURSOR_TIMING.keptCapBytes).toBe(1_000_000);
    expect(largestKept(cache)).toBeGreaterThan(0);
    expect(largestKept(cache)).toBeLessThan(CURSOR_TIMING.keptCapBytes);
    // Every poll but the first (and the one turning the Zap on).
    expect(keptPolls(server, 5 * MINUTE).length).toBe(server.log.length - 2);
    record('1,000 an hour, kept entry under 1 MB', server, 1000 / 60);
    report.push(
      `    (its largest kept entry: ${(largestKept(cache) / 1024).toFixed(0)} KiB of compressed text)`,
    );
  });

  // A cap that a burst of 2,000 exceeds while the steady traffic fits in it.
  const capped = { ...CURSOR_TIMING, keptCapBytes: 12_000 };
  const burst = START + 2 * HOUR;
  const withBurst = (server: ScriptedServer) => {
    const base = steady(server, 0.5, 109);
    let n = 0;
    return (t: number) => {
      base(t);
      if (t !== burst) return;
      for (let i = 0; i < 2000; i++) {
        server.add(`burst_${String(n++).padStart(5, '0')}`, t - 1 - (i % 50), (i % 121) * 1000);
      }
    };
  };

  it('an entry over its cap keeps its newest records: a Zap polling on time misses nothing, and no poll reads its window again', async () => {
    const { server, cache, zaps } = setup(1, capped);
    const [a] = zaps as [Zap];
    await a.turnOn();
    await play({
      server,
      schedules: [{ zap: a, everyMs: 5 * MINUTE }],
      from: START,
      to: START + 6 * HOUR,
      arrive: withBurst(server),
    });
    expectComplete(server, a);
    expect(a.triggered.filter((id) => id.startsWith('burst_'))).toHaveLength(2000);
    // No entry was written over the cap (its JSON adds the expiry and quotes to the compressed text), and
    // the entry was at its cap: it shed records.
    expect(largestKept(cache)).toBeLessThanOrEqual(12_000 + 40);
    expect(largestKept(cache)).toBeGreaterThan(8_000);
    // Every poll after the first read only after the kept entry's settled point, the burst's included.
    expect(keptPolls(server, 5 * MINUTE).length).toBe(server.log.length - 2);
  });

  it('with two Zaps on the stream, each burst registration reaches the Zap whose poll returned it first', async () => {
    const { server, zaps } = setup(2, capped);
    const [a, b] = zaps as [Zap, Zap];
    await a.turnOn();
    await b.turnOn();
    await play({
      server,
      schedules: [
        { zap: a, everyMs: 5 * MINUTE },
        { zap: b, everyMs: 15 * MINUTE, offsetMs: 4 * MINUTE },
      ],
      from: START,
      to: START + 6 * HOUR,
      arrive: withBurst(server),
    });
    // Every registration reached a Zap; those outside the burst (the entry keeps them) reached both. What
    // one Zap's poll returned first and the entry shed while owed does not reach the other (see cursor.ts).
    const all = [...server.createdSince(START - DAY)];
    expect(all.filter((id) => !a.seen.has(id) && !b.seen.has(id))).toEqual([]);
    for (const zap of [a, b])
      expect(all.filter((id) => !id.startsWith('burst_') && !zap.seen.has(id))).toEqual([]);
    expect(keptPolls(server, 15 * MINUTE).length).toBe(server.log.length - 3);
  });
});
