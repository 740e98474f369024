// `npm run bench:poll`: the New Form Submission trigger against the sandbox, with registrations arriving
// continuously, at 1, 2, 5 and 15-minute polls.
//
// The sandbox holds one event with 24,000 registrations over the last 24 h (1,000 an hour) and keeps
// receiving them at that rate, spread evenly over each interval, each visible up to 2 minutes late. For each
// polling interval a Zap is turned on (`isPopulatingDedupe`) on a fresh cache and polls for 4 hours on a
// clock shared by the sandbox and the app. Every request of the app goes through a counting proxy on
// 127.0.0.1, so requests and bytes are those on the wire; `z.cache` is counted too (bytes of the values read
// and written). Per interval it prints, at steady state (once the kept entry holds its 150 minutes): bytes
// read from the service against the physical floor (the bytes of the registrations that became visible since
// the previous poll: no trigger can read less), cache bytes read and written, requests, the largest kept
// entry, and the registrations the Zap missed (counted here: every registration visible at its last poll
// must have reached it). Then the held Zaps: a Zap polled every 15 minutes that Zapier holds for 2 hours
// while another polls every 5 (cache working, then emptied once 20 minutes into the hold), and one held 60
// minutes with the cache emptied before every poll. Then the naive 24-hour window for comparison, the widest poll's memory (a child process on the
// compiled app), the CPU per steady poll (the app's, measured with garbage collected as V8 chooses, in a worker
// that ran the stream's previous poll and in one that did not, and with a full collection forced before
// each poll: scripts/lib/pollRushes.ts, `playSteadyCpu`), the rushes
// (each alone in a child process on the compiled app: scripts/lib/pollPlay.ts; a play with the whole cache
// lost, or whose whole process passes 256 MB, has its heaviest polls replayed alone too, each in a fresh
// process: scripts/lib/pollReplay.ts),
// and the targets.
//
// Flags: --scale N (24000) --hours N (4) --every MIN (one polling interval only) --rush-only (only the
// rushes) --no-rush
// --cpu-only (only the CPU per steady poll, the three ways)
// --rush TEXT[/MIN] (only the rushes whose name contains TEXT, at MIN-minute polls if given: `--rush "10 KB/1"`;
// a whole name picks that rush alone: `--rush "10,000 in 30 min, 10 KB"`)

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createAppTester, type Bundle, type ZObject } from 'zapier-platform-core';
import { SCALE_EVENT_SLUG, SEED_TENANTS, sandboxCall, startSandbox } from '../sandbox';
import App from '../index';
import { paths } from '../src/connect';
import { Event, Submission, readRecords } from '../src/connect/testing';
import { listSubmissions } from './lib/submissions';
import { findEvent } from '../src/account/events';
import { POLL_TIMINGS as CURSOR_TIMING } from '../src/polling';
import { toSubmissionItem, eventContextOf } from '../src/mappers/submission';
import { newSubmissionTrigger } from '../src/triggers/newSubmission';
import { STREAM_LIMITS_ENV } from '../src/connect';
import { pollTimings } from '../src/polling';
import { callable, meta } from './lib/app';
import {
  PLAY_LIMITS,
  RUSH_SCENARIOS,
  type SteadyCpuWay,
  type RushResult,
  STEADY_SCENARIO,
  playRushes,
  playSteadyCpu,
  rushLines,
  rushTargets,
} from './lib/pollRushes';

const ROOT = path.resolve(__dirname, '..');
const NODE = path.join(ROOT, 'node_modules', '.bin', 'node');
const TENANT = SEED_TENANTS[0];
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const flag = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) && v > 0 ? v : fallback;
};

const SCALE = Math.floor(flag('scale', 24_000));
const PLAY_MS = flag('hours', 4) * HOUR;
const EVERY = flag('every', NaN);
const INTERVALS_MIN = [1, 2, 5, 15].filter((min) => !Number.isFinite(EVERY) || min === EVERY);
const RUSH_ONLY = process.argv.includes('--rush-only');
const NO_RUSH = process.argv.includes('--no-rush');
const CPU_ONLY = process.argv.includes('--cpu-only');

