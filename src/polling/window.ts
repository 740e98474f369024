/**
 * What a poll keeps of its window while the answer streams by, and which records it returns: the new ones
 * first (oldest first up to the answer budget, or the newest ones for a stateless poll), then, in what is
 * left of the budget, the kept records again (oldest first) for Zaps that Zapier held.
 */
import { FirstWithin } from '../account/selection';
import { type Kept, type KeptBatch, shedAfter } from './kept';
import { type Position, at, comparePositions, earlier } from './position';
import type { Checkpoint, Plan, SinceKind } from './state';
import type { PollTimings } from './timings';
import { sharesOf } from './shares';

export interface Entry<R> {
  record: R;
  ms: number;
  id: string;
  /** What the record adds to the answer, in UTF-8 bytes (its item and a comma). */
  bytes: number;
}

export interface Selection<R> {
  selected: Entry<R>[];
  /** The last record returned when the budget cut the oldest-first run short, else `null`. */
  lastReturned: Position | null;
  /** The record before the first returned when the budget cut the newest-first run short, else `null`. */
  lastLeft: Position | null;
}

const positionOf = <R>(entry: Entry<R> | null | undefined): Position | null =>
  entry ? { ms: entry.ms, id: entry.id } : null;

/**
 * The run a poll keeps, fed record by record in any order: a dedupe poll the newest `maxDedupeItems` (ids
 * only); otherwise one contiguous run within `budgetBytes` (never empty when there is anything), from the
 * oldest end for a stateful or kept poll (what is about to leave the window first, and a backlog in order),
 * from the newest end for a stateless one. Memory is bounded by the run, however large the window.
 */
const runOf = <R>(kind: SinceKind, mode: Plan['mode'], budgetBytes: number, maxDedupeItems: number) => {
  const newestFirst = (a: Entry<R>, b: Entry<R>) => comparePositions(b, a);
  if (kind === 'dedupe') return new FirstWithin<Entry<R>>(maxDedupeItems, newestFirst, () => 1);
  const order = mode === 'stateless' ? newestFirst : comparePositions;
  return new FirstWithin<Entry<R>>(budgetBytes, order, (entry) => entry.bytes);
};

/** What a run tells the close of the poll: where it was cut short by its budget, if it was. */
const selectionOf = <R>(run: FirstWithin<Entry<R>>, kind: SinceKind, mode: Plan['mode']): Selection<R> => {
  const kept = run.sorted();
  const next = positionOf(run.next());
  if (kind !== 'dedupe' && mode !== 'stateless') {
    return { selected: kept, lastReturned: next ? positionOf(kept[kept.length - 1]) : null, lastLeft: null };
  }
  return { selected: kept.reverse(), lastReturned: null, lastLeft: next };
};

/** The records a poll returns, from entries in any order (see `runOf`). */
export const selectEntries = <R>(
  entries: Entry<R>[],
  kind: SinceKind,
  mode: Plan['mode'],
  timings: PollTimings,
  budgetBytes: number = timings.answerBudgetBytes,
): Selection<R> => {
  const run = runOf<R>(kind, mode, budgetBytes, timings.maxDedupeItems);
  for (const entry of entries) run.offer(entry);
  return selectionOf(run, kind, mode);
};

/** The records a poll returns (newest first) and what the close of the poll remembers of it. */
export interface PollSelection<R> {
  records: R[];
  /** The checkpoint the poll adds, if it can place one in time. */
  checkpoint: Checkpoint | null;
  /** Where the state starts, when this (stateless) poll creates it. */
  base: Position | null;
  /** The client's clock minus the service's, when measured. */
  offset: number | null;
  /** The stream's kept records after this poll, and the batch it adds, if it can tell what they cover. */
  kept: { next: Kept<R>; added: Array<KeptBatch<R>>; restamped: boolean } | null;
}

/** What the window needs to know of its poll. */
export interface WindowPoll {
  kind: SinceKind;
  plan: Plan;
  kept: Kept<unknown> | null;
  /** The client's clock minus the service's, as the stream last measured it. */
  offset: number | null;
  started: number;
  now: () => number;
  timings: PollTimings;
}

/** How a stream's records are told apart and sized. */
export interface RecordShape<R> {
  idOf: (record: R) => string;
  /** What one record adds to the answer, in UTF-8 bytes of JSON (its item as the answer carries it). */
  sizeOf?: (record: R) => number;
}

const utf8Bytes = (record: unknown) => Buffer.byteLength(JSON.stringify(record));

/** A small, stable hash of an id (FNV-1a). */
const hashOf = (id: string): number => {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i += 1) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193) >>> 0;
  return h;
};

