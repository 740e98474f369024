/**
 * The records a stream keeps in the cache (see the "kept" part of cursor.ts's comment): what its polls
 * returned during the last `keptMs`, in batches by the time a poll first returned them, with the two
 * positions that say what the entry covers. Stored compressed (brotli, base64) in parts:
 *
 * - the whole entry (`:kept`), written now and then, and
 * - the tail, the batches added since, in up to `keptTailPieces` pieces (`:kept:tail`, `:kept:tail1`, …),
 *   each with the settled position it continues and the one it reaches: a steady poll writes its own batch
 *   as a new piece, or, once every key is taken, adds it to the last piece as a part of its own (the parts
 *   there are kept as they were, never packed again; a part that does not continue the chain ends it).
 *   Once the tail would be larger than √(3 × the whole × a batch), in packed bytes (`tailPays`), the poll
 *   writes the whole entry again (a new generation; pieces of another generation are ignored).
 *
 * Concurrent polls write without waiting for each other: each write is true on its own (what it holds up to
 * its settled position; a piece is used only after the whole entry and the pieces it was written after),
 * and a record the surviving writes lack is after their settled position, so the next poll reads it again.
 *
 * An entry over its cap keeps its newest records and stays in use (`packWithin`): the records every Zap on
 * time has had leave it first, then the oldest others; those of them after the settled position are listed
 * by position (`shed`), since the next polls read them again. Those some Zap may still lack become owed shares
 * (owed.ts). An entry that unpacks to more than `keptUnpackedCapBytes` is treated as missing,
 * without unpacking more (`packWithin` never writes one).
 */
import { randomUUID } from 'node:crypto';
import * as zlib from 'node:zlib';
import * as z from 'zod';
import { lazy } from '../lazy';
import { type AccountCache, CACHE_FAILED, cacheRecord } from '../memory';
import { type Sized, forgetDecodings, rememberedDecoding } from './decoded';
import { type Entry, entryOf } from './entry';
import { type Position, comparePositions } from './position';
import type { PollTimings } from './timings';
import { slicesOf } from './slices';

/**
 * The records one poll added (`entries`), and when (`returnedAt`, client clock, ms). `bytes`: what they
 * added to an answer. `rush`: the poll's answer was full of new records: the batch (which may have reached
 * one Zap of the stream only) does not age until a poll's answer has room again, which stamps `returnedAt`
 * with its time.
 */
export interface KeptBatch<R> {
  returnedAt: number;
  bytes: number;
  rush: boolean;
  entries: Array<Entry<R>>;
}

