// Deterministic pseudo-random numbers (mulberry32) and the identifier formats the sandbox hands out.
// Every sandbox instance owns its own generators, so two sandboxes built with the same clock produce the
// same data and the same identifiers in the same order.

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const HEX = '0123456789abcdef';

export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** An integer in [min, max]. */
  between(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[this.int(items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  /** Up to `count` distinct items, in a random order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const copy = items.slice();
    this.shuffle(copy);
    return copy.slice(0, Math.min(count, copy.length));
  }

  /** Fisher-Yates, in place. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const a = items[i] as T;
      items[i] = items[j] as T;
      items[j] = a;
    }
    return items;
  }

  hex(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += HEX[this.int(16)];
    return out;
  }

  base32(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += CROCKFORD[this.int(32)];
    return out;
  }

  /** A version-4 shaped UUID. */
  uuid(): string {
    const h = this.hex(32);
    const variant = HEX[8 + this.int(4)] as string;
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
}

/** Crockford base32 of a millisecond timestamp, 10 characters (as in a ULID, so ids sort by time). */
export function timePrefix(ms: number): string {
  let n = Math.max(0, Math.floor(ms));
  let out = '';
  for (let i = 0; i < 10; i++) {
    out = CROCKFORD[n % 32] + out;
    n = Math.floor(n / 32);
  }
  return out;
}
