/**
 * How a range read again from the service spreads over time: its records' bytes by time, in a fixed number
 * of buckets whatever the range holds. What a poll could not hold of the range is then owed as ranges of
 * known size, each read again on its own (its request from just before its start): the newest first, so
 * that reading a range again in parts costs the service what lies after each part, not the whole range at
 * every turn.
 */
import { type Position, at, comparePositions } from './position';

/** Buckets of a range: a day's range is counted by the 21 s. */
const BUCKETS = 4096;

/** A range's part: its positions (`from`, `to`] and the bytes its records added to an answer when read. */
export interface RangePart {
  from: Position;
  to: Position;
  bytes: number;
}

export class RangeSpread {
  private readonly bytes = new Float64Array(BUCKETS);
  private readonly widthMs: number;

  constructor(private readonly range: { from: Position; to: Position }) {
    this.widthMs = Math.max(1, Math.ceil((range.to.ms - range.from.ms + 1) / BUCKETS));
  }

  private bucketOf(ms: number): number {
    return Math.min(BUCKETS - 1, Math.max(0, Math.floor((ms - this.range.from.ms) / this.widthMs)));
  }

  /** Counts a record of the range read (its time and what it adds to an answer). */
  add(ms: number, bytes: number): void {
    const bucket = this.bucketOf(ms);
    this.bytes[bucket] = (this.bytes[bucket] ?? 0) + bytes;
  }

  /**
   * The range from its start up to `to` (included) as consecutive parts of at most `partBytes` each (one
   * bucket over it is a part of its own), newest first. A part ends where a bucket starts, so a record is
   * in one part only; the bucket of `to` counts the records after it too (a part is never under-counted).
   */
  partsUpTo(to: Position, partBytes: number): RangePart[] {
    const parts: RangePart[] = [];
    let upper = to;
    let bytes = 0;
    for (let bucket = this.bucketOf(to.ms); bucket >= 0; bucket -= 1) {
      const adding = this.bytes[bucket] ?? 0;
      const lower = at(this.range.from.ms + (bucket + 1) * this.widthMs);
      if (bytes > 0 && bytes + adding > partBytes && comparePositions(lower, upper) < 0) {
        parts.push({ from: lower, to: upper, bytes });
        upper = lower;
        bytes = 0;
      }
      bytes += adding;
    }
    parts.push({ from: this.range.from, to: upper, bytes });
    return parts;
  }
}
