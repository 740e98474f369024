import {
  CURSOR_TIMING,
  type CursorState,
  type Entry,
  advance,
  parseState,
  planSince,
  selectEntries,
} from '../../src/cursor';
import { MAX_DEDUPE_ITEMS } from '../../src/polling';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const NOW = Date.parse('2026-11-22T10:00:00.000Z');

const state = (cursorMs: number | null, floor: CursorState['floor'] = null): CursorState => ({
  v: 1,
  cursor: cursorMs === null ? null : { at: new Date(cursorMs).toISOString(), ms: cursorMs, id: 'sub_c' },
  floor,
});

const entries = (times: number[]): Entry<string>[] =>
  times.map((ms, i) => ({ record: `r${i}`, ms, id: `sub_${String(i).padStart(5, '0')}` }));

describe('planSince', () => {
  it('asks from the cursor minus the 20-minute overlap', () => {
    expect(CURSOR_TIMING.overlapMs).toBe(20 * MINUTE);
    expect(planSince('poll', state(NOW - 3 * MINUTE), NOW)).toBe(NOW - 23 * MINUTE);
  });

  it('falls back to the last 24 h plus the skew margin without a cursor', () => {
    expect(planSince('poll', null, NOW)).toBe(NOW - 24 * HOUR - 15 * MINUTE);
    expect(planSince('poll', state(null), NOW)).toBe(NOW - CURSOR_TIMING.lookbackMs);
  });

  it('asks wider still when a Zap is turned on, whatever the state', () => {
    expect(planSince('dedupe', state(NOW - MINUTE), NOW)).toBe(NOW - 24 * HOUR - 45 * MINUTE);
    // Wider than any later poll's window by twice the skew, so no later poll reaches past the dedupe table.
    expect(CURSOR_TIMING.seedMs - CURSOR_TIMING.lookbackMs).toBe(2 * CURSOR_TIMING.clockSkewMs);
  });

  it('keeps a failed poll’s window while the floor holds, and forgets it after', () => {
    const floor = { ms: NOW - 3 * HOUR, until: NOW + MINUTE };
    expect(planSince('poll', state(NOW - MINUTE, floor), NOW)).toBe(NOW - 3 * HOUR);
    expect(planSince('poll', state(NOW - MINUTE, floor), NOW + 2 * MINUTE)).toBe(NOW - 21 * MINUTE);
  });

  it('never asks for more than the fallback window (an old cursor or floor cannot reach past the dedupe table)', () => {
    expect(planSince('poll', state(NOW - 21 * 24 * HOUR), NOW)).toBe(NOW - CURSOR_TIMING.lookbackMs);
    const floor = { ms: NOW - 48 * HOUR, until: NOW + HOUR };
    expect(planSince('poll', state(NOW - MINUTE, floor), NOW)).toBe(NOW - CURSOR_TIMING.lookbackMs);
  });
});

describe('selectEntries', () => {
  const limits = { maxNewItems: 4, maxAnswerItems: 7 };

  it('returns the whole window when it is small', () => {
    const all = entries([1, 2, 3]);
    expect(selectEntries(all, 'poll', null, limits)).toEqual(all);
  });

  it('returns the overlap again, then at most maxNewItems after the cursor, oldest first', () => {
    const all = entries([10, 20, 30, 40, 50, 60, 70, 80, 90]);
    const cursor = { at: 'x', ms: 30, id: 'sub_00002' };
    const picked = selectEntries(all, 'poll', cursor, limits).map((e) => e.ms);
    expect(picked).toEqual([10, 20, 30, 40, 50, 60, 70]);
  });

  it('orders ties by id: rows of the cursor’s millisecond with a larger id are new', () => {
    const all = entries([5, 5, 5, 5, 5, 5]);
    const cursor = { at: 'x', ms: 5, id: 'sub_00001' };
    expect(
      selectEntries(all, 'poll', cursor, { maxNewItems: 2, maxAnswerItems: 10 }).map((e) => e.id),
    ).toEqual(['sub_00000', 'sub_00001', 'sub_00002', 'sub_00003']);
  });

  it('without a cursor, every row counts as new: the oldest come first', () => {
    const all = entries([1, 2, 3, 4, 5, 6]);
    expect(selectEntries(all, 'poll', null, limits).map((e) => e.ms)).toEqual([1, 2, 3, 4]);
  });

  it('leaves out the oldest rows of a crowded overlap, never those of the last minutes before the cursor', () => {
    const cursorMs = NOW;
    const old = [NOW - 19 * MINUTE, NOW - 18 * MINUTE, NOW - 17 * MINUTE];
    const late = [NOW - 4 * MINUTE, NOW - 3 * MINUTE, NOW - 2 * MINUTE, NOW - MINUTE, NOW];
    const fresh = [NOW + 1, NOW + 2, NOW + 3];
    const all = entries([...old, ...late, ...fresh]);
    const cursor = { at: 'x', ms: cursorMs, id: 'sub_00007' };
    const picked = selectEntries(all, 'poll', cursor, { maxNewItems: 2, maxAnswerItems: 5 }).map((e) => e.ms);
    expect(picked).toEqual([...late, NOW + 1, NOW + 2]);
  });

  it('a dedupe poll takes every row, up to the newest MAX_DEDUPE_ITEMS', () => {
    const all = entries(Array.from({ length: 12 }, (_, i) => i));
    expect(selectEntries(all, 'dedupe', null, limits)).toHaveLength(12);
    expect(MAX_DEDUPE_ITEMS).toBeLessThanOrEqual(105_000);
  });
});

describe('advance', () => {
  const at = (record: string) => `at-${record}`;

  it('moves to the newest returned row, never backwards', () => {
    const picked = entries([NOW - 2 * MINUTE, NOW - MINUTE]);
    expect(advance(null, picked, NOW, at)).toEqual({ at: 'at-r1', ms: NOW - MINUTE, id: 'sub_00001' });
    const ahead = { at: 'ahead', ms: NOW, id: 'sub_z' };
    expect(advance(ahead, picked, NOW, at)).toBe(ahead);
    expect(advance(ahead, [], NOW, at)).toBe(ahead);
  });

  it('does not jump to a row dated beyond the clock skew in the future', () => {
    const picked = entries([NOW - MINUTE, NOW + 2 * HOUR]);
    expect(advance(null, picked, NOW, at)?.ms).toBe(NOW - MINUTE);
  });
});

describe('parseState', () => {
  it('accepts its own shape and refuses anything else', () => {
    const good = state(NOW, { ms: NOW - HOUR, until: NOW });
    expect(parseState(JSON.parse(JSON.stringify(good)))).toEqual(good);
    expect(parseState(null)).toBeNull();
    expect(parseState('cursor')).toBeNull();
    expect(parseState({ v: 2, cursor: null })).toBeNull();
    expect(parseState({ v: 1, cursor: { at: 1 }, floor: { ms: 'x' } })).toEqual({
      v: 1,
      cursor: null,
      floor: null,
    });
  });
});
