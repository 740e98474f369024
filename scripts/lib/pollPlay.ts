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
import { wireList } from '../../sandbox/wire';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
export const PLAY_START = 1_800_000_000_000;
const BASE_URL = 'https://api.rush.test';
const COMMA = Buffer.from(',');
/** A registration may become visible up to 2 minutes after it is made (the contract). */
const VISIBILITY_MS = 2 * MINUTE;

export interface RushScenario {
  name: string;
  everyMin: number;
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
    return JSON.stringify({ ...base, answers });
  }

  /** Bytes of a registration in an answer (its JSON and a comma). */
  sizeOf(reg: Registration): number {
    return Buffer.byteLength(this.record(reg)) + 1;
  }

  /** The answer in chunks of 16 KiB, as an HTTPS answer arrives (a TLS record at most). */
  private *body(sinceMs: number): Generator<Buffer> {
    const CHUNK = 16 * 1024;
    let pending: Buffer[] = [Buffer.from('{"data":[')];
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
      this.peakRss = Math.max(this.peakRss, process.memoryUsage.rss());
      const all = Buffer.concat(pending, size);
      let at = 0;
      for (; at + CHUNK <= all.length; at += CHUNK) {
        this.bytesSent += CHUNK;
        yield all.subarray(at, at + CHUNK);
      }
      pending = [all.subarray(at)];
      size = all.length - at;
    }
    const end = Buffer.concat([...pending, Buffer.from(']}')]);
    this.bytesSent += end.length;
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

/** `z` over the service and the cache. */
export const rushZ = (service: RushService, cache: FakeCache): ZObject =>
  ({
    request: async (options: { url: string; raw?: boolean }) => service.handle(options.url, !!options.raw),
    cache: cache.api,
    errors,
    console: { log: () => undefined, error: () => undefined },
  }) as unknown as ZObject;

/** What one poll cost and carried. */
export interface PlayedPoll {
  at: number;
  service: number;
  /** Bytes of the registrations that became visible since the previous poll: no trigger can read less. */
  floor: number;
  /**
   * Bytes of the registrations made after the previous poll less the 2-minute visibility delay and visible
   * now: what any reader of a `since`-only endpoint that hands every registration over at the first poll
   * after it becomes visible must read (it cannot know which of them it has not seen yet).
   */
  least: number;
  answer: number;
  items: number;
  fresh: number;
  cacheRead: number;
  cacheWritten: number;
  rss: number;
}

export interface Played {
  scenario: RushScenario;
  polls: PlayedPoll[];
  lost: number;
  /** When the last registration of the rush reached the Zap, after it was made. */
  lastDelayMs: number;
  /** The delay handing the rush over in 6 MiB answers allows, plus one interval. */
  floorDelayMs: number;
  /** From this poll on, the backlog is drained (the rush and the steady registrations behind it). */
  drainedFrom: number;
  /** The largest whole kept entry written (bytes of its JSON in the cache). */
  largestKept: number;
}

const bundle = (meta: Record<string, unknown>): Bundle =>
  ({
    authData: { apiKey: 'sk_test_rush', baseUrl: BASE_URL },
    inputData: { eventId: SAMPLE_EVENT.id },
    meta: { isLoadingSample: false, isPopulatingDedupe: false, ...meta },
  }) as unknown as Bundle;

