/**
 * The run of a window a poll keeps: the longest run of a stream's first items, in a given order, whose costs
 * fit a budget (what a poll returns of its window, in bytes), and the two ways a poll holds its records
 * (`HeldRun`, `OffHeapRun`).
 */
import { siftDown, siftUp } from '../account/selection';
import { type Entry, entryOf } from './entry';
import type { Position } from './position';

/**
 * The longest run of a stream's first items, in a given order, whose costs fit within `budget` (the first
 * item is always kept, whatever its cost): what a poll returns of its window, in bytes. Items arrive in any
 * order. The kept ones are in a max-heap (its top is the last of the run), and an item is dropped for good
 * once a better one pushed it out (`next()`: the first item after the run), so that a small item arriving
 * later cannot fill the gap and make the run skip one. Memory is bounded by the budget's worth of items.
 */
export class FirstWithin<T extends K, K = T> {
  private readonly heap: T[] = [];
  private total = 0;
  private after: T | null = null;

  /** `compare(a, b) < 0` when `a` comes before `b` in the wanted order (it reads what `K` holds only). */
  constructor(
    readonly budget: number,
    private readonly compare: (a: K, b: K) => number,
    private readonly cost: (item: T) => number,
  ) {}

  get size(): number {
    return this.heap.length;
  }

  /** Whether `item` could be in the run: it comes before every item the budget has pushed out. */
  wants(item: K): boolean {
    return this.after === null || this.compare(item, this.after) < 0;
  }

  /** Offers one item; returns whether it is in the run now (a better one may push it out later). */
  offer(item: T): boolean {
    if (!this.wants(item)) return false;
    this.heap.push(item);
    this.total += this.cost(item);
    siftUp(this.heap, this.heap.length - 1, this.compare);
    let kept = true;
    while (this.total > this.budget && this.heap.length > 1) {
      const last = this.popLast();
      if (last === item) kept = false;
      if (this.after === null || this.compare(last, this.after) < 0) this.after = last;
    }
    return kept;
  }

  /** The run's items, in no order. */
  items(): readonly T[] {
    return this.heap;
  }

  /** The run, in the wanted order. */
  sorted(): T[] {
    return [...this.heap].sort(this.compare);
  }

  /** The first item after the run, when the budget cut the stream short; `null` when all of it fits. */
  next(): T | null {
    return this.after;
  }

  private popLast(): T {
    const heap = this.heap;
    const top = heap[0] as T;
    const end = heap.pop() as T;
    if (heap.length > 0) {
      heap[0] = end;
      siftDown(heap, 0, this.compare);
    }
    this.total -= this.cost(top);
    return top;
  }
}

/**
 * What a poll asks of a run of records it keeps while the answer streams by (the records are given with
 * their positions, never in an entry made for them: see `OffHeapRun`).
 */
export interface RecordRun<R> {
  /** Whether a record at `at` could be in the run. */
  wants(at: Position): boolean;
  /** Offers a record, at `at`, adding `bytes` to an answer. */
  add(record: R, at: Position, bytes: number): void;
  /** The run, in the wanted order. */
  sorted(): Entry<R>[];
  /** The first record after the run, when the budget cut the stream short. */
  next(): Position | null;
}

/** A run holding its records as they are: a run read oldest first, which few records enter and leave. */
export class HeldRun<R> implements RecordRun<R> {
  private readonly run: FirstWithin<Entry<R>, Position>;

  constructor(
    budget: number,
    compare: (a: Position, b: Position) => number,
    cost: (entry: Entry<R>) => number,
  ) {
    this.run = new FirstWithin<Entry<R>, Position>(budget, compare, cost);
  }

  wants(at: Position): boolean {
    return this.run.wants(at);
  }

  add(record: R, at: Position, bytes: number): void {
    this.run.offer(entryOf(record, at.ms, at.id, bytes));
  }

  sorted(): Entry<R>[] {
    return this.run.sorted();
  }

  next(): Position | null {
    return this.run.next();
  }
}

/** Where a record held by an `OffHeapRun` lies in its store: the bytes of its JSON. */
interface Slot {
  at: number;
  length: number;
}

/** The store an `OffHeapRun` starts with (it grows with its run). */
const FIRST_STORE_BYTES = 64 * 1024;

/**
 * A run kept newest first while the answer streams oldest first (a stateless poll's window, a range read
 * again): every record enters it and is pushed out later by newer ones. Held as objects, each lives long
 * enough to be moved to V8's old generation, where it stays, garbage, until a full collection: a poll reading
 * 100 MB again moved about 125 MiB there and peaked near 256 MB. Here a record is held as the bytes of its
 * JSON in one buffer (when it is full, what the run still holds is moved to its start, into a larger one
 * when that would fill over two thirds of it); the record given is garbage at once. Only the small
 * entries saying where each record lies live on, and V8 soon makes those in its old generation (where it
 * sees most of an allocation site's objects survive): the poll must not make the entries of records it may
 * not keep at the same place, or they would keep those records alive there. Its records are parsed again
 * when the run is read.
 */
export class OffHeapRun<R> implements RecordRun<R> {
  private readonly run: FirstWithin<Entry<Slot>, Position>;
  private store = Buffer.alloc(0);
  private used = 0;
  private read: Entry<R>[] | null = null;

  constructor(budget: number, compare: (a: Position, b: Position) => number) {
    this.run = new FirstWithin<Entry<Slot>, Position>(budget, compare, (entry) => entry.bytes);
  }

  wants(at: Position): boolean {
    return this.run.wants(at);
  }

  add(record: R, at: Position, bytes: number): void {
    if (!this.run.wants(at)) return;
    this.read = null;
    const json = JSON.stringify(record);
    const length = Buffer.byteLength(json);
    if (this.used + length > this.store.length) this.makeRoom(length);
    this.store.write(json, this.used);
    this.run.offer(entryOf({ at: this.used, length }, at.ms, at.id, bytes));
    this.used += length;
  }

  /** The run, in the wanted order (its records parsed again, once). */
  sorted(): Entry<R>[] {
    this.read ??= this.run.sorted().map((entry) => {
      const { at, length } = entry.record;
      const record = JSON.parse(this.store.toString('utf8', at, at + length)) as R;
      return entryOf(record, entry.ms, entry.id, entry.bytes);
    });
    return [...this.read];
  }

  next(): Position | null {
    return this.run.next();
  }

  /**
   * Room for `length` more bytes: what the run holds moved to the store's start, in the order it lies there
   * (each record moves down, never over one not moved yet), or copied to a store half as large again as
   * what is needed when that would fill over two thirds of this one.
   */
  private makeRoom(length: number): void {
    const held = [...this.run.items()].sort((a, b) => a.record.at - b.record.at);
    const needed = held.reduce((sum, entry) => sum + entry.record.length, length);
    const target =
      needed * 3 > this.store.length * 2
        ? Buffer.allocUnsafe(Math.max(FIRST_STORE_BYTES, Math.ceil(needed * 1.5)))
        : this.store;
    let at = 0;
    for (const entry of held) {
      this.store.copy(target, at, entry.record.at, entry.record.at + entry.record.length);
      entry.record.at = at;
      at += entry.record.length;
    }
    this.store = target;
    this.used = at;
  }
}