/** The rush scenarios `--rush TEXT[/MIN]` picks (all of them without it). */
const pickedRushes = (): typeof RUSH_SCENARIOS => {
  const i = process.argv.indexOf('--rush');
  const pick = i >= 0 ? (process.argv[i + 1] ?? '') : null;
  if (pick === null) return RUSH_SCENARIOS;
  const cut = pick.lastIndexOf('/');
  const text = (cut >= 0 ? pick.slice(0, cut) : pick).toLowerCase();
  const every = cut >= 0 ? Number(pick.slice(cut + 1)) : NaN;
  // A scenario's whole name picks it alone (the faulty plays' names start with their clean one's).
  const named = RUSH_SCENARIOS.filter((s) => s.name.toLowerCase() === pick.toLowerCase());
  if (named.length) return named;
  return RUSH_SCENARIOS.filter(
    (s) => s.name.toLowerCase().includes(text) && (!Number.isFinite(every) || s.everyMin === every),
  );
};

// One clock for the sandbox and the app: real time plus the minutes the play has jumped.
const realNow = Date.now.bind(Date);
let offset = 0;
const now = () => realNow() + offset;
Date.now = now;

// zapier-platform-core's handler ends a process whose RSS is over 450 MB once it has run 250 times (its
// guard for Zapier's workers). This process also holds the sandbox with all its registrations, the proxy and
// several Zaps, and plays hundreds of polls: the guard would measure all of that, so it is off here (it reads
// an RSS of 0). The app's own peak is measured alone, in a child process (`runWidest`).
const memoryUsage = process.memoryUsage.bind(process);
process.memoryUsage = Object.assign(() => ({ ...memoryUsage(), rss: 0 }), { rss: () => 0 });

type Perform = (z: ZObject, bundle: Bundle) => Promise<unknown>;
type Tester = ReturnType<typeof createAppTester>;
// The app's time limits of a long play (the connect layer's and the polling room's run limit): a busy
// machine does not reach them, so the figures are of the logic (see PLAY_LIMITS).
process.env[STREAM_LIMITS_ENV] = PLAY_LIMITS;
const perform = callable(
  (
    newSubmissionTrigger({ timings: pollTimings({ runLimitMs: 10 * MINUTE }) }).operation as {
      perform?: unknown;
    }
  ).perform,
);

// ---- the widest poll alone, in a child process (its peak memory) --------------------------------------

type Outcome = { code: number | null; stdout: string; stderr: string };

/** Runs a command (at most 2 minutes) and collects its output. */
function run(command: string, args: string[]): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Compiles the app into .tmp/bench-poll and runs the widest poll there, in plain Node (as Zapier does). */
async function runWidest(args: string[]): Promise<Outcome> {
  const out = path.join(ROOT, '.tmp', 'bench-poll');
  const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const compiled = await run(NODE, [tsc, '-p', 'tsconfig.build.json', '--outDir', out]);
  if (!existsSync(path.join(out, 'index.js'))) return compiled;
  return run(NODE, ['--expose-gc', path.join(ROOT, 'scripts', 'bench-poll-widest.cjs'), out, ...args]);
}

// zapier-platform-core prints a memory line on every run outside of tests; the figures here are measured.
const print = console.log.bind(console);
console.log = (...args: unknown[]) => {
  if (args[0] !== 'ZID:') print(...args);
};

// ---- the counting proxy --------------------------------------------------------------------------------

interface Wire {
  path: string;
  bytes: number;
  ms: number;
}

function startProxy(upstream: string): Promise<{ url: string; log: Wire[]; close: () => void }> {
  const log: Wire[] = [];
  const target = new URL(upstream);
  const server = http.createServer((req, res) => {
    const started = performance.now();
    const forward = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: req.url,
        method: req.method,
        headers: req.headers,
        // A new connection each time: one kept alive may be closed by the sandbox just as it is reused.
        agent: false,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        let bytes = 0;
        answer.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          res.write(chunk);
        });
        answer.on('end', () => {
          res.end();
          log.push({ path: req.url ?? '', bytes, ms: performance.now() - started });
        });
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  return new Promise((resolve) => {
    // Idle connections stay open for the whole play: one closed by the proxy as a client reuses it would
    // fail that client's request.
    server.keepAliveTimeout = 30 * MINUTE;
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, log, close: () => server.close() });
    });
  });
}

// ---- the cache, counted ------------------------------------------------------------------------------

/** Bytes of the values the app read from and wrote to `z.cache` (JSON text, as Zapier stores them). */
interface CacheCount {
  read: number;
  written: number;
  /** The largest value written under a key ending in `:kept`, in bytes. */
  largestKept: number;
  /** Forgets every entry (a cache that lost everything). */
  clear: () => void;
}