/** Registrations: the steady flow from 3 hours before the rush to `until`, and the rush. */
const populate = (service: RushService, s: RushScenario, until: number) => {
  const steadyGap = HOUR / s.perHour;
  const rushGap = (s.rush.minutes * MINUTE) / s.rush.count;
  let steady = PLAY_START - 3 * HOUR;
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
 * The delay of the last rush registration that 6 MiB answers allow, plus one interval: handing the rush
 * over (its items, in UTF-8 bytes) takes that many polls from its start; and no registration reaches a Zap
 * before it is visible (up to 2 minutes after it is made).
 */
const floorDelay = (
  service: RushService,
  s: RushScenario,
  last: Registration | undefined,
  itemBytes: (n: number) => number,
): number => {
  const end = PLAY_START + s.rush.minutes * MINUTE;
  const every = s.everyMin * MINUTE;
  let bytes = 0;
  for (const reg of service.regs)
    if (reg.createdMs >= PLAY_START && reg.createdMs < end) bytes += itemBytes(reg.n);
  const answers = Math.ceil(bytes / (6 * 1024 * 1024));
  const handed = PLAY_START + answers * every - (last?.createdMs ?? end);
  const visible = last ? last.visibleMs - last.createdMs : 0;
  return Math.max(0, handed, visible) + every;
};

/**
 * Plays `s` through `perform` (New Form Submission's): the Zap is turned on 2.5 hours before the rush and
 * polls every interval until the backlog is drained and the kept entry has renewed itself (or `maxHours`).
 */
export const playRush = async (
  s: RushScenario,
  perform: PerformFunction,
  /** Between two polls (each is an invocation of its own at Zapier): the benchmark collects garbage. */
  betweenPolls: () => void = () => undefined,
): Promise<Played> => {
  const every = s.everyMin * MINUTE;
  const maxEnd = PLAY_START + (s.maxHours ?? 30) * HOUR;
  const service = new RushService();
  populate(service, s, maxEnd);
  const cache = new FakeCache(() => service.now);
  const z = rushZ(service, cache);
  const realNow = Date.now;
  Date.now = () => service.now;
  const seen = new Map<string, number>();
  const polls: PlayedPoll[] = [];
  const lastRush = service.regs.reduce(
    (n, r) => (r.createdMs < PLAY_START + s.rush.minutes * MINUTE ? Math.max(n, r.n) : n),
    0,
  );
  let drainedFrom = -1;
  let lastStart = 0;
  try {
    service.now = PLAY_START - 150 * MINUTE;
    for (const item of (await perform(z, bundle({ isPopulatingDedupe: true }))) as Array<{ id: string }>)
      seen.set(item.id, service.now);
    let previous = service.now;
    while (service.now < maxEnd) {
      betweenPolls();
      service.now += every;
      lastStart = service.now;
      const [sent, read, written] = [service.bytesSent, cache.bytesRead, cache.bytesWritten];
      const items = (await perform(z, bundle({}))) as Array<{ id: string }>;
      let fresh = 0;
      for (const item of items) {
        if (seen.has(item.id)) continue;
        seen.set(item.id, service.now);
        fresh += 1;
      }
      let floor = 0;
      let least = 0;
      for (const r of service.regs) {
        if (r.visibleMs > service.now) continue;
        if (r.visibleMs > previous) floor += r.bytes + 1;
        if (r.createdMs > previous - VISIBILITY_MS) least += r.bytes + 1;
      }
      previous = service.now;
      const rss = Math.max(service.peakRss, process.memoryUsage.rss());
      service.peakRss = 0;
      polls.push({
        at: service.now,
        service: service.bytesSent - sent,
        floor,
        least,
        answer: Buffer.byteLength(JSON.stringify(items)),
        items: items.length,
        fresh,
        cacheRead: cache.bytesRead - read,
        cacheWritten: cache.bytesWritten - written,
        rss,
      });
      // Drained: the last of the rush, and every registration visible when this poll started, reached the Zap.
      const caughtUp = () =>
        service.regs.every(
          (r) =>
            r.visibleMs >= lastStart ||
            r.createdMs <= PLAY_START - 150 * MINUTE ||
            seen.has(service.idOf(r.n)),
        );
      if (drainedFrom < 0 && seen.has(service.idOf(lastRush)) && caughtUp()) drainedFrom = polls.length;
      // Once drained, the play goes on until the kept entry holds none of the rush (150 minutes and a poll).
      if (drainedFrom >= 0 && (polls.length - drainedFrom) * every > (s.afterHours ?? 3) * HOUR) break;
    }
  } finally {
    Date.now = realNow;
  }
  const lost = service.regs.filter(
    (r) => r.visibleMs < lastStart && r.createdMs > PLAY_START - 150 * MINUTE && !seen.has(service.idOf(r.n)),
  ).length;
  const last = service.regs[lastRush];
  const lastDelayMs =
    last && seen.has(service.idOf(lastRush))
      ? (seen.get(service.idOf(lastRush)) ?? 0) - last.createdMs
      : Infinity;
  const context = eventContextOf(SAMPLE_EVENT);
  const itemBytes = (n: number) => {
    const reg = service.regs[n];
    const record = reg ? (JSON.parse(service.record(reg)) as Submission) : null;
    return record ? Buffer.byteLength(JSON.stringify(toSubmissionItem(record, context))) + 1 : 0;
  };
  return {
    scenario: s,
    polls,
    lost,
    lastDelayMs,
    floorDelayMs: floorDelay(service, s, last, itemBytes),
    drainedFrom,
    largestKept: Math.max(
      0,
      ...[...cache.largest].filter(([key]) => key.endsWith(':kept')).map(([, bytes]) => bytes),
    ),
  };
};