export interface Kept<R> {
  /** Every record after `base` and at or before `settled` is in a batch, or left the entry. */
  base: Position;
  settled: Position;
  /** Oldest first. */
  batches: Array<KeptBatch<R>>;
  /**
   * Records a poll returned that left the entry (over its cap) while after `settled`: the next polls read
   * them again, and know by these that they are not new.
   */
  shed?: Position[];
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether `value` is an object `z.record` reads (zod's own test: a plain object, its constructor unchanged). */
const isPlainObject = (value: unknown): boolean => {
  if (!isObject(value)) return false;
  const made = value.constructor as { prototype?: unknown } | undefined;
  if (made === undefined) return true;
  const prototype = made.prototype;
  return isObject(prototype) && Object.prototype.hasOwnProperty.call(prototype, 'isPrototypeOf');
};

/*
 * The codec of the packed values (the kept entry's, its tail's and an owed share's). The cache stores short
 * keys (a batch `{f, b, p, e}`: `returnedAt`, `bytes`, `rush` as `1`, `entries`; the whole entry and a piece
 * of the tail `v`: the format, `g`: the generation, `s`: the shed positions as `[ms, id]`) and each record
 * as a list, `[ms, id, record, bytes]` (`bytes` left out while it is 0: an older version did not measure
 * it). They are read (once per value, into the named shape) and written here only. A value is read by hand,
 * not through a schema: it is the app's own JSON, just unpacked, and a poll reads thousands of records; each
 * check is the one a schema of that shape would make (an object with unknown keys dropped, or strict: no
 * other key), so that the same values read, the same way, and anything else reads as missing.
 */

/** A record as the cache stores it: its position, the record, and its bytes when measured. */
type StoredEntry<R> = [ms: number, id: string, record: R, bytes?: number];

/**
 * Whether `value` is an entry as `z.tuple([z.number(), z.string(), z.record(z.string(), z.unknown())])` reads
 * one: each part is looked at, as the tuple schema does.
 */
const isEntry = (value: unknown): value is StoredEntry<Record<string, unknown>> => {
  if (!Array.isArray(value) || value.length < 2 || value.length > 4) return false;
  const ms = typeof value[0] === 'number' && Number.isFinite(value[0]);
  const id = typeof value[1] === 'string';
  const record = isPlainObject(value[2]);
  const bytes = value.length < 4 || (typeof value[3] === 'number' && value[3] > 0);
  return ms && id && record && bytes;
};

/** The record as that tuple schema gives it back: its own `__proto__` key is left out. */
const asParsed = (record: Record<string, unknown>): Record<string, unknown> => {
  if (!Object.hasOwn(record, '__proto__')) return record;
  const parsed: Record<string, unknown> = {};
  for (const key of Object.keys(record)) if (key !== '__proto__') parsed[key] = record[key];
  return parsed;
};

/**
 * The stored entries of a batch (of the kept entry or of an owed share), each checked and read into the
 * named shape in one pass, in the list they came in (the value is just unpacked, and dropped whole when an
 * entry is not one; the records themselves are not copied).
 */
export const readEntries = (value: unknown): Array<Entry<Record<string, unknown>>> | null => {
  if (!Array.isArray(value)) return null;
  for (let i = 0; i < value.length; i += 1) {
    const stored: unknown = value[i];
    if (!isEntry(stored)) return null;
    value[i] = entryOf(asParsed(stored[2]), stored[0], stored[1], stored[3] ?? 0);
  }
  return value as Array<Entry<Record<string, unknown>>>;
};

/** An entry as the cache stores it (its bytes only once measured). */
const storedEntry = <R>(entry: Entry<R>): StoredEntry<R> =>
  entry.bytes > 0 ? [entry.ms, entry.id, entry.record, entry.bytes] : [entry.ms, entry.id, entry.record];

/** Entries as the cache stores them (a batch's, a share's). */
export const storedEntries = <R>(entries: Array<Entry<R>>): Array<StoredEntry<R>> => entries.map(storedEntry);

/** Whether `value` has no own key but `keys` (a strict object). */
const onlyKeys = (value: Record<string, unknown>, keys: readonly string[]): boolean =>
  Object.keys(value).every((key) => keys.includes(key));

/** A position as `PositionSchema` reads it: a finite `ms` and a string `id`, other keys dropped. */
const readPosition = (value: unknown): Position | null =>
  isObject(value) && typeof value.ms === 'number' && Number.isFinite(value.ms) && typeof value.id === 'string'
    ? { ms: value.ms, id: value.id }
    : null;

/** A stored batch, read into the named shape (other keys dropped), or `null`. */
const readBatch = (value: unknown): KeptBatch<Record<string, unknown>> | null => {
  if (!isObject(value) || typeof value.f !== 'number' || typeof value.b !== 'number') return null;
  if (value.p !== undefined && value.p !== 1) return null;
  const entries = readEntries(value.e);
  return entries && { returnedAt: value.f, bytes: value.b, rush: value.p === 1, entries };
};

/** Every stored batch of `value`, or `null` when it is not a list of them. */
const readBatches = (value: unknown): Array<KeptBatch<Record<string, unknown>>> | null => {
  if (!Array.isArray(value)) return null;
  const batches: Array<KeptBatch<Record<string, unknown>>> = [];
  for (const stored of value) {
    const batch = readBatch(stored);
    if (!batch) return null;
    batches.push(batch);
  }
  return batches;
};

/** The shed positions (`s`: a list of `[ms, id]`), or `null` when they are not that. */
const readShed = (value: unknown): Position[] | null =>
  Array.isArray(value) &&
  value.every(
    (pair) =>
      Array.isArray(pair) &&
      pair.length === 2 &&
      typeof pair[0] === 'number' &&
      Number.isFinite(pair[0]) &&
      typeof pair[1] === 'string',
  )
    ? (value as Array<[number, string]>).map(([ms, id]) => ({ ms, id }))
    : null;

const WHOLE_KEYS = ['v', 'g', 'base', 'settled', 'batches', 's'] as const;
const TAIL_KEYS = ['v', 'g', 'from', 'settled', 'batches'] as const;

/** A whole entry as stored, read (format 3), or `null`. */
const readWhole = (value: unknown): Whole | null => {
  if (!isObject(value) || value.v !== 3 || typeof value.g !== 'string' || !onlyKeys(value, WHOLE_KEYS))
    return null;
  const base = readPosition(value.base);
  const settled = readPosition(value.settled);
  const batches = readBatches(value.batches);
  const shed = value.s === undefined ? undefined : readShed(value.s);
  if (!base || !settled || !batches || shed === null) return null;
  return { generation: value.g, base, settled, batches, ...(shed ? { shed } : {}) };
};

/** A piece of the tail as stored: the batches added after `from` (the settled position it continues) up to `settled`. */
const readTail = (value: unknown): Tail | null => {
  if (!isObject(value) || value.v !== 3 || typeof value.g !== 'string' || !onlyKeys(value, TAIL_KEYS))
    return null;
  const from = readPosition(value.from);
  const settled = readPosition(value.settled);
  const batches = readBatches(value.batches);
  if (!from || !settled || !batches) return null;
  return { generation: value.g, from, settled, batches };
};

/** A batch as the cache stores it. */
const storedBatch = <R>(batch: KeptBatch<R>) => ({
  f: batch.returnedAt,
  b: batch.bytes,
  ...(batch.rush ? { p: 1 as const } : {}),
  e: storedEntries(batch.entries),
});

/** A whole entry as the cache stores it (before packing). */
export const storedWhole = <R>(whole: Whole<R>) => ({
  v: 3 as const,
  g: whole.generation,
  base: whole.base,
  settled: whole.settled,
  batches: whole.batches.map(storedBatch),
  ...(whole.shed?.length ? { s: whole.shed.map(({ ms, id }): [number, string] => [ms, id]) } : {}),
});

/** A piece of the tail as the cache stores it (before packing). */
export const storedTail = <R>(tail: Tail<R>) => ({
  v: 3 as const,
  g: tail.generation,
  from: tail.from,
  settled: tail.settled,
  batches: tail.batches.map(storedBatch),
});

const PREFIX = 'br1:';
/**
 * Brotli's quality 5: within a few percent of its best size at a tenth of the time. (Quality 4 packs a whole
 * entry of 2 MB as small at half the time, but a poll's batch about 6% larger: more bytes written a poll.)
 */
const QUALITY = 5;
/** A 256 KiB window: records repeat their neighbours' words, not the whole entry's; a small window keeps memory low. */
const WINDOW_BITS = 18;

/** The largest step a value is unpacked in (see `unpack`). */
const UNPACK_CHUNK_MAX = 8 * 1024 * 1024;

/** `json` (a value's JSON text) packed. */
const packJson = (json: Buffer): string => {
  const packed = zlib.brotliCompressSync(json, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: QUALITY,
      [zlib.constants.BROTLI_PARAM_LGWIN]: WINDOW_BITS,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: json.length,
    },
  });
  return PREFIX + packed.toString('base64');
};

