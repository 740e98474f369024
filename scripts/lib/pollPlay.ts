/**
 * Rushes of registrations played through New Form Submission as Zapier runs it, in memory and on a virtual
 * clock: the service (registrations made lazily from their number, never held: an answer streams them
 * out), a cache that honours `nx` and TTL and counts its bytes, and a Zap with Zapier's dedupe table.
 * `bench:poll` plays the full scenarios; the test suite plays smaller ones through the same code.
 */
import { Readable } from 'node:stream';
import { type Bundle, type PerformFunction, type ZObject, errors } from 'zapier-platform-core';
import { SAMPLE_EVENT } from '../../src/mappers/event';
import { eventContextOf, toSubmissionItem } from '../../src/mappers/submission';
import type { Submission } from '../../src/connect';
import { FakeCache } from './fakeCache';
import type { Clock } from '../../src/memory';
import { wireList, wireListFrame, wireObject } from '../../sandbox/wire';

/** What the service's list answers open and close with, around their records (sandbox/wire.ts). */
const LIST_FRAME = wireListFrame();

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
export const PLAY_START = 1_800_000_000_000;
const BASE_URL = 'https://api.rush.test';
const COMMA = Buffer.from(',');
/** How often a long play tells how far it is (real time). */
const PROGRESS_MS = 20_000;
/** A registration may become visible up to 2 minutes after it is made (the contract). */
const VISIBILITY_MS = 2 * MINUTE;

export interface RushScenario {
  name: string;
  /** The interval of the stream's one Zap, when `zaps` is not given. */
  everyMin: number;
  /**
   * The Zaps sharing the stream (same account, same inputs): each its interval, its first poll's offset, and
   * `late`: its first poll at or after `atMin` minutes into the rush runs `byMin` minutes late (once; the
   * polls after it keep their schedule from there).
   */
  zaps?: Array<{ everyMin: number; phaseMin?: number; late?: { atMin: number; byMin: number } }>;
  /** The rush: how many registrations, over how long, of what size (UTF-8 bytes of a record's JSON). */
  rush: { count: number; minutes: number; recordBytes: number; script: 'latin' | 'cyrillic' };
  /** The steady flow around it. */
  perHour: number;
  /** The steady flow's records. */
  steadyBytes?: number;
  /** The longest the play goes on after the rush (it stops earlier once the backlog is drained). */
  maxHours?: number;
  /** How long the play goes on once the backlog is drained (3 hours: the kept entry renews itself). */
  afterHours?: number;
  /** How long before the rush the Zaps are turned on, in minutes (150 unless told). */
  turnedOnMin?: number;
  /** How far back the steady flow goes before the rush, in hours (3 unless told). */
  historyHours?: number;
  /** The account's whole cache is emptied once, at the first poll this many minutes after the rush began. */
  loseCacheAtMin?: number;
  /** The share of cache calls that fail (throw, or time out). */
  cacheFailing?: number;
  /** Which calls fail: the seed of their sequence (a fixed one unless told). */
  failSeed?: number;
  /**
   * Every poll runs as in a worker that ran none of the stream's polls before: it remembers no decoding
   * (src/polling/decoded.ts), as when Zapier sends each poll to another process.
   */
  freshWorkers?: boolean;
}

const LATIN =
  'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut'.split(' ');
const CYRILLIC =
  'привет мир регистрация событие билет участник вопрос ответ конференция зал место время'.split(' ');

/** Pseudo-random words (each with a number) in `script`: a 4 MiB text that registrations' answers are cut from. */
const poolOf = (words: string[]): string => {
  const out: string[] = [];
  let size = 0;
  let s = 42;
  while (size < 4 * 1024 * 1024) {
    s = (s * 1664525 + 1013904223) >>> 0;
    const word = `${words[s % words.length]}${(s >>> 8) % 97}`;
    out.push(word);
    size += word.length + 1;
  }
  return out.join(' ');
};
const POOLS = new Map<'latin' | 'cyrillic', { text: string; bytesPerChar: number }>();

/**
 * Free text of about `bytes` UTF-8 bytes, different for every `seed`: a cut of the pool at a place the seed
 * picks (so that it compresses as real text, and costs one copy to make).
 */
