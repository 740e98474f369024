// Deviation switches: the sandbox answers the way a service that reads the interface document differently
// from docs/connect-contract.md might, so that `npm run conformance` can be shown to tell each one apart.
// They are off by default and sandbox-wide; set them with the `deviations` option or `--deviate a,b`.

export const DEVIATIONS = {
  'bare-arrays': 'lists (events, submissions, orders, floor plans, the catalog) answer a bare JSON array',
  'since-ignored': 'the submissions endpoint ignores `since` and answers every visible submission',
  'since-exclusive': '`since` is exclusive: a submission created exactly at `since` is left out',
  'since-seconds': '`since` is read to the second: its milliseconds are ignored (truncated)',
  'plain-errors': "every error answer is plain text (`404 Not Found`), not the contract's JSON body",
  'no-date': 'answers carry no `Date` header',
  'skewed-clock': 'the `Date` header runs 30 minutes ahead of the sandbox clock',
  'limit-rejected': 'a `limit` above 100 is 400 VALIDATION_ERROR instead of being clamped',
  'large-limits': 'the events list honours a `limit` up to 1000 instead of clamping it to 100',
  shuffle: 'every list (and each catalog page) comes back in a shuffled order',
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

  /** A list answer: the contract's envelope (with `extra` members such as paging), or a bare array. */
  listBody<T>(data: T[], extra: Record<string, unknown> = {}): { data: T[] } | T[] {
    return this.has('bare-arrays') ? data : { data, ...extra };
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
