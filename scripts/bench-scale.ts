// `npm run bench:scale [-- --sizes 20000,100000,200000] [--attendee-only] [--only find-registration,…]`: the
// five operations that read a whole event (or a whole day) of registrations, against the sandbox seeded with
// one event of each size. Each operation runs alone in a fresh Node process on the compiled app
// (scripts/bench-scale-child.cjs), and so does a bare download of the same answer plus one `JSON.parse` of
// it. Prints, per size and operation: wall time (and its ratio to the bare read), the CPU time of the
// operation's process (and its ratio: steadier than wall time on a busy machine, and without the sandbox's
// own work), bytes read (counted by a proxy in front of the sandbox) and the peak RSS of the process.
// Targets: peak RSS at most 256 MB, wall time at most 2× the bare read.
// Then the attendee lookup (the attendee fields of an order item), by bytes read as a ratio of the bare read:
// a registration made just before its order, one from the middle of the event ordered now, 100 orders spread
// over the event looked up at once (one pass), and the number of lookups when the six attendee fields of an
// order are resolved at once. `--attendee-only` skips the five operations above (not the bare read); `--only`
// runs only the operations named (and the bare read), without the attendee lookups.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SCALE_EVENT_SLUG, SEED_TENANTS, sandboxCall, startSandbox } from '../sandbox';
import { EnvelopeSplitter } from '../src/connect/listSplitter';
import { paths } from '../src/connect';
import { API_KEY_HEADER, recordsOf } from '../src/connect/testing';
import { type Outcome, runChild } from './lib/childRun';

const ROOT = path.resolve(__dirname, '..');
const NODE = path.join(ROOT, 'node_modules', '.bin', 'node');
const TENANT = SEED_TENANTS[0];
const MB = 1024 * 1024;
const RSS_TARGET = 256 * MB;
const WALL_TARGET = 2;

const sizesFlag = (() => {
  const i = process.argv.indexOf('--sizes');
  const raw = i >= 0 ? (process.argv[i + 1] ?? '') : '';
  const sizes = raw
    .split(',')
    .map((s) => Math.floor(Number(s)))
    .filter((n) => Number.isFinite(n) && n > 0);
  return sizes.length ? sizes : [20_000, 100_000, 200_000];
})();

const attendeeOnly = process.argv.includes('--attendee-only');

/** The operations named by `--only` (comma-separated), or null for all of them. */
const onlyFlag = (() => {
  const i = process.argv.indexOf('--only');
  return i >= 0 ? new Set((process.argv[i + 1] ?? '').split(',').filter(Boolean)) : null;
})();

const ATTENDEE_OPERATIONS = [
  ['attendee-recent', 'Attendee, registration made just before its order'],
  ['attendee-middle', 'Attendee, registration from the middle of the event'],
  ['attendee-hundred', 'Attendee, 100 orders spread over the event, at once'],
  ['attendee-six', 'Attendee, six fields of one order at once'],
] as const;

const OPERATIONS = [
  ['find-registration', 'Find Registration (email)'],
  ['dropdown', 'Registration dropdown, first page'],
  ['find-order', 'Find Order (email)'],
  ['turn-on', 'New Form Submission, Zap turned on'],
  ['cursor-lost', 'New Form Submission, cursor lost'],
] as const;

/** Runs a command (at most 10 minutes) and collects its output. */
const run = (command: string, args: string[]): Promise<Outcome> => runChild(command, args, ROOT, 600_000);

interface Proxy {
  url: string;
  bytes: () => number;
  /** Requests for the registrations of `eventId` since the last reset. */
  reads: (eventId: string) => number;
  reset: () => void;
  close: () => void;
}

/**
 * A proxy in front of the sandbox that counts the bytes of the answers' bodies (and the registration reads).
 * When the app closes a connection, the proxy closes its own to the sandbox, so what is counted is what was
 * sent before the app stopped reading.
 */
