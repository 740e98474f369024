/**
 * What a poll keeps of its window while the answer streams by, and which records it returns: the new ones
 * first (oldest first up to the answer budget, or the newest ones for a stateless poll), then, in what is
 * left of the budget, the kept records again (oldest first) for Zaps that Zapier held.
 */
import { type Entry, entryOf } from './entry';
import { HeldRun, OffHeapRun, type RecordRun } from './run';
import { type Kept, type KeptBatch, isRecent, shedAfter } from './kept';
import { type Position, at, comparePositions, earlier, later } from './position';
import type { Checkpoint, Plan, SinceKind } from './state';
import type { PollTimings } from './timings';
import { slicesOf } from './slices';
import { type ShareRead, type ShareRef, readFrom } from './owed';
import { RangeSpread } from './spread';

export interface Selection<R> {
  selected: Entry<R>[];
  /** The last record returned when the budget cut the oldest-first run short, else `null`. */
  lastReturned: Position | null;
  /** The record before the first returned when the budget cut the newest-first run short, else `null`. */
  lastLeft: Position | null;
}

const positionOf = (entry: Position | null | undefined): Position | null =>
  entry ? { ms: entry.ms, id: entry.id } : null;

const newestFirst = (a: Position, b: Position) => comparePositions(b, a);

/**
 * The run a poll keeps, fed record by record in any order: a dedupe poll the newest `maxDedupeItems` (ids
 * only); otherwise one contiguous run within `budgetBytes` (never empty when there is anything), from the
 * oldest end for a stateful or kept poll (what is about to leave the window first, and a backlog in order),
 * from the newest end for a stateless one (its records held as bytes: `OffHeapRun`). Memory is bounded by
 * the run, however large the window.
 */
const runOf = <R>(
  kind: SinceKind,
  mode: Plan['mode'],
  budgetBytes: number,
  maxDedupeItems: number,
): RecordRun<R> => {
  if (kind === 'dedupe') return new HeldRun<R>(maxDedupeItems, newestFirst, () => 1);
  if (mode === 'stateless') return new OffHeapRun<R>(budgetBytes, newestFirst);
  return new HeldRun<R>(budgetBytes, comparePositions, (entry) => entry.bytes);
};

/** What a run tells the close of the poll: where it was cut short by its budget, if it was. */
const selectionOf = <R>(run: RecordRun<R>, kind: SinceKind, mode: Plan['mode']): Selection<R> => {
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
  for (const entry of entries) run.add(entry.record, entry, entry.bytes);
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
  /** What the poll did with the owed shares. */
  owed: OwedSelection<R>;
}

/**
 * The owed shares whose turn it is (`inTurn`), those of them this poll returned whole, those it read again
 * from the service (with their records, and a share of the range it could not hold, if any), and the range
 * of a lost kept entry that it could not return again (a share of a range only).
 */
export interface OwedSelection<R> {
  inTurn: ShareRef[];
  returned: Set<string>;
  /** `rest`: what the poll did not read or hold of a share read again (a range, with its parts' cuts). */
  refilled: Array<{ ref: ShareRef; entries: Array<Entry<R>>; rest: Rest | null }>;
  ranges: Array<{ from: Position; to: Position; precaution?: boolean }>;
}

/** What stays owed of a range read again: its positions (`from`, `to`] and where its older parts start. */
export interface Rest {
  from: Position;
  to: Position;
  cuts: Position[];
}