export const pack = (value: unknown): string => packJson(Buffer.from(JSON.stringify(value)));

/**
 * The packed value and the bytes it unpacked to, or `null` when it is not one or unpacks to more than
 * `capBytes` (never unpacked past it).
 */
const unpackSized = (value: unknown, capBytes: number): Sized<unknown> | null => {
  if (typeof value !== 'string' || !value.startsWith(PREFIX)) return null;
  try {
    const packed = Buffer.from(value.slice(PREFIX.length), 'base64');
    // Unpacked in steps of 8 times its packed size (JSON packs to a sixth or so), up to 8 MiB and never more
    // than the cap, not 16 KiB at a time: a kept entry of 2.5 MB then takes one step instead of 150, and is
    // not copied again at the end.
    const step = Math.max(zlib.constants.Z_DEFAULT_CHUNK, packed.length * 8);
    const chunkSize = Math.min(UNPACK_CHUNK_MAX, Math.max(zlib.constants.Z_MIN_CHUNK, capBytes), step);
    const json = zlib.brotliDecompressSync(packed, { maxOutputLength: capBytes, chunkSize });
    return { decoded: JSON.parse(json.toString()), bytes: json.length };
  } catch {
    return null;
  }
};

/** The packed value, or `null` when it is not one or unpacks to more than `capBytes` (never unpacked past it). */
export const unpack = (value: unknown, capBytes: number): unknown =>
  unpackSized(value, capBytes)?.decoded ?? null;

