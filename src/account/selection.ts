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

// Max-heaps in the wanted order: the top is the item that comes last (the first to drop). The polling
// room's run of a window (src/polling/run.ts) is built on them too.
export const siftUp = <T>(heap: T[], index: number, compare: (a: T, b: T) => number): void => {
  let i = index;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (compare(heap[i] as T, heap[parent] as T) <= 0) break;
    [heap[i], heap[parent]] = [heap[parent] as T, heap[i] as T];
    i = parent;
  }
};

export const siftDown = <T>(heap: T[], index: number, compare: (a: T, b: T) => number): void => {
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