const textOf = (seed: number, bytes: number, script: 'latin' | 'cyrillic'): string => {
  let made = POOLS.get(script);
  if (!made) {
    const text = poolOf(script === 'latin' ? LATIN : CYRILLIC);
    made = { text, bytesPerChar: Buffer.byteLength(text) / text.length };
    POOLS.set(script, made);
  }
  const pool = made.text;
  const chars = Math.ceil(bytes / made.bytesPerChar);
  const start = Math.imul(seed + 1, 2654435761) >>> 0;
  const from = pool.indexOf(' ', start % (pool.length - chars - 64)) + 1;
  return pool.slice(from, from + chars);
};

interface Registration {
  n: number;
  createdMs: number;
  visibleMs: number;
  bytes: number;
  script: 'latin' | 'cyrillic';
}

/** The service: registrations by number, made into records only when an answer carries them. */
export class RushService {
  now = PLAY_START;
  readonly regs: Registration[] = [];
  /** Bytes of the submissions answers sent. */
  bytesSent = 0;
  /** The largest resident set seen while an answer streamed out (the app reading it). */
  peakRss = 0;
  /** CPU time spent making answers (microseconds): the service's work, not the app's. */
  cpuMicros = 0;

  /**
   * `measuring`: the service's CPU time and the largest resident set are taken as answers stream out (a
   * benchmark's figures: two system calls a chunk, which a test that asserts no figure of them does without).
   */
  constructor(readonly measuring = false) {}

  add(createdMs: number, bytes: number, script: 'latin' | 'cyrillic'): void {
    const n = this.regs.length;
    this.regs.push({
      n,
      createdMs,
      visibleMs: createdMs + ((n * 7919) % (VISIBILITY_MS + 1)),
      bytes,
      script,
    });
  }

  idOf(n: number): string {
    return `sub_${String(n).padStart(7, '0')}`;
  }

  record(reg: Registration): string {
    const id = this.idOf(reg.n);
    const base = {
      submissionId: id,
      eventId: SAMPLE_EVENT.id,
      status: 'approved',
      email: `guest${reg.n}@example.com`,
      firstName: 'Guest',
      lastName: `Number ${reg.n}`,
      ticketType: 'Standard',
      createdAt: new Date(reg.createdMs).toISOString(),
    };
    const room = Math.max(0, reg.bytes - Buffer.byteLength(JSON.stringify(base)) - 60);
    const answers = [{ key: 'note', label: 'Anything to tell us?', value: textOf(reg.n, room, reg.script) }];
    return JSON.stringify(wireObject({ ...base, answers }, 'submissionId'));
  }

  /** Bytes of a registration in an answer (its JSON and a comma). */
  sizeOf(reg: Registration): number {
    return Buffer.byteLength(this.record(reg)) + 1;
  }

  /** The answer in chunks of 16 KiB, as an HTTPS answer arrives (a TLS record at most). */
  private *body(sinceMs: number): Generator<Buffer> {
    const measuring = this.measuring;
    let since = measuring ? process.cpuUsage() : undefined;
    const made = () => {
      if (!measuring) return;
      const used = process.cpuUsage(since);
      this.cpuMicros += used.user + used.system;
    };
    const CHUNK = 16 * 1024;
    let pending: Buffer[] = [Buffer.from(LIST_FRAME.open)];
    let size = pending[0]?.length ?? 0;
    let first = true;
    for (const reg of this.regs) {
      if (reg.createdMs <= sinceMs || reg.visibleMs > this.now) continue;
      if (!first) {
        pending.push(COMMA);
        size += COMMA.length;
      }
      first = false;
      const piece = Buffer.from(this.record(reg));
      pending.push(piece);
      size += piece.length;
      if (size < CHUNK) continue;
      if (measuring) this.peakRss = Math.max(this.peakRss, process.memoryUsage.rss());
      const all = Buffer.concat(pending, size);
      let at = 0;
      for (; at + CHUNK <= all.length; at += CHUNK) {
        this.bytesSent += CHUNK;
        made();
        yield all.subarray(at, at + CHUNK);
        if (measuring) since = process.cpuUsage();
      }
      pending = [all.subarray(at)];
      size = all.length - at;
    }
    const end = Buffer.concat([...pending, Buffer.from(LIST_FRAME.close)]);
    this.bytesSent += end.length;
    made();
    yield end;
  }

