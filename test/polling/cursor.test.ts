import fc from 'fast-check';
import { POLL_TIMINGS as CURSOR_TIMING, pollTimings } from '../../src/polling';
import {
  type Checkpoint,
  type CursorState,
  CursorStateSchema,
  storedState,
  anchorOf as anchorAt,
  planPoll as planAt,
  withCheckpoint as withCheckpointAt,
} from '../../src/polling/state';
import type { Entry } from '../../src/polling/entry';
import { selectEntries as selectWithin } from '../../src/polling/window';
import { MAX_DEDUPE_ITEMS } from '../../src/triggers/common/polling';

/** A stored state read back through its schema, or `null` for anything that is not one. */
const parseState = (value: unknown): CursorState | null => {
  const parsed = CursorStateSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
};

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const NOW = Date.parse('2026-11-22T10:00:00.000Z');
const { holdMs, statelessMs, lookbackMs, seedMs, clockSkewMs, keptMs, settleMs } = CURSOR_TIMING;
/** How far back a poll without its kept entry reads: as far as the entry keeps. */
const keptReach = keptMs + settleMs;

const pos = (ms: number, id = '') => ({ ms, id });

// The room's functions with the app's timings.
const anchorOf = (st: CursorState | null, now: number) => anchorAt(st, now, CURSOR_TIMING);
const planPoll = (
  kind: 'poll' | 'dedupe',
  st: CursorState | null,
  now: number,
  kept: { settled: { ms: number; id: string } } | null = null,
  forgotten = false,
) => planAt(kind, st, now, kept?.settled ?? null, CURSOR_TIMING, forgotten);
const selectEntries = <R>(
  all: Entry<R>[],
  kind: 'poll' | 'dedupe',
  mode: 'stateful' | 'stateless',
  budget: number,
) => selectWithin(all, kind, mode, CURSOR_TIMING, budget);
const withCheckpoint = (cps: Checkpoint[], added: Checkpoint[], now: number) =>
  withCheckpointAt(cps, added, now, CURSOR_TIMING);

const state = (
  checkpoints: Checkpoint[],
  extra: Partial<Pick<CursorState, 'base' | 'floor' | 'offset'>> = {},
): CursorState => ({ checkpoints, base: null, floor: null, offset: 0, ...extra });

const entries = (times: number[], bytes = 1): Entry<string>[] =>
  times.map((ms, i) => ({ record: `r${i}`, ms, id: `sub_${String(i).padStart(5, '0')}`, bytes }));

describe('the timing', () => {
  it('holds every record longer than the longest gap between two polls of one Zap', () => {
    expect(holdMs).toBeGreaterThanOrEqual(
      CURSOR_TIMING.longestIntervalMs + CURSOR_TIMING.longestDelayMs + 5 * MINUTE,
    );
    // Without a cache, a Zap may go an hour without a poll (whatever the skew).
    expect(CURSOR_TIMING.statelessHoldMs).toBeGreaterThanOrEqual(HOUR);
    expect(statelessMs).toBe(
      CURSOR_TIMING.statelessHoldMs +
        CURSOR_TIMING.visibilityDelayMs +
        CURSOR_TIMING.marginMs +
        CURSOR_TIMING.clockSkewMs,
    );
    // With it, a Zap polled every 15 minutes may be held 2 hours: the kept records outlast that.
    expect(CURSOR_TIMING.keptMs).toBeGreaterThanOrEqual(2 * HOUR + CURSOR_TIMING.longestIntervalMs);
    expect(CURSOR_TIMING.keptTtlSeconds * 1000).toBeGreaterThan(CURSOR_TIMING.keptMs);
    // A Zap being turned on covers every later poll's window, whatever the skew.
    expect(seedMs - lookbackMs).toBe(2 * clockSkewMs);
  });

  it('computes the figures that depend on each other from the facts they are made of', () => {
    expect([holdMs, statelessMs, CURSOR_TIMING.keptMs].map((ms) => ms / MINUTE)).toEqual([50, 80, 150]);
    // A slower Zapier (20-minute polls, an hour late) moves every figure made of it.
    const slower = pollTimings({ longestIntervalMs: 20 * MINUTE, longestDelayMs: HOUR });
    expect(slower.holdMs).toBe(20 * MINUTE + HOUR + 5 * MINUTE);
    expect(slower.keptMs).toBe(2 * HOUR + 40 * MINUTE);
    expect(slower.keptTtlSeconds * 1000).toBeGreaterThan(slower.keptMs);
    // An answer stays under core's 6 MiB, in UTF-8 bytes.
    expect(CURSOR_TIMING.answerBudgetBytes).toBeLessThan(6 * 1024 * 1024);
    expect(Object.isFrozen(CURSOR_TIMING)).toBe(true);
  });
});