/** Gives the tester a `z.cache` store that counts what goes in and out. */
function countedCache(tester: Tester): CacheCount {
  let store: Record<string, unknown> = {};
  const count: CacheCount = { read: 0, written: 0, largestKept: 0, clear: () => (store = {}) };
  const size = (value: unknown) => (typeof value === 'string' ? Buffer.byteLength(value) : 0);
  (tester as unknown as { zcacheTestObj: object }).zcacheTestObj = new Proxy(
    {},
    {
      has: (_, key) => key in store,
      get: (_, key: string) => {
        count.read += size(store[key]);
        return store[key];
      },
      set: (_, key: string, value: unknown) => {
        count.written += size(value);
        if (key.endsWith(':kept')) count.largestKept = Math.max(count.largestKept, size(value));
        store[key] = value;
        return true;
      },
      deleteProperty: (_, key: string) => delete store[key],
    },
  );
  return count;
}

// ---- the sandbox and the registrations --------------------------------------------------------------

interface Arrival {
  id: string;
  visibleAt: number;
  /** Bytes of the registration in a list answer (its JSON and a comma). */
  bytes: number;
}

interface Bench {
  url: string;
  proxy: Awaited<ReturnType<typeof startProxy>>;
  authData: Record<string, string>;
  eventId: string;
  sim: (method: string, urlPath: string, body?: unknown) => Promise<unknown>;
  answersPool: unknown[];
  arrivals: Arrival[];
  /** Registrations due but not yet made (the rate is rarely a whole number per interval). */
  owed: number;
  close: () => Promise<void>;
}

/** The sandbox with its load event, behind the counting proxy. */
async function openBench(): Promise<Bench> {
  const sandbox = await startSandbox({ port: 0, now, scale: SCALE });
  // The play blocks the event loop for seconds at a time: idle connections are closed by the clients.
  sandbox.app.server.keepAliveTimeout = 30 * MINUTE;
  const proxy = await startProxy(sandbox.url);
  const sim = (method: string, urlPath: string, body?: unknown) =>
    sandboxCall<unknown>(sandbox.url, TENANT.apiKey, method, urlPath, body);
  const events = readRecords(Event, await sim('GET', `${paths.events()}?limit=100`));
  const event = events.find((e) => e.slug === SCALE_EVENT_SLUG);
  if (!event) throw new Error('the sandbox has no load event');
  // New registrations answer the form like the seeded ones (the same answers, so the same sizes).
  const since = new Date(now() - HOUR).toISOString();
  const recent = readRecords(
    Submission,
    await sim('GET', `/api/v1/integrations/zapier/submissions?eventId=${event.id}&since=${since}`),
  );
  return {
    url: sandbox.url,
    proxy,
    authData: { apiKey: TENANT.apiKey, baseUrl: proxy.url, companyId: TENANT.companyId },
    eventId: event.id,
    sim,
    answersPool: recent.map((s) => s.answers ?? []),
    arrivals: [],
    owed: 0,
    close: async () => {
      proxy.close();
      await sandbox.close();
    },
  };
}

/** Registrations created evenly over the next `ms` (at the load event's rate), each up to 2 minutes late. */
async function arrive(bench: Bench, ms: number): Promise<void> {
  bench.owed += (SCALE * ms) / DAY;
  const due = Math.floor(bench.owed);
  bench.owed -= due;
  const from = now();
  for (let i = 0; i < due; i++) {
    const n = bench.arrivals.length;
    const created = from + Math.floor(((i + 0.5) * ms) / due);
    const made = (await bench.sim('POST', '/_sandbox/submissions', {
      eventId: bench.eventId,
      email: `bench${n}@loadtest.example`,
      firstName: 'Bench',
      lastName: `Guest ${n}`,
      status: n % 7 ? 'approved' : 'pending',
      answers: bench.answersPool[n % Math.max(bench.answersPool.length, 1)] ?? [],
      createdAt: new Date(created).toISOString(),
      visibleAt: new Date(created + ((n * 7919) % 120_000)).toISOString(),
    })) as Record<string, unknown> & { submissionId: string; visibleAt: string };
    const { visibleAt, ...submission } = made;
    const bytes = Buffer.byteLength(JSON.stringify(submission)) + 1;
    bench.arrivals.push({ id: made.submissionId, visibleAt: Date.parse(visibleAt), bytes });
  }
}

/** The physical floor of a poll at `to` after one at `from`: the registrations that became visible between. */
const floorBytes = (bench: Bench, from: number, to: number) =>
  bench.arrivals.reduce((sum, a) => (a.visibleAt > from && a.visibleAt <= to ? sum + a.bytes : sum), 0);

// ---- a Zap ------------------------------------------------------------------------------------------------

