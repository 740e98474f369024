// `npm run bench:sandbox`: measures the Connect sandbox on loopback.
//   1. check-ins per second and p50/p99 latency under concurrent load, Idempotency-Key on every request
//      (distinct keys, a realistic mix with repeat scans and replays);
//   2. webhook delivery latency (state change → receiver got it) with 1,000 subscriptions;
//   3. startup time and RSS with --scale 100000.
// The sandbox runs as its own process (the CLI), so the load generator here does not share its core.
// Everything is bounded in count and time and talks to 127.0.0.1 only.
//
// Flags: --requests N (60000) --concurrency N (64) --hooks N (1000) --rounds N (10) --scale N (100000)

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SCALE_EVENT_SLUG, SEED_TENANTS } from '../sandbox';
import { paths } from '../src/connect';
import { API_KEY_HEADER, deliveryOf, recordsOf, wireRecordsOf } from '../src/connect/testing';

const ROOT = path.resolve(__dirname, '..');
const NODE = path.join(ROOT, 'node_modules', '.bin', 'node');
const TENANT = SEED_TENANTS[0];

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) && v > 0 ? Math.floor(v) : fallback;
}

const REQUESTS = flag('requests', 60_000);
const CONCURRENCY = flag('concurrency', 64);
const HOOKS = flag('hooks', 1000);
const ROUNDS = flag('rounds', 10);
const SCALE = flag('scale', 100_000);
const WARMUP = Math.min(3000, Math.floor(REQUESTS / 10));

// With two or more cores, the server is pinned to CPU 0 and this load generator to CPU 1, so the figures are
// those of a server on one core of its own.
const PIN = os.availableParallelism() >= 2 && existsSync('/usr/bin/taskset');
if (PIN) execFileSync('/usr/bin/taskset', ['-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });

const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
});

interface Server {
  url: string;
  pid: number;
  child: ChildProcess;
  spawnToReadyMs: number;
  reportedReadyMs: number;
}

/** Starts `sandbox/cli.ts` in its own process and waits for its URL (at most 60 s). */
function startServer(args: string[]): Promise<Server> {
  const started = performance.now();
  const argv = [NODE, '--import', 'tsx', 'sandbox/cli.ts', '--port', '0', '--quiet', ...args];
  // taskset execs node in place, so the child's pid is the server's.
  const [cmd, ...rest] = PIN ? ['/usr/bin/taskset', '-c', '0', ...argv] : argv;
  const child = spawn(cmd as string, rest, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  children.add(child);
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`sandbox did not start: ${out}`)), 60_000);
    child.on('exit', (code) => reject(new Error(`sandbox exited with ${code}: ${out}`)));
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      const ready = /ready in (\d+) ms/.exec(out)?.[1];
      if (url && ready) {
        clearTimeout(timer);
        resolve({
          url,
          pid: child.pid ?? 0,
          child,
          spawnToReadyMs: performance.now() - started,
          reportedReadyMs: Number(ready),
        });
      }
    });
  });
}

async function stopServer(s: Server): Promise<void> {
  const exited = new Promise<void>((resolve) => s.child.once('exit', () => resolve()));
  s.child.removeAllListeners('exit');
  s.child.once('exit', () => children.delete(s.child));
  s.child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
}

function procStatus(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string): number => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