/** What the window needs to know of its poll. */
export interface WindowPoll {
  kind: SinceKind;
  plan: Plan;
  kept: Kept<unknown> | null;
  /** The owed shares whose turn it is: their records, or `null` for those read again from the service. */
  owed?: Array<ShareRead<unknown>>;
  /** The owed shares in their late time, in order: their records, or `null` for those the cache lost. */
  late?: Array<ShareRead<unknown>>;
  /** The client's clock minus the service's, as the stream last measured it. */
  offset: number | null;
  /** Whether the stream's state or kept entry was found: without either, what a Zap may lack is unknown. */
  known: boolean;
  /** The kept entry could not be read (the cache failed): what it holds is still owed by it, not by a range. */
  keptUnread?: boolean;
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

/** What `entries` add to an answer. */
const bytesOf = (entries: Array<Entry<unknown>>) => entries.reduce((sum, entry) => sum + entry.bytes, 0);

/**
 * Which records of a poll's answer were returned before by polls of the stream, its kept entry (or its whole
 * memory) lost, to be kept again by when they were returned (`rebuilt`) rather than as returned now:
 * - a stateful poll's, up to its newest checkpoint;
 * - a forgotten stream's, when its answer carries its whole window (else, a backlog: as returned now, and
 *   waiting for the backlog to drain).
 */
const returnedAgain = (plan: Plan, full: boolean) => {
  const { returned } = plan;
  if (plan.forgotten) return () => !full;
  return (entry: Entry<unknown>) => !!returned && comparePositions(entry, returned) <= 0;
};

/** When a record was visible at the latest: made, plus the settle time. */
const visibleBy = (entry: Entry<unknown>, timings: PollTimings) => entry.ms + timings.settleMs;

/**
 * The records a poll returned again (`returnedAgain`), kept again in batches by when a poll returned them at
 * the latest, not now (recent, they would fill the recent records' cap and leave the entry as owed shares,
 * which a Zap that Zapier held misses):
 * - after a stateful poll's anchor, by the first checkpoint that covers them (every record up to its
 *   position had been returned by its time);
 * - at or before it, or a forgotten stream's (every Zap on time had them), once visible: a Zap that
 *   Zapier held, whose last poll came before that, polls again within the kept time from then.
 * Each time is rounded up to `rebuiltGrainMs` (kept a little longer), never after the poll's answer.
 */
const rebuilt = <R>(entries: Array<Entry<R>>, plan: Plan, answeredAt: number, timings: PollTimings) => {
  const grain = timings.rebuiltGrainMs;
  const { anchor, returnedBy = [] } = plan;
  const stampOf = (entry: Entry<R>) => {
    const by =
      plan.forgotten || (anchor && comparePositions(entry, anchor) <= 0)
        ? visibleBy(entry, timings)
        : (returnedBy.find((c) => comparePositions(c.pos, entry) >= 0)?.answeredBy ?? answeredAt);
    return Math.min(answeredAt, Math.ceil(by / grain) * grain);
  };
  const batches = new Map<number, KeptBatch<R>>();
  for (const entry of entries) {
    const returnedAt = stampOf(entry);
    const batch = batches.get(returnedAt) ?? { returnedAt, bytes: 0, rush: false, entries: [] };
    batch.bytes += entry.bytes;
    batch.entries.push(entry);
    batches.set(returnedAt, batch);
  }
  return [...batches.values()];
};

/** A small, stable hash of an id (FNV-1a). */
const hashOf = (id: string): number => {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i += 1) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193) >>> 0;
  return h;
};

/**
 * What stays owed of a range read again from its newest part (`readFrom`): its older parts, and of the part
 * read, what the budget left out (`next`: its newest record not held, if any), cut where the read counted
 * each part's records at most `partBytes`.
 */
const restOf = (
  ref: ShareRef,
  next: Position | null,
  spread: RangeSpread,
  partBytes: number,
): Rest | null => {
  const [read, ...older] = ref.cuts ?? [];
  if (!next) return read ? { from: ref.from, to: read, cuts: older } : null;
  const cuts = spread.partsUpTo(next, partBytes).map((part) => part.from);
  return {
    from: ref.from,
    to: next,
    cuts: [...cuts.filter((cut) => comparePositions(cut, ref.from) > 0), ...older],
  };
};

/**
 * The poll's window (`visit`, record by record, in any order): only the records after the plan's start,
 * each id once, and of those only the run the poll returns. A day of registrations is never held whole.
 */
