// Idempotency-Key store for POST /api/v1/checkin (docs/connect-contract.md §4): scoped to the API key, kept at least
// 24 h, same key + same body replays, different body is 422, a request still in flight is 409.

export interface StoredResponse {
  statusCode: number;
  /** The serialised JSON body, replayed byte for byte. */
  body: string;
}

interface Entry {
  fingerprint: string;
  createdMs: number;
  response: StoredResponse | null; // null while the first request is in flight
}

export type Lookup =
  | { kind: 'new' }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'in_flight' }
  | { kind: 'reused' };

export class IdempotencyStore {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly now: () => number,
    private readonly ttlMs: number = 24 * 60 * 60 * 1000,
    /** A memory bound for long load runs: beyond it the oldest keys go first, even if younger than ttl. */
    private readonly maxEntries: number = 1_000_000,
  ) {}

  private static scope(apiKey: string, key: string): string {
    return `${apiKey}\u0000${key}`;
  }

  /** Looks the key up; when it is new, reserves it (in flight) for this fingerprint. */
  begin(apiKey: string, key: string, fingerprint: string): Lookup {
    const scoped = IdempotencyStore.scope(apiKey, key);
    const now = this.now();
    this.expire(now);
    const entry = this.entries.get(scoped);
    if (entry && entry.createdMs + this.ttlMs > now) {
      if (entry.fingerprint !== fingerprint) return { kind: 'reused' };
      if (entry.response === null) return { kind: 'in_flight' };
      return { kind: 'replay', response: entry.response };
    }
    if (entry) this.entries.delete(scoped);
    this.entries.set(scoped, { fingerprint, createdMs: now, response: null });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    return { kind: 'new' };
  }

  complete(apiKey: string, key: string, response: StoredResponse): void {
    const entry = this.entries.get(IdempotencyStore.scope(apiKey, key));
    if (entry) entry.response = response;
  }

  /** The first request failed unexpectedly: forget the key so that a retry is processed afresh. */
  abandon(apiKey: string, key: string): void {
    this.entries.delete(IdempotencyStore.scope(apiKey, key));
  }

  get size(): number {
    return this.entries.size;
  }

  /** Map iteration is insertion order, so the oldest entries come first: drop expired ones from the front. */
  private expire(now: number): void {
    let budget = 64;
    for (const [k, e] of this.entries) {
      if (budget-- === 0 || e.createdMs + this.ttlMs > now || e.response === null) return;
      this.entries.delete(k);
    }
  }
}
