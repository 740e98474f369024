/**
 * The polling room's stored values: the cache holds short keys (`{f, b, p, e}`, `{id, g, from, to, b, t}`,
 * …), the code reads named fields. Each value's codec reads one into the other, and a value written before
 * the fields were named reads the same and is written back byte for byte. The kept entry is read by hand
 * (one pass, no copies): exactly the values its former schemas read, into the same shape.
 */
import fc from 'fast-check';
import * as z from 'zod';
import { POLL_TIMINGS } from '../../src/polling';
import { type Entry, entryOf } from '../../src/polling/entry';
import { decodeTail, decodeWhole, pack, storedTail, storedWhole, unpack } from '../../src/polling/kept';
import { type OwedIndex, OwedIndexSchema, owedStore, storedIndex } from '../../src/polling/owed';
import { PollWindow } from '../../src/polling/window';
import { CursorStateSchema, storedState } from '../../src/polling/state';
import { accountCacheAt } from '../support/cache';

const NOW = 1_800_000_000_000;
const CAP = POLL_TIMINGS.keptUnpackedCapBytes;
const guest = (n: number) => ({ submissionId: `sub_${n}`, email: `guest${n}@example.com` });

/** A whole kept entry as the cache held it: a steady batch, a batch of a rush (`p`), shed positions. */
const STORED_WHOLE = {
  v: 3,
  g: 'a1b2c3d4',
  base: { ms: NOW - 3_600_000, id: '' },
  settled: { ms: NOW - 121_000, id: '' },
  batches: [
    {
      f: NOW - 600_000,
      b: 120,
      e: [
        [NOW - 700_000, 'sub_1', guest(1), 60],
        [NOW - 650_000, 'sub_2', guest(2)],
      ],
    },
    { f: NOW - 60_000, b: 61, p: 1, e: [[NOW - 100_000, 'sub_3', guest(3), 61]] },
  ],
  s: [[NOW - 90_000, 'sub_9']],
};

/** The state as the cache held it, with a copy of the owed index (a share whose turn started, a range). */
const STORED_STATE = {
  v: 2,
  checkpoints: [
    { t: NOW - 3_000_000, pos: { ms: NOW - 3_200_000, id: 'sub_0' } },
    { t: NOW - 60_000, pos: { ms: NOW - 181_000, id: '' } },
  ],
  base: { ms: NOW - 86_400_000, id: '' },
  floor: { ms: NOW - 900_000, until: NOW + 2_700_000 },
  offset: 1_250,
  owed: {
    r: 7,
    shares: [
      {
        id: 'share000001',
        g: 'e5f6a7b8',
        from: { ms: NOW - 5_000_000, id: '' },
        to: { ms: NOW - 4_000_000, id: 'sub_4' },
        b: 40_000,
        t: NOW - 300_000,
      },
      {
        id: 'share000003',
        g: 'c9d0e1f2',
        from: { ms: NOW - 4_500_000, id: 'sub_2' },
        to: { ms: NOW - 4_200_000, id: 'sub_3' },
        b: 30_000,
        t: NOW - 2_000_000,
        l: NOW - 600_000,
      },
      {
        id: 'share000002',
        g: '',
        from: { ms: NOW - 4_000_000, id: 'sub_4' },
        to: { ms: NOW - 3_000_000, id: '' },
        b: 65_536,
        a: 1,
        w: 1,
      },
    ],
  },
};

const json = (value: unknown) => JSON.stringify(value);

/** Stored entries (`[ms, id, record, bytes?]`) as the code reads them. */
const named = (stored: unknown[][]): Array<Entry<unknown>> =>
  stored.map(([ms, id, record, bytes]) =>
    entryOf(record, ms as number, id as string, (bytes as number) ?? 0),
  );