/** What one poll cost. */
interface Poll {
  at: number;
  requests: number;
  /** Bytes read from the service. */
  bytes: number;
  floor: number;
  cacheRead: number;
  cacheWritten: number;
  returned: number;
  /** Items that were new to this Zap. */
  fresh: number;
  /** Bytes of the answer Zapier receives (its items as JSON). */
  answer: number;
  ms: number;
}

/** One Zap of the account: Zapier's dedupe table, on a tester whose cache it shares with the account's Zaps. */
class BenchZap {
  readonly seen = new Set<string>();
  readonly polls: Poll[] = [];
  private turnedOn = 0;
  private last = 0;
  /** When the last poll started: what was visible then must have reached the Zap. */
  private lastStarted = 0;
  constructor(
    private readonly bench: Bench,
    private readonly tester: Tester,
    private readonly cache: CacheCount,
  ) {}

  private run(extra: Record<string, unknown>) {
    const bundle = {
      authData: this.bench.authData,
      inputData: { eventId: this.bench.eventId },
      meta: meta(extra),
    };
    return this.tester(perform, bundle) as Promise<Array<{ id: string }>>;
  }

  /** Turning the Zap on: the ids go into the dedupe table. */
  async turnOn(): Promise<void> {
    for (const item of await this.run({ isPopulatingDedupe: true })) this.seen.add(item.id);
    this.turnedOn = now();
    this.last = now();
  }

  async poll(): Promise<Poll> {
    const { proxy } = this.bench;
    const [from, read, written, started] = [
      proxy.log.length,
      this.cache.read,
      this.cache.written,
      performance.now(),
    ];
    this.lastStarted = now();
    const items = await this.run({});
    const wire = proxy.log.slice(from);
    let fresh = 0;
    for (const item of items) {
      if (!this.seen.has(item.id)) fresh += 1;
      this.seen.add(item.id);
    }
    const poll: Poll = {
      at: now(),
      requests: wire.length,
      bytes: wire.reduce((sum, w) => sum + w.bytes, 0),
      floor: floorBytes(this.bench, this.last, now()),
      cacheRead: this.cache.read - read,
      cacheWritten: this.cache.written - written,
      returned: items.length,
      fresh,
      answer: Buffer.byteLength(JSON.stringify(items)),
      ms: performance.now() - started,
    };
    this.last = now();
    this.polls.push(poll);
    return poll;
  }

  /**
   * Registrations that became visible while the Zap was on, before its last poll started, and never reached
   * it (one that shows up while a poll runs is the next poll's).
   */
  missed(): number {
    return this.bench.arrivals.filter(
      (a) => a.visibleAt > this.turnedOn && a.visibleAt < this.lastStarted && !this.seen.has(a.id),
    ).length;
  }
}

/** A Zap on a fresh account cache (a tester of its own), turned on now. */
async function newZap(bench: Bench): Promise<{ zap: BenchZap; tester: Tester; cache: CacheCount }> {
  const tester = createAppTester(App);
  const cache = countedCache(tester);
  const zap = new BenchZap(bench, tester, cache);
  await zap.turnOn();
  return { zap, tester, cache };
}

// ---- the plays ---------------------------------------------------------------------------------------------

interface Cadence {
  everyMin: number;
  polls: Poll[];
  /** From this poll on, the kept entry holds its whole 150 minutes. */
  steadyFrom: number;
  missed: number;
  largestKept: number;
}

/** One Zap polling every `everyMin` minutes for the play's length, registrations arriving all the while. */
async function playCadence(bench: Bench, everyMin: number): Promise<Cadence> {
  const every = everyMin * MINUTE;
  const { zap, cache } = await newZap(bench);
  for (let t = every; t <= PLAY_MS; t += every) {
    await arrive(bench, every);
    offset += every;
    await zap.poll();
  }
  const steadyFrom = Math.min(zap.polls.length - 1, Math.ceil(CURSOR_TIMING.keptMs / every) + 1);
  return { everyMin, polls: zap.polls, steadyFrom, missed: zap.missed(), largestKept: cache.largestKept };
}

/** The cache while a Zap is held: working, emptied before every poll, or emptied once 20 minutes into the hold. */
type HeldCache = 'working' | 'emptied before every poll' | 'emptied once, 20 minutes into the hold';

interface Held {
  name: string;
  heldMin: number;
  cacheMode: HeldCache;
  missed: { a: number; b: number };
  /** Zap A's polls: service bytes against the floor. */
  ratio: number;
  /** The held Zap's longest time without a poll. */
  gapMin: number;
}

