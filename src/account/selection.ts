/**
 * A bounded selection: the `limit` first items of a stream in a given order (the newest 3, the first page of
 * names), kept in a max-heap of at most `limit` items. Memory stays O(limit) and time O(n log limit) however
 * many items are offered, which is what lets an operation read a whole event of registrations.
 */
export class FirstN<T> {
  private readonly heap: T[] = [];

  /** `compare(a, b) < 0` when `a` comes before `b` in the wanted order. */
  constructor(
    readonly limit: number,
    private readonly compare: (a: T, b: T) => number,
  ) {}

  get size(): number {
    return this.heap.length;
  }

  /** Whether `item` would be kept now (it comes before the last kept one, or there is room). */
  wants(item: T): boolean {
    if (this.limit <= 0) return false;
    return this.heap.length < this.limit || this.compare(item, this.heap[0] as T) < 0;
  }

  /** Offers one item; returns whether it was kept (it may be dropped later by earlier ones). */
  offer(item: T): boolean {
    if (!this.wants(item)) return false;
    if (this.heap.length < this.limit) {
      this.heap.push(item);
      siftUp(this.heap, this.heap.length - 1, this.compare);
    } else {
      this.heap[0] = item;
      siftDown(this.heap, 0, this.compare);
    }
    return true;
  }

  /** The kept items in the wanted order. */
  sorted(): T[] {
    return [...this.heap].sort(this.compare);
  }
}

// Max-heaps in the wanted order: the top is the item that comes last (the first to drop).
const siftUp = <T>(heap: T[], index: number, compare: (a: T, b: T) => number): void => {
  let i = index;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (compare(heap[i] as T, heap[parent] as T) <= 0) break;
    [heap[i], heap[parent]] = [heap[parent] as T, heap[i] as T];
    i = parent;
  }
};

const siftDown = <T>(heap: T[], index: number, compare: (a: T, b: T) => number): void => {
  const n = heap.length;
  let i = index;
  for (;;) {
    const left = 2 * i + 1;
    const right = left + 1;
    let last = i;
    if (left < n && compare(heap[left] as T, heap[last] as T) > 0) last = left;
    if (right < n && compare(heap[right] as T, heap[last] as T) > 0) last = right;
    if (last === i) return;
    [heap[i], heap[last]] = [heap[last] as T, heap[i] as T];
    i = last;
  }
};

/** Newest first by `createdAt` (parsed once, as `ms`), ties by id descending: the order of every list. */
export const newestFirstOrder = (a: { ms: number; id: string }, b: { ms: number; id: string }): number =>
  b.ms - a.ms || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * The longest run of a stream's first items, in a given order, whose costs fit within `budget` (the first
 * item is always kept, whatever its cost): what a poll returns of its window, in bytes. Items arrive in any
 * order. The kept ones are in a max-heap (its top is the last of the run), and an item is dropped for good
 * once a better one pushed it out (`next()`: the first item after the run), so that a small item arriving
 * later cannot fill the gap and make the run skip one. Memory is bounded by the budget's worth of items.
 */
export class FirstWithin<T> {
  private readonly heap: T[] = [];
  private total = 0;
  private after: T | null = null;

  /** `compare(a, b) < 0` when `a` comes before `b` in the wanted order. */
  constructor(
    readonly budget: number,
    private readonly compare: (a: T, b: T) => number,
    private readonly cost: (item: T) => number,
  ) {}

  get size(): number {
    return this.heap.length;
  }

  /** Whether `item` could be in the run: it comes before every item the budget has pushed out. */
  wants(item: T): boolean {
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