/** A whole entry as stored (its generation: the write it is), or a piece of its tail. */
export type Whole<R = Record<string, unknown>> = Kept<R> & { generation: string };
export interface Tail<R = Record<string, unknown>> {
  generation: string;
  from: Position;
  settled: Position;
  batches: Array<KeptBatch<R>>;
}

/** `read` of a packed value, with the bytes it unpacked to. */
const sizedBy =
  <T>(read: (value: unknown) => T | null) =>
  (value: unknown, capBytes: number): Sized<T> | null => {
    const unpacked = unpackSized(value, capBytes);
    const decoded = unpacked && read(unpacked.decoded);
    return decoded ? { decoded, bytes: unpacked.bytes } : null;
  };
const sizedWhole = sizedBy(readWhole);
const sizedTail = sizedBy(readTail);

export const decodeWhole = (value: unknown, capBytes: number): Whole | null =>
  sizedWhole(value, capBytes)?.decoded ?? null;

export const decodeTail = (value: unknown, capBytes: number): Tail | null =>
  sizedTail(value, capBytes)?.decoded ?? null;

/** `decodeWhole` and `decodeTail` as a poll calls them: remembered by this worker (decoded.ts). */
const wholeOf = rememberedDecoding('whole', sizedWhole);
const tailOf = rememberedDecoding('tail', sizedTail);

const entryCount = (batches: Array<KeptBatch<unknown>>) =>
  batches.reduce((n, batch) => n + batch.entries.length, 0);

/**
 * What an entry weighs in the whole entry, for cutting it by shares of its weight: the bytes its poll
 * measured (stored with it), else the length of its stored JSON, measured once per entry.
 */
const weigherOf = () => {
  const weights = new WeakMap<object, number>();
  return (entry: Entry<unknown>): number => {
    if (entry.bytes > 0) return entry.bytes;
    const known = weights.get(entry);
    if (known !== undefined) return known;
    const weight = JSON.stringify(storedEntry(entry)).length + 1;
    weights.set(entry, weight);
    return weight;
  };
};

/**
 * `batches` less at least `drop` of their weight (`weigh`) and at least one entry: first from the batches
 * `first` picks (oldest batch first), then from the others (oldest batch first); a batch cut short keeps its
 * newest entries.
 */
const without = <R>(
  batches: Array<KeptBatch<R>>,
  drop: number,
  first: (batch: KeptBatch<R>) => boolean,
  weigh: (entry: Entry<R>) => number,
): { batches: Array<KeptBatch<R>>; dropped: Array<Entry<R>> } => {
  const oldestFirst = new Map(
    batches.map((batch) => [batch, [...batch.entries].sort((a, b) => a.ms - b.ms)]),
  );
  const cut = new Map<KeptBatch<R>, number>();
  let left = Math.max(drop, Number.MIN_VALUE);
  for (const pass of [first, (batch: KeptBatch<R>) => !first(batch)])
    for (const batch of batches) {
      if (!pass(batch)) continue;
      let n = 0;
      for (const entry of oldestFirst.get(batch) ?? []) {
        if (left <= 0) break;
        left -= weigh(entry);
        n += 1;
      }
      if (n) cut.set(batch, n);
    }
  const out: Array<KeptBatch<R>> = [];
  const dropped: Array<Entry<R>> = [];
  for (const batch of batches) {
    const n = cut.get(batch) ?? 0;
    const sorted = n > 0 ? (oldestFirst.get(batch) ?? []) : batch.entries;
    dropped.push(...sorted.slice(0, n));
    if (n >= batch.entries.length) continue;
    const entries = sorted.slice(n);
    const bytes = Math.round((batch.bytes * entries.length) / Math.max(batch.entries.length, 1));
    out.push({ ...batch, bytes, entries });
  }
  return { batches: out, dropped };
};

