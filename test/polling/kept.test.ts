import { brotliCompressSync, constants } from 'node:zlib';
import { CACHE_FAILED } from '../../src/memory';
import { POLL_TIMINGS } from '../../src/polling';
import { entryOf } from '../../src/polling/entry';
import {
  type Kept,
  decodeTail,
  decodeWhole,
  keptStore,
  pack,
  packWithin,
  storedWhole,
  unpack,
} from '../../src/polling/kept';
import { accountCacheAt } from '../support/cache';

const MINUTE = 60_000;
const NOW = 1_800_000_000_000;

const record = (i: number, text = '') => ({
  submissionId: `sub_${String(i).padStart(6, '0')}`,
  email: `guest${i}@example.com`,
  createdAt: new Date(NOW - 60 * MINUTE + i).toISOString(),
  note: text,
});

const kept = (count: number, text = (i: number) => `${i}`): Kept<Record<string, unknown>> => ({
  base: { ms: 1_000, id: '' },
  settled: { ms: NOW - 3 * MINUTE, id: '' },
  batches: [
    {
      returnedAt: NOW - 10 * MINUTE,
      bytes: count * 100,
      rush: false,
      entries: Array.from({ length: count }, (_, i) =>
        entryOf<Record<string, unknown>>(
          record(i, text(i)),
          NOW - 60 * MINUTE + i,
          record(i).submissionId,
          0,
        ),
      ),
    },
  ],
});

/** A stream's kept-entry store over a cache that honours `nx` and TTL, on the test's clock. */
/** The kept store on a cache that never fails: a read is the entry or `null`. */
const keptStoreOn = () => {
  const { cache, account } = accountCacheAt(NOW);
  const kept = keptStore(account, 'stream', POLL_TIMINGS);
  const read = async (clientNow: number) => {
    const value = await kept.read(clientNow);
    if (value === CACHE_FAILED) throw new Error('the cache failed');
    return value;
  };
  return { cache, store: { ...kept, read } };
};

/** Text that does not compress much: a different pseudo-random word for every record. */
const noisy = (i: number) =>
  Array.from({ length: 40 }, (_, k) => ((i * 7919 + k * 104_729) % 1_000_003).toString(36)).join(' ');

/** The batch one small poll adds to the entry: one registration, at a minute of its own. */
const batch = (poll: number) => ({
  returnedAt: NOW - 10 * MINUTE + poll,
  bytes: 100,
  rush: false,
  entries: [entryOf<Record<string, unknown>>(record(poll), NOW - 9 * MINUTE + poll, `sub_p${poll}`, 0)],
});
/** The settled position that poll leaves. */
const settledAt = (poll: number) => ({ ms: NOW - 5 * MINUTE + poll, id: '' });

