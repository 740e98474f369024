/**
 * The run of a window a poll keeps: the longest run of a stream's first items, in a given order, whose costs
 * fit a budget (what a poll returns of its window, in bytes).
 */
import { siftDown, siftUp } from '../account/selection';

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