const startProxy = (upstream: string): Promise<Proxy> => {
  let bytes = 0;
  let reads: string[] = [];
  const target = new URL(upstream);
  const server = http.createServer((req, res) => {
    if ((req.url ?? '').includes('/submissions?')) reads.push(req.url ?? '');
    const forward = http.request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
        });
        res.on('close', () => answer.destroy());
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
        reads: (eventId) => reads.filter((url) => url.includes(`eventId=${eventId}`)).length,
        reset: () => {
          bytes = 0;
          reads = [];
        },
        close: () => server.close(),
      }),
    ),
  );
};

type Registration = { submissionId: string; email: string };

/** The registrations at these positions of the event's answer (read as a stream here too). */
const registrationsAt = async (baseUrl: string, eventId: string, positions: number[]) => {
  const response = await fetch(
    `${baseUrl}/api/v1/integrations/zapier/submissions?eventId=${eventId}&since=2000-01-01T00:00:00.000Z`,
    { headers: { [API_KEY_HEADER]: TENANT.apiKey } },
  );
  const wanted = new Set(positions);
  const found = new Map<number, Registration>();
  const splitter = new EnvelopeSplitter((value, index) => {
    if (wanted.has(index)) found.set(index, value as Registration);
  });
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) splitter.write(chunk);
  splitter.end();
  return positions.map((at) => {
    const registration = found.get(at);
    if (!registration) throw new Error(`no registration at position ${at} of the load event`);
    return registration;
  });
};

/** One registration from the middle of the event, to look up by email. */
const middleRegistration = async (baseUrl: string, eventId: string, size: number) =>
  (await registrationsAt(baseUrl, eventId, [Math.floor(size / 2)]))[0] as Registration;

type OrderJson = { id: string; eventId: string; submissionId: string; createdAt: string };

const newOrder = (baseUrl: string, submissionId: string) =>
  sandboxCall<OrderJson>(baseUrl, TENANT.apiKey, 'POST', '/_sandbox/orders', {
    submissionId,
    outcome: 'paid',
  });

/**
 * The orders the attendee operations look up, written to a file for the child processes: an order for a
 * registration made just now, the order of the middle registration, and 100 orders for registrations
 * spread evenly over the event.
 */
const attendeeOrders = async (baseUrl: string, eventId: string, size: number, middle: OrderJson) => {
  const fresh = await sandboxCall<{ submissionId: string }>(
    baseUrl,
    TENANT.apiKey,
    'POST',
    '/_sandbox/submissions',
    {
      eventId,
      email: 'just.before@loadtest.example',
      firstName: 'Just',
      lastName: 'Before',
    },
  );
  const recent = await newOrder(baseUrl, fresh.submissionId);
  const spread = await registrationsAt(
    baseUrl,
    eventId,
    Array.from({ length: 100 }, (_, k) => Math.floor(((k + 0.5) * size) / 100)),
  );
  const hundred: OrderJson[] = [];
  for (const registration of spread) hundred.push(await newOrder(baseUrl, registration.submissionId));
  const file = path.join(ROOT, '.tmp', 'bench-scale-attendee-orders.json');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ recent, middle, hundred }));
  return file;
};

interface Figures {
  ms: number;
  /** CPU time of the child process during the operation (the sandbox's own work is not counted). */
  cpuMs: number;
  items: number;
  rssBefore: number;
  peakRss: number;
  bytes: number;
  /** Requests for the event's registrations. */
  reads: number;
}