export class PollWindow<R extends { createdAt: string }> {
  private readonly run: RecordRun<R>;
  /** A stateful poll: the records of its window some poll already returned, oldest first. */
  private readonly rerun: RecordRun<R>;
  private readonly seen = new Set<string>();
  /** The kept records by batch: returned again in what the new ones leave of the budget. */
  private readonly kept: Array<{ batch: KeptBatch<R>; entries: Entry<R>[] }> = [];
  private newest = -Infinity;
  private readonly sizeOf: (record: R) => number;
  /**
   * The owed shares read again from the service (a range, or a share the cache lost): their records, as the
   * request carries them, newest first within the budget (what is left out is the range's older part), and
   * how the range's records spread over time (that older part is owed in parts of known size).
   */
  private readonly refills = new Map<ShareRef, { run: OffHeapRun<R>; spread: RangeSpread }>();

  constructor(
    private readonly poll: WindowPoll,
    private readonly shape: RecordShape<R>,
  ) {
    this.sizeOf = shape.sizeOf ?? utf8Bytes;
    for (const batch of (poll.kept?.batches ?? []) as Array<KeptBatch<R>>) {
      const entries: Entry<R>[] = [];
      for (const entry of batch.entries) {
        if (this.seen.has(entry.id)) continue;
        this.seen.add(entry.id);
        entries.push(entry);
      }
      this.kept.push({ batch, entries: entries.sort(comparePositions) });
    }
    // Returned, then shed from the entry (over its cap): read again, but not new.
    for (const { id } of poll.kept?.shed ?? []) this.seen.add(id);
    const { timings } = poll;
    for (const share of poll.owed ?? [])
      if (!share.entries)
        this.refills.set(share.ref, {
          run: new OffHeapRun<R>(timings.answerBudgetBytes, newestFirst),
          spread: new RangeSpread({ from: readFrom(share.ref), to: share.ref.to }),
        });
    this.run = runOf<R>(poll.kind, poll.plan.mode, timings.answerBudgetBytes, timings.maxDedupeItems);
    this.rerun = runOf<R>(poll.kind, poll.plan.mode, timings.answerBudgetBytes, timings.maxDedupeItems);
  }

  /**
   * Reads one record of the answer. Its position is its own small object, and a run makes the entry of a
   * record it keeps: an entry made here for every record would be made where the runs' long-lived entries
   * are, in V8's old generation, and keep each record read alive until a full collection (`OffHeapRun`).
   */
  readonly visit = (record: R): void => {
    const ms = Date.parse(record.createdAt);
    const id = this.shape.idOf(record);
    if (!Number.isFinite(ms)) return;
    const at: Position = { ms, id };
    let bytes = 0;
    for (const [ref, refill] of this.refills) {
      if (comparePositions(at, readFrom(ref)) <= 0 || comparePositions(at, ref.to) > 0) continue;
      bytes ||= this.sizeOf(record) + 1;
      refill.spread.add(ms, bytes);
      refill.run.add(record, at, bytes);
    }
    if (comparePositions(at, this.poll.plan.after) <= 0) return;
    if (this.seen.has(id)) return;
    this.seen.add(id);
    this.newest = Math.max(this.newest, ms);
    const { returned } = this.poll.plan;
    const again = returned && comparePositions(at, returned) <= 0;
    const run = again ? this.rerun : this.run;
    // Past what the budget already pushed out (a backlog's later records): not sized, not kept.
    if (!run.wants(at)) return;
    run.add(record, at, this.poll.kind === 'dedupe' ? 0 : bytes || this.sizeOf(record) + 1);
  };

  /** `entry` with its bytes measured, in a copy (what was read is written back as it was). */
  private sized(entry: Entry<R>): Entry<R> {
    return entryOf(entry.record, entry.ms, entry.id, this.sizeOf(entry.record) + 1);
  }

