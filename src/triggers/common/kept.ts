/**
 * The records a since-stream keeps in its cache entry (see the "kept" part of the module comment of
 * cursor.ts): what its polls returned during the last `keptMs`, in batches by the time a poll first returned
 * them, with the two positions that say what the entry covers. Stored compressed (brotli, base64) under its
 * own key, next to the small state, so that the state can be merged cheaply and the records written once.
 */
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import { type Position, isFiniteNumber, parsePosition } from './cursor';

/** A kept record: its position (`createdAt` in ms, id) and the record as the poll returned it. */
export type KeptEntry<R> = [ms: number, id: string, record: R];

/** The records one poll added, and when (client clock, ms). `b`: what they add to an answer, in bytes. */
export interface KeptBatch<R> {
  f: number;
  b: number;
  e: Array<KeptEntry<R>>;
}

export interface Kept<R> {
  v: 1;
  /** Every record after `base` and at or before `settled` is in a batch, or left the entry (`keptMs`). */
  base: Position;
  settled: Position;
  /** Oldest first. */
  batches: Array<KeptBatch<R>>;
}

const PREFIX = 'br1:';
/** Brotli's quality 5: within a few percent of its best size at a tenth of the time. */
const QUALITY = 5;

export const encodeKept = <R>(kept: Kept<R>): string => {
  const json = Buffer.from(JSON.stringify(kept));
  const packed = brotliCompressSync(json, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: json.length,
    },
  });
  return PREFIX + packed.toString('base64');
};

const isEntry = (value: unknown): value is KeptEntry<unknown> =>
  Array.isArray(value) &&
  value.length === 3 &&
  isFiniteNumber(value[0]) &&
  typeof value[1] === 'string' &&
  typeof value[2] === 'object' &&
  value[2] !== null;

const batchOf = (value: unknown): KeptBatch<unknown> | null => {
  const b = value as Partial<KeptBatch<unknown>> | null;
  return b &&
    typeof b === 'object' &&
    isFiniteNumber(b.f) &&
    isFiniteNumber(b.b) &&
    Array.isArray(b.e) &&
    b.e.every(isEntry)
    ? { f: b.f, b: b.b, e: b.e }
    : null;
};

/** A stored entry, or `null` for anything that is not one (missing, cut, foreign, an overflow marker). */
export const decodeKept = (value: unknown): Kept<unknown> | null => {
  if (typeof value !== 'string' || !value.startsWith(PREFIX)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(brotliDecompressSync(Buffer.from(value.slice(PREFIX.length), 'base64')).toString());
  } catch {
    return null;
  }
  const kept = parsed as Partial<Record<keyof Kept<unknown>, unknown>> | null;
  if (!kept || typeof kept !== 'object' || kept.v !== 1 || !Array.isArray(kept.batches)) return null;
  const base = parsePosition(kept.base);
  const settled = parsePosition(kept.settled);
  const batches = kept.batches.map(batchOf);
  if (!base || !settled || batches.some((b) => b === null)) return null;
  return { v: 1, base, settled, batches: (batches as Array<KeptBatch<unknown>>).sort((a, b) => a.f - b.f) };
};

/** What an entry that could not be kept is replaced with: the next poll reads the window instead. */
export const KEPT_OVERFLOW = 'overflow';
