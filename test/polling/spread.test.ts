/**
 * A range read again from the service is owed in parts of known size: how a read counts a range's records
 * (`RangeSpread`), and what a poll's window leaves owed of a range it read (the older parts, from the newest
 * part it reads alone) and of a whole cache lost during a rush (each later read starts at its newest part).
 */
import fc from 'fast-check';
import { PLAY_START, playRush } from '../../scripts/lib/pollPlay';
import { pollTimings } from '../../src/polling';
import type { ShareRef } from '../../src/polling/owed';
import { type Position, at, comparePositions } from '../../src/polling/position';
import { RangeSpread } from '../../src/polling/spread';
import { PollWindow } from '../../src/polling/window';
import { oneKbRush, performWith, playClock, scaledTimings } from './harness';

const NOW = 1_900_000_000_000;
const MINUTE = 60_000;

/** Whether `p` lies in (`from`, `to`]. */
const inside = (p: Position, part: { from: Position; to: Position }) =>
  comparePositions(p, part.from) > 0 && comparePositions(p, part.to) <= 0;

describe('RangeSpread: a range read again, cut into parts', () => {
  it('cuts every record up to `to` into exactly one part, newest first, each within the part size unless one bucket is over it, never under-counted', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200_000 }),
        fc.array(
          fc.record({
            at: fc.double({ min: 0, max: 1, noNaN: true }),
            bytes: fc.integer({ min: 1, max: 500 }),
          }),
          {
            maxLength: 300,
          },
        ),
        fc.integer({ min: 100, max: 5_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (spanMs, made, partBytes, cutAt) => {
          const range = { from: at(NOW), to: { ms: NOW + spanMs, id: 'zzz' } };
          const records = made.map((r, i) => ({
            ms: NOW + 1 + Math.floor(r.at * (spanMs - 1)),
            id: `sub_${i}`,
            bytes: r.bytes,
          }));
          const spread = new RangeSpread(range);
          for (const r of records) spread.add(r.ms, r.bytes);
          const to = { ms: NOW + 1 + Math.floor(cutAt * (spanMs - 1)), id: 'zzz' };
          const parts = spread.partsUpTo(to, partBytes);
          // Consecutive, newest first, from the range's start up to `to`.
          expect(parts[0]?.to).toEqual(to);
          expect(parts[parts.length - 1]?.from).toEqual(range.from);
          for (let i = 1; i < parts.length; i += 1) expect(parts[i]?.to).toEqual(parts[i - 1]?.from);
          const widthMs = Math.ceil((spanMs + 1) / 4096);
          for (const part of parts) {
            expect(comparePositions(part.from, part.to)).toBeLessThan(0);
            const held = records.filter((r) => inside(r, part)).reduce((sum, r) => sum + r.bytes, 0);
            expect(part.bytes).toBeGreaterThanOrEqual(held);
            // Over the part size only when its records are all in one bucket.
            const buckets = new Set(
              records.filter((r) => inside(r, part)).map((r) => Math.floor((r.ms - NOW) / widthMs)),
            );
            if (held > partBytes) expect(buckets.size).toBe(1);
          }
          for (const r of records.filter((r) => comparePositions(r, to) <= 0))
            expect(parts.filter((part) => inside(r, part))).toHaveLength(1);
        },
      ),
    );
  });
});

// A small answer (about 8 KB), so that a range of a few hundred records needs several.
const timings = pollTimings({ answerLimitBytes: 12_000, answerMarginBytes: 4_000 });

/** Records of 100 bytes, one a minute, over `minutes` from `NOW`. */
const made = (minutes: number) =>
  Array.from({ length: minutes }, (_, i) => ({
    createdAt: new Date(NOW + (i + 1) * MINUTE).toISOString(),
    submissionId: `sub_${String(i).padStart(4, '0')}`,
    text: 'x'.repeat(60),
  }));

/** A poll whose one owed share is the range `ref` (read again from the service), after every record. */
const windowOf = (ref: ShareRef) => {
  const after = { ms: NOW + 1_000 * MINUTE, id: '' };
  return new PollWindow<{ createdAt: string; submissionId: string }>(
    {
      kind: 'poll',
      plan: { since: after.ms, after, mode: 'stateful' },
      kept: null,
      owed: [{ ref, entries: null }],
      offset: 0,
      known: true,
      started: NOW + 1_000 * MINUTE,
      now: () => NOW + 1_000 * MINUTE,
      timings,
    },
    { idOf: (record) => record.submissionId, sizeOf: () => 100 },
  );
};