/** Whether some Zap polling on time may still lack the batch: returned less than `holdMs` ago, or in a rush. */
export const isRecent = (batch: KeptBatch<unknown>, now: number, timings: PollTimings): boolean =>
  batch.rush || batch.returnedAt > now - timings.holdMs;

/** What the recent batches add to an answer, as their polls measured it. */
const recentBytes = (batches: Array<KeptBatch<unknown>>, now: number, timings: PollTimings): number =>
  batches.reduce((sum, batch) => sum + (isRecent(batch, now, timings) ? batch.bytes : 0), 0);

/** The positions of the shed records still after `settled` (those at or before it are never read again). */
export const shedAfter = (shed: Position[] | undefined, settled: Position): Position[] =>
  (shed ?? []).flatMap(({ ms, id }) => (comparePositions({ ms, id }, settled) > 0 ? [{ ms, id }] : []));

/**
 * What the kept records some Zap may lack may add to an answer: a quarter, an eighth while a backlog is
 * `owing` (see `keptRecentOwingBytes`).
 */
const recentCapOf = (timings: PollTimings, owing: boolean): number =>
  owing ? timings.keptRecentOwingBytes : timings.keptRecentBytes;

/**
 * The whole entry packed within the caps, and the records it let go of that are still owed (`spilled`: to
 * be kept as owed shares). First, when the records some Zap on time may lack (`isRecent`) add more than
 * `recentCapOf` to an answer, the oldest of them leave it. Then, when it is over (in packed or unpacked
 * bytes), records leave it (the share that fits, measured, until it fits): first
 * those every Zap polling on time has had (returned more than `holdMs` before `now`, not waiting for a rush
 * to drain), oldest first, then the oldest of the others, which are spilled. The entry stays usable
 * whatever it lets go: its settled position is unchanged, so polls still read only after it; the records
 * it let go of after that position are listed by position (`shed`), so that those polls do not take them
 * for new.
 */
export const packWithin = <R>(
  whole: Whole<R>,
  timings: PollTimings,
  now: number,
  owing = false,
): { packed: string; spilled: Array<Entry<R>> } => {
  let batches = whole.batches;
  let shed = shedAfter(whole.shed, whole.settled);
  const spilled: Array<Entry<R>> = [];
  const spare = (batch: KeptBatch<R>) => !isRecent(batch, now, timings);
  const spareEntries = new Set(batches.filter(spare).flatMap((batch) => batch.entries));
  const weigh = weigherOf();
  const cut = (drop: number, first = spare) => {
    const out = without(batches, drop, first, weigh);
    batches = out.batches;
    shed = [...shed, ...shedAfter(out.dropped, whole.settled)];
    spilled.push(...out.dropped.filter((entry) => !spareEntries.has(entry)));
  };
  const weight = (pick: (batch: KeptBatch<R>) => boolean = () => true) =>
    batches.reduce(
      (sum, batch) => sum + (pick(batch) ? batch.entries.reduce((n, entry) => n + weigh(entry), 0) : 0),
      0,
    );
  // The records some Zap may lack fit in their cap; the oldest others become owed shares.
  const recent = recentBytes(batches, now, timings);
  const cap = recentCapOf(timings, owing);
  if (recent > cap) {
    const owed = (batch: KeptBatch<R>) => !spare(batch);
    cut(weight(owed) * (1 - (cap / recent) * 0.95), owed);
  }
  for (;;) {
    const value = { ...whole, batches, shed };
    const json = Buffer.from(JSON.stringify(storedWhole(value)));
    const packed = json.length <= timings.keptUnpackedCapBytes ? packJson(json) : null;
    if ((packed !== null && packed.length <= timings.keptCapBytes) || entryCount(batches) === 0)
      return { packed: packed ?? pack(storedWhole({ ...value, batches: [] })), spilled };
    // The share that fits, measured on this pass, less a tenth: one more pass is usually the last.
    const share = Math.min(
      timings.keptUnpackedCapBytes / json.length,
      packed === null ? 1 : timings.keptCapBytes / packed.length,
    );
    cut(weight() * (1 - share * 0.9));
  }
};

