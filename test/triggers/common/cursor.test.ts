import {
  CURSOR_TIMING,
  type CursorState,
  type Entry,
  advance,
  parseState,
  planSince,
  selectEntries,
} from '../../../src/triggers/common/cursor';
import { MAX_DEDUPE_ITEMS } from '../../../src/triggers/common/polling';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const NOW = Date.parse('2026-11-22T10:00:00.000Z');

const state = (cursorMs: number | null, floor: CursorState['floor'] = null): CursorState => ({
  v: 1,
  cursor: cursorMs === null ? null : { at: new Date(cursorMs).toISOString(), ms: cursorMs, id: 'sub_c' },
  seenAt: cursorMs,
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
  const limits = { maxItems: 6, minNewItems: 2 };
  const at = (ms: number, id = 'sub_zzzzz') => ({ cursor: { at: 'x', ms, id }, seenAt: ms });

  it('returns the whole window when it fits', () => {
    const all = entries([1, 2, 3, 4, 5, 6]);
    expect(selectEntries(all, 'poll', at(3, 'sub_00002'), limits)).toEqual(all);
  });

  it('catches up oldest first: the rows after the cursor first, then older rows as room allows', () => {
    const minutes = (list: number[]) => entries(list.map((m) => NOW + m * MINUTE));
    const asMinutes = (picked: Entry<string>[]) => picked.map((e) => (e.ms - NOW) / MINUTE);
    const cursorAt = (m: number, index: number) => ({
      at: 'x',
      ms: NOW + m * MINUTE,
      id: `sub_${String(index).padStart(5, '0')}`,
    });
    // A backlog: the last poll (at minute 90) could return only up to minute 30.
    const backlog = minutes([10, 20, 30, 40, 50, 60, 70, 80, 90]);
    const behind = { cursor: cursorAt(30, 2), seenAt: NOW + 90 * MINUTE };
    const small = { maxItems: 4, minNewItems: 2 };
    expect(asMinutes(selectEntries(backlog, 'poll', behind, small))).toEqual([40, 50, 60, 70]);
    // Nearly caught up: the 3 new rows, then the newest older rows fill the run.
    const crowded = minutes([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    const near = { cursor: cursorAt(9, 8), seenAt: NOW + 30 * MINUTE };
    expect(asMinutes(selectEntries(crowded, 'poll', near, limits))).toEqual([7, 8, 9, 10, 11, 12]);
    // Crowded with rows made just before the last poll (they could have been late): all of them, then at
    // least minNewItems new ones, even past maxItems.
    const justBefore = { cursor: cursorAt(9, 8), seenAt: NOW + 10 * MINUTE };
    expect(asMinutes(selectEntries(crowded, 'poll', justBefore, limits))).toEqual([5, 6, 7, 8, 9, 10, 11]);
  });

  it('orders ties by id: rows of the cursor’s millisecond with a larger id are new', () => {
    const all = entries([5, 5, 5, 5, 5, 5, 5, 5]);
    const state = { cursor: { at: 'x', ms: 5, id: 'sub_00001' }, seenAt: -1e9 };
    expect(selectEntries(all, 'poll', state, { maxItems: 4, minNewItems: 2 }).map((e) => e.id)).toEqual([
      'sub_00000',
      'sub_00001',
      'sub_00002',
      'sub_00003',
    ]);
  });

  it('without a cursor, walks the window oldest first', () => {
    const all = entries([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(selectEntries(all, 'poll', null, limits).map((e) => e.ms)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('always returns the rows behind the cursor made just before the last poll: they may be late, never sent', () => {
    const old = [NOW - 19 * MINUTE, NOW - 18 * MINUTE, NOW - 17 * MINUTE];
    const nearHead = [NOW - 4 * MINUTE, NOW - 3 * MINUTE, NOW - 2 * MINUTE, NOW - MINUTE, NOW];
    const fresh = [NOW + 1, NOW + 2, NOW + 3];
    const all = entries([...old, ...nearHead, ...fresh]);
    const state = { cursor: { at: 'x', ms: NOW, id: 'sub_00007' }, seenAt: NOW };
    const picked = selectEntries(all, 'poll', state, { maxItems: 5, minNewItems: 2 }).map((e) => e.ms);
    expect(picked).toEqual([...nearHead, NOW + 1, NOW + 2]);
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
    expect(parseState({ v: 1, cursor: { at: 1 }, seenAt: 'x', floor: { ms: 'x' } })).toEqual({
      v: 1,
      cursor: null,
      seenAt: null,
      floor: null,
    });
  });
});