describe('anchorOf', () => {
  const checkpoints = [
    { answeredBy: NOW - 70 * MINUTE, pos: pos(NOW - 75 * MINUTE) },
    { answeredBy: NOW - 55 * MINUTE, pos: pos(NOW - 60 * MINUTE) },
    { answeredBy: NOW - 45 * MINUTE, pos: pos(NOW - 50 * MINUTE) },
  ];

  it('is the newest checkpoint answered more than the hold ago, on the service clock', () => {
    expect(anchorOf(state(checkpoints), NOW)).toEqual(checkpoints[1]);
    // The client clock runs 10 minutes ahead of the service's: the same moment.
    expect(anchorOf(state(checkpoints, { offset: 10 * MINUTE }), NOW + 10 * MINUTE)).toEqual(checkpoints[1]);
    expect(anchorOf(state(checkpoints.slice(2)), NOW)).toBeNull();
  });

  it('without a measured offset assumes the whole skew: an older anchor', () => {
    expect(anchorOf(state(checkpoints, { offset: null }), NOW)).toEqual(checkpoints[0]);
  });
});

describe('planPoll', () => {
  it('without its kept entry, reads back as far as the entry keeps (not only to the anchor), never before the base', () => {
    const anchor = { answeredBy: NOW - 51 * MINUTE, pos: pos(NOW - 56 * MINUTE, 'sub_7') };
    const checkpoints = [anchor, { answeredBy: NOW - MINUTE, pos: pos(NOW - 6 * MINUTE) }];
    const plan = planPoll('poll', state(checkpoints), NOW);
    // What the newest checkpoint returned is returned again only in what the new records leave, kept again
    // by when the checkpoints say it was returned (the anchor: every Zap on time had what is before it).
    expect(keptReach).toBe(152 * MINUTE + 1_000);
    expect(plan).toEqual({
      since: NOW - keptReach - 1,
      after: pos(NOW - keptReach),
      mode: 'stateful',
      returned: pos(NOW - 6 * MINUTE),
      anchor: anchor.pos,
      returnedBy: checkpoints,
    });
    const young = planPoll('poll', state(checkpoints, { base: pos(NOW - 100 * MINUTE) }), NOW);
    expect(young).toMatchObject({ since: NOW - 100 * MINUTE - 1, anchor: anchor.pos });
    const anchoredBeforeBase = planPoll('poll', state(checkpoints, { base: pos(NOW - 50 * MINUTE) }), NOW);
    expect(anchoredBeforeBase.since).toBe(NOW - 56 * MINUTE - 1);
  });

  it('before any anchor, reads from the base of the state', () => {
    const plan = planPoll(
      'poll',
      state([{ answeredBy: NOW - 20 * MINUTE, pos: pos(NOW - 25 * MINUTE) }], {
        base: pos(NOW - 90 * MINUTE),
      }),
      NOW,
    );
    expect(plan).toEqual({
      since: NOW - 90 * MINUTE - 1,
      after: pos(NOW - 90 * MINUTE),
      mode: 'stateful',
      returned: pos(NOW - 25 * MINUTE),
      returnedBy: [{ answeredBy: NOW - 20 * MINUTE, pos: pos(NOW - 25 * MINUTE) }],
    });
  });

  it('with kept records, reads only after their settled position (or the floor of a failed poll)', () => {
    const kept = { settled: pos(NOW - 8 * MINUTE, 'sub_9') };
    const anchor = { answeredBy: NOW - 51 * MINUTE, pos: pos(NOW - 56 * MINUTE) };
    expect(planPoll('poll', state([anchor]), NOW, kept)).toEqual({
      since: NOW - 8 * MINUTE - 1,
      after: kept.settled,
      mode: 'kept',
    });
    const floor = { ms: NOW - 3 * HOUR, until: NOW + MINUTE };
    expect(planPoll('poll', state([anchor], { floor }), NOW, kept)).toMatchObject({
      since: NOW - 3 * HOUR - 1,
      mode: 'kept',
    });
    // A Zap being turned on never reads kept records.
    expect(planPoll('dedupe', null, NOW, kept).mode).toBe('stateless');
  });

  it('without a state (or one with nothing known), is stateless: the last 80 minutes', () => {
    expect(statelessMs).toBe(80 * MINUTE);
    expect(planPoll('poll', null, NOW)).toEqual({
      since: NOW - statelessMs - 1,
      after: pos(NOW - statelessMs),
      mode: 'stateless',
    });
    const failedOnly = state([], { floor: { ms: NOW - 3 * HOUR, until: NOW + MINUTE } });
    expect(planPoll('poll', failedOnly, NOW)).toMatchObject({ since: NOW - 3 * HOUR - 1, mode: 'stateless' });
  });

  it('a forgotten stream (the cache answered, holding nothing) reads as far back as the kept entry keeps', () => {
    expect(planPoll('poll', null, NOW, null, true)).toEqual({
      since: NOW - keptReach - 1,
      after: pos(NOW - keptReach),
      mode: 'stateless',
      forgotten: true,
    });
    // A cache that failed is not a forgotten stream: the stateless window.
    expect(planPoll('poll', null, NOW, null, false).since).toBe(NOW - statelessMs - 1);
  });

  it('keeps a failed poll’s window while the floor holds, and forgets it after', () => {
    const anchor = { answeredBy: NOW - 51 * MINUTE, pos: pos(NOW - 56 * MINUTE) };
    const floor = { ms: NOW - 3 * HOUR, until: NOW + MINUTE };
    expect(planPoll('poll', state([anchor], { floor }), NOW).since).toBe(NOW - 3 * HOUR - 1);
    expect(planPoll('poll', state([anchor], { floor }), NOW + 2 * MINUTE).since).toBe(
      NOW + 2 * MINUTE - keptReach - 1,
    );
  });

  it('never reads past the lookback (an old anchor or floor cannot reach past the dedupe table)', () => {
    const old = { answeredBy: NOW - 21 * 24 * HOUR, pos: pos(NOW - 21 * 24 * HOUR) };
    expect(planPoll('poll', state([old]), NOW).since).toBe(NOW - lookbackMs - 1);
    const floor = { ms: NOW - 48 * HOUR, until: NOW + HOUR };
    expect(planPoll('poll', state([], { floor, base: pos(NOW) }), NOW).since).toBe(NOW - lookbackMs - 1);
  });

  it('never starts after what the app’s own clock says was visible (a position from a clock ahead)', () => {
    const ahead = { settled: pos(NOW + 24 * HOUR, 'sub_z') };
    const trusted = NOW - CURSOR_TIMING.visibilityDelayMs - CURSOR_TIMING.settleMarginMs;
    expect(planPoll('poll', null, NOW, ahead)).toMatchObject({ since: trusted - 1, mode: 'kept' });
    const future = { answeredBy: NOW - 51 * MINUTE, pos: pos(NOW + HOUR) };
    expect(planPoll('poll', state([future]), NOW).since).toBe(NOW - keptReach - 1);
    const futureBase = state([future], { base: pos(NOW + HOUR) });
    expect(planPoll('poll', futureBase, NOW).since).toBe(trusted - 1);
  });

  it('a Zap being turned on reads the widest window, whatever the state', () => {
    expect(planPoll('dedupe', state([]), NOW).since).toBe(NOW - seedMs);
    expect(planPoll('dedupe', null, NOW).since).toBe(NOW - 24 * HOUR - 45 * MINUTE);
  });
});