/**
 * Whether a poll writes the tail (`tailBytes` packed in all, of `tailBatches` batches) rather than the whole
 * entry (`wholeBytes` packed). Each poll reads the whole entry W and the tail, and writes one piece of the
 * tail (its own batch while there are keys for new pieces) or W. With batches of b bytes, a round of k
 * polls that add a piece and one that writes W moves about b + W / (k + 1) + k·b/2 a poll besides W read
 * (a piece written, the whole now and then, the tail read), least when the tail's k·b is about √(2·W·b)
 * and nearly as little up to √(3·W·b): the tail grows up to that, for fewer bytes written. Whatever the
 * interval between polls: polls every minute add small batches and fill the last piece with many, polls
 * every 15 minutes add a piece each.
 */
const tailPays = (tailBytes: number, tailBatches: number, wholeBytes: number): boolean =>
  tailBytes <= Math.sqrt((3 * wholeBytes * tailBytes) / Math.max(tailBatches, 1));

/** A piece of the tail as read: where it starts, its batches and its packed size. */
interface PieceRead {
  from: Position;
  batches: Array<KeptBatch<unknown>>;
  /** Its parts that continue the chain, as stored (packed, joined by `PART_SEPARATOR`). */
  value: string;
}

/** Between the packed parts of one piece of the tail (never in base64, nor in a codec's prefix). */
const PART_SEPARATOR = ',';

/** What a poll read of the kept entry: the entry, and what the write after it needs to know. */
export interface KeptRead {
  kept: Kept<unknown>;
  /** The whole entry's generation, and its packed value. */
  generation: string;
  wholeValue: string;
  /** The pieces of the tail that continue the whole entry, in order, and the settled position they reach. */
  pieces: PieceRead[];
  end: Position;
  /** The tail's keys that held anything (pieces of this generation or older): a new whole entry clears them. */
  held: number[];
}

const samePosition = (a: Position, b: Position) => comparePositions(a, b) === 0;

/**
 * The pieces of the tail that continue `whole`, in order: of its generation, each starting where the one
 * before ended (a piece another poll wrote again since is the end of the chain: what it lacks comes after
 * its settled position, so the next poll reads it again).
 */
const chainOf = (whole: Whole, values: unknown[], timings: PollTimings) => {
  const pieces: PieceRead[] = [];
  let end = whole.settled;
  for (const value of values) {
    const parts = typeof value === 'string' ? value.split(PART_SEPARATOR) : [];
    const kept: string[] = [];
    const batches: Array<KeptBatch<unknown>> = [];
    const from = end;
    for (const part of parts) {
      const piece = tailOf(part, timings.keptUnpackedCapBytes, timings.decodedHeldBytes);
      if (!piece || piece.generation !== whole.generation || !samePosition(piece.from, end)) break;
      kept.push(part);
      batches.push(...piece.batches);
      end = piece.settled;
    }
    if (kept.length) pieces.push({ from, batches, value: kept.join(PART_SEPARATOR) });
    // A part that does not continue the chain ends it: what it holds is after `end`, read again.
    if (kept.length < parts.length || !kept.length) break;
  }
  return { pieces, end };
};

/**
 * The piece a poll writes (its key's index and value) when that pays (`tailPays`): a new piece of its own
 * batch while there is a key for one, else the last piece again with a part of its batch added (the parts
 * already there are not packed again).
 */
const nextPiece = (
  previous: KeptRead,
  settled: Position,
  added: Array<KeptBatch<unknown>>,
  keys: number,
): { index: number; packed: string } | null => {
  const { pieces } = previous;
  const last = pieces[pieces.length - 1];
  const fresh = pieces.length < keys || !last;
  const index = fresh ? pieces.length : pieces.length - 1;
  const part = pack(
    storedTail({ generation: previous.generation, from: previous.end, settled, batches: added }),
  );
  const packed = fresh ? part : `${last.value}${PART_SEPARATOR}${part}`;
  const batches = fresh ? added : [...last.batches, ...added];
  const others = fresh ? pieces : pieces.slice(0, -1);
  const tailBytes = others.reduce((sum, piece) => sum + piece.value.length, packed.length);
  const tailBatches = others.reduce((sum, piece) => sum + piece.batches.length, batches.length);
  return tailPays(tailBytes, tailBatches, previous.wholeValue.length) ? { index, packed } : null;
};