describe('the kept entry', () => {
  it('is stored compressed (brotli, base64) and read back as it was', () => {
    const entry = { generation: 'g1', ...kept(2_000) };
    const packed = pack(storedWhole(entry));
    expect(packed.startsWith('br1:')).toBe(true);
    expect(packed.length).toBeLessThan(JSON.stringify(entry).length / 4);
    expect(decodeWhole(packed, POLL_TIMINGS.keptUnpackedCapBytes)).toEqual(entry);
  });

  it('anything that is not an entry reads as none: the poll then reads its window', () => {
    const cap = POLL_TIMINGS.keptUnpackedCapBytes;
    expect(decodeWhole(undefined, cap)).toBeNull();
    expect(decodeWhole('overflow', cap)).toBeNull();
    expect(decodeWhole('br1:not brotli', cap)).toBeNull();
    expect(decodeWhole(JSON.stringify(kept(1)), cap)).toBeNull();
    const packed = pack(storedWhole({ generation: 'g1', ...kept(10) }));
    expect(decodeWhole(packed.slice(0, packed.length - 8), cap)).toBeNull();
    // An entry that is not [ms, id, record] spoils the whole entry; so does another version.
    const broken = storedWhole({ generation: 'g1', ...kept(2) }) as unknown as {
      batches: Array<{ e: unknown[] }>;
    };
    broken.batches[0]?.e.push(['x', 'sub_x', {}]);
    expect(decodeWhole(pack(broken), cap)).toBeNull();
    expect(decodeWhole(pack({ ...storedWhole({ generation: 'g1', ...kept(1) }), v: 1 }), cap)).toBeNull();
    // A tail is not a whole entry, nor the other way round.
    expect(decodeTail(packed, cap)).toBeNull();
  });

  it('an entry that unpacks to more than its cap is missing, and is never unpacked whole (a bomb)', () => {
    // A small entry that unpacks to 191 MiB: only the cap's worth is ever produced.
    const bomb = `br1:${brotliCompressSync(Buffer.alloc(191 * 1024 * 1024, 0x20), {
      params: { [constants.BROTLI_PARAM_QUALITY]: 2, [constants.BROTLI_PARAM_LGWIN]: 24 },
    }).toString('base64')}`;
    expect(bomb.length).toBeLessThan(1000);
    const before = process.memoryUsage().rss;
    expect(unpack(bomb, 1024 * 1024)).toBeNull();
    expect(decodeWhole(bomb, POLL_TIMINGS.keptUnpackedCapBytes)).toBeNull();
    expect(process.memoryUsage().rss - before).toBeLessThan(150 * 1024 * 1024);
  });

  it('an entry over its cap keeps its newest records instead of being dropped whole', () => {
    const timings = { ...POLL_TIMINGS, keptCapBytes: 40_000 };
    const entry = { generation: 'g1', ...kept(2_000, noisy) };
    expect(pack(storedWhole(entry)).length).toBeGreaterThan(timings.keptCapBytes);
    const all = entry.batches[0]!.entries.map(({ id }) => id);
    // Whether every Zap on time has had the records yet (returned over `holdMs` ago) or not.
    const returned = entry.batches[0]!.returnedAt;
    for (const now of [returned + 1, returned + timings.holdMs]) {
      const packed = packWithin(entry, timings, now).packed;
      expect(packed.length).toBeLessThanOrEqual(timings.keptCapBytes);
      const back = decodeWhole(packed, timings.keptUnpackedCapBytes)!;
      const ids = back.batches.flatMap((batch) => batch.entries.map(({ id }) => id));
      expect(ids.length).toBeGreaterThan(100);
      expect(ids.length).toBeLessThan(2_000);
      // The newest ones, every one of them up to the newest, and the entry still covers its settled point.
      expect(ids).toEqual(all.slice(all.length - ids.length));
      expect(back.settled).toEqual(entry.settled);
    }
  });

  it('an entry over its cap sheds the records every Zap on time has had before those still owed', () => {
    const timings = { ...POLL_TIMINGS, keptCapBytes: 40_000 };
    const older = kept(1_000, noisy).batches[0]!;
    const rush = {
      returnedAt: NOW - 5 * MINUTE,
      bytes: 100_000,
      rush: true,
      entries: Array.from({ length: 100 }, (_, i) => {
        const n = 50_000 + i;
        return entryOf<Record<string, unknown>>(
          record(n, noisy(n)),
          NOW - 20 * MINUTE + i,
          record(n).submissionId,
          0,
        );
      }),
    };
    const entry = {
      ...kept(0),
      generation: 'g1',
      batches: [{ ...older, returnedAt: NOW - 2 * timings.holdMs }, rush],
    };
    const back = decodeWhole(packWithin(entry, timings, NOW).packed, timings.keptUnpackedCapBytes)!;
    // The rush's batch (waiting for the rush to drain) is whole; what is left of the cap keeps the newest others.
    expect(back.batches.at(-1)).toEqual(rush);
    const spareIds = back.batches.slice(0, -1).flatMap((batch) => batch.entries.map(({ id }) => id));
    const all = older.entries.map(({ id }) => id);
    expect(spareIds.length).toBeLessThan(1_000);
    expect(spareIds).toEqual(all.slice(all.length - spareIds.length));
  });

  it('while shares are owed, the records some Zap may lack keep an eighth of an answer, not a quarter', () => {
    const timings = POLL_TIMINGS;
    // Records returned 10 minutes ago (within the hold), measured at 1.5 eighths of an answer.
    const count = 1_000;
    const entry = { generation: 'g1', ...kept(count) };
    const batch = entry.batches[0]!;
    batch.bytes = Math.floor(timings.keptRecentOwingBytes * 1.5);
    const per = batch.bytes / count;
    for (const e of batch.entries) e.bytes = per;
    const steady = packWithin(entry, timings, NOW, false);
    expect(steady.spilled).toHaveLength(0);
    const owing = packWithin(entry, timings, NOW, true);
    // The oldest leave for owed shares; what stays fits in the eighth.
    expect(owing.spilled.length).toBeGreaterThan(count / 4);
    const back = decodeWhole(owing.packed, timings.keptUnpackedCapBytes)!;
    const left = back.batches.flatMap((b) => b.entries);
    expect(left.length + owing.spilled.length).toBe(count);
    expect(left.length * per).toBeLessThanOrEqual(timings.keptRecentOwingBytes);
    expect(owing.spilled.map(({ id }) => id)).toEqual(
      batch.entries.slice(0, owing.spilled.length).map(({ id }) => id),
    );
  });

  it('a steady poll writes a small tail; the whole entry is written again once the tail has grown', async () => {
    const { cache, store } = keptStoreOn();
    const first = kept(1_000, noisy);
    await store.write(first, first.batches, null);
    const whole = cache.bytesWritten;
    let read = await store.read(NOW);
    expect(read?.kept.batches).toHaveLength(1);
    const tails: number[] = [];
    for (let poll = 1; poll <= 30; poll += 1) {
      const written = cache.bytesWritten;
      const batch = {
        returnedAt: NOW - 10 * MINUTE + poll,
        bytes: 100,
        rush: false,
        entries: Array.from({ length: 20 }, (_, i) => {
          const n = 10_000 * poll + i;
          return entryOf<Record<string, unknown>>(
            record(n, noisy(n)),
            NOW - 30 * MINUTE + n,
            record(n).submissionId,
            0,
          );
        }),
      };
      const next = {
        ...read!.kept,
        settled: { ms: NOW - 3 * MINUTE + poll, id: '' },
        batches: [...read!.kept.batches, batch],
      };
      await store.write(next, [batch], read);
      tails.push(cache.bytesWritten - written);
      read = await store.read(NOW);
      // Whatever was written, the entry read back holds every batch and the newest settled position.
      expect(read?.kept.batches.flatMap((b) => b.entries)).toHaveLength(1_000 + 20 * poll);
      expect(read?.kept.settled).toEqual(next.settled);
    }
    // Most polls wrote a tail far smaller than the whole entry; some wrote the whole entry again.
    expect(tails.filter((bytes) => bytes < whole / 3).length).toBeGreaterThan(10);
    expect(tails.some((bytes) => bytes >= whole)).toBe(true);
  });

  it('a piece of the tail written again by a slower poll ends the tail there (concurrent polls)', async () => {
    const { cache, store } = keptStoreOn();
    const first = kept(200, noisy);
    await store.write(first, first.batches, null);
    const add = async (read: Awaited<ReturnType<typeof store.read>>, poll: number) => {
      const next = { ...read!.kept, settled: settledAt(poll), batches: [...read!.kept.batches, batch(poll)] };
      await store.write(next, [batch(poll)], read);
    };
    const seenBySlow = await store.read(NOW);
    await add(seenBySlow, 1);
    const keys = cache.keys().length;
    await add(await store.read(NOW), 2);
    // Each poll wrote a piece of its own under a key of its own.
    expect(cache.keys().length).toBe(keys + 1);
    let now = await store.read(NOW);
    expect(now?.kept.settled).toEqual(settledAt(2));
    expect(now?.kept.batches.flatMap((b) => b.entries.map(({ id }) => id))).toEqual(
      expect.arrayContaining(['sub_p1', 'sub_p2']),
    );
    // A slower poll that read the entry before either writes the first piece again: the second no longer
    // follows it, so the entry ends at the slower poll's settled position and the next poll reads from there.
    await add(seenBySlow, 3);
    now = await store.read(NOW);
    expect(now?.kept.settled).toEqual(settledAt(3));
    const ids = now?.kept.batches.flatMap((b) => b.entries.map(({ id }) => id));
    expect(ids).toContain('sub_p3');
    expect(ids).not.toContain('sub_p2');
  });

  it('once every key of the tail is taken, a poll adds a part to the last piece without packing it again', async () => {
    const { cache, store } = keptStoreOn();
    const first = kept(2_000, noisy);
    await store.write(first, first.batches, null);
    const lastKey = `:kept:tail${POLL_TIMINGS.keptTailPieces - 1}`;
    const stored = () => {
      const key = cache.keys().find((k) => k.endsWith(lastKey));
      return key ? ((cache.peek(key) as { v: string }).v ?? '') : '';
    };
    let read = await store.read(NOW);
    const values: string[] = [];
    for (let poll = 1; poll <= POLL_TIMINGS.keptTailPieces + 3; poll += 1) {
      const next = { ...read!.kept, settled: settledAt(poll), batches: [...read!.kept.batches, batch(poll)] };
      await store.write(next, [batch(poll)], read);
      read = await store.read(NOW);
      values.push(stored());
      expect(read?.kept.settled).toEqual(settledAt(poll));
      expect(read?.kept.batches.flatMap((b) => b.entries.map(({ id }) => id))).toContain(`sub_p${poll}`);
    }
    // The last key's value grows by a part each poll: what it held is kept as it was, not packed again.
    const last = values.slice(POLL_TIMINGS.keptTailPieces - 1);
    for (let i = 1; i < last.length; i += 1) {
      expect(last[i]!.startsWith(`${last[i - 1]},`)).toBe(true);
      expect(last[i]!.split(',')).toHaveLength(i + 1);
    }
    // A part that does not continue the chain ends the entry there: what follows is read again.
    const key = cache.keys().find((k) => k.endsWith(lastKey))!;
    const parts = stored().split(',');
    cache.poke(key, {
      ...(cache.peek(key) as object),
      v: [parts[0], 'br1:spoilt', ...parts.slice(1)].join(','),
    });
    const cut = await store.read(NOW);
    const ids = cut?.kept.batches.flatMap((b) => b.entries.map(({ id }) => id));
    const firstOfLast = POLL_TIMINGS.keptTailPieces;
    expect(ids).toContain(`sub_p${firstOfLast}`);
    expect(ids).not.toContain(`sub_p${firstOfLast + 1}`);
    expect(cut?.kept.settled).toEqual(settledAt(firstOfLast));
  });

  it('a tail written after another whole entry is ignored (concurrent polls)', async () => {
    const { store } = keptStoreOn();
    const first = kept(500, noisy);
    await store.write(first, first.batches, null);
    const seenByA = await store.read(NOW);
    // Another poll writes a whole entry of its own (a new generation) before A writes its tail.
    const other = { ...first, settled: { ms: NOW - 2 * MINUTE, id: '' } };
    await store.write(other, [], null);
    const batch = {
      returnedAt: NOW - MINUTE,
      bytes: 1,
      rush: false,
      entries: [entryOf<Record<string, unknown>>(record(9), NOW - 90_000, 'sub_late', 0)],
    };
    await store.write(
      { ...seenByA!.kept, settled: { ms: NOW - MINUTE, id: '' }, batches: [...seenByA!.kept.batches, batch] },
      [batch],
      seenByA,
    );
    const now = await store.read(NOW);
    expect(now?.kept.settled).toEqual(other.settled);
    expect(now?.kept.batches.flatMap((b) => b.entries).some(({ id }) => id === 'sub_late')).toBe(false);
  });
});
