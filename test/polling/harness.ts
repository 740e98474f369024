/**
 * A scripted Connect server and a Zapier stand-in for whole days of polling, fast enough to play thousands of
 * polls: the trigger's real `perform` runs with a `z` whose `request` is answered in memory (through the real
 * client, error mapping and schemas), whose `cache` is a JSON store that can be evicted or broken, and with
 * `Date.now` (the client clock) set apart from the server clock when the scenario skews it.
 */
import { Readable } from 'node:stream';
import { type Bundle, type ZObject, errors } from 'zapier-platform-core';
import type { Submission } from '../../src/connect';
import { SAMPLE_EVENT } from '../../src/mappers/event';
import { SAMPLE_SUBMISSION } from '../../src/mappers/submission';
import newSubmission, { newSubmissionTrigger } from '../../src/triggers/newSubmission';
import { POLL_FACTS, type PollFacts, type PollTimings, pollTimings } from '../../src/polling';
import type { Clock } from '../../src/memory';
import { FakeCache } from '../support/cache';
import { callable, functionOf } from '../../scripts/lib/app';
import { wireList } from '../../sandbox/wire';
import type { RushScenario } from '../../scripts/lib/pollPlay';
import { THREE_ZAPS } from '../../scripts/lib/pollRushes';

/** The trigger's `perform` as the app has it, or with other polling timings (a test's). */
export const performWith = (timings?: PollTimings, clock?: Clock) =>
  timings || clock
    ? callable((newSubmissionTrigger({ timings, clock }).operation as { perform?: unknown }).perform)
    : functionOf('triggers', newSubmission.key);

/**
 * A clock for plays whose time stands still during a poll (`Date.now` set by the play): now is `Date.now`,
 * and a short wait (a poll looking whether another one's lease is over: 2 s at most) ends at once, without
 * real time; a long one (a bound on a lookup: 10 s at least) ends only when it is called off.
 */
export const playClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((wake) => {
      if (ms <= 5_000) setImmediate(wake);
      signal?.addEventListener('abort', () => wake());
    }),
};

export { FakeCache };

/**
 * The app's timings with an answer and a cache value `scale` times smaller than Zapier's, so that a rush
 * scaled down as much takes as many answers and cache values as at full size (and `facts` besides).
 */
export const scaledTimings = (scale: number, facts: Partial<PollFacts> = {}): PollTimings =>
  pollTimings({
    answerLimitBytes: Math.floor(POLL_FACTS.answerLimitBytes / scale),
    cacheValueBytes: Math.floor(POLL_FACTS.cacheValueBytes / scale),
    ...facts,
  });

export { THREE_ZAPS };

/**
 * The benchmark's rush of 10,000 registrations of 1 KB in 30 minutes, with 1,000 an hour around it, through
 * its three Zaps, the stream turned on 30 minutes before it: scaled down by `scale` (with `scaledTimings`).
 */
export const oneKbRush = (scale: number, name: string): RushScenario => ({
  name,
  everyMin: 1,
  zaps: THREE_ZAPS,
  rush: { count: Math.round(10_000 / scale), minutes: 30, recordBytes: 1_000, script: 'latin' },
  perHour: Math.round(1_000 / scale),
  turnedOnMin: 30,
});

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const EVENT_ID = SAMPLE_EVENT.id;
export const BASE_URL = 'https://api.connect.test';
export const START = Date.parse('2026-11-22T00:00:00.000Z');

/** A small deterministic generator, so a failing scenario replays exactly. */
export class Rng {
  constructor(private seed: number) {}
  next(): number {
    this.seed = (this.seed * 1664525 + 1013904223) >>> 0;
    return this.seed / 2 ** 32;
  }
  int(below: number): number {
    return Math.floor(this.next() * below);
  }
}

export type Failure = '429' | '500' | 'timeout' | 'html';

interface Stored {
  submission: Submission;
  createdMs: number;
  visibleMs: number;
}

/** The service as the contract allows it to behave: order not guaranteed, boundary either way, late rows. */
export class ScriptedServer {
  now = START;
  boundary: 'inclusive' | 'exclusive' = 'exclusive';
  shuffle = true;
  requests = 0;
  eventRequests = 0;
  /** Every submissions request answered: when (server clock), its `since`, what it carried. */
  readonly log: Array<{ at: number; sinceMs: number; items: number; bytes: number }> = [];
  private readonly rows: Stored[] = [];
  private readonly unusable: Array<{ record: unknown; visibleMs: number }> = [];
  private readonly createdById = new Map<string, number>();
  private readonly rng = new Rng(7);
  private failNext: Failure | null = null;
  /** How far ahead of the server's clock the next answer's `Date` header is (then back to 0). */
  dateAheadNextMs = 0;
  /** How the `Date` header (whole seconds) rounds the server's clock: down, as most servers do, or up. */
  dateRounding: 'down' | 'up' = 'down';

