/**
 * The runs a poll keeps while an answer streams by: the longest run of first records within a budget, held
 * as objects (`HeldRun`) or as the bytes of their JSON (`OffHeapRun`): both keep the same run.
 */
import { FirstWithin, HeldRun, OffHeapRun, type RecordRun } from '../../src/polling/run';
import { type Position, comparePositions } from '../../src/polling/position';
import type { Entry } from '../../src/polling/entry';

interface Rec {
  id: string;
  createdAt: string;
  note: string;
}

const newestFirst = (a: Position, b: Position) => comparePositions(b, a);

/** A fixed sequence of pseudo-random numbers in [0, 1). */
const sequence = (seed: number) => {
  let s = seed;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
};

/** `count` records, some at the same millisecond, with notes in several scripts and of several sizes. */
const records = (count: number, seed: number): Array<{ record: Rec; at: Position; bytes: number }> => {
  const next = sequence(seed);
  // A text cut inside an emoji holds half of it (a lone surrogate): kept as bytes, it must come back as is.
  const words = ['ascii', 'привет', '€uro', '雪', '🎟️ ticket', 'quote " and \\ and \n', 'cut \ud83c'];
  return Array.from({ length: count }, (_, n) => {
    const ms = 1_800_000_000_000 + Math.floor(n / 3) * 1000;
    const id = `sub_${String(n).padStart(5, '0')}`;
    const note = Array.from({ length: 1 + Math.floor(next() * 40) }, () => words[n % words.length]).join(' ');
    const record = { id, createdAt: new Date(ms).toISOString(), note };
    return { record, at: { ms, id }, bytes: Buffer.byteLength(JSON.stringify(record)) + 1 };
  });
};

const shuffled = <T>(items: T[], seed: number): T[] => {
  const next = sequence(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
};

/** What `run` keeps of `given`, fed in that order. */
const keep = (run: RecordRun<Rec>, given: ReturnType<typeof records>) => {
  for (const { record, at, bytes } of given) if (run.wants(at)) run.add(record, at, bytes);
  return { sorted: run.sorted(), next: run.next() };
};

/** The run as `FirstWithin` keeps it, over the same entries. */
const expected = (given: ReturnType<typeof records>, budget: number) => {
  const run = new FirstWithin<Entry<Rec>, Position>(budget, newestFirst, (entry) => entry.bytes);
  for (const { record, at, bytes } of given) run.offer({ record, ms: at.ms, id: at.id, bytes });
  const next = run.next();
  return { sorted: run.sorted(), next: next && { ms: next.ms, id: next.id } };
};

const positions = (kept: { sorted: Entry<Rec>[]; next: Position | null }) => ({
  sorted: kept.sorted,
  next: kept.next && { ms: kept.next.ms, id: kept.next.id },
});

describe('a run of records kept newest first', () => {
  it.each([
    ['oldest first', 0],
    ['in any order', 7],
    ['in another order', 11],
  ])('holds the same run as objects or as bytes, fed %s', (_, seed) => {
    const all = records(3_000, 3);
    const given = seed ? shuffled(all, seed) : all;
    const budget = 40_000;
    const want = expected(given, budget);
    expect(want.sorted.length).toBeGreaterThan(20);
    expect(want.next).not.toBeNull();
    expect(positions(keep(new HeldRun<Rec>(budget, newestFirst, (entry) => entry.bytes), given))).toEqual(
      want,
    );
    expect(positions(keep(new OffHeapRun<Rec>(budget, newestFirst), given))).toEqual(want);
  });

  it('as bytes, grows with its run and keeps it whole however many records pass through', () => {
    // A budget many times the first store, and records enough to fill the store again and again.
    const given = records(20_000, 5);
    const budget = 600_000;
    const want = expected(given, budget);
    const kept = keep(new OffHeapRun<Rec>(budget, newestFirst), given);
    expect(kept.sorted.length).toBe(want.sorted.length);
    expect(positions(kept)).toEqual(want);
  });

  it('as bytes, holds a record as it was given: a change to the object afterwards is not kept', () => {
    const [first] = records(1, 1);
    if (!first) throw new Error('no record');
    const run = new OffHeapRun<Rec>(10_000, newestFirst);
    run.add(first.record, first.at, first.bytes);
    const note = first.record.note;
    first.record.note = 'changed afterwards';
    expect(run.sorted().map((entry) => entry.record.note)).toEqual([note]);
  });

  it('holds nothing it does not want: a record older than the cut is not added', () => {
    const given = records(100, 2);
    const run = new OffHeapRun<Rec>(2_000, newestFirst);
    for (const { record, at, bytes } of given) run.add(record, at, bytes);
    const cut = run.next();
    if (!cut) throw new Error('the budget cut nothing');
    const older = given[0];
    if (!older) throw new Error('no record');
    expect(run.wants(older.at)).toBe(false);
    const before = run.sorted();
    run.add(older.record, older.at, older.bytes);
    expect(run.sorted()).toEqual(before);
  });
});