describe('a range read again, in parts', () => {
  const records = made(400);
  const range: ShareRef = {
    id: 'r',
    generation: '',
    from: at(NOW),
    to: { ms: NOW + 400 * MINUTE, id: 'sub_0399' },
    bytes: 1,
  };

  it('the first read holds its newest answer and leaves the rest owed in parts of at most an answer each', () => {
    const window = windowOf(range);
    for (const record of records) window.visit(record);
    const [refilled] = window.select(NOW + 1_000 * MINUTE).owed.refilled;
    const held = refilled?.entries ?? [];
    expect(held.length).toBeGreaterThan(0);
    expect(held.length * 100).toBeLessThanOrEqual(timings.answerBudgetBytes);
    expect(held[held.length - 1]?.id).toBe('sub_0399');
    const rest = refilled?.rest;
    expect(rest?.from).toEqual(range.from);
    expect(comparePositions(rest!.to, { ms: held[0]!.ms, id: held[0]!.id })).toBeLessThan(0);
    // Every part of the rest: consecutive, newest first, each at most an answer's records.
    const bounds = [rest!.to, ...rest!.cuts, rest!.from];
    expect(rest!.cuts.length).toBeGreaterThan(2);
    for (let i = 1; i < bounds.length; i += 1) {
      const part = { from: bounds[i]!, to: bounds[i - 1]! };
      expect(comparePositions(part.from, part.to)).toBeLessThan(0);
      const n = records.filter((r) =>
        inside({ ms: Date.parse(r.createdAt), id: r.submissionId }, part),
      ).length;
      expect(n * 100).toBeLessThanOrEqual(timings.answerBudgetBytes);
    }
  });

  it('a range with parts is read from its newest part alone: it holds that part whole and leaves the older parts', () => {
    const cuts = [at(NOW + 350 * MINUTE), at(NOW + 300 * MINUTE), at(NOW + 200 * MINUTE)];
    const window = windowOf({ ...range, cuts });
    for (const record of records) window.visit(record);
    const [refilled] = window.select(NOW + 1_000 * MINUTE).owed.refilled;
    expect(refilled?.entries.map((entry) => entry.id)).toEqual(
      records.slice(349).map((record) => record.submissionId),
    );
    expect(refilled?.rest).toEqual({ from: range.from, to: cuts[0], cuts: cuts.slice(1) });
  });
});

describe('the whole cache lost while a rush is handed over', () => {
  it('after the first read, the range a lost ledger leaves is read again from its newest part: once from its start, for its oldest part', async () => {
    const SCALE = 24;
    const small = scaledTimings(SCALE, { leaseWaitMs: 20 });
    const perform = performWith(small, playClock);
    const lostAt = 40;
    const lostMs = PLAY_START + lostAt * MINUTE;
    /** The `since` of every read after the loss. */
    const sinces: number[] = [];
    const played = await playRush(
      {
        ...oneKbRush(SCALE, 'a rush of about two answers, the whole cache lost at minute 40'),
        maxHours: 12,
        afterHours: 6,
        loseCacheAtMin: lostAt,
      },
      async (z, bundle) => {
        const request = z.request as (options: { url: string }) => Promise<unknown>;
        const watched = {
          ...z,
          request: (options: { url: string }) => {
            const since = new URL(options.url).searchParams.get('since');
            if (since && Date.now() >= lostMs) sinces.push(Date.parse(since));
            return request(options);
          },
        };
        return perform(watched as typeof z, bundle);
      },
    );
    expect(played.zaps.map((zap) => zap.lost)).toEqual([0, 0, 0]);
    // The range reaches back as far as a poll ever reads (the lookback) from the first poll after the loss.
    const rangeStart = Math.min(...sinces.filter((since) => since < lostMs - small.statelessMs));
    const fromStart = sinces.filter((since) => since <= rangeStart + MINUTE).length;
    expect(fromStart).toBeGreaterThanOrEqual(1);
    expect(fromStart).toBeLessThanOrEqual(2);
  });
});
