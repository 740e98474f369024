/**
 * The one shape the polling room holds a record in, wherever it is (the window, the kept entry, an owed
 * share): the record as the service gave it, its position (`createdAt` in ms and id: records are ordered by
 * it) and what it adds to an answer. The cache stores it shorter; only the codec of a packed value
 * (kept.ts) reads and writes that shape.
 */
import type { Position } from './position';

export interface Entry<R> extends Position {
  record: R;
  /**
   * What the record adds to an answer, in UTF-8 bytes (its item and a comma); 0 until measured (a record
   * a Zap being turned on read, or one an older version kept without its size).
   */
  bytes: number;
}

/** An entry: every entry is made here, its fields always in this order (one shape for the engine too). */
export const entryOf = <R>(record: R, ms: number, id: string, bytes: number): Entry<R> => ({
  record,
  ms,
  id,
  bytes,
});