  handle(url: string, raw: boolean) {
    const parsed = new URL(url);
    const headers = (all: Record<string, string>) => ({
      get: (name: string) => all[name.toLowerCase()] ?? null,
    });
    const date = new Date(this.now).toUTCString();
    const json = { 'content-type': 'application/json', date };
    if (parsed.pathname.endsWith('/events')) {
      const content = JSON.stringify(wireList([SAMPLE_EVENT]));
      return { status: 200, headers: headers(json), content, body: Readable.from([Buffer.from(content)]) };
    }
    const sinceMs = Date.parse(parsed.searchParams.get('since') ?? '');
    const body = Readable.from(this.body(sinceMs));
    if (!raw) throw new Error('the submissions endpoint is read as a stream');
    return { status: 200, headers: headers(json), body, text: async () => '' };
  }
}

/**
 * The longest wait a play lets pass at once: longer than a poll's look whether a lease is over (2 s at
 * most), shorter than any bound on a lookup (the event's: 10 s at least), which must never pass in a play.
 */
const PLAY_WAIT_MS = 5_000;

/**
 * The app's clock in a play: the play's clock (`Date.now`, set before each poll), moved on by the waits of
 * the poll, never by real time, so that a play replays exactly on any machine. A short wait (a poll looking
 * whether another one's lease is over) moves the clock on by its length at once; a longer one (a bound on a
 * lookup) ends only when it is called off, as no lookup in a play takes that long.
 */
export const playClock = (): Clock => {
  let seen = Date.now();
  let waited = 0;
  const now = () => {
    const play = Date.now();
    if (play !== seen) [seen, waited] = [play, 0];
    return play + waited;
  };
  return {
    now,
    sleep: (ms, signal) =>
      new Promise<void>((wake) => {
        signal?.addEventListener('abort', () => wake(), { once: true });
        if (ms > PLAY_WAIT_MS) return;
        now();
        waited += Math.max(0, ms);
        setImmediate(wake);
      }),
  };
};

/** How `z.request` reaches the play's service: its answer to a URL (read as a stream when `raw`). */
export type Answering = (url: string, raw: boolean) => Promise<unknown>;

/** `z` over the service (or another way to its answers) and the cache. */
export const rushZ = (service: RushService | Answering, cache: FakeCache): ZObject =>
  ({
    request: async (options: { url: string; raw?: boolean }) =>
      typeof service === 'function'
        ? service(options.url, !!options.raw)
        : service.handle(options.url, !!options.raw),
    cache: cache.api,
    errors,
    console: { log: () => undefined, error: () => undefined },
  }) as unknown as ZObject;

/** What one poll cost and carried. */
export interface PlayedPoll {
  at: number;
  /** Which Zap of the stream polled (its index in the scenario's Zaps). */
  zap: number;
  service: number;
  /** Bytes of the registrations that became visible since the stream's previous poll: no trigger can read less. */
  floor: number;
  /**
   * Bytes of the registrations made after the stream's previous poll less the 2-minute visibility delay and
   * visible now: what any reader of a `since`-only endpoint that hands every registration over at the first
   * poll after it becomes visible must read (it cannot know which of them it has not seen yet).
   */
  least: number;
  answer: number;
  items: number;
  fresh: number;
  cacheRead: number;
  cacheWritten: number;
  rss: number;
  /**
   * CPU time of the app's poll (user and system, ms), without the service's making of its answer; NaN unless
   * the play is `measuring`.
   */
  cpuMs: number;
}

/** One Zap of the stream, as the play ends. */
export interface PlayedZap {
  everyMin: number;
  /** Registrations visible at its last poll (made after it was turned on) that never reached it. */
  lost: number;
  /** When the last registration of the rush reached it, after it was made. */
  lastDelayMs: number;
  /** When it had the whole rush, after the rush's first registration was made (`Infinity`: never). */
  wholeRushMs: number;
  /** The latest a registration made after it had the whole rush reached it, after it was made. */
  latestAfterMs: number;
  /** When the first few registrations it never received were made, after the rush's first (for a report). */
  missedAtMs: number[];
}