  /**
   * The kept records of the batches `pick` chooses, returned again in `left` bytes: all of them when they
   * fit. When they do not (after a rush), every poll of a `holdMs` period returns the same slice of them
   * first (ids hashed into `n` slices, a different slice each period), so that each Zap polling on time
   * (at least once a period) is given every slice within `n` periods; what is left takes the oldest others.
   */
  private again(left: number, pick: (batch: KeptBatch<R>) => boolean, carried?: Set<string>): Entry<R>[] {
    if (left <= 0) return [];
    const chosen = this.kept.filter(({ batch }) => pick(batch));
    const all = chosen.flatMap(({ entries }) => entries).sort(comparePositions);
    // Sized as their batches recorded them: only the records that are tried are sized again.
    const total = chosen.reduce((sum, { batch }) => sum + batch.bytes, 0);
    const n = slicesOf(total, left);
    const slice = Math.floor(this.poll.started / this.poll.timings.holdMs) % n;
    // One slice: every record in order, once (no second pass, nothing to tell apart).
    const first = n === 1 ? [] : all.filter((entry) => hashOf(entry.id) % n === slice);
    const out: Entry<R>[] = [];
    const taken = new Set<string>();
    let room = left;
    for (const candidate of first.length ? [...first, ...all] : all) {
      if (taken.has(candidate.id) || carried?.has(candidate.id)) continue;
      // Sized when the poll that returned it first kept it: only records an older version kept are sized
      // (in a copy: the kept entry is written back as it was read).
      const entry = candidate.bytes ? candidate : this.sized(candidate);
      if (entry.bytes > room) break;
      room -= entry.bytes;
      if (first.length) taken.add(entry.id);
      out.push(entry);
    }
    return out;
  }

  /** A stateful poll's records returned again: the oldest of its window that fit in what `used` leaves. */
  private rerunFitting(used: number, carried = new Set<string>()): Entry<R>[] {
    let room = this.poll.timings.answerBudgetBytes - used;
    const out: Entry<R>[] = [];
    for (const entry of this.rerun.sorted()) {
      if (carried.has(entry.id)) continue;
      if (entry.bytes > room) break;
      room -= entry.bytes;
      out.push(entry);
    }
    return out;
  }

  /**
   * The owed shares whose turn it is, in order, each whole if it fits in what is left of `room` (its records the
   * answer already carries are not added twice).
   */
  private owedFitting(
    room: number,
    carried: Set<string>,
    pick: (ref: ShareRef) => boolean,
    owed: OwedSelection<R> = { inTurn: [], returned: new Set(), refilled: [], ranges: [] },
  ): { out: Entry<R>[]; owed: OwedSelection<R> } {
    const out: Entry<R>[] = [];
    let left = room;
    for (const share of (this.poll.owed ?? []) as Array<ShareRead<R>>) {
      if (!pick(share.ref)) continue;
      owed.inTurn.push(share.ref);
      const refill = this.refills.get(share.ref);
      const entries: Entry<R>[] = share.entries ?? refill?.run.sorted().reverse() ?? [];
      if (refill) {
        // Read newest first: what the budget left out is the range's older part, up to its newest record.
        const next = positionOf(refill.run.next());
        owed.refilled.push({
          ref: next ? { ...share.ref, from: next } : share.ref,
          entries,
          rest: restOf(share.ref, next, refill.spread, this.poll.timings.rangePartBytes),
        });
      }
      const adding = this.whole(entries, carried, left);
      if (!adding) continue;
      left -= bytesOf(adding);
      out.push(...adding);
      owed.returned.add(share.ref.id);
    }
    return { out, owed };
  }

  /**
   * The shares in their late time, in order, each whole if it fits in what is left of `room` (added to
   * `returned`).
   */
  private lateFitting(room: number, carried: Set<string>, returned: Set<string>): Entry<R>[] {
    const out: Entry<R>[] = [];
    let left = room;
    for (const share of (this.poll.late ?? []) as Array<ShareRead<R>>) {
      const adding = share.entries && this.whole(share.entries, carried, left);
      if (!adding) continue;
      left -= bytesOf(adding);
      out.push(...adding);
      returned.add(share.ref.id);
    }
    return out;
  }