  /**
   * A registration; `lean` ones carry only what identifies them (bursts: cheaper to play, same logic).
   * `odd` replaces fields with values outside their documented form (`approvedAt: ""`).
   */
  add(
    id: string,
    createdMs: number,
    lagMs = 0,
    status = 'approved',
    lean = false,
    odd: Record<string, unknown> = {},
  ): void {
    const createdAt = new Date(createdMs).toISOString();
    this.rows.push({
      submission: {
        ...(lean
          ? ({ submissionId: id, eventId: EVENT_ID, status, createdAt } as Submission)
          : {
              ...SAMPLE_SUBMISSION,
              submissionId: id,
              eventId: EVENT_ID,
              status,
              email: `${id}@example.com`,
              qrCode: `EVT1:7d0c6f1e:${id}:${(createdMs % 65_521).toString(16)}`,
              createdAt,
            }),
        ...odd,
      } as Submission,
      createdMs,
      visibleMs: createdMs + lagMs,
    });
    this.createdById.set(id, createdMs);
  }

  /**
   * A record no registration can be made of (no id, no `createdAt`, not an object): it is in every answer
   * from `visibleMs` on, whatever the `since`, and it is not among the registrations created.
   */
  addUnusable(record: unknown, visibleMs: number): void {
    this.unusable.push({ record, visibleMs });
  }

  /** Ids of every registration created at or after `ms`. */
  createdSince(ms: number): Set<string> {
    return new Set(this.rows.filter((row) => row.createdMs >= ms).map((row) => row.submission.submissionId));
  }

  createdMsOf(id: string): number {
    return this.createdById.get(id) ?? NaN;
  }

  /** Ids of the registrations that were visible at `ms`. */
  visibleAt(ms: number): Set<string> {
    return new Set(this.rows.filter((row) => row.visibleMs <= ms).map((row) => row.submission.submissionId));
  }

  failNextRequest(kind: Failure | null): void {
    this.failNext = kind;
  }

  private reply(status: number, body: string, headers: Record<string, string> = {}) {
    const ahead = this.dateAheadNextMs;
    this.dateAheadNextMs = 0;
    const all: Record<string, string> = {
      'content-type': 'application/json',
      date: new Date(
        this.dateRounding === 'up' ? Math.ceil((this.now + ahead) / 1000) * 1000 : this.now + ahead,
      ).toUTCString(),
      ...headers,
    };
    return { status, content: body, headers: { get: (name: string) => all[name.toLowerCase()] ?? null } };
  }

  handle(url: string) {
    this.requests += 1;
    const parsed = new URL(url);
    const failure = this.failNext;
    this.failNext = null;
    if (failure === 'timeout') throw new Error(`network timeout at: ${parsed.origin}${parsed.pathname}`);
    if (failure === '429')
      return this.reply(429, '{"error":{"code":"RATE_LIMITED","message":"slow"}}', { 'retry-after': '60' });
    if (failure === '500') return this.reply(500, '{"error":{"code":"INTERNAL","message":"db down"}}');
    if (failure === 'html')
      return this.reply(502, '<html>Bad Gateway</html>', { 'content-type': 'text/html' });

    if (parsed.pathname.endsWith('/events')) {
      this.eventRequests += 1;
      return this.reply(200, JSON.stringify(wireList([SAMPLE_EVENT])));
    }
    const sinceMs = Date.parse(parsed.searchParams.get('since') ?? '');
    const rows = this.rows.filter(
      (row) =>
        row.visibleMs <= this.now &&
        (this.boundary === 'inclusive' ? row.createdMs >= sinceMs : row.createdMs > sinceMs),
    );
    if (this.shuffle) {
      for (let i = rows.length - 1; i > 0; i--) {
        const j = this.rng.int(i + 1);
        [rows[i], rows[j]] = [rows[j] as Stored, rows[i] as Stored];
      }
    }
    const records: unknown[] = rows.map((row) => row.submission);
    for (const { record, visibleMs } of this.unusable) {
      if (visibleMs <= this.now) records.splice(this.rng.int(records.length + 1), 0, record);
    }
    const body = JSON.stringify(wireList(records));
    this.log.push({ at: this.now, sinceMs, items: rows.length, bytes: Buffer.byteLength(body) });
    return this.reply(200, body);
  }
}