export interface Played {
  scenario: RushScenario;
  polls: PlayedPoll[];
  /** Registrations lost, summed over the Zaps. */
  lost: number;
  /** When the last registration of the rush reached every Zap, after it was made. */
  lastDelayMs: number;
  /** The delay handing the rush over in 6 MiB answers allows, plus one interval (of the slowest Zap). */
  floorDelayMs: number;
  /** From this poll on, the backlog is drained for every Zap (the rush and the steady registrations behind it). */
  drainedFrom: number;
  /** The largest whole kept entry written (bytes of its JSON in the cache). */
  largestKept: number;
  zaps: PlayedZap[];
}

/** A poll's bundle (the play's account and event). */
export const bundle = (meta: Record<string, unknown>): Bundle =>
  ({
    authData: { apiKey: 'sk_test_rush', baseUrl: BASE_URL },
    inputData: { eventId: SAMPLE_EVENT.id },
    meta: { isLoadingSample: false, isPopulatingDedupe: false, ...meta },
  }) as unknown as Bundle;

/** Registrations: the steady flow from 3 hours before the rush to `until`, and the rush. */
export const populate = (service: RushService, s: RushScenario, until: number) => {
  const steadyGap = HOUR / s.perHour;
  const rushGap = (s.rush.minutes * MINUTE) / s.rush.count;
  let steady = PLAY_START - (s.historyHours ?? 3) * HOUR;
  let rush = 0;
  while (steady < until || rush < s.rush.count) {
    const rushAt = PLAY_START + rush * rushGap;
    if (rush < s.rush.count && rushAt <= steady) {
      service.add(Math.floor(rushAt), s.rush.recordBytes, s.rush.script);
      rush += 1;
    } else {
      service.add(Math.floor(steady), s.steadyBytes ?? 1000, 'latin');
      steady += steadyGap;
    }
  }
};

/**
 * The delay of the last rush registration that 6 MiB answers allow, plus one interval (the slowest Zap's):
 * handing the rush over (its items, in UTF-8 bytes) takes that many polls from its start; and no
 * registration reaches a Zap before it is visible (up to 2 minutes after it is made).
 */
const floorDelay = (
  service: RushService,
  s: RushScenario,
  everyMin: number,
  last: Registration | undefined,
  itemBytes: (n: number) => number,
): number => {
  const end = PLAY_START + s.rush.minutes * MINUTE;
  const every = everyMin * MINUTE;
  let bytes = 0;
  for (const reg of service.regs)
    if (reg.createdMs >= PLAY_START && reg.createdMs < end) bytes += itemBytes(reg.n);
  const answers = Math.ceil(bytes / (6 * 1024 * 1024));
  const handed = PLAY_START + answers * every - (last?.createdMs ?? end);
  const visible = last ? last.visibleMs - last.createdMs : 0;
  return Math.max(0, handed, visible) + every;
};

/** The Zaps of a scenario: its `zaps`, or one Zap at its interval. */
export const zapsOf = (s: RushScenario) => s.zaps ?? [{ everyMin: s.everyMin }];

/** One Zap of the play: its interval, its next poll, and Zapier's dedupe table (id → when it reached it). */
interface PlayZap {
  every: number;
  next: number;
  /** When Zapier runs this Zap's poll late (once), and by how much. */
  lateAt: number;
  lateBy: number;
  seen: Map<string, number>;
  lastStart: number;
  wholeAt: number;
}