  /**
   * A share's records the answer does not carry yet, sized, when they fit in `left` bytes (then they are
   * carried), else `null`.
   */
  private whole(entries: Entry<R>[], carried: Set<string>, left: number): Entry<R>[] | null {
    const adding: Entry<R>[] = [];
    for (const candidate of entries) {
      if (carried.has(candidate.id)) continue;
      adding.push(candidate.bytes ? candidate : this.sized(candidate));
    }
    if (bytesOf(adding) > left) return null;
    for (const entry of adding) carried.add(entry.id);
    return adding;
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
      const owed = { inTurn: [], returned: new Set<string>(), refilled: [], ranges: [] };
      return { records, checkpoint: null, base: null, offset: null, kept: null, owed };
    }
    const used = selected.reduce((sum, entry) => sum + entry.bytes, 0);
    // A kept entry the cache failed to read still holds what the rerun returns again: the rerun comes after
    // the owed shares whose turn it is (first, it would take their room and start their turns again).
    const unread = !!poll.keptUnread;
    const rerun = unread ? [] : this.rerunFitting(used);
    const rerunBytes = bytesOf(rerun);
    // The kept records some Zap on time may lack first (returned less than `holdMs` ago, or waiting for a
    // rush to drain), then the owed shares, then the older kept records (for Zaps that Zapier held), then
    // the shares in their late time (for a Zap run late: they wait for room, however long).
    const recent = (batch: KeptBatch<R>) => isRecent(batch, poll.started, poll.timings);
    const keptRecent = this.again(poll.timings.answerBudgetBytes - used - rerunBytes, recent);
    const carried = new Set([...selected, ...rerun, ...keptRecent].map((entry) => entry.id));
    const room = poll.timings.answerBudgetBytes - used - rerunBytes - bytesOf(keptRecent);
    const first = this.owedFitting(room, carried, (ref) => !ref.precaution);
    const rerunAfter = unread ? this.rerunFitting(used + bytesOf(first.out), carried) : [];
    const left = room - bytesOf(first.out) - bytesOf(rerunAfter);
    // Not those the owed shares carry (a kept entry rebuilt after a loss and a range read again hold the same).
    const keptOld = this.again(left, (batch) => !recent(batch), carried);
    for (const entry of [...keptOld, ...rerunAfter]) carried.add(entry.id);
    // The shares owed as a precaution come after the older kept records: those are for a Zap that Zapier
    // held (only the kept entry carries them to it), these what every Zap on time most likely had.
    const readAgain = this.owedFitting(
      left - bytesOf(keptOld),
      carried,
      (ref) => !!ref.precaution,
      first.owed,
    );
    const { owed } = readAgain;
    const owedOut = [...first.out, ...readAgain.out];
    const lateOut = this.lateFitting(
      left - bytesOf(keptOld) - bytesOf(readAgain.out),
      carried,
      owed.returned,
    );
    const answered0 = [...selected, ...rerun, ...rerunAfter, ...keptRecent, ...keptOld, ...lateOut];
    this.owesRanges(owed, { rerun, selected, lastLeft, answeredAt });
    const returned = [...answered0, ...owedOut].sort(comparePositions);
    const records = returned.map((entry) => entry.record).reverse();