const mb = (bytes: number) => `${(bytes / MB).toFixed(bytes < 10 * MB ? 1 : 0)} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

const main = async () => {
  const out = path.join(ROOT, '.tmp', 'bench-scale');
  const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const compiled = await run(NODE, [tsc, '-p', 'tsconfig.build.json', '--outDir', out]);
  if (!existsSync(path.join(out, 'index.js')))
    throw new Error(`the app did not compile:\n${compiled.stdout}`);

  const rows: string[] = [];
  const attendeeRows: string[] = [];
  let allMet = true;
  for (const size of sizesFlag) {
    const seeded = performance.now();
    const sandbox = await startSandbox({ scale: size });
    const proxy = await startProxy(sandbox.url);
    try {
      const answer = await sandboxCall(sandbox.url, TENANT.apiKey, 'GET', `${paths.events()}?limit=100`);
      const events = recordsOf<{ id: string; slug: string }>('event', answer);
      const eventId = events.find((e) => e.slug === SCALE_EVENT_SLUG)?.id;
      if (!eventId) throw new Error('the sandbox has no load event');
      const target = await middleRegistration(sandbox.url, eventId, size);
      // An order for that registration, so that Find Order by email reads the large event too.
      const middleOrder = await newOrder(sandbox.url, target.submissionId);
      const ordersFile = await attendeeOrders(sandbox.url, eventId, size, middleOrder);
      console.log(
        `\n${size.toLocaleString('en-US')} registrations (sandbox ready in ${seconds(performance.now() - seeded)}; looking up ${target.submissionId})`,
      );

      const measure = async (operation: string): Promise<Figures> => {
        proxy.reset();
        process.env.BENCH_ATTENDEE_ORDERS = ordersFile;
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
        return {
          ...(JSON.parse(line) as Omit<Figures, 'bytes' | 'reads'>),
          bytes: proxy.bytes(),
          reads: proxy.reads(eventId),
        };
      };

      const bare = await measure('bare');
      const line = (name: string, f: Figures, ratio: string, verdict: string) =>
        `| ${size.toLocaleString('en-US')} | ${name} | ${seconds(f.ms)} | ${ratio} | ${seconds(f.cpuMs)} | ${(f.cpuMs / bare.cpuMs).toFixed(2)}× | ${mb(f.bytes)} | ${mb(f.peakRss)} | ${f.items.toLocaleString('en-US')} | ${verdict} |`;
      const bareLine = line('Bare download + JSON.parse', bare, '1.00×', '(reference)');
      console.log(bareLine);
      rows.push(bareLine);
      const operations = OPERATIONS.filter(([operation]) => !onlyFlag || onlyFlag.has(operation));
      for (const [operation, name] of attendeeOnly ? [] : operations) {
        const f = await measure(operation);
        const ratio = f.ms / bare.ms;
        const met = f.peakRss <= RSS_TARGET && ratio <= WALL_TARGET;
        allMet &&= met;
        const verdict = met
          ? 'meets both'
          : [f.peakRss > RSS_TARGET ? 'RSS over 256 MB' : '', ratio > WALL_TARGET ? 'over 2× bare' : '']
              .filter(Boolean)
              .join(', ');
        const row = line(name, f, `${ratio.toFixed(2)}×`, verdict);
        console.log(row);
        rows.push(row);
      }
      for (const [operation, name] of onlyFlag ? [] : ATTENDEE_OPERATIONS) {
        const f = await measure(operation);
        const row = `| ${size.toLocaleString('en-US')} | ${name} | ${mb(f.bytes)} | ${(f.bytes / bare.bytes).toFixed(3)}× | ${f.reads} | ${seconds(f.ms)} | ${mb(f.peakRss)} |`;
        console.log(row);
        attendeeRows.push(row);
      }
    } finally {
      proxy.close();
      await sandbox.close();
    }
  }

  console.log(
    '\n| Registrations | Attendee lookup | Read | × bare read | Registration reads | Wall time | Peak RSS |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const row of attendeeRows) console.log(row);

  console.log(
    '\n| Registrations | Operation | Wall time | × bare | CPU time | CPU × bare | Read | Peak RSS | Items | Targets |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  console.log(
    `\nTargets: peak RSS at most 256 MB for every operation at every size, wall time at most 2× the bare download and JSON.parse of the same answer: ${allMet ? 'all met' : 'NOT all met'}.`,
  );
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