describe('the kept entry as stored', () => {
  it('reads into named fields, and is packed back byte for byte', () => {
    const packed = pack(STORED_WHOLE);
    const whole = decodeWhole(packed, CAP)!;
    expect(whole).toEqual({
      generation: 'a1b2c3d4',
      base: STORED_WHOLE.base,
      settled: STORED_WHOLE.settled,
      batches: [
        { returnedAt: NOW - 600_000, bytes: 120, rush: false, entries: named(STORED_WHOLE.batches[0]!.e) },
        { returnedAt: NOW - 60_000, bytes: 61, rush: true, entries: named(STORED_WHOLE.batches[1]!.e) },
      ],
      shed: [{ ms: NOW - 90_000, id: 'sub_9' }],
    });
    expect(json(storedWhole(whole))).toBe(json(STORED_WHOLE));
    expect(pack(storedWhole(whole))).toBe(packed);
  });

  it('a piece of the tail reads into named fields and is packed back byte for byte', () => {
    const stored = {
      v: 3,
      g: 'a1b2c3d4',
      from: STORED_WHOLE.settled,
      settled: { ms: NOW - 61_000, id: '' },
      batches: [{ f: NOW, b: 61, e: [[NOW - 70_000, 'sub_5', guest(5), 61]] }],
    };
    const tail = decodeTail(pack(stored), CAP)!;
    expect(tail.generation).toBe('a1b2c3d4');
    expect(tail.batches).toEqual([
      { returnedAt: NOW, bytes: 61, rush: false, entries: named(stored.batches[0]!.e) },
    ]);
    expect(json(storedTail(tail))).toBe(json(stored));
  });

  it('named → stored → named gives the same entry, whatever its batches', () => {
    const batch = fc.record({
      returnedAt: fc.integer({ min: 0, max: NOW }),
      bytes: fc.nat(),
      rush: fc.boolean(),
      entries: fc.array(
        fc
          .tuple(fc.integer({ min: 0, max: NOW }), fc.string(), fc.constant(guest(1)), fc.nat())
          .map(([ms, id, record, bytes]) => entryOf<Record<string, unknown>>(record, ms, id, bytes)),
        { maxLength: 3 },
      ),
    });
    const position = fc.record({ ms: fc.integer({ min: 0, max: NOW }), id: fc.string() });
    fc.assert(
      fc.property(
        fc.string(),
        position,
        position,
        fc.array(batch, { maxLength: 4 }),
        (generation, base, settled, batches) => {
          const whole = { generation, base, settled, batches };
          expect(decodeWhole(pack(storedWhole(whole)), CAP)).toEqual(whole);
        },
      ),
    );
  });
});

/**
 * The schemas the kept entry was read with before it was read by hand (one pass, no copies): the same values
 * must read, into the same named shape, and every other value must read as missing.
 */
const entriesBefore = z.array(
  z.union([
    z.tuple([z.number(), z.string(), z.record(z.string(), z.unknown())]),
    z.tuple([z.number(), z.string(), z.record(z.string(), z.unknown()), z.number().positive()]),
  ]),
);
const positionBefore = z.object({ ms: z.number().finite(), id: z.string() });
const batchBefore = z
  .object({ f: z.number(), b: z.number(), p: z.literal(1).optional(), e: entriesBefore })
  .transform((b) => ({ returnedAt: b.f, bytes: b.b, rush: b.p === 1, entries: named(b.e) }));
const wholeBefore = z
  .strictObject({
    v: z.literal(3),
    g: z.string(),
    base: positionBefore,
    settled: positionBefore,
    batches: z.array(batchBefore),
    s: z.array(z.tuple([z.number(), z.string()])).optional(),
  })
  .transform((w) => ({
    generation: w.g,
    base: w.base,
    settled: w.settled,
    batches: w.batches,
    ...(w.s ? { shed: w.s.map(([ms, id]) => ({ ms, id })) } : {}),
  }));

/** `STORED_WHOLE` with one part changed at `path` (set to `value`, or removed when `value` is `undefined`). */
const changed = (path: Array<string | number>, value: unknown): unknown => {
  const copy = JSON.parse(json(STORED_WHOLE)) as Record<string, unknown>;
  let at: Record<string | number, unknown> = copy;
  for (const step of path.slice(0, -1)) at = at[step] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (value === undefined && !Array.isArray(at)) delete at[last];
  else at[last] = value;
  return copy;
};

describe('the kept entry read by hand', () => {
  const odd: unknown[] = [
    undefined,
    null,
    -1,
    0,
    1,
    2,
    3,
    1.5,
    'x',
    '',
    true,
    [],
    {},
    [1, 'x'],
    { ms: 1, id: 'x', extra: true },
  ];
  const paths: Array<Array<string | number>> = [
    ['v'],
    ['g'],
    ['base'],
    ['base', 'ms'],
    ['settled', 'id'],
    ['batches'],
    ['batches', 0],
    ['batches', 0, 'f'],
    ['batches', 0, 'b'],
    ['batches', 1, 'p'],
    ['batches', 0, 'e'],
    ['batches', 0, 'e', 0],
    ['batches', 0, 'e', 0, 0],
    ['batches', 0, 'e', 0, 1],
    ['batches', 0, 'e', 0, 2],
    ['batches', 0, 'e', 0, 3],
    ['batches', 0, 'e', 1, 3],
    ['batches', 0, 'extra'],
    ['s'],
    ['s', 0],
    ['s', 0, 1],
    ['extra'],
  ];

  it('reads what the schemas read, the same way, and nothing else', () => {
    for (const path of paths)
      for (const value of odd) {
        const stored = changed(path, value);
        const before = wholeBefore.safeParse(JSON.parse(json(stored)));
        expect([path, value, decodeWhole(pack(stored), CAP)]).toEqual([
          path,
          value,
          before.success ? before.data : null,
        ]);
      }
  });

  it("a record's own `__proto__` key is left out, as the schema left it out", () => {
    const stored = JSON.parse(
      json(STORED_WHOLE).replace('"email"', '"__proto__":{"a":1},"email"'),
    ) as unknown;
    const whole = decodeWhole(pack(stored), CAP)!;
    const record = whole.batches[0]!.entries[0]!.record as Record<string, unknown>;
    expect(Object.hasOwn(record, '__proto__')).toBe(false);
    expect(record).toEqual(guest(1));
  });
});

