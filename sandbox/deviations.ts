// Deviation switches: the sandbox answers the way a service that reads the interface document differently
// from docs/connect-contract.md might, so that `npm run conformance` can be shown to tell each one apart.
// They are off by default and sandbox-wide; set them with the `deviations` option or `--deviate a,b`.

export const DEVIATIONS = {
  'bare-arrays': 'lists (events, submissions, orders, floor plans, the catalog) answer a bare JSON array',
  'items-envelope': 'lists answer `{ "items": [...], "next": null }` instead of `{ "data": [...] }`',
  'snake-case':
    "records have snake_case field names (`created_at`, `event_id`), and a registration's identifier is `id`",
  'since-ignored': 'the submissions endpoint ignores `since` and answers every visible submission',
  'since-exclusive': '`since` is exclusive: a submission created exactly at `since` is left out',
  'since-seconds': '`since` is read to the second: its milliseconds are ignored (truncated)',
  'plain-errors': "every error answer is plain text (`404 Not Found`), not the contract's JSON body",
  'error-type': 'every error body is `{ "error": { "type": "not_found", "message" } }`, without `code`',
  'no-date': 'answers carry no `Date` header',
  'skewed-clock': 'the `Date` header runs 30 minutes ahead of the sandbox clock',
  'limit-rejected': 'a `limit` above 100 is 400 VALIDATION_ERROR instead of being clamped',
  'large-limits': 'the events list honours a `limit` up to 1000 instead of clamping it to 100',
  shuffle: 'every list (and each catalog page) comes back in a shuffled order',
  'hook-key-unread': '`POST …/hooks` ignores an `Idempotency-Key`: every request makes a new subscription',
} as const;

export type Deviation = keyof typeof DEVIATIONS;

export const DEVIATION_NAMES = Object.keys(DEVIATIONS) as Deviation[];

/** How far the `Date` header runs ahead with `skewed-clock`. */
export const SKEWED_CLOCK_MS = 30 * 60 * 1000;

/** Reads a list of deviation names (`bare-arrays,no-date`); throws naming the unknown one. */
export function parseDeviations(raw: string): Deviation[] {
  const names = raw
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  for (const name of names) {
    if (!(DEVIATION_NAMES as string[]).includes(name)) {
      throw new Error(`unknown deviation "${name}" (known: ${DEVIATION_NAMES.join(', ')})`);
    }
  }
  return names as Deviation[];
}

/** `createdAt` → `created_at`. */
const snakeName = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A JSON value with every object key in snake_case, at every level. */
const snakeCased = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(snakeCased);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [snakeName(key), snakeCased(v)]));
};

/** How a list answer is written: what opens and closes it, and how each record is written. */
export interface ListShape {
  open: string;
  close: string;
  record(json: object): unknown;
}

/** How an error answer is written: the contract's JSON body, plain text, or `{ error: { type, message } }`. */
export type ErrorStyle = 'contract' | 'plain' | 'typed';

/** The switches of one sandbox. */
export class DeviationSet {
  private readonly on: Set<Deviation>;

  constructor(deviations: readonly Deviation[] = []) {
    this.on = new Set(deviations);
  }

  has(deviation: Deviation): boolean {
    return this.on.has(deviation);
  }

  list(): Deviation[] {
    return DEVIATION_NAMES.filter((name) => this.on.has(name));
  }

  /**
   * One record as answered: as the contract writes it, or in snake_case with `snake-case` (where the
   * record's own identifier, named `ownId` in the contract, becomes `id`).
   */
  record(json: object, ownId = 'id'): unknown {
    if (!this.has('snake-case')) return json;
    const { [ownId]: id, ...rest } = json as Record<string, unknown>;
    return snakeCased(ownId === 'id' ? json : { id, ...rest });
  }

  /** A list answer: the contract's envelope (with `extra` members such as paging), a bare array or `items`. */
  listBody(data: object[], extra: Record<string, unknown> = {}): unknown {
    const items = data.map((json) => this.record(json));
    if (this.has('bare-arrays')) return items;
    if (this.has('items-envelope')) return { items, next: null };
    return { data: items, ...extra };
  }

  /** The same for a list written piece by piece (the submissions of an event). */
  listShape(ownId = 'id'): ListShape {
    const record = (json: object) => this.record(json, ownId);
    if (this.has('bare-arrays')) return { open: '[', close: ']', record };
    if (this.has('items-envelope')) return { open: '{"items":[', close: '],"next":null}', record };
    return { open: '{"data":[', close: ']}', record };
  }

  /** How error answers are written. */
  errorStyle(): ErrorStyle {
    if (this.has('plain-errors')) return 'plain';
    return this.has('error-type') ? 'typed' : 'contract';
  }

  /** The `since` a submissions query is answered from (epoch ms; -Infinity when it is ignored). */
  effectiveSince(sinceMs: number): number {
    if (this.has('since-ignored')) return -Infinity;
    if (this.has('since-seconds')) return Math.floor(sinceMs / 1000) * 1000;
    if (this.has('since-exclusive')) return sinceMs + 1;
    return sinceMs;
  }

  /** The `Date` header of an answer at `nowMs`, or null for none. */
  dateHeader(nowMs: number): string | null {
    if (this.has('no-date')) return null;
    return new Date(nowMs + (this.has('skewed-clock') ? SKEWED_CLOCK_MS : 0)).toUTCString();
  }
}
