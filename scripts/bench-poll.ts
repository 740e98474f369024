// `npm run bench:poll`: the New Form Submission trigger against the sandbox, next to a naive stateless
// trigger that reads a 24-hour window on every poll.
//
// The sandbox holds one event with 20,000 registrations over the last 24 h and keeps receiving them at the
// same rate (about 70 every 5 minutes, each visible up to 2 minutes late). The Zap is turned on (the widest
// poll: the whole window, `isPopulatingDedupe`), then 2 hours of polls every 5 minutes are played on a clock
// shared by the sandbox and the app. Every request of the app goes through a counting proxy on 127.0.0.1,
// so requests and bytes are those on the wire. Per poll it prints requests, items and bytes transferred, wall
// time and the share of it spent mapping, for both triggers, and the ratios: to the naive window, and to the
// physical floor (the bytes of the registrations that are new since the previous poll: no trigger can read
// less). A third Zap polls with its cache emptied before every poll (the stateless window). Then what each
// requirement costs in bytes, and the targets.
// The widest poll also runs alone in a child process on the compiled app, which reports its peak memory.
//
// Flags: --scale N (20000) --polls N (24) --every-min N (5)

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createAppTester, type Bundle, type ZObject } from 'zapier-platform-core';
import { SCALE_EVENT_SLUG, SEED_TENANTS, sandboxCall, startSandbox } from '../sandbox';
import App from '../index';
import { Event, Submission, listOf, newestFirst } from '../src/connect';
import { listSubmissions } from '../test/support/submissions';
import { findEvent } from '../src/account/events';
import { CURSOR_TIMING } from '../src/triggers/common/cursor';
import { eventContextOf, toSubmissionItem } from '../src/mappers/submission';
import { present } from '../src/triggers/common/polling';
import { NEW_SUBMISSION_KEY } from '../src/triggers/newSubmission';
import { functionOf, meta } from './lib/app';

const ROOT = path.resolve(__dirname, '..');
const NODE = path.join(ROOT, 'node_modules', '.bin', 'node');
const TENANT = SEED_TENANTS[0];
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const flag = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) && v > 0 ? Math.floor(v) : fallback;
};

const SCALE = flag('scale', 20_000);
const POLLS = flag('polls', 24);
const EVERY = flag('every-min', 5) * MINUTE;

// One clock for the sandbox and the app: real time plus the minutes the play has jumped.
const realNow = Date.now.bind(Date);
let offset = 0;
const now = () => realNow() + offset;
Date.now = now;

type Perform = (z: ZObject, bundle: Bundle) => Promise<unknown>;
const appTester = createAppTester(App);
/** A second Zapier whose cache is emptied before every poll. */
const statelessTester = createAppTester(App);

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

// ---- the play --------------------------------------------------------------------------------------------