describe('the state and the owed index as stored', () => {
  it('the state reads into named fields, and is written back byte for byte', () => {
    const state = CursorStateSchema.parse(STORED_STATE);
    expect(state.checkpoints.map((c) => c.answeredBy)).toEqual([NOW - 3_000_000, NOW - 60_000]);
    expect(state.owed?.revision).toBe(7);
    expect(state.owed?.shares[0]).toMatchObject({
      generation: 'e5f6a7b8',
      bytes: 40_000,
      turnStarted: NOW - 300_000,
    });
    expect(state.owed?.shares[1]).toMatchObject({ turnStarted: NOW - 2_000_000, lateStarted: NOW - 600_000 });
    expect(state.owed?.shares[2]).not.toHaveProperty('turnStarted');
    expect(state.owed?.shares[2]).not.toHaveProperty('lateStarted');
    expect(state.owed?.shares[2]).toMatchObject({ again: true, precaution: true });
    expect(state.owed?.shares[0]).not.toHaveProperty('again');
    expect(json(storedState(state))).toBe(json(STORED_STATE));
  });

  it('a state written with its owed index first (a failed poll) keeps that order', () => {
    const { owed, v, checkpoints, base, offset, floor } = STORED_STATE;
    const stored = { owed, v, checkpoints, base, offset, floor };
    const state = CursorStateSchema.parse(stored);
    const named = { owed: state.owed, checkpoints: state.checkpoints, base, offset, floor };
    expect(json(storedState(named))).toBe(json(stored));
  });

  it('the index, named → stored → named, is the same', () => {
    const position = fc.record({ ms: fc.integer({ min: 0, max: NOW }), id: fc.string() });
    const ref = fc.record(
      {
        id: fc.string(),
        generation: fc.string(),
        from: position,
        to: position,
        bytes: fc.nat(),
        turnStarted: fc.integer({ min: 0, max: NOW }),
        lateStarted: fc.integer({ min: 0, max: NOW }),
        again: fc.constant(true as const),
        precaution: fc.constant(true as const),
      },
      { requiredKeys: ['id', 'generation', 'from', 'to', 'bytes'] },
    );
    fc.assert(
      fc.property(fc.nat(), fc.array(ref, { maxLength: 4 }), (revision, shares) => {
        const index: OwedIndex = { revision, shares };
        expect(OwedIndexSchema.parse(JSON.parse(json(storedIndex(index))))).toEqual(index);
      }),
    );
  });
});

describe('an owed share as stored', () => {
  const storeOn = () => {
    const { cache, account } = accountCacheAt(NOW);
    return { cache, store: owedStore(account, 'stream', POLL_TIMINGS) };
  };

  it('a share written before the fields were named reads its records', async () => {
    const { cache, store } = storeOn();
    const [written] = await store.writeShares([entryOf(guest(1), NOW - 5_000, 'sub_1', 60)]);
    const key = cache.keys().find((k) => k.endsWith(`:owed:${written!.id}`))!;
    const entries = [[NOW - 4_000, 'sub_2', guest(2), 61]];
    cache.poke(key, { ...(cache.peek(key) as object), v: pack({ g: written!.generation, e: entries }) });
    const [read] = await store.readShares([written!]);
    expect(read?.entries).toEqual(named(entries));
  });

  it('is written with its short keys only', async () => {
    const { cache, store } = storeOn();
    const [written] = await store.writeShares([entryOf(guest(1), NOW - 5_000, 'sub_1', 60)]);
    const key = cache.keys().find((k) => k.endsWith(`:owed:${written!.id}`))!;
    const value = unpack((cache.peek(key) as { v: unknown }).v, CAP);
    expect(json(value)).toBe(json({ g: written!.generation, e: [[NOW - 5_000, 'sub_1', guest(1), 60]] }));
  });
});

describe('records an older version kept without their size', () => {
  it('a poll returns them, sized, and writes them back as they were stored', () => {
    const stored = { ...STORED_WHOLE, batches: [STORED_WHOLE.batches[0]!] };
    const whole = decodeWhole(pack(stored), CAP)!;
    const kept = { base: whole.base, settled: whole.settled, batches: whole.batches, shed: [] };
    const window = new PollWindow<{ createdAt: string; submissionId: string }>(
      {
        kind: 'poll',
        plan: { since: whole.settled.ms - 1, after: whole.settled, mode: 'kept' },
        kept,
        owed: [],
        offset: 0,
        known: true,
        started: NOW,
        now: () => NOW,
        timings: POLL_TIMINGS,
      },
      { idOf: (record) => record.submissionId },
    );
    const selection = window.select(NOW);
    // Both kept records are returned again; the one without its size is sized for the answer only.
    expect(selection.records).toHaveLength(2);
    const next = selection.kept!.next;
    const written = storedWhole({ ...next, generation: whole.generation });
    expect(json(written.batches[0])).toBe(json(stored.batches[0]));
  });
});