    // `answeredBy` is an upper bound (when the checkpoint may become an anchor); every record made before `answered`
    // minus the visibility delay and the margin was visible when the poll read.
    const answered = this.answeredBy(serverTime, answeredAt);
    const hasDate = serverTime !== null && Number.isFinite(serverTime) && answered !== null;
    // A `Date` header in whole seconds: the answer may be up to its rounding later.
    const answeredBy = hasDate
      ? answered + poll.timings.settleMarginMs
      : answeredAt + poll.timings.clockSkewMs;
    const { visibilityDelayMs, marginMs } = poll.timings;
    const settled = answered === null ? null : at(answered - visibilityDelayMs - marginMs);
    return {
      records,
      checkpoint:
        settled === null
          ? null
          : { answeredBy, pos: lastReturned ? earlier(lastReturned, settled) : settled },
      base: poll.plan.mode === 'stateless' ? (lastLeft ?? poll.plan.after) : null,
      offset: hasDate ? answeredAt - answered : null,
      kept: this.nextKept([...selected, ...rerun], { answered, answeredAt, lastReturned, lastLeft }),
      owed,
    };
  }

  /**
   * The ranges the poll owes: a stateful poll's records it could not return again (its kept entry lost), and
   * a stream's that nothing is known of (its state and kept entry lost, or its first poll): what some Zap
   * may lack reaches back as far as a poll ever reads, up to the newest records this poll returns, read again
   * from the service in parts.
   */
  private owesRanges(
    owed: OwedSelection<R>,
    answer: { rerun: Entry<R>[]; selected: Entry<R>[]; lastLeft: Position | null; answeredAt: number },
  ): void {
    const { poll } = this;
    const { rerun, selected, lastLeft, answeredAt } = answer;
    const all = this.rerun.sorted();
    const lastFit = rerun[rerun.length - 1];
    if (poll.plan.returned && !poll.keptUnread && (rerun.length < all.length || this.rerun.next()))
      owed.ranges.push({
        from: lastFit ? { ms: lastFit.ms, id: lastFit.id } : poll.plan.after,
        to: poll.plan.returned,
      });
    if (poll.plan.mode !== 'stateless' || poll.known) return;
    // A forgotten stream's records kept again by when they were visible leave the entry before a Zap on time
    // had them if a poll returned them long after (a backlog handed over lately): the range reaches those
    // visible over the kept time less a hold ago. Behind an answer that held the whole window, it is a
    // precaution (what every Zap on time most likely had).
    const { keptMs, holdMs } = poll.timings;
    const old = (entry: Entry<R>) => visibleBy(entry, poll.timings) <= answeredAt - (keptMs - holdMs);
    const to = lastLeft ?? (poll.plan.forgotten ? selected.filter(old) : []).reduce(later, poll.plan.after);
    const precaution = !!poll.plan.forgotten && !lastLeft;
    owed.ranges.push({ from: at(poll.started - poll.timings.lookbackMs), to, precaution });
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
    const { settleMs } = poll.timings;
    const measured = at.answered === null ? null : at.answered - (at.answeredAt - poll.started);
    const newest = measured === null ? null : { ms: measured - settleMs, id: '' };
    const reached = newest && at.lastReturned ? earlier(at.lastReturned, newest) : newest;
    const again = returnedAgain(poll.plan, !!at.lastLeft);
    const newer = read.filter((entry) => !again(entry));
    const batch: KeptBatch<R> = {
      returnedAt: at.answeredAt,
      bytes: bytesOf(newer),
      // An answer full of new records: they may have reached one Zap only, so the batch does not age until an answer has room.
      rush: !!at.lastReturned,
      entries: newer,
    };
    const rebuiltBatches = rebuilt(read.filter(again), poll.plan, at.answeredAt, poll.timings);
    const added = [...rebuiltBatches, batch].filter((b) => b.entries.length);
    if (poll.plan.mode === 'kept' && poll.kept) {
      const kept = poll.kept as Kept<R>;
      const settled = reached && comparePositions(reached, kept.settled) > 0 ? reached : kept.settled;
      // The rush is drained (this answer had room): the batches that waited start their time now.
      const restamped = !at.lastReturned && kept.batches.some((batch) => batch.rush);
      const stamp = (batch: KeptBatch<R>): KeptBatch<R> =>
        restamped && batch.rush ? { ...batch, returnedAt: at.answeredAt, rush: false } : batch;
      const batches = [...kept.batches.map(stamp), ...added];
      const shed = shedAfter(kept.shed, settled);
      return { next: { base: kept.base, settled, batches, shed }, added, restamped };
    }
    if (!reached) return null;
    const base = poll.plan.mode === 'stateless' ? (at.lastLeft ?? poll.plan.after) : poll.plan.after;
    return { next: { base, settled: reached, batches: added }, added, restamped: false };
  }
}