/** What one poll of `zap` cost and carried; `previous`: the stream's previous poll. */
const pollOf = async (
  play: { service: RushService; cache: FakeCache; perform: PerformFunction; z: ZObject },
  zap: PlayZap,
  index: number,
  previous: number,
): Promise<PlayedPoll> => {
  const { service, cache } = play;
  const [sent, read, written] = [service.bytesSent, cache.bytesRead, cache.bytesWritten];
  const [cpu, made] = [process.cpuUsage(), service.cpuMicros];
  const items = (await play.perform(play.z, bundle({}))) as Array<{ id: string }>;
  const used = process.cpuUsage(cpu);
  const cpuMs = service.measuring ? (used.user + used.system - (service.cpuMicros - made)) / 1000 : NaN;
  let fresh = 0;
  for (const item of items) {
    if (zap.seen.has(item.id)) continue;
    zap.seen.set(item.id, service.now);
    fresh += 1;
  }
  let floor = 0;
  let least = 0;
  for (const r of service.regs) {
    if (r.visibleMs > service.now) continue;
    if (r.visibleMs > previous) floor += r.bytes + 1;
    if (r.createdMs > previous - VISIBILITY_MS) least += r.bytes + 1;
  }
  const rss = Math.max(service.peakRss, process.memoryUsage.rss());
  service.peakRss = 0;
  return {
    at: service.now,
    zap: index,
    service: service.bytesSent - sent,
    floor,
    least,
    answer: Buffer.byteLength(JSON.stringify(items)),
    items: items.length,
    fresh,
    cacheRead: cache.bytesRead - read,
    cacheWritten: cache.bytesWritten - written,
    rss,
    cpuMs,
  };
};

/** When the Zaps are turned on: 2.5 hours before the rush unless the scenario says otherwise. */
const turnedOnOf = (s: RushScenario) => PLAY_START - (s.turnedOnMin ?? 150) * MINUTE;

/** What a Zap received, as the play ends. */
const zapOutcome = (
  service: RushService,
  zap: PlayZap,
  last: Registration | undefined,
  turnedOn: number,
): PlayedZap => {
  const owed = (r: Registration) => r.visibleMs < zap.lastStart && r.createdMs > turnedOn;
  let lost = 0;
  let latestAfterMs = 0;
  const missedAtMs: number[] = [];
  for (const r of service.regs) {
    const got = zap.seen.get(service.idOf(r.n));
    if (got === undefined && owed(r) && (lost += 1) <= 5) missedAtMs.push(r.createdMs - PLAY_START);
    if (got !== undefined && r.createdMs > zap.wholeAt)
      latestAfterMs = Math.max(latestAfterMs, got - r.createdMs);
  }
  const lastGot = last ? zap.seen.get(service.idOf(last.n)) : undefined;
  const lastDelayMs = last && lastGot !== undefined ? lastGot - last.createdMs : Infinity;
  return {
    everyMin: zap.every / MINUTE,
    lost,
    lastDelayMs,
    wholeRushMs: zap.wholeAt - PLAY_START,
    latestAfterMs,
    missedAtMs,
  };
};

/**
 * Plays `s` through `perform` (New Form Submission's): each Zap of the stream is turned on 2.5 hours before
 * the rush (or `turnedOnMin`) and polls every interval (from its phase) until every Zap had the whole rush and caught up, and
 * `afterHours` more (or `maxHours`). Each Zap has its own dedupe table; the polls share one cache.
 */
