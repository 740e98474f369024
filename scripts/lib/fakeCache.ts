/**
 * `z.cache` as Zapier's real cache behaves: a JSON store whose entries expire after their TTL and whose
 * `set(…, nx = true)` stores only when the key is free (core's test runner ignores both). Its clock can be
 * injected, so expiry follows a test's clock; a scenario can evict it or break it.
 */
export class FakeCache {
  broken = false;
  /**
   * The share of calls (0 to 1) that fail, picked by a fixed sequence so that a play replays exactly: half
   * of them throw at once, the others after a while, as a call that timed out.
   */
  failing = 0;
  /** Where the fixed sequence of `failing` starts: another seed picks other calls. */
  failSeed = 12345;
  /** Every `get` of a key it matches throws (the value stays there): a read that fails on every attempt. */
  failingReads: RegExp | null = null;
  /** Every `get` answers `null` and every `set` stores nothing (answers `null`), as a cache that lost its store. */
  nulls = false;
  /** Bytes of JSON read and written, and the largest value written under each key. */
  bytesRead = 0;
  bytesWritten = 0;
  readonly largest = new Map<string, number>();
  /** Calls of `set` with `nx`: the key, and whether it stored (`false`: the key was taken). */
  readonly claims: Array<{ key: string; won: boolean }> = [];
  private readonly store = new Map<string, { json: string; expires: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  evict(): void {
    this.store.clear();
  }

  /** How many `nx` claims of keys containing `part` stored (`won`) and found the key taken (`lost`). */
  claimsOf(part: string): { won: number; lost: number } {
    const mine = this.claims.filter((claim) => claim.key.includes(part));
    const won = mine.filter((claim) => claim.won).length;
    return { won, lost: mine.length - won };
  }

  /** The value stored under `key` (as the app wrote it), for tests that tamper with it. */
  peek(key: string): unknown {
    const entry = this.live(key);
    return entry ? (JSON.parse(entry.json) as unknown) : undefined;
  }

  /** Drops one key, as a cache that evicts it. */
  drop(key: string): void {
    this.store.delete(key);
  }

  /** Replaces the value under `key`, keeping its expiry. */
  poke(key: string, value: unknown): void {
    const entry = this.live(key);
    if (entry) this.store.set(key, { json: JSON.stringify(value), expires: entry.expires });
  }

  /** The live keys, for assertions. */
  keys(): string[] {
    return [...this.store.keys()].filter((key) => this.live(key) !== undefined);
  }

  private live(key: string) {
    const entry = this.store.get(key);
    if (entry && entry.expires <= this.now()) {
      this.store.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Throws when this call is one of the failing ones (`broken`, or picked by `failing`). */
  private async fault(): Promise<void> {
    if (this.broken) throw new Error('cache unavailable');
    if (this.failing <= 0) return;
    this.failSeed = (this.failSeed * 1664525 + 1013904223) >>> 0;
    const pick = this.failSeed / 2 ** 32;
    if (pick >= this.failing) return;
    if (pick < this.failing / 2) throw new Error('cache unavailable');
    await new Promise((resolve) => setImmediate(resolve));
    throw new Error('cache call timed out');
  }

  readonly api = {
    get: async (key: string) => {
      await this.fault();
      if (this.failingReads?.test(key)) throw new Error('cache call timed out');
      if (this.nulls) return null;
      const entry = this.live(key);
      if (entry === undefined) return null;
      this.bytesRead += entry.json.length;
      return JSON.parse(entry.json) as unknown;
    },
    set: async (key: string, value: unknown, ttl?: number | null, _scope?: unknown, nx?: boolean | null) => {
      await this.fault();
      if (this.nulls) return null;
      if (nx) {
        const won = this.live(key) === undefined;
        this.claims.push({ key, won });
        if (!won) return false;
      }
      const expires = ttl ? this.now() + ttl * 1000 : Number.POSITIVE_INFINITY;
      const json = JSON.stringify(value);
      this.bytesWritten += json.length;
      this.largest.set(key, Math.max(this.largest.get(key) ?? 0, json.length));
      this.store.set(key, { json, expires });
      return true;
    },
    delete: async (key: string) => {
      await this.fault();
      return this.store.delete(key);
    },
  };
}