/**
 * Zap A polls every 5 minutes; Zap B, of the same account and event (one stream), every 15, but Zapier holds
 * one of its polls `heldMin` minutes, the cache as `cacheMode` says.
 */
async function playHeld(bench: Bench, heldMin: number, cacheMode: HeldCache): Promise<Held> {
  const cacheWorks = cacheMode !== 'emptied before every poll';
  const { zap: a, tester, cache } = await newZap(bench);
  const b = new BenchZap(bench, tester, cache);
  await b.turnOn();
  const heldFrom = 30 * MINUTE;
  const heldUntil = heldFrom + 15 * MINUTE + heldMin * MINUTE;
  const end = heldUntil + 45 * MINUTE;
  let lastB = 0;
  let gap = 0;
  for (let t = 5 * MINUTE; t <= end; t += 5 * MINUTE) {
    await arrive(bench, 5 * MINUTE);
    offset += 5 * MINUTE;
    if (!cacheWorks || (cacheMode !== 'working' && t === heldFrom + 35 * MINUTE)) cache.clear();
    await a.poll();
    const bDue =
      t <= heldFrom ? t % (15 * MINUTE) === 0 : t >= heldUntil && (t - heldUntil) % (15 * MINUTE) === 0;
    if (!bDue) continue;
    if (!cacheWorks) cache.clear();
    await b.poll();
    gap = Math.max(gap, t - lastB);
    lastB = t;
  }
  const name = `Zap held ${heldMin} min past its 15-minute interval, cache ${cacheMode}`;
  const ratio = sum(a.polls, 'bytes') / Math.max(sum(a.polls, 'floor'), 1);
  return { name, heldMin, cacheMode, missed: { a: a.missed(), b: b.missed() }, ratio, gapMin: gap / MINUTE };
}

/** The naive trigger: every poll reads the last 24 hours and maps all of it. Bytes and time of 3 polls. */
async function playNaive(bench: Bench): Promise<{ bytes: number; ms: number }> {
  const tester = createAppTester(App);
  const naive: Perform = async (z, bundle) => {
    const since = new Date(Date.now() - DAY).toISOString();
    const { submissions } = await listSubmissions(z, bundle, { eventId: bench.eventId, since });
    const context = eventContextOf(await findEvent(z, bundle, bench.eventId));
    return submissions.map((s) => toSubmissionItem(s, context));
  };
  let bytes = 0;
  let ms = 0;
  for (let i = 0; i < 3; i++) {
    const from = bench.proxy.log.length;
    const started = performance.now();
    await tester(naive, { authData: bench.authData, inputData: { eventId: bench.eventId }, meta: meta() });
    ms += performance.now() - started;
    bytes += bench.proxy.log.slice(from).reduce((sum, w) => sum + w.bytes, 0);
  }
  return { bytes: bytes / 3, ms: ms / 3 };
}

// ---- the report ------------------------------------------------------------------------------------------

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const pad = (value: string | number, width: number) => String(value).padStart(width);
const sum = (polls: Poll[], key: keyof Poll) => polls.reduce((total, poll) => total + poll[key], 0);
const avg = (polls: Poll[], key: keyof Poll) => sum(polls, key) / Math.max(polls.length, 1);

/** What the widest poll used, measured alone in a child process. */
interface Widest {
  items?: number;
  ms?: number;
  rssBefore?: number;
  peakRss?: number;
  heapBefore?: number;
  peakHeap?: number;
}

/** Steady figures of one interval. */
const steadyOf = (c: Cadence) => {
  const steady = c.polls.slice(c.steadyFrom);
  return {
    steady,
    ratio: sum(steady, 'bytes') / Math.max(sum(steady, 'floor'), 1),
    requests: Math.max(...steady.map((p) => p.requests)),
  };
};

/** One line per polling interval. */
function cadenceTable(cadences: Cadence[]): string[] {
  const head = `${pad('every', 6)} ${pad('polls', 5)} ${pad('service', 11)} ${pad('floor', 10)} ${pad('ratio', 6)} ${pad('cache read', 11)} ${pad('written', 11)} ${pad('req', 3)} ${pad('items', 5)} ${pad('wall', 8)} ${pad('kept entry', 11)} ${pad('missed', 6)}`;
  const rows = cadences.map((c) => {
    const { steady, ratio, requests } = steadyOf(c);
    return `${pad(`${c.everyMin} min`, 6)} ${pad(steady.length, 5)} ${pad(kib(avg(steady, 'bytes')), 11)} ${pad(kib(avg(steady, 'floor')), 10)} ${pad(`${ratio.toFixed(2)}x`, 6)} ${pad(kib(avg(steady, 'cacheRead')), 11)} ${pad(kib(avg(steady, 'cacheWritten')), 11)} ${pad(requests, 3)} ${pad(avg(steady, 'returned').toFixed(0), 5)} ${pad(`${avg(steady, 'ms').toFixed(0)} ms`, 8)} ${pad(kib(c.largestKept), 11)} ${pad(c.missed, 6)}`;
  });
  return [head, ...rows];
}

