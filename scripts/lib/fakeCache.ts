import { closeSync, openSync, readSync, writeFileSync } from 'node:fs';

/** Where a value of a saved cache lies in its file (after the index line), and when it expires (`null`: never). */
interface Saved {
  offset: number;
  length: number;
  expires: number | null;
}

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
  /** The entries of a saved cache, left in their file until a call reads one (`FakeCache.fromFile`). */
  private saved: { fd: number; start: number; index: Map<string, Saved> } | null = null;

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * A cache over what `save` wrote to `file`, whose values stay in the file until a call reads one: as
   * Zapier's cache keeps them away from the poll's process, so that a poll replayed alone holds only what it
   * reads (its memory is its own). What it writes is kept in memory.
   */
  static fromFile(file: string, now: () => number): FakeCache {
    const cache = new FakeCache(now);
    const fd = openSync(file, 'r');
    const chunks: Buffer[] = [];
    let start = -1;
    for (let at = 0; start < 0; ) {
      const chunk = Buffer.alloc(1 << 20);
      const read = readSync(fd, chunk, 0, chunk.length, at);
      if (read === 0) throw new Error(`${file}: no index line`);
      const end = chunk.subarray(0, read).indexOf(10);
      chunks.push(chunk.subarray(0, end < 0 ? read : end));
      if (end >= 0) start = at + end + 1;
      at += read;
    }
    const index = new Map(JSON.parse(Buffer.concat(chunks).toString()) as Array<[string, Saved]>);
    cache.saved = { fd, start, index };
    return cache;
  }

  /** Writes the live entries to `file` (an index line, then the values one after another), for `fromFile`. */
  save(file: string): void {
    const index: Array<[string, Saved]> = [];
    const values: Buffer[] = [];
    let offset = 0;
    for (const key of this.keys()) {
      const entry = this.live(key);
      if (!entry) continue;
      const value = Buffer.from(entry.json);
      const expires = Number.isFinite(entry.expires) ? entry.expires : null;
      index.push([key, { offset, length: value.length, expires }]);
      values.push(value);
      offset += value.length;
    }
    writeFileSync(file, Buffer.concat([Buffer.from(`${JSON.stringify(index)}\n`), ...values]));
  }

  /** Closes a saved cache's file (`fromFile`). */
  close(): void {
    if (this.saved) closeSync(this.saved.fd);
    this.saved = null;
  }

  evict(): void {
    this.store.clear();
    this.saved?.index.clear();
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
    this.saved?.index.delete(key);
  }

  /** Replaces the value under `key`, keeping its expiry. */
  poke(key: string, value: unknown): void {
    const entry = this.live(key);
    if (entry) this.store.set(key, { json: JSON.stringify(value), expires: entry.expires });
  }

  /** The live keys, for assertions. */
  keys(): string[] {
    const keys = new Set([...this.store.keys(), ...(this.saved?.index.keys() ?? [])]);
    return [...keys].filter((key) => this.live(key) !== undefined);
  }

  private live(key: string) {
    const entry = this.store.get(key) ?? this.readSaved(key);
    if (entry && entry.expires <= this.now()) {
      this.drop(key);
      return undefined;
    }
    return entry;
  }

  /** The entry under `key` in a saved cache's file, read from it now (`fromFile`). */
  private readSaved(key: string): { json: string; expires: number } | undefined {
    const at = this.saved?.index.get(key);
    if (!at || !this.saved) return undefined;
    const value = Buffer.alloc(at.length);
    readSync(this.saved.fd, value, 0, at.length, this.saved.start + at.offset);
    return { json: value.toString(), expires: at.expires ?? Number.POSITIVE_INFINITY };
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
      this.saved?.index.delete(key);
      return true;
    },
    delete: async (key: string) => {
      await this.fault();
      const had = this.store.has(key) || this.saved?.index.has(key) === true;
      this.drop(key);
      return had;
    },
  };
}