/** CPU seconds (user + system) the process has used so far. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return ticks / 100;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

interface Reply {
  status: number;
  body: string;
  replayed: boolean;
}

function request(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent, headers }, (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (data += c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: data,
          replayed: res.headers['idempotent-replayed'] === 'true',
        }),
      );
    });
    req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body);
  });
}

const api = (base: string, method: string, p: string, body?: unknown): Promise<Reply> =>
  request(
    `${base}${p}`,
    method,
    {
      [API_KEY_HEADER]: TENANT.apiKey,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body !== undefined ? JSON.stringify(body) : undefined,
  );

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

const fmt = (n: number, digits = 1): string => n.toFixed(digits);

// ---- 1. check-in throughput -------------------------------------------------------------------------

interface Planned {
  body: string;
  key: string;
}

async function benchCheckins(): Promise<Record<string, string>> {
  const server = await startServer(['--scale', '60000']);
  try {
    const events = recordsOf<{ id: string; slug: string }>(
      'event',
      JSON.parse((await api(server.url, 'GET', `${paths.events()}?limit=100`)).body),
    );
    const load = events.find((e) => e.slug === SCALE_EVENT_SLUG);
    if (!load) throw new Error('no load event');
    const subs = recordsOf<{ submissionId: string; eventId: string; status: string; qrCode: string | null }>(
      'submission',
      JSON.parse(
        (
          await api(
            server.url,
            'GET',
            `/api/v1/integrations/zapier/submissions?eventId=${load.id}&since=${new Date(Date.now() - 86_400_000 - 60_000).toISOString()}`,
          )
        ).body,
      ),
    );
    const approved = subs.filter((s) => s.status === 'approved' && s.qrCode !== null);
    const pending = subs.filter((s) => s.status !== 'approved');

    // The plan: a realistic mix of desk scans, each with its own Idempotency-Key.
    let fresh = 0;
    let keySeq = 0;
    const done: Planned[] = [];
    const nextKey = (): string => `desk-${keySeq % 12}-scan-${keySeq++}`;
    const plan = (i: number): Planned => {
      const roll = (i * 7919) % 100;
      if (roll < 10 && done.length > 0) return done[(i * 31) % done.length] as Planned; // retry: replay
      if (roll < 20 && done.length > 0) {
        // Second scan of a ticket already in (a new key): already_checked_in.
        const prev = done[(i * 17) % done.length] as Planned;
        return { body: prev.body, key: nextKey() };
      }
      if (roll < 23)
        return { body: JSON.stringify({ code: `EVT1:00000000:sub_UNKNOWN${i}:0000` }), key: nextKey() };
      if (roll < 25 && pending.length > 0) {
        const s = pending[i % pending.length]!;
        return { body: JSON.stringify({ eventId: s.eventId, submissionId: s.submissionId }), key: nextKey() };
      }
      const s = approved[fresh++ % approved.length]!;
      const body =
        roll < 32
          ? JSON.stringify({ eventId: s.eventId, submissionId: s.submissionId })
          : JSON.stringify({ code: s.qrCode });
      const p = { body, key: nextKey() };
      done.push(p);
      return p;
    };

    const url = `${server.url}/api/v1/checkin`;
    const statuses = new Map<string, number>();
    const latencies: number[] = [];
    let issued = 0;
    const deadline = Date.now() + 30_000;
    const run = async (total: number, record: boolean): Promise<void> => {
      const end = issued + total;
      const worker = async (): Promise<void> => {
        while (issued < end && Date.now() < deadline) {
          const p = plan(issued++);
          const t = performance.now();
          const r = await request(
            url,
            'POST',
            {
              'content-type': 'application/json',
              [API_KEY_HEADER]: TENANT.apiKey,
              'idempotency-key': p.key,
            },
            p.body,
          );
          if (!record) continue;
          latencies.push(performance.now() - t);
          const result =
            r.status === 200 ? (JSON.parse(r.body) as { result: string }).result : String(r.status);
          const label = `${result}${r.replayed ? ' (replayed)' : ''}`;
          statuses.set(label, (statuses.get(label) ?? 0) + 1);
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    };

    await run(WARMUP, false);
    const memBefore = procStatus(server.pid);
    const cpu0 = cpuSeconds(server.pid);
    const t0 = performance.now();
    await run(REQUESTS, true);
    const seconds = (performance.now() - t0) / 1000;
    const serverCpu = (cpuSeconds(server.pid) - cpu0) / seconds;
    latencies.sort((a, b) => a - b);
    const rps = latencies.length / seconds;
    const mix = [...statuses.entries()].map(([k, v]) => `${k}: ${v}`).join(', ');
    const mem = procStatus(server.pid);
    return {
      'check-in requests': String(latencies.length),
      concurrency: String(CONCURRENCY),
      'check-ins per second': `${fmt(rps, 0)} (target ≥ 5,000) ${rps >= 5000 ? 'MET' : 'MISSED'}`,
      'latency p50 / p99 / max': `${fmt(percentile(latencies, 50), 2)} / ${fmt(percentile(latencies, 99), 2)} / ${fmt(latencies[latencies.length - 1] ?? NaN, 2)} ms`,
      'server CPU during the run': `${fmt(serverCpu * 100, 0)} % of one core`,
      'check-ins per server CPU-second': `${fmt(rps / Math.max(serverCpu, 0.01), 0)} (what one saturated core would serve)`,
      'server RSS before / after the run': `${fmt(memBefore.rssMb, 0)} / ${fmt(mem.rssMb, 0)} MB (scale 60,000 and one 50 MB list response before; ${fmt((latencies.length + WARMUP) / 1000, 0)}k idempotency keys after)`,
      'response mix': mix,
    };
  } finally {
    await stopServer(server);
  }
}

// ---- 2. delivery latency ----------------------------------------------------------------------------

async function benchDeliveries(): Promise<Record<string, string>> {
  const server = await startServer([]);
  const received = new Map<string, number>();
  const receiveLatency: number[] = [];
  let expected = 0;
  let onAll: (() => void) | null = null;
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.timeOrigin + performance.now();
      const body = deliveryOf(Buffer.concat(chunks).toString('utf8'));
      received.set(body.id, at);
      receiveLatency.push(at - Date.parse(body.createdAt ?? ''));
      res.writeHead(204).end();
      if (received.size >= expected) onAll?.();
    });
  });
  receiver.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => receiver.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, r));
  const target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  try {
    const events = recordsOf<{ id: string; slug: string }>(
      'event',
      JSON.parse((await api(server.url, 'GET', paths.events())).body),
    );
    const event = events.find((e) => e.slug === 'techweek-paris-2026') ?? events[0];
    for (let i = 0; i < HOOKS; i += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, HOOKS - i) }, (_, j) =>
          api(server.url, 'POST', paths.hooks(), {
            targetUrl: `${target}/hooks/${i + j}`,
            event: 'FORM_SUBMISSION',
            eventId: null,
          }),
        ),
      );
    }
    const fanOut: number[] = [];
    const receivedPerRound: number[][] = [];
    for (let round = 0; round < ROUNDS; round++) {
      expected = (round + 1) * HOOKS;
      const all = new Promise<void>((resolve, reject) => {
        const t = setTimeout(
          () => reject(new Error(`only ${received.size} of ${expected} deliveries`)),
          30_000,
        );
        onAll = () => {
          clearTimeout(t);
          resolve();
        };
      });
      const before = receiveLatency.length;
      const r = await api(server.url, 'POST', '/_sandbox/submissions', {
        eventId: event?.id,
        email: `bench${round}@example.com`,
        firstName: 'Bench',
        lastName: `Round ${round}`,
      });
      const createdAt = Date.parse((JSON.parse(r.body) as { createdAt: string }).createdAt);
      await all;
      receivedPerRound.push(receiveLatency.slice(before));
      fanOut.push(Math.max(...[...received.values()].slice(-HOOKS)) - createdAt);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const log = JSON.parse((await api(server.url, 'GET', '/_sandbox/deliveries')).body).data as {
      startDelayMs: number;
      state: string;
      attempt: number;
    }[];
    const firsts = log.filter((e) => e.attempt === 1);
    const sorted = (xs: number[]): number[] => [...xs].sort((a, b) => a - b);
    const perChange = Array.from({ length: ROUNDS }, (_, r) =>
      firsts.slice(r * HOOKS, (r + 1) * HOOKS).map((e) => e.startDelayMs),
    );
    const earliest = perChange.map((xs) => Math.min(...xs));
    const latest = perChange.map((xs) => Math.max(...xs));
    const cold = sorted(firsts.slice(0, HOOKS).map((e) => e.startDelayMs));
    const warm = sorted(firsts.slice(HOOKS).map((e) => e.startDelayMs));
    const coldRecv = sorted(receivedPerRound[0] ?? []);
    const warmRecv = sorted(receivedPerRound.slice(1).flat());
    const max = (xs: number[]): number => xs[xs.length - 1] ?? NaN;
    const verdict = (ms: number): string => (ms <= 50 ? 'MET' : 'MISSED');
    const stats = (xs: number[], d = 1): string =>
      `${fmt(percentile(xs, 50), d)} / ${fmt(percentile(xs, 99), d)} / ${fmt(max(xs), d)} ms`;
    return {
      subscriptions: String(HOOKS),
      'state changes': `${ROUNDS} (the first opens ${HOOKS} new connections; the rest reuse them)`,
      'deliveries received': `${received.size} (${log.every((e) => e.state === 'delivered') ? 'all delivered on the first attempt' : 'some retried'})`,
      'first delivery of a change started after': `${earliest.map((m) => fmt(m, 2)).join(', ')} ms  (target ≤ 50 ms) ${verdict(Math.max(...earliest))}`,
      'last delivery of a change started after': `${latest.map((m) => fmt(m, 0)).join(', ')} ms`,
      'start delay, first change p50 / p99 / max': `${stats(cold, 2)}  (target ≤ 50 ms) ${verdict(max(cold))}`,
      [`start delay, changes 2-${ROUNDS} p50 / p99 / max`]: `${stats(warm, 2)}  (target ≤ 50 ms) ${verdict(max(warm))}`,
      'change → received, first change p50 / p99 / max': stats(coldRecv, 0),
      [`change → received, changes 2-${ROUNDS} p50 / p99 / max`]: stats(warmRecv, 0),
      [`all ${HOOKS} received (per change)`]: fanOut.map((m) => `${fmt(m, 0)} ms`).join(', '),
    };
  } finally {
    receiver.closeAllConnections();
    await new Promise<void>((r) => receiver.close(() => r()));
    await stopServer(server);
  }
}

// ---- 3. startup with --scale ------------------------------------------------------------------------

async function benchStartup(): Promise<Record<string, string>> {
  const server = await startServer(['--scale', String(SCALE)]);
  try {
    const mem = procStatus(server.pid);
    const since = new Date(Date.now() - 3600_000).toISOString();
    const events = recordsOf<{ id: string; slug: string }>(
      'event',
      JSON.parse((await api(server.url, 'GET', paths.events())).body),
    );
    const load = events.find((e) => e.slug === SCALE_EVENT_SLUG);
    const t = performance.now();
    const r = await api(
      server.url,
      'GET',
      `/api/v1/integrations/zapier/submissions?eventId=${load?.id}&since=${since}`,
    );
    const pollMs = performance.now() - t;
    const lastHour = wireRecordsOf(JSON.parse(r.body)).length;
    return {
      scale: String(SCALE),
      'startup (in process, build + seed + listen)': `${server.reportedReadyMs} ms`,
      'startup (spawn → ready, incl. node + tsx)': `${fmt(server.spawnToReadyMs, 0)} ms (target < 10,000 ms) ${server.spawnToReadyMs < 10_000 ? 'MET' : 'MISSED'}`,
      'RSS when ready / peak': `${fmt(mem.rssMb, 0)} / ${fmt(mem.peakMb, 0)} MB (target < 500 MB) ${mem.peakMb < 500 ? 'MET' : 'MISSED'}`,
      'poll of the last hour': `${lastHour} submissions in ${fmt(pollMs, 1)} ms`,
    };
  } finally {
    await stopServer(server);
  }
}

function print(title: string, rows: Record<string, string>): void {
  const width = Math.max(...Object.keys(rows).map((k) => k.length));
  console.log(`\n${title}`);
  console.log('-'.repeat(title.length));
  for (const [k, v] of Object.entries(rows)) console.log(`  ${k.padEnd(width)}  ${v}`);
}

async function main(): Promise<void> {
  console.log(
    `Connect sandbox benchmark (node ${process.version}, loopback, load generator in a separate process)`,
  );
  console.log(
    PIN
      ? 'server pinned to CPU 0; load generator and webhook receiver pinned to CPU 1'
      : 'not pinned (taskset or a second core missing)',
  );
  console.log(
    `load average before: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  print('1. Check-in throughput (Idempotency-Key on every request)', await benchCheckins());
  print(`2. Webhook delivery latency (${HOOKS} subscriptions)`, await benchDeliveries());
  print(`3. Startup with --scale ${SCALE}`, await benchStartup());
  agent.destroy();
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