/** A packed value in the cache (built once: a poll reads and writes several). */
export const PackedSchema = lazy(() => z.string());

/** The stream's kept entry in the account's cache. */
export const keptStore = (cache: AccountCache, key: string, timings: PollTimings) => {
  const packed = PackedSchema;
  const whole = cacheRecord(cache, `${key}:kept`, packed, timings.keptTtlSeconds);
  const tail = Array.from({ length: timings.keptTailPieces }, (_, i) =>
    cacheRecord(cache, `${key}:kept:tail${i ? i : ''}`, packed, timings.keptTtlSeconds),
  );
  return {
    /**
     * The entry (its batches of the last `keptMs` before `clientNow`), `null` when there is none, or
     * `CACHE_FAILED` when the cache failed to read the whole entry: it is not known, and may still be there.
     */
    read: async (clientNow: number): Promise<KeptRead | null | typeof CACHE_FAILED> => {
      const [w, ...pieceValues] = await Promise.all([
        whole.readKnown(),
        ...tail.map((piece) => piece.read()),
      ]);
      if (w === CACHE_FAILED) return w;
      const decoded = wholeOf(w, timings.keptUnpackedCapBytes, timings.decodedHeldBytes);
      if (!decoded || w === undefined) return null;
      const { pieces, end } = chainOf(decoded, pieceValues, timings);
      const all = [...decoded.batches, ...pieces.flatMap((piece) => piece.batches)];
      // A batch of a rush stays until the rush is drained. The others leave `keptMs` after their
      // poll, or later when the entry is larger than an answer: its slices come first a `holdMs` each.
      const bytes = all.reduce((sum, batch) => sum + batch.bytes, 0);
      const periods = slicesOf(bytes, timings.answerBudgetBytes) + 1;
      const lifetime = Math.max(timings.keptMs, periods * timings.holdMs);
      const fresh = (batch: KeptBatch<unknown>) => batch.rush || batch.returnedAt >= clientNow - lifetime;
      const batches = all.filter(fresh).sort((a, b) => a.returnedAt - b.returnedAt);
      return {
        kept: { base: decoded.base, settled: end, batches, shed: shedAfter(decoded.shed, end) },
        generation: decoded.generation,
        wholeValue: w,
        pieces,
        end,
        held: pieceValues.flatMap((value, i) => (value === undefined ? [] : [i])),
      };
    },
    /**
     * Writes what a poll adds (`added`, the entry now covering up to `next.settled`): a piece of the tail
     * while the tail stays small next to the whole it follows (`previous`), else the whole entry, a new
     * generation (always when the poll `restamped` batches that were waiting), and clears the old pieces.
     * `owing`: the stream owes a backlog, so the recent records' cap is the smaller one (`recentCapOf`).
     */
    write: async <R>(
      next: Kept<R>,
      added: Array<KeptBatch<R>>,
      previous: KeptRead | null,
      how: { restamped?: boolean; owing?: boolean } = {},
    ): Promise<Array<Entry<R>>> => {
      const { restamped = false, owing = false } = how;
      const latest = next.batches.reduce((at, batch) => Math.max(at, batch.returnedAt), 0);
      const within = recentBytes(next.batches, latest, timings) <= recentCapOf(timings, owing);
      const piece =
        previous && !restamped && within
          ? nextPiece(previous, next.settled, added, timings.keptTailPieces)
          : null;
      if (piece) {
        await tail[piece.index]?.write(piece.packed);
        return [];
      }
      const generation = randomUUID().slice(0, 8);
      const { packed, spilled } = packWithin({ ...next, generation }, timings, latest, owing);
      await whole.write(packed);
      // The pieces of the old generation are of no use now: cleared, later polls do not read them.
      await Promise.all((previous?.held ?? []).map((i) => tail[i]?.clear()));
      if (previous)
        forgetDecodings([
          previous.wholeValue,
          ...previous.pieces.flatMap((p) => p.value.split(PART_SEPARATOR)),
        ]);
      return spilled;
    },
  };
};