interface KeptRecord<R> {
  record: R;
  ms: number;
  id: string;
}

/**
 * The poll's window (`visit`, record by record, in any order): only the records after the plan's start,
 * each id once, and of those only the run the poll returns. A day of registrations is never held whole.
 */
export class PollWindow<R extends { createdAt: string }> {
  private readonly run: FirstWithin<Entry<R>>;
  /** A stateful poll: the records of its window some poll already returned, oldest first. */
  private readonly rerun: FirstWithin<Entry<R>>;
  private readonly seen = new Set<string>();
  /** The kept records by batch: returned again in what the new ones leave of the budget. */
  private readonly kept: Array<{ batch: KeptBatch<R>; entries: KeptRecord<R>[] }> = [];
  private newest = -Infinity;
  private readonly sizeOf: (record: R) => number;

  constructor(
    private readonly poll: WindowPoll,
    private readonly shape: RecordShape<R>,
  ) {
    this.sizeOf = shape.sizeOf ?? utf8Bytes;
    for (const batch of (poll.kept?.batches ?? []) as Array<KeptBatch<R>>) {
      const entries: KeptRecord<R>[] = [];
      for (const [ms, id, record] of batch.e) {
        if (this.seen.has(id)) continue;
        this.seen.add(id);
        entries.push({ record, ms, id });
      }
      this.kept.push({ batch, entries: entries.sort(comparePositions) });
    }
    // Returned, then shed from the entry (over its cap): read again, but not new.
    for (const [, id] of poll.kept?.shed ?? []) this.seen.add(id);
    const { timings } = poll;
    this.run = runOf<R>(poll.kind, poll.plan.mode, timings.answerBudgetBytes, timings.maxDedupeItems);
    this.rerun = runOf<R>(poll.kind, poll.plan.mode, timings.answerBudgetBytes, timings.maxDedupeItems);
  }

  /** Reads one record of the answer. */
  readonly visit = (record: R): void => {
    const ms = Date.parse(record.createdAt);
    const id = this.shape.idOf(record);
    if (!Number.isFinite(ms) || comparePositions({ ms, id }, this.poll.plan.after) <= 0) return;
    if (this.seen.has(id)) return;
    this.seen.add(id);
    this.newest = Math.max(this.newest, ms);
    const { returned } = this.poll.plan;
    const again = returned && comparePositions({ ms, id }, returned) <= 0;
    const run = again ? this.rerun : this.run;
    const entry = { record, ms, id, bytes: 0 };
    // Past what the budget already pushed out (a backlog's later records): not sized, not kept.
    if (!run.wants(entry)) return;
    if (this.poll.kind !== 'dedupe') entry.bytes = this.sizeOf(record) + 1;
    run.offer(entry);
  };

  /**
   * The kept records returned again in what `used` leaves of the budget: all of them when they fit. When
   * they do not (after a rush), every poll of a `holdMs` slot returns the same share of them first (ids
   * hashed into `n` shares, a different share each slot), so that each Zap polling on time (at least once
   * a slot) is given every share within `n` slots; what is left of the budget takes the oldest others.
   */
  private again(used: number): KeptRecord<R>[] {
    const left = this.poll.timings.answerBudgetBytes - used;
    if (left <= 0) return [];
    const all = this.kept.flatMap(({ entries }) => entries).sort(comparePositions);
    // Sized as their batches recorded them: only the records that are tried are sized again.
    const total = this.kept.reduce((sum, { batch }) => sum + batch.b, 0);
    const n = sharesOf(total, left);
    const share = Math.floor(this.poll.started / this.poll.timings.holdMs) % n;
    const first = n === 1 ? all : all.filter((entry) => hashOf(entry.id) % n === share);
    const out: KeptRecord<R>[] = [];
    const taken = new Set<string>();
    let room = left;
    for (const entry of [...first, ...all]) {
      if (taken.has(entry.id)) continue;
      const bytes = this.sizeOf(entry.record) + 1;
      if (bytes > room) break;
      room -= bytes;
      taken.add(entry.id);
      out.push(entry);
    }
    return out;
  }

  /** A stateful poll's records returned again: the oldest of its window that fit in what `used` leaves. */
  private rerunFitting(used: number): Entry<R>[] {
    let room = this.poll.timings.answerBudgetBytes - used;
    const out: Entry<R>[] = [];
    for (const entry of this.rerun.sorted()) {
      if (entry.bytes > room) break;
      room -= entry.bytes;
      out.push(entry);
    }
    return out;
  }