interface Played {
  bench: Bench;
  rushes: RushResult[];
  cadences: Cadence[];
  held: Held[];
  naive: { bytes: number; ms: number };
  widest: Widest;
  child: Outcome;
  /** CPU per steady poll (ms), by how garbage is collected (`playSteadyCpu`); empty when not played. */
  cpu: Partial<Record<SteadyCpuWay, number | string>>;
}

/**
 * A poll priced in full, per new registration: what it reads from the service, hands to Zapier and reads
 * and writes in the cache, beside a stateless poller with the same guarantee (a Zap held 2 hours misses
 * nothing), which reads and answers the last 150 minutes (and the visibility delay and margin) every poll.
 */
function pricing(bench: Bench, cadences: Cadence[]): { lines: string[]; ratios: Map<number, number> } {
  const ratios = new Map<number, number>();
  const lines = [
    'A poll priced in full at steady state, per new registration (ours: service + answer + cache read + cache written; stateless: service + answer of the last 150 minutes):',
    `${pad('every', 6)} ${pad('service', 10)} ${pad('answer', 10)} ${pad('items', 6)} ${pad('cache r', 10)} ${pad('cache w', 10)} ${pad('per new', 10)} ${pad('stateless', 10)} ${pad('ratio', 6)}`,
  ];
  const windowMs = CURSOR_TIMING.keptMs + CURSOR_TIMING.visibilityDelayMs + CURSOR_TIMING.settleMarginMs;
  for (const c of cadences) {
    const { steady } = steadyOf(c);
    const fresh = steady.reduce((n, p) => n + p.fresh, 0) || 1;
    const perItem = sum(steady, 'answer') / Math.max(sum(steady, 'returned'), 1);
    const ours =
      sum(steady, 'bytes') + sum(steady, 'answer') + sum(steady, 'cacheRead') + sum(steady, 'cacheWritten');
    let stateless = 0;
    for (const p of steady) {
      const inWindow = bench.arrivals.filter((a) => a.visibleAt > p.at - windowMs && a.visibleAt <= p.at);
      stateless += inWindow.reduce((n, a) => n + a.bytes, 0) + inWindow.length * perItem;
    }
    const ratio = ours / Math.max(stateless, 1);
    ratios.set(c.everyMin, ratio);
    lines.push(
      `${pad(`${c.everyMin} min`, 6)} ${pad(kib(avg(steady, 'bytes')), 10)} ${pad(kib(avg(steady, 'answer')), 10)} ${pad(avg(steady, 'returned').toFixed(0), 6)} ${pad(kib(avg(steady, 'cacheRead')), 10)} ${pad(kib(avg(steady, 'cacheWritten')), 10)} ${pad(kib(ours / fresh), 10)} ${pad(kib(stateless / fresh), 10)} ${pad(`${ratio.toFixed(2)}x`, 6)}`,
    );
  }
  return { lines, ratios };
}

/** What each requirement costs a poll, at each interval. */
function costs(cadences: Cadence[]): string[] {
  const out = ['What each requirement costs a poll at steady state:'];
  for (const c of cadences) {
    const { steady } = steadyOf(c);
    const floor = avg(steady, 'floor');
    const margin = avg(steady, 'bytes') - floor;
    const cache = avg(steady, 'cacheRead') + avg(steady, 'cacheWritten');
    out.push(
      `  ${pad(`${c.everyMin} min`, 6)}: the new registrations ${kib(floor)} from the service; re-reading the 2-minute late visibility, the ${CURSOR_TIMING.settleMarginMs / 1000} s margin and the poll's duration ${kib(margin)}; keeping ${CURSOR_TIMING.keptMs / MINUTE} minutes for held Zaps ${kib(cache)} of cache traffic and an answer of ${avg(steady, 'returned').toFixed(0)} items (${mib(avg(steady, 'answer'))}) that Zapier dedupes`,
    );
  }
  return out;
}

