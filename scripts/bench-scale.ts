// `npm run bench:scale [-- --sizes 20000,100000,200000]`: the five operations that read a whole event (or a
// whole day) of registrations, against the sandbox seeded with one event of each size. Each operation runs
// alone in a fresh Node process on the compiled app (scripts/bench-scale-child.cjs), and so does a bare
// download of the same answer plus one `JSON.parse` of it. Prints, per size and operation: wall time (and its
// ratio to the bare read), bytes read (counted by a proxy in front of the sandbox) and the peak RSS of the
// process. Targets: peak RSS at most 256 MB, wall time at most 3× the bare read.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SCALE_EVENT_SLUG, SEED_TENANTS, sandboxCall, startSandbox } from '../sandbox';
import { EnvelopeSplitter } from '../src/connect/listSplitter';

const ROOT = path.resolve(__dirname, '..');
const NODE = path.join(ROOT, 'node_modules', '.bin', 'node');
const TENANT = SEED_TENANTS[0];
const MB = 1024 * 1024;
const RSS_TARGET = 256 * MB;
const WALL_TARGET = 3;

const sizesFlag = (() => {
  const i = process.argv.indexOf('--sizes');
  const raw = i >= 0 ? (process.argv[i + 1] ?? '') : '';
  const sizes = raw
    .split(',')
    .map((s) => Math.floor(Number(s)))
    .filter((n) => Number.isFinite(n) && n > 0);
  return sizes.length ? sizes : [20_000, 100_000, 200_000];
})();

const OPERATIONS = [
  ['find-registration', 'Find Registration (email)'],
  ['dropdown', 'Registration dropdown, first page'],
  ['find-order', 'Find Order (email)'],
  ['turn-on', 'New Form Submission, Zap turned on'],
  ['cursor-lost', 'New Form Submission, cursor lost'],
] as const;

type Outcome = { code: number | null; stdout: string; stderr: string };

/** Runs a command (at most 10 minutes) and collects its output. */
const run = (command: string, args: string[]): Promise<Outcome> =>
  new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 600_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });

/** A proxy in front of the sandbox that counts the bytes of the answers' bodies. */
const startProxy = (
  upstream: string,
): Promise<{ url: string; bytes: () => number; reset: () => void; close: () => void }> => {
  let bytes = 0;
  const target = new URL(upstream);
  const server = http.createServer((req, res) => {
    const forward = http.request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
        });
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        bytes: () => bytes,
        reset: () => (bytes = 0),
        close: () => server.close(),
      }),
    ),
  );
};

/** One registration from the middle of the event (read as a stream here too), to look up by email. */
const middleRegistration = async (baseUrl: string, eventId: string, size: number) => {
  const response = await fetch(
    `${baseUrl}/api/v1/integrations/zapier/submissions?eventId=${eventId}&since=2000-01-01T00:00:00.000Z`,
    { headers: { 'X-API-KEY': TENANT.apiKey } },
  );
  let found: { submissionId: string; email: string } | null = null;
  const splitter = new EnvelopeSplitter((value, index) => {
    if (index === Math.floor(size / 2)) found = value as { submissionId: string; email: string };
  });
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) splitter.write(chunk);
  splitter.end();
  if (!found) throw new Error('no registration in the middle of the load event');
  return found as { submissionId: string; email: string };
};

interface Figures {
  ms: number;
  items: number;
  rssBefore: number;
  peakRss: number;
  bytes: number;
}

const mb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

const main = async () => {
  const out = path.join(ROOT, '.tmp', 'bench-scale');
  const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const compiled = await run(NODE, [tsc, '-p', 'tsconfig.build.json', '--outDir', out]);
  if (!existsSync(path.join(out, 'index.js')))
    throw new Error(`the app did not compile:\n${compiled.stdout}`);

  const rows: string[] = [];
  let allMet = true;
  for (const size of sizesFlag) {
    const seeded = performance.now();
    const sandbox = await startSandbox({ scale: size });
    const proxy = await startProxy(sandbox.url);
    try {
      const events = await sandboxCall<{ data: Array<{ id: string; slug: string }> }>(
        sandbox.url,
        TENANT.apiKey,
        'GET',
        '/api/v1/integrations/zapier/events?limit=100',
      );
      const eventId = events.data.find((e) => e.slug === SCALE_EVENT_SLUG)?.id;
      if (!eventId) throw new Error('the sandbox has no load event');
      const target = await middleRegistration(sandbox.url, eventId, size);
      // An order for that registration, so that Find Order by email reads the large event too.
      await sandboxCall(sandbox.url, TENANT.apiKey, 'POST', '/_sandbox/orders', {
        submissionId: target.submissionId,
        outcome: 'paid',
      });
      console.log(
        `\n${size.toLocaleString('en-US')} registrations (sandbox ready in ${seconds(performance.now() - seeded)}; looking up ${target.submissionId})`,
      );

      const measure = async (operation: string): Promise<Figures> => {
        proxy.reset();
        const child = await run(NODE, [
          '--expose-gc',
          path.join(ROOT, 'scripts', 'bench-scale-child.cjs'),
          out,
          operation,
          proxy.url,
          eventId,
          TENANT.apiKey,
          target.email,
          TENANT.companyId,
        ]);
        const line = /^RESULT (.*)$/m.exec(child.stdout)?.[1];
        if (!line)
          throw new Error(`${operation} failed (exit ${child.code}):\n${child.stderr.slice(0, 2000)}`);
        return { ...(JSON.parse(line) as Omit<Figures, 'bytes'>), bytes: proxy.bytes() };
      };

      const bare = await measure('bare');
      const line = (name: string, f: Figures, ratio: string, verdict: string) =>
        `| ${size.toLocaleString('en-US')} | ${name} | ${seconds(f.ms)} | ${ratio} | ${mb(f.bytes)} | ${mb(f.peakRss)} | ${f.items.toLocaleString('en-US')} | ${verdict} |`;
      const bareLine = line('Bare download + JSON.parse', bare, '1.00×', '(reference)');
      console.log(bareLine);
      rows.push(bareLine);
      for (const [operation, name] of OPERATIONS) {
        const f = await measure(operation);
        const ratio = f.ms / bare.ms;
        const met = f.peakRss <= RSS_TARGET && ratio <= WALL_TARGET;
        allMet &&= met;
        const verdict = met
          ? 'meets both'
          : [f.peakRss > RSS_TARGET ? 'RSS over 256 MB' : '', ratio > WALL_TARGET ? 'over 3× bare' : '']
              .filter(Boolean)
              .join(', ');
        const row = line(name, f, `${ratio.toFixed(2)}×`, verdict);
        console.log(row);
        rows.push(row);
      }
    } finally {
      proxy.close();
      await sandbox.close();
    }
  }

  console.log('\n| Registrations | Operation | Wall time | × bare | Read | Peak RSS | Items | Targets |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  console.log(
    `\nTargets: peak RSS at most 256 MB for every operation at every size, wall time at most 3× the bare download and JSON.parse of the same answer: ${allMet ? 'all met' : 'NOT all met'}.`,
  );
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