/** Log lines the app wrote (`z.console.log`), for scenarios that check them. */
export const logLines: string[] = [];

export const fakeZ = (server: ScriptedServer, cache: FakeCache): ZObject =>
  ({
    request: async (options: { url: string; raw?: boolean }) => {
      const answer = server.handle(options.url);
      if (!options.raw) return answer;
      // Like Zapier's raw responses: the body as a stream (node-fetch's), or through text().
      return {
        status: answer.status,
        headers: answer.headers,
        body: Readable.from([Buffer.from(answer.content)]),
        text: async () => answer.content,
        get content(): string {
          throw new Error('raw responses have no content');
        },
      };
    },
    cache: cache.api,
    errors,
    console: { log: (line: string) => logLines.push(line), error: () => undefined },
  }) as unknown as ZObject;

/** One Zap using the trigger: Zapier's dedupe table and what reached the Zap. */
export class Zap {
  readonly seen = new Set<string>();
  readonly triggered: string[] = [];
  /** The item each id ran the Zap with, for the ids of `watched` (a day of items is not held). */
  readonly items = new Map<string, Record<string, unknown>>();
  readonly watched = new Set<string>();
  /** The ids each delivered poll ran the Zap for, in the order of the answer. */
  readonly answers: string[][] = [];
  seeded = 0;
  polls = 0;
  failures = 0;
  lost = 0;
  maxReturned = 0;
  /** The largest answer, in bytes of JSON (what Zapier stashes at 6 MB and accepts up to about 20 MB). */
  maxBytes = 0;
  constructor(
    readonly name: string,
    private readonly z: ZObject,
    private readonly inputData: Record<string, unknown> = { eventId: EVENT_ID },
    private readonly perform = performWith(),
  ) {}

  /** Zapier sends polling triggers nothing that names the Zap: two Zaps with the same inputs look the same. */
  private bundle(meta: Record<string, unknown>): Bundle {
    return {
      authData: { apiKey: 'sk_test_cursor', baseUrl: BASE_URL },
      inputData: this.inputData,
      meta,
    } as unknown as Bundle;
  }

  private async run(meta: Record<string, unknown>): Promise<Array<{ id: string } & Record<string, unknown>>> {
    return (await this.perform(this.z, this.bundle(meta))) as Array<{ id: string } & Record<string, unknown>>;
  }

  /** Turning the Zap on: every id returned goes into the dedupe table without running the Zap. */
  async turnOn(): Promise<void> {
    const items = await this.run({ isPopulatingDedupe: true });
    for (const item of items) this.seen.add(item.id);
    this.seeded = items.length;
  }

  /**
   * A scheduled poll. New ids run the Zap (Zapier runs 100 per poll and holds the rest for the user: held
   * items are not lost, so all count as delivered). `lose` drops the answer as if Zapier never got it.
   */
  async poll(options: { lose?: boolean } = {}): Promise<'ok' | 'failed'> {
    this.polls += 1;
    let items: Array<{ id: string } & Record<string, unknown>>;
    try {
      items = await this.run({ isPopulatingDedupe: false, isLoadingSample: false });
    } catch {
      this.failures += 1;
      return 'failed';
    }
    this.maxReturned = Math.max(this.maxReturned, items.length);
    // Only a large answer can come near Zapier's limits (measuring every one would slow the suite down).
    if (items.length > 1000) this.maxBytes = Math.max(this.maxBytes, JSON.stringify(items).length);
    if (options.lose) {
      this.lost += 1;
      return 'ok';
    }
    const ids = items.map((item) => item.id);
    if (new Set(ids).size !== ids.length) throw new Error(`${this.name}: duplicate ids in one answer`);
    const fresh = ids.filter((id) => !this.seen.has(id));
    for (const id of fresh) {
      this.seen.add(id);
      this.triggered.push(id);
    }
    if (this.watched.size) {
      const isFresh = new Set(fresh);
      for (const item of items)
        if (isFresh.has(item.id) && this.watched.has(item.id)) this.items.set(item.id, item);
    }
    this.answers.push(fresh);
    return 'ok';
  }
}
