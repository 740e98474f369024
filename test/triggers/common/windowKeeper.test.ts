/**
 * What a poll keeps while its window streams by: `selectRecords` of the kept records is always the run (and
 * the `seenAt`) it would take from the whole window, and what is kept stays bounded however large it is.
 */
import fc from 'fast-check';
import { newestFirst } from '../../../src/connect';
import {
  CURSOR_TIMING,
  type CursorState,
  type SincePoll,
  WindowKeeper,
  selectRecords,
} from '../../../src/triggers/common/cursor';

const MINUTE = 60_000;
const STARTED = Date.parse('2026-11-22T12:00:00.000Z');

interface Row {
  id: string;
  createdAt: string;
}

const idOf = (row: Row) => row.id;

const row = (minute: number, n: number): Row => ({
  id: `sub_${String(n).padStart(3, '0')}`,
  createdAt: new Date(STARTED + minute * MINUTE).toISOString(),
});

const pollOf = (kind: 'poll' | 'dedupe', state: CursorState | null) =>
  ({ kind, state, started: STARTED }) as unknown as SincePoll;

const kept = (rows: Row[], poll: SincePoll, maxItems: number = CURSOR_TIMING.maxItems) => {
  const keeper = new WindowKeeper<Row>(poll, idOf, { maxItems });
  rows.forEach(keeper.visit);
  return keeper;
};

/** `selectRecords` with its limits made small, so that the property reaches every branch. */
const select = (poll: SincePoll, records: Row[], serverTime: number | null, maxItems: number) => {
  const saved = { ...CURSOR_TIMING };
  const timing = CURSOR_TIMING as unknown as Record<string, number>;
  timing.maxItems = maxItems;
  timing.minNewItems = Math.max(1, Math.floor(maxItems / 3));
  try {
    const selection = selectRecords(poll, records, serverTime, idOf);
    return { ids: selection.records.map(idOf), seenAt: selection.seenAt };
  } finally {
    Object.assign(timing, saved);
  }
};

it('selects the same run and seenAt from the kept records as from the whole window (property)', () => {
  const minute = fc.integer({ min: -1600, max: 30 });
  // Ids are unique, as the contract makes them (a repeated id is read once: see the last test).
  const rows = fc.array(minute, { maxLength: 70 }).map((minutes) => minutes.map((m, n) => row(m, n)));
  const state = fc.option(
    fc.record({
      v: fc.constant(1 as const),
      cursor: fc.option(
        fc.tuple(minute, fc.integer({ min: 0, max: 60 })).map(([m, n]) => {
          const r = row(m, n);
          return { at: r.createdAt, ms: Date.parse(r.createdAt), id: r.id };
        }),
      ),
      seenAt: fc.option(minute.map((m) => STARTED + m * MINUTE)),
      floor: fc.constant(null),
    }),
  );
  fc.assert(
    fc.property(
      rows,
      state,
      fc.constantFrom<'poll' | 'dedupe'>('poll', 'dedupe'),
      fc.integer({ min: 1, max: 10 }),
      fc.option(fc.integer({ min: -20, max: 20 })),
      (all, st, kind, maxItems, serverMinute) => {
        const poll = pollOf(kind, st);
        const serverTime = serverMinute === null ? null : STARTED + serverMinute * MINUTE;
        const whole = select(poll, newestFirst(all, idOf), serverTime, maxItems);
        const fromKept = select(poll, kept(all, poll, maxItems).records(), serverTime, maxItems);
        expect(fromKept).toEqual(whole);
      },
    ),
    { numRuns: 3000 },
  );
});

it('keeps maxItems after the cursor and maxItems before it, plus the late rows, of a large window', () => {
  const window = Array.from({ length: 50_000 }, (_, n) => row(-(n % 600), n));
  const cursor = { at: row(-300, 0).createdAt, ms: STARTED - 300 * MINUTE, id: 'sub_000' };
  const state: CursorState = { v: 1, cursor, seenAt: STARTED - 300 * MINUTE, floor: null };
  const keeper = kept(window, pollOf('poll', state));
  const late = window.filter((r) => {
    const ms = Date.parse(r.createdAt);
    return ms >= STARTED - 305 * MINUTE && (ms < cursor.ms || (ms === cursor.ms && r.id <= cursor.id));
  }).length;
  // …and the newest record read, which dates the read.
  expect(keeper.records()).toHaveLength(2 * CURSOR_TIMING.maxItems + late + 1);
  expect(keeper.fetched).toBe(50_000);
});

it('keeps the oldest maxItems of a day without a cursor, and the newest 100,000 keys when a Zap is turned on', () => {
  const day = Array.from({ length: 30_000 }, (_, n) => row(-1400 + n / 25, n));
  const walked = kept(day, pollOf('poll', null)).records();
  expect(walked).toHaveLength(CURSOR_TIMING.maxItems + 1);
  expect(walked.slice(1)).toEqual(newestFirst(day, idOf).slice(-CURSOR_TIMING.maxItems));
  expect(kept(day, pollOf('dedupe', null)).records()).toHaveLength(30_000);
});

it('reads an id sent twice once, and drops rows older than the horizon', () => {
  const keeper = kept([row(-5, 1), row(-2, 1), row(-3, 1), row(-2000, 2), row(-7, 3)], pollOf('poll', null));
  expect(keeper.records()).toEqual([row(-5, 1), row(-7, 3)]);
  expect(keeper.fetched).toBe(5);
});