interface Row {
  poll: number;
  /** Minutes between the poll and the `since` it asked for. */
  windowMin: number;
  /** Bytes of the registrations read that no earlier poll had read (the physical floor). */
  floorBytes: number;
  requests: number;
  fetched: number;
  returned: number;
  bytes: number;
  ms: number;
  httpMs: number;
  mapMs: number;
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const pad = (value: string | number, width: number) => String(value).padStart(width);

/** What the widest poll used, measured alone in a child process. */
interface Widest {
  items?: number;
  ms?: number;
  rssBefore?: number;
  peakRss?: number;
  heapBefore?: number;
  peakHeap?: number;
}

interface Played {
  made: number;
  turnOn: { requests: number; bytes: number; ms: number };
  seeded: number;
  ours: Row[];
  theirs: Row[];
  /** A Zap whose cache is emptied before every poll. */
  stateless: Row[];
  widest: Widest;
  child: { code: number | null; stderr: string };
}

/** The figures of the play, poll by poll, and the targets met or missed. */
const report = ({ made, turnOn, seeded, ours, theirs, stateless, widest, child }: Played): string => {
  const out: string[] = [];
  out.push(
    `bench:poll: one event with ${SCALE.toLocaleString('en')} registrations over 24 h and ${made} more during the play; ${POLLS} polls every ${EVERY / MINUTE} min`,
  );
  out.push(
    `Turning the Zap on (isPopulatingDedupe, the widest window): ${turnOn.requests} request, ${seeded} ids, ${mib(turnOn.bytes)} read, ${turnOn.ms.toFixed(0)} ms`,
  );
  out.push('');
  out.push(
    `${'poll'.padStart(4)} | ${'New Form Submission'.padEnd(74)} | ${'no cache'.padEnd(11)} | ${'naive 24 h window'.padEnd(50)} | naive`,
  );
  out.push(
    `${''.padStart(4)} | ${'req'.padStart(3)} ${'window'.padStart(7)} ${'read'.padStart(6)} ${'sent'.padStart(5)} ${'bytes'.padStart(11)} ${'floor'.padStart(10)} ${'wall'.padStart(8)} ${'mapping'.padStart(16)} | ${'bytes'.padStart(11)} | ${'req'.padStart(3)} ${'read'.padStart(6)} ${'bytes'.padStart(11)} ${'wall'.padStart(8)} ${'mapping'.padStart(14)} | ${'/ ours'.padStart(6)}`,
  );
  for (let i = 0; i < ours.length; i++) {
    const a = ours[i] as Row;
    const b = theirs[i] as Row;
    const c = stateless[i] as Row;
    out.push(
      `${pad(a.poll, 4)} | ${pad(a.requests, 3)} ${pad(`${a.windowMin.toFixed(0)} min`, 7)} ${pad(a.fetched, 6)} ${pad(a.returned, 5)} ${pad(kib(a.bytes), 11)} ${pad(kib(a.floorBytes), 10)} ${pad(`${a.ms.toFixed(1)} ms`, 8)} ${pad(`${a.mapMs.toFixed(2)} ms (${((100 * a.mapMs) / a.ms).toFixed(1)}%)`, 16)} | ${pad(kib(c.bytes), 11)} | ${pad(b.requests, 3)} ${pad(b.fetched, 6)} ${pad(kib(b.bytes), 11)} ${pad(`${b.ms.toFixed(0)} ms`, 8)} ${pad(`${b.mapMs.toFixed(0)} ms (${((100 * b.mapMs) / b.ms).toFixed(0)}%)`, 14)} | ${pad(`${(b.bytes / a.bytes).toFixed(1)}x`, 6)}`,
    );
  }
  // Steady state: once the first poll is older than the hold (before that, polls read from where the state
  // began), so from the poll after the hold on.
  const from = Math.min(ours.length - 1, Math.ceil((CURSOR_TIMING.holdMs + MINUTE) / EVERY) + 1);
  const steady = ours.slice(from);
  const steadyNaive = theirs.slice(from);
  const steadyStateless = stateless.slice(from);
  const sum = (rows: Row[], key: keyof Row) => rows.reduce((total, row) => total + row[key], 0);
  const avg = (rows: Row[], key: keyof Row) => sum(rows, key) / Math.max(rows.length, 1);
  const ratio = sum(steadyNaive, 'bytes') / sum(steady, 'bytes');
  const worstRatio = Math.min(...steady.map((row, i) => (steadyNaive[i] as Row).bytes / row.bytes));
  const floorRatio = sum(steady, 'bytes') / sum(steady, 'floorBytes');
  const oneRequest = steady.every((row) => row.requests === 1);
  const worstMapping = Math.max(...steady.map((row) => row.mapMs / row.ms));
  const peak = widest.peakRss ?? NaN;
  out.push('');
  out.push(
    `Steady state (polls ${from + 1}-${POLLS}): ${(avg(steady, 'bytes') / 1024).toFixed(1)} KiB and ${avg(steady, 'ms').toFixed(1)} ms a poll (a ${avg(steady, 'windowMin').toFixed(0)}-minute window), against ${(avg(steadyNaive, 'bytes') / 1024 / 1024).toFixed(2)} MB and ${avg(steadyNaive, 'ms').toFixed(0)} ms for the naive window`,
  );
  out.push(
    `Physical floor (registrations new since the previous poll): ${(avg(steady, 'floorBytes') / 1024).toFixed(1)} KiB a poll; New Form Submission reads ${floorRatio.toFixed(1)}x the floor, the naive window ${(sum(steadyNaive, 'bytes') / sum(steady, 'floorBytes')).toFixed(0)}x`,
  );
  // What each requirement costs: the window is the polling interval (the floor), the visibility delay and
  // margin, the hold, and the step between checkpoints; at a steady rate bytes follow minutes.
  const perMinute = avg(steady, 'bytes') / avg(steady, 'windowMin');
  const visibility = ((CURSOR_TIMING.visibilityDelayMs + CURSOR_TIMING.marginMs) / MINUTE) * perMinute;
  const hold = (CURSOR_TIMING.holdMs / MINUTE) * perMinute;
  const step = Math.max(0, avg(steady, 'bytes') - avg(steady, 'floorBytes') - visibility - hold);
  out.push(
    `What each requirement costs a poll (${kib(perMinute)} a minute of registrations): the new registrations ${kib(avg(steady, 'floorBytes'))}; the 2-minute late visibility and a 3-minute margin ${kib(visibility)}; the ${CURSOR_TIMING.holdMs / MINUTE}-minute hold (several Zaps Zapier cannot tell apart, one up to 30 minutes late) ${kib(hold)}; the step from the hold to the poll before it (up to one interval) ${kib(step)}`,
  );
  out.push(
    `Without a cache (emptied before every poll: the stateless ${CURSOR_TIMING.statelessMs / MINUTE}-minute window): ${kib(avg(steadyStateless, 'bytes'))} a poll, ${(sum(steadyNaive, 'bytes') / sum(steadyStateless, 'bytes')).toFixed(1)}x below the naive window`,
  );
  out.push(
    `Widest poll alone (child process): ${widest.items} ids in ${widest.ms?.toFixed(0)} ms; RSS ${mib(widest.rssBefore ?? NaN)} before, peak ${mib(peak)}; heap ${mib(widest.heapBefore ?? NaN)} before, peak ${mib(widest.peakHeap ?? NaN)}`,
  );
  out.push('');
  out.push('Targets:');
  const target = (ok: boolean, text: string) => out.push(`  ${ok ? 'met ' : 'MISS'}  ${text}`);
  target(
    ratio >= 20,
    `at least 20x fewer bytes than the naive window at steady state: ${ratio.toFixed(1)}x (worst poll ${worstRatio.toFixed(1)}x)`,
  );
  target(
    oneRequest,
    `exactly 1 request per poll at steady state: ${steady.map((row) => row.requests).join(',')}`,
  );
  target(
    worstMapping < 0.1,
    `mapping under 10% of a poll's time: ${((100 * sum(steady, 'mapMs')) / sum(steady, 'ms')).toFixed(1)}% overall, at most ${(100 * worstMapping).toFixed(1)}% (on loopback, where a request takes a few ms)`,
  );
  target(
    peak < 256 * 1024 * 1024,
    `peak memory of the widest poll under 256 MB: ${mib(peak)} (whole process)`,
  );
  if (child.code !== 0) out.push(`(the child process failed: ${child.stderr.slice(0, 500)})`);
  return out.join('\n');
};

async function main(): Promise<void> {
  const sandbox = await startSandbox({ port: 0, now, scale: SCALE });
  // The play blocks the event loop for seconds at a time (a day of registrations parsed): idle connections
  // are closed by the clients, never by the sandbox as a client reuses them.
  sandbox.app.server.keepAliveTimeout = 30 * MINUTE;
  const proxy = await startProxy(sandbox.url);
  const authData = { apiKey: TENANT.apiKey, baseUrl: proxy.url, companyId: TENANT.companyId };
  const sim = (method: string, urlPath: string, body?: unknown) =>
    sandboxCall<unknown>(sandbox.url, TENANT.apiKey, method, urlPath, body);
  const events = listOf(Event).parse(await sim('GET', '/api/v1/integrations/zapier/events?limit=100')).data;
  const event = events.find((e) => e.slug === SCALE_EVENT_SLUG);
  if (!event) throw new Error('the sandbox has no load event');
  const eventId = event.id;
  const context = eventContextOf(event);

  const traffic = async (fn: () => Promise<unknown>) => {
    const from = proxy.log.length;
    const started = performance.now();
    const result = await fn();
    const ms = performance.now() - started;
    const wire = proxy.log.slice(from);
    return {
      result,
      ms,
      wire,
      requests: wire.length,
      bytes: wire.reduce((sum, w) => sum + w.bytes, 0),
      httpMs: wire.reduce((sum, w) => sum + w.ms, 0),
    };
  };

  /**
   * What a poll read (its submissions answer, fetched again apart from the poll) and how long mapping it takes:
   * the same registrations through the same mapper and ordering as the poll's.
   */
  const mapping = async (wire: Wire[], seen?: Set<string>) => {
    const url = wire.find((w) => w.path.includes('/submissions'))?.path;
    if (!url) return { fetched: 0, mapMs: 0, windowMin: NaN, floorBytes: 0 };
    const since = Date.parse(new URL(url, sandbox.url).searchParams.get('since') ?? '');
    const windowMin = (now() - since) / MINUTE;
    const answer = await fetch(`${sandbox.url}${url}`, { headers: { 'X-API-KEY': TENANT.apiKey } });
    const submissions = listOf(Submission).parse(await answer.json()).data;
    let floorBytes = 0;
    for (const s of submissions) {
      if (!seen || seen.has(s.submissionId)) continue;
      seen.add(s.submissionId);
      floorBytes += Buffer.byteLength(JSON.stringify(s)) + 1;
    }
    const presenter = {
      idOf: (s: Submission) => s.submissionId,
      toItem: (s: Submission) => toSubmissionItem(s, context),
    };
    // The median of 5 runs: a single sub-millisecond timing is mostly noise.
    const runs = Array.from({ length: 5 }, () => {
      const started = performance.now();
      present({ meta: meta() } as unknown as Bundle, newestFirst(submissions, presenter.idOf), presenter);
      return performance.now() - started;
    }).sort((a, b) => a - b);
    return { fetched: submissions.length, mapMs: runs[2] ?? 0, windowMin, floorBytes };
  };

  // Turning the Zap on: the widest poll.
  const turnOn = await traffic(() =>
    appTester(functionOf('triggers', NEW_SUBMISSION_KEY), {
      authData,
      inputData: { eventId },
      meta: meta({ isPopulatingDedupe: true }),
    }),
  );
  const seeded = (turnOn.result as unknown[]).length;
  // What the Zap has read: the floor of a poll is what it reads that no earlier poll did.
  const seen = new Set((turnOn.result as Array<{ id: string }>).map((item) => item.id));

  // The naive trigger: every poll reads the last 24 hours and maps all of it.
  const naive: Perform = async (z, bundle) => {
    const { submissions } = await listSubmissions(z, bundle, {
      eventId,
      since: new Date(Date.now() - DAY).toISOString(),
    });
    const context = eventContextOf(await findEvent(z, bundle, eventId));
    return submissions.map((s) => toSubmissionItem(s, context));
  };

  // New registrations answer the form like the seeded ones (the same answers, so the same sizes).
  const recent = listOf(Submission).parse(
    await sim(
      'GET',
      `/api/v1/integrations/zapier/submissions?eventId=${eventId}&since=${new Date(now() - 3_600_000).toISOString()}`,
    ),
  ).data;
  const answersPool = recent.map((s) => s.answers ?? []);

  const ours: Row[] = [];
  const theirs: Row[] = [];
  const stateless: Row[] = [];
  let made = 0;
  for (let poll = 1; poll <= POLLS; poll++) {
    // The event keeps receiving registrations at the same rate, each visible up to 2 minutes late.
    const due = Math.round((SCALE * (poll * EVERY)) / DAY) - made;
    const t = now();
    for (let i = 0; i < due; i++) {
      const created = t - EVERY + Math.floor(((i + 0.5) * EVERY) / due);
      await sim('POST', '/_sandbox/submissions', {
        eventId,
        email: `bench${made + i}@loadtest.example`,
        firstName: 'Bench',
        lastName: `Guest ${made + i}`,
        status: i % 7 ? 'approved' : 'pending',
        answers: answersPool[(made + i) % Math.max(answersPool.length, 1)] ?? [],
        createdAt: new Date(created).toISOString(),
        visibleAt: new Date(created + ((i * 7919) % 120_000)).toISOString(),
      });
    }
    made += due;
    offset += EVERY;

    const run = await traffic(() =>
      appTester(functionOf('triggers', NEW_SUBMISSION_KEY), {
        authData,
        inputData: { eventId },
        meta: meta(),
      }),
    );
    ours.push({
      poll,
      requests: run.requests,
      returned: (run.result as unknown[]).length,
      bytes: run.bytes,
      ms: run.ms,
      httpMs: run.httpMs,
      ...(await mapping(run.wire, seen)),
    });

    (statelessTester as unknown as { zcacheTestObj: Record<string, unknown> }).zcacheTestObj = {};
    const lost = await traffic(() =>
      statelessTester(functionOf('triggers', NEW_SUBMISSION_KEY), {
        authData,
        inputData: { eventId },
        meta: meta(),
      }),
    );
    stateless.push({
      poll,
      requests: lost.requests,
      returned: (lost.result as unknown[]).length,
      bytes: lost.bytes,
      ms: lost.ms,
      httpMs: lost.httpMs,
      fetched: 0,
      mapMs: 0,
      windowMin: (CURSOR_TIMING.statelessMs + 1) / MINUTE,
      floorBytes: 0,
    });

    const base = await traffic(() => appTester(naive, { authData, inputData: { eventId }, meta: meta() }));
    theirs.push({
      poll,
      requests: base.requests,
      returned: (base.result as unknown[]).length,
      bytes: base.bytes,
      ms: base.ms,
      httpMs: base.httpMs,
      ...(await mapping(base.wire)),
    });
  }

  // The widest poll again, alone in a fresh process, for its peak memory.
  const child = await runWidest([proxy.url, eventId, TENANT.apiKey, String(now())]);
  const widest = JSON.parse(/^RESULT (.*)$/m.exec(child.stdout)?.[1] ?? '{}') as Widest;

  proxy.close();
  await sandbox.close();

  console.log(report({ made, turnOn, seeded, ours, theirs, stateless, widest, child }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