describe('selectEntries', () => {
  it('returns everything within the budget', () => {
    const all = entries([1, 2, 3, 4, 5, 6]);
    expect(selectEntries(all, 'poll', 'stateful', 6)).toEqual({
      selected: all,
      lastReturned: null,
      lastLeft: null,
    });
    expect(selectEntries(all, 'poll', 'stateless', 6)).toEqual({
      selected: all,
      lastReturned: null,
      lastLeft: null,
    });
  });

  it('a stateful poll returns the oldest run within the budget and says where it stopped', () => {
    const all = entries([1, 2, 3, 4, 5, 6], 10);
    const { selected, lastReturned } = selectEntries(all, 'poll', 'stateful', 35);
    expect(selected.map((e) => e.ms)).toEqual([1, 2, 3]);
    expect(lastReturned).toEqual({ ms: 3, id: 'sub_00002' });
  });

  it('a stateless poll returns the newest run within the budget and says what it left', () => {
    const all = entries([1, 2, 3, 4, 5, 6], 10);
    const { selected, lastLeft } = selectEntries(all, 'poll', 'stateless', 35);
    expect(selected.map((e) => e.ms)).toEqual([4, 5, 6]);
    expect(lastLeft).toEqual({ ms: 3, id: 'sub_00002' });
  });

  it('returns one record even when it alone is over the budget', () => {
    expect(selectEntries(entries([1, 2], 100), 'poll', 'stateful', 10).selected).toHaveLength(1);
  });

  it('a record arriving after a larger one was cut cannot fill the gap: the run stays contiguous', () => {
    // Oldest first: 1 (5 bytes), 2 (8 bytes), 3 (1 byte); budget 10. Read in the order 1, 2, 3.
    const [a, b, c] = [
      { ...entries([1])[0]!, bytes: 5 },
      { ...entries([2])[0]!, id: 'b', bytes: 8 },
      { ...entries([3])[0]!, id: 'c', bytes: 1 },
    ];
    const { selected, lastReturned } = selectEntries([a, b, c], 'poll', 'stateful', 10);
    expect(selected).toEqual([a]);
    expect(lastReturned).toEqual({ ms: 1, id: a.id });
  });

  it('reads the records in any order and keeps the same run as from the sorted window (property)', () => {
    // The answer streams by in the service's order (none is defined): the run must not depend on it.
    const reference = (sorted: Entry<string>[], fromOldest: boolean, budget: number) => {
      const ordered = fromOldest ? sorted : [...sorted].reverse();
      let total = 0;
      let count = 0;
      while (count < ordered.length && (count === 0 || total + ordered[count]!.bytes <= budget)) {
        total += ordered[count]!.bytes;
        count += 1;
      }
      const run = ordered.slice(0, count);
      const next = ordered[count];
      return { run: fromOldest ? run : run.reverse(), next: next ? { ms: next.ms, id: next.id } : null };
    };
    const rows = fc.uniqueArray(fc.record({ ms: fc.integer({ min: 0, max: 40 }), bytes: fc.nat(12) }), {
      selector: (r) => r.ms,
      maxLength: 30,
    });
    fc.assert(
      fc.property(
        rows,
        fc.integer({ min: 1, max: 60 }),
        fc.boolean(),
        fc.nat(),
        (raw, budget, stateful, seed) => {
          const sorted = raw
            .map((r, i) => ({ record: `r${i}`, ms: r.ms, id: `sub_${i}`, bytes: r.bytes }))
            .sort((x, y) => x.ms - y.ms);
          const shuffled = [...sorted].sort(
            (x, y) => ((x.ms * 7919 + seed) % 31) - ((y.ms * 7919 + seed) % 31),
          );
          const mode = stateful ? 'stateful' : 'stateless';
          const got = selectEntries(shuffled, 'poll', mode, budget);
          const want = reference(sorted, stateful, budget);
          expect(got.selected).toEqual(want.run);
          if (stateful) {
            const last = want.run[want.run.length - 1];
            expect(got.lastReturned).toEqual(want.next && last ? { ms: last.ms, id: last.id } : null);
          } else {
            expect(got.lastLeft).toEqual(want.next);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('a dedupe poll takes every row, up to the newest MAX_DEDUPE_ITEMS', () => {
    const all = entries(
      Array.from({ length: 12 }, (_, i) => i),
      1e9,
    );
    expect(selectEntries(all, 'dedupe', 'stateless', 1).selected).toHaveLength(12);
    expect(MAX_DEDUPE_ITEMS).toBeLessThanOrEqual(105_000);
  });
});

describe('withCheckpoint', () => {
  it('merges checkpoints of one minute into the later time and the earlier position', () => {
    const t = NOW - (NOW % MINUTE);
    const merged = withCheckpoint(
      [{ answeredBy: t + 1000, pos: pos(NOW - 5 * MINUTE, 'b') }],
      [{ answeredBy: t + 2000, pos: pos(NOW - 6 * MINUTE) }],
      NOW,
    );
    expect(merged).toEqual([{ answeredBy: t + 2000, pos: pos(NOW - 6 * MINUTE) }]);
  });

  it('keeps of the checkpoints older than the hold (and the skew) only the newest', () => {
    const cps = [90, 85, 80, 30, 10].map((m) => ({
      answeredBy: NOW - m * MINUTE,
      pos: pos(NOW - (m + 5) * MINUTE),
    }));
    expect(withCheckpoint(cps, [], NOW).map((c) => (NOW - c.answeredBy) / MINUTE)).toEqual([80, 30, 10]);
  });
});

describe('parseState', () => {
  it('accepts its own shape and refuses anything else', () => {
    const good = state([{ answeredBy: NOW, pos: pos(NOW - MINUTE, 'sub_a') }], {
      base: pos(NOW - HOUR),
      floor: { ms: NOW - HOUR, until: NOW },
      offset: 1200,
    });
    expect(parseState(JSON.parse(JSON.stringify(storedState(good))))).toEqual(good);
    expect(parseState(null)).toBeNull();
    expect(parseState('cursor')).toBeNull();
    // The previous format (one cursor) is read as no state: one stateless poll starts a new one.
    expect(parseState({ v: 1, cursor: null, seenAt: null, floor: null })).toBeNull();
    // A corrupt state reads as missing (a stateless poll starts a new one).
    expect(
      parseState({
        v: 2,
        checkpoints: [{ t: 1 }, null, { t: 2, pos: { ms: 1, id: 'x' } }],
        base: 'x',
        floor: { ms: 'x' },
      }),
    ).toBeNull();
  });
});
