/**
 * `z.cache` as Zapier's real cache behaves: a JSON store whose entries expire after their TTL and whose
 * `set(…, nx = true)` stores only when the key is free (core's test runner ignores both). Its clock can be
 * injected, so expiry follows a test's clock; a scenario can evict it or break it.
 */
export class FakeCache {
  broken = false;
  /** Calls of `set` with `nx` that stored, and that found the key taken. */
  readonly claims = { won: 0, lost: 0 };
  private readonly store = new Map<string, { json: string; expires: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  evict(): void {
    this.store.clear();
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

  readonly api = {
    get: async (key: string) => {
      if (this.broken) throw new Error('cache unavailable');
      const entry = this.live(key);
      return entry === undefined ? null : (JSON.parse(entry.json) as unknown);
    },
    set: async (key: string, value: unknown, ttl?: number | null, _scope?: unknown, nx?: boolean | null) => {
      if (this.broken) throw new Error('cache unavailable');
      if (nx) {
        if (this.live(key) !== undefined) {
          this.claims.lost++;
          return false;
        }
        this.claims.won++;
      }
      const expires = ttl ? this.now() + ttl * 1000 : Number.POSITIVE_INFINITY;
      this.store.set(key, { json: JSON.stringify(value), expires });
      return true;
    },
    delete: async (key: string) => {
      if (this.broken) throw new Error('cache unavailable');
      return this.store.delete(key);
    },
  };
}