export const playRush = async (
  s: RushScenario,
  perform: PerformFunction,
  /**
   * Before each poll (each is an invocation of its own at Zapier): the benchmark collects garbage, a test
   * may damage the cache.
   */
  betweenPolls: (cache: FakeCache, poll: number) => void = () => undefined,
  /** Told how far the play is, every `PROGRESS_MS` of real time at most (a long play shows it runs). */
  progress: (line: string) => void = () => undefined,
  /** The benchmark's figures: CPU time per poll and the resident set while answers stream (`RushService`). */
  measuring = false,
): Promise<Played> => {
  let told = performance.now();
  const maxEnd = PLAY_START + (s.maxHours ?? 30) * HOUR;
  const service = new RushService(measuring);
  populate(service, s, maxEnd);
  const cache = new FakeCache(() => service.now);
  cache.failing = s.cacheFailing ?? 0;
  if (s.failSeed !== undefined) cache.failSeed = s.failSeed;
  const z = rushZ(service, cache);
  let loseAt = s.loseCacheAtMin === undefined ? Infinity : PLAY_START + s.loseCacheAtMin * MINUTE;
  const play = { service, cache, perform, z };
  const realNow = Date.now;
  Date.now = () => service.now;
  const rushEnd = PLAY_START + s.rush.minutes * MINUTE;
  const rushIds = service.regs.filter((r) => r.createdMs >= PLAY_START && r.createdMs < rushEnd);
  const turnedOn = turnedOnOf(s);
  const zaps: PlayZap[] = zapsOf(s).map((zap) => ({
    every: zap.everyMin * MINUTE,
    next: turnedOn + (zap.phaseMin ?? 0) * MINUTE,
    lateAt: zap.late ? PLAY_START + zap.late.atMin * MINUTE : Infinity,
    lateBy: (zap.late?.byMin ?? 0) * MINUTE,
    seen: new Map<string, number>(),
    lastStart: 0,
    wholeAt: Infinity,
  }));
  const polls: PlayedPoll[] = [];
  let drainedFrom = -1;
  let drainedAt = Infinity;
  try {
    for (const zap of zaps) {
      service.now = zap.next;
      for (const item of (await perform(z, bundle({ isPopulatingDedupe: true }))) as Array<{ id: string }>)
        zap.seen.set(item.id, service.now);
      zap.next += zap.every;
    }
    let previous = turnedOn;
    for (;;) {
      const index = zaps.reduce((best, zap, i) => (zap.next < (zaps[best]?.next ?? Infinity) ? i : best), 0);
      const zap = zaps[index] as PlayZap;
      if (zap.next >= zap.lateAt) {
        zap.next += zap.lateBy;
        zap.lateAt = Infinity;
        continue;
      }
      if (zap.next >= maxEnd || zap.next > drainedAt + (s.afterHours ?? 3) * HOUR) break;
      betweenPolls(cache, polls.length);
      service.now = zap.next;
      if (service.now >= loseAt) {
        cache.evict();
        loseAt = Infinity;
      }
      zap.lastStart = service.now;
      zap.next += zap.every;
      polls.push(await pollOf(play, zap, index, previous));
      if (performance.now() - told >= PROGRESS_MS) {
        told = performance.now();
        const had = zaps.map((z) => (z.wholeAt < Infinity ? 'yes' : 'no')).join('/');
        progress(
          `${s.name}: minute ${Math.round((service.now - PLAY_START) / MINUTE)} of the rush, ${polls.length} polls, Zaps with the whole rush: ${had}`,
        );
      }
      previous = service.now;
      if (zap.wholeAt === Infinity && rushIds.every((r) => zap.seen.has(service.idOf(r.n))))
        zap.wholeAt = service.now;
      // Drained: every Zap had the whole rush, and every registration visible when its last poll started.
      const caughtUp = (z: PlayZap) =>
        z.wholeAt < Infinity &&
        service.regs.every(
          (r) => r.visibleMs >= z.lastStart || r.createdMs <= turnedOn || z.seen.has(service.idOf(r.n)),
        );
      if (drainedFrom < 0 && zaps.every(caughtUp)) {
        drainedFrom = polls.length;
        drainedAt = service.now;
      }
    }
  } finally {
    Date.now = realNow;
  }
  const last = service.regs[rushIds[rushIds.length - 1]?.n ?? 0];
  const outcomes = zaps.map((zap) => zapOutcome(service, zap, last, turnedOn));
  const context = eventContextOf(SAMPLE_EVENT);
  const itemBytes = (n: number) => {
    const reg = service.regs[n];
    const record = reg ? (JSON.parse(service.record(reg)) as Submission) : null;
    return record ? Buffer.byteLength(JSON.stringify(toSubmissionItem(record, context))) + 1 : 0;
  };
  const slowest = Math.max(...zapsOf(s).map((zap) => zap.everyMin));
  return {
    scenario: s,
    polls,
    lost: outcomes.reduce((n, o) => n + o.lost, 0),
    lastDelayMs: Math.max(...outcomes.map((o) => o.lastDelayMs)),
    floorDelayMs: floorDelay(service, s, slowest, last, itemBytes),
    drainedFrom,
    largestKept: Math.max(
      0,
      ...[...cache.largest].filter(([key]) => key.endsWith(':kept')).map(([, bytes]) => bytes),
    ),
    zaps: outcomes,
  };
};