/** CPU per steady poll, the three ways `playSteadyCpu` measures it. */
function cpuLines(cpu: Played['cpu']): string[] {
  const ms = (value: number | string | undefined) =>
    typeof value === 'number' ? `${value.toFixed(1)} ms` : `not measured (${value ?? 'not played'})`;
  const zaps = STEADY_SCENARIO.zaps?.map((zap) => zap.everyMin).join(', ');
  return [
    `CPU per steady poll (the app's, without the service's; ${zaps}-minute Zaps, 1,000 registrations an hour, each poll handing back the kept entry's whole 150 minutes), each way in a fresh process:`,
    `  ${ms(cpu['gc-as-v8-chooses'])} with garbage collected as V8 chooses, counted in the poll that collects it (a warm Zapier worker: what Zapier pays), the worker having run the stream's previous poll (it remembers what it decoded)`,
    `  ${ms(cpu['fresh-workers'])} the same, every poll in a worker that ran none of the stream's polls before (nothing remembered)`,
    `  ${ms(cpu.forced)} with a full collection forced before each poll and not counted (as the rush plays run, for their memory figures; Zapier never forces one)`,
  ];
}

/** The targets, met or missed. */
function targets(played: Played): string[] {
  const { bench, rushes, cadences, held, naive, widest } = played;
  const out = ['Targets:'];
  const target = (ok: boolean, text: string) => out.push(`  ${ok ? 'met ' : 'MISS'}  ${text}`);
  for (const [ok, text] of rushes.length ? rushTargets(rushes) : []) target(ok, text);
  const chosen = played.cpu['gc-as-v8-chooses'];
  const fresh = played.cpu['fresh-workers'];
  if (typeof chosen === 'number' && typeof fresh === 'number')
    target(
      true,
      `CPU per steady poll printed: ${chosen.toFixed(1)} ms in a worker that ran the stream's previous poll, ${fresh.toFixed(1)} in one that did not (garbage collected as V8 chooses)`,
    );
  if (!cadences.length) return out;
  const written = Math.max(...cadences.map((c) => avg(steadyOf(c).steady, 'cacheWritten')));
  target(
    written <= 40 * 1024,
    `cache writes at most 40 KiB a poll at 1,000 registrations an hour: ${kib(written)} at most`,
  );
  const { ratios } = pricing(bench, cadences);
  const worst = Math.max(...ratios.values());
  target(
    worst <= 0.7,
    `a poll priced in full at most 0.70x a stateless poller's per new registration: ${worst.toFixed(2)}x at most`,
  );
  const at = (min: number) => cadences.find((c) => c.everyMin === min);
  const ratio = (min: number) => {
    const c = at(min);
    return c ? steadyOf(c).ratio : NaN;
  };
  target(ratio(5) <= 1.5, `service bytes at most 1.5x the floor at 5-minute polls: ${ratio(5).toFixed(2)}x`);
  target(ratio(1) <= 3, `service bytes at most 3x the floor at 1-minute polls: ${ratio(1).toFixed(2)}x`);
  const requests = cadences.map((c) => steadyOf(c).requests);
  target(
    requests.every((r) => r === 1),
    `one request a poll at steady state: at most ${Math.max(...requests)}`,
  );
  const missed =
    cadences.reduce((n, c) => n + c.missed, 0) + held.reduce((n, h) => n + h.missed.a + h.missed.b, 0);
  target(missed === 0, `no registration missed in any play: ${missed}`);
  const largest = Math.max(...cadences.map((c) => c.largestKept));
  target(
    largest <= CURSOR_TIMING.keptCapBytes,
    `kept entry under ${mib(CURSOR_TIMING.keptCapBytes)} at ${(SCALE / 24).toFixed(0)} registrations an hour: ${kib(largest)}`,
  );
  const five = at(5);
  const ours = five ? avg(steadyOf(five).steady, 'bytes') : NaN;
  target(
    naive.bytes / ours >= 20,
    `at least 20x fewer service bytes than the naive 24 h window at 5-minute polls: ${(naive.bytes / ours).toFixed(1)}x (${kib(ours)} against ${mib(naive.bytes)})`,
  );
  const peak = widest.peakRss ?? NaN;
  target(
    peak < 256 * 1024 * 1024,
    `peak memory of the widest poll under 256 MB: ${mib(peak)} (whole process)`,
  );
  return out;
}