  /**
   * The service's clock when it answered, bounded: its `Date` header (else the newest `createdAt` read),
   * never later than the app's own clock, nor than the app's clock minus the offset earlier polls measured
   * (a header or a record dated ahead must not make the poll skip what it has not read).
   */
  private answeredBy(serverTime: number | null, answeredAt: number): number | null {
    const measured = serverTime !== null && Number.isFinite(serverTime) ? serverTime : null;
    const answered = measured ?? (Number.isFinite(this.newest) ? this.newest : null);
    if (answered === null) return null;
    return Math.min(answered, answeredAt - Math.max(0, this.poll.offset ?? 0));
  }

  /** The poll's records, newest first, and what the close remembers; `serverTime`: the `Date` header. */
  select(serverTime: number | null): PollSelection<R> {
    const { poll } = this;
    const answeredAt = poll.now();
    const { selected, lastReturned, lastLeft } = selectionOf(this.run, poll.kind, poll.plan.mode);
    if (poll.kind === 'dedupe') {
      const records = selected.map((entry) => entry.record).reverse();
      return { records, checkpoint: null, base: null, offset: null, kept: null };
    }
    const used = selected.reduce((sum, entry) => sum + entry.bytes, 0);
    const rerun = this.rerunFitting(used);
    const rerunBytes = rerun.reduce((sum, entry) => sum + entry.bytes, 0);
    const returned = [...selected, ...rerun, ...this.again(used + rerunBytes)].sort(comparePositions);
    const records = returned.map((entry) => entry.record).reverse();

    // `t` is an upper bound (when the checkpoint may become an anchor); every record made before `answered`
    // minus the visibility delay and the margin was visible when the poll read.
    const answered = this.answeredBy(serverTime, answeredAt);
    const hasDate = serverTime !== null && Number.isFinite(serverTime) && answered !== null;
    const t = hasDate ? answered + 1000 : answeredAt + poll.timings.clockSkewMs;
    const { visibilityDelayMs, marginMs } = poll.timings;
    const settled = answered === null ? null : at(answered - visibilityDelayMs - marginMs);
    return {
      records,
      checkpoint:
        settled === null ? null : { t, pos: lastReturned ? earlier(lastReturned, settled) : settled },
      base: poll.plan.mode === 'stateless' ? (lastLeft ?? poll.plan.after) : null,
      offset: hasDate ? answeredAt - answered : null,
      kept: this.nextKept([...selected, ...rerun], { answered, answeredAt, lastReturned, lastLeft }),
    };
  }

  /**
   * The kept records after this poll: those it was given and the new ones it returned, with what they
   * cover. The newest settled position is the service's clock when the request started (bounded as in
   * `answeredBy`, minus the whole poll so far) minus the visibility delay and the settle margin.
   */
  private nextKept(
    read: Array<Entry<R>>,
    at: {
      answered: number | null;
      answeredAt: number;
      lastReturned: Position | null;
      lastLeft: Position | null;
    },
  ): PollSelection<R>['kept'] {
    const { poll } = this;
    const { visibilityDelayMs, settleMarginMs } = poll.timings;
    const measured = at.answered === null ? null : at.answered - (at.answeredAt - poll.started);
    const newest = measured === null ? null : { ms: measured - visibilityDelayMs - settleMarginMs, id: '' };
    const reached = newest && at.lastReturned ? earlier(at.lastReturned, newest) : newest;
    const batch: KeptBatch<R> = {
      f: at.answeredAt,
      b: read.reduce((sum, entry) => sum + entry.bytes, 0),
      // An answer full of new records: they may have reached one Zap only, so the batch waits its turn.
      ...(at.lastReturned ? { p: 1 as const } : {}),
      e: read.map((entry) => [entry.ms, entry.id, entry.record]),
    };
    const added = batch.e.length ? [batch] : [];
    if (poll.plan.mode === 'kept' && poll.kept) {
      const kept = poll.kept as Kept<R>;
      const settled = reached && comparePositions(reached, kept.settled) > 0 ? reached : kept.settled;
      // The rush is drained (this answer had room): the batches that waited start their time now.
      const restamped = !at.lastReturned && kept.batches.some((b) => b.p);
      const stamp = (b: KeptBatch<R>): KeptBatch<R> =>
        restamped && b.p ? { f: at.answeredAt, b: b.b, e: b.e } : b;
      const batches = [...kept.batches.map(stamp), ...added];
      const shed = shedAfter(kept.shed, settled);
      return { next: { base: kept.base, settled, batches, shed }, added, restamped };
    }
    if (!reached) return null;
    const base = poll.plan.mode === 'stateless' ? (at.lastLeft ?? poll.plan.after) : poll.plan.after;
    return { next: { base, settled: reached, batches: added }, added, restamped: false };
  }
}
