/**
 * The cursor suite (play in suitePlay.ts). Whole days of polling: the kept entry at steady state and over its cap.
 */
import {
  CURSOR_TIMING,
  DAY,
  expectComplete,
  HOUR,
  keptPolls,
  largestKept,
  MINUTE,
  play,
  record,
  report,
  setup,
  START,
  steady,
  fiveAndFifteen,
} from './suitePlay';
import { ScriptedServer, Zap } from './harness';

describe('the kept entry is capped: beyond it, it keeps its newest records', () => {
  it('at 1,000 registrations an hour the kept entry stays under 1 MB and every steady poll uses it', async () => {
    const { server, cache, zaps } = setup();
    const [zap] = zaps as [Zap];
    await zap.turnOn();
    await play({
      server,
      schedules: [{ zap, everyMs: 5 * MINUTE }],
      from: START,
      to: START + 3 * HOUR,
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
      schedules: fiveAndFifteen(a, b, 4),
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
