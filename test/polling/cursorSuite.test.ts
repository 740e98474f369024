/**
 * The cursor suite (play in suitePlay.ts). Whole days of polling and hours of the contract at its worst (ties, late rows, outages, bursts, odd records).
 */
import {
  CURSOR_TIMING,
  DAY,
  expectComplete,
  history,
  HOUR,
  logLines,
  MINUTE,
  play,
  record,
  Rng,
  setup,
  START,
  steady,
  fiveAndFifteen,
} from './suitePlay';
import { Zap } from './harness';
import type { Failure } from './harness';

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
      to: START + 6 * HOUR,
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
      to: START + 6 * HOUR,
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
    const outage = (t: number) => t >= START + 2 * HOUR && t < START + 5 * HOUR;
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
      to: START + 7 * HOUR,
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
      schedules: fiveAndFifteen(a, b),
      from: START,
      to: START + 4 * HOUR,
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
      to: START + 4 * HOUR,
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
    const arrive = steady(server, 2, 21);
    const odd = ['odd_approved', 'odd_number', 'odd_answer'];
    for (const zap of [a, b]) for (const id of odd) zap.watched.add(id);
    await play({
      server,
      schedules: fiveAndFifteen(a, b, 7),
      from: START,
      to: START + 4 * HOUR,
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