/** The figures of the steady plays. */
function steadyReport(played: Played): string[] {
  const { bench, cadences, held, naive, widest, child } = played;
  const out = [
    `bench:poll: one event with ${SCALE.toLocaleString('en')} registrations over 24 h, ${(SCALE / 24).toFixed(0)} more an hour arriving continuously (each visible up to 2 min late); ${PLAY_MS / HOUR} h of polls per interval`,
    '',
    'Per poll at steady state (the kept entry full: from 150 minutes on). service: bytes read from the service; floor: bytes of the registrations visible since the previous poll; cache: bytes of z.cache values read and written; kept entry: the largest written (compressed text).',
    ...cadenceTable(cadences),
    '',
    ...pricing(bench, cadences).lines,
    '',
    'Held Zaps (A polls every 5 minutes, B every 15 but Zapier holds one of its polls):',
    ...held.map(
      (h) =>
        `  ${h.name}: B went ${h.gapMin} min without a poll; missed: A ${h.missed.a}, B ${h.missed.b}; A read ${h.ratio.toFixed(2)}x the floor`,
    ),
    '',
    ...costs(cadences),
    '',
    `Naive 24 h window: ${mib(naive.bytes)} and ${naive.ms.toFixed(0)} ms a poll`,
    `Widest poll alone (child process): ${widest.items} ids in ${widest.ms?.toFixed(0)} ms; RSS ${mib(widest.rssBefore ?? NaN)} before, peak ${mib(widest.peakRss ?? NaN)}; heap ${mib(widest.heapBefore ?? NaN)} before, peak ${mib(widest.peakHeap ?? NaN)}`,
    '',
  ];
  if (child.code !== 0) out.push(`(the child process failed: ${child.stderr.slice(0, 500)})`);
  return out;
}

/** The figures of every play, and the targets. */
function report(played: Played): string {
  const out = played.cadences.length ? steadyReport(played) : [];
  if (Object.keys(played.cpu).length) out.push(...cpuLines(played.cpu), '');
  if (played.rushes.length) {
    out.push(
      'Rushes, each with 1,000 an hour around it, played until drained (each alone in a child process on the compiled app). last reached: how long after it was made the last registration of the rush reached the Zap; floor: what handing the rush over in 6 MiB answers allows, plus one interval; svc/floor after: the largest service bytes against the floor at a poll once drained (the rush and the steady registrations behind it reached the Zap); least/floor: the most any reader of the endpoint must read at such a poll (everything made since the previous poll less the 2-minute visibility delay), against the floor; svc/least: the most this app read at such a poll against that; past margin: the same from the first poll whose 2.5-minute re-read (late visibility) starts after the rush.',
      ...rushLines(played.rushes),
      '',
    );
  }
  out.push(...targets(played));
  return out.join('\n');
}

async function main(): Promise<void> {
  const bench = await openBench();
  const played: Played = {
    bench,
    rushes: [],
    cadences: [],
    held: [],
    naive: { bytes: NaN, ms: NaN },
    widest: {},
    child: { code: 0, stdout: '', stderr: '' },
    cpu: {},
  };
  if (!process.argv.includes('--rush')) {
    played.cpu = await playSteadyCpu((line) => process.stderr.write(`  … ${line}\n`));
    process.stderr.write(`${cpuLines(played.cpu).join('\n')}\n`);
  }
  if (!RUSH_ONLY && !CPU_ONLY && !process.argv.includes('--rush')) {
    const tell = (line: string) => process.stderr.write(`  … ${line}\n`);
    for (const everyMin of INTERVALS_MIN) {
      played.cadences.push(await playCadence(bench, everyMin));
      tell(`${everyMin}-minute polls played (${PLAY_MS / HOUR} h)`);
    }
    played.held = [await playHeld(bench, 120, 'working')];
    tell('the Zap held 2 hours played');
    played.held.push(await playHeld(bench, 120, 'emptied once, 20 minutes into the hold'));
    tell('the Zap held 2 hours with the cache emptied once played');
    played.held.push(await playHeld(bench, 60, 'emptied before every poll'));
    tell('the Zap held an hour with the cache emptied played');
    played.naive = await playNaive(bench);
    // The widest poll again, alone in a fresh process, for its peak memory.
    played.child = await runWidest([bench.proxy.url, bench.eventId, TENANT.apiKey, String(now())]);
    played.widest = JSON.parse(/^RESULT (.*)$/m.exec(played.child.stdout)?.[1] ?? '{}') as Widest;
    process.stderr.write(`${steadyReport(played).join('\n')}\n`);
  }
  if (!NO_RUSH && !CPU_ONLY) {
    process.stderr.write(`${rushLines([])[0]}\n`);
    played.rushes = await playRushes(pickedRushes(), (line) => process.stderr.write(`${line}\n`));
  }
  await bench.close();
  console.log(report(played));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
