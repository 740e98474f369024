// `npm run sandbox [-- options]`: starts the Connect sandbox on 127.0.0.1, prints a short banner (what runs
// where, the seed organizers, how to stop) and writes a `.env` for `zapier-platform invoke`, `npm run listen`
// and `npm run simulate`. Requests and webhook deliveries are printed only when asked for.

import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEVIATION_NAMES, type Deviation, parseDeviations } from './deviations';
import { startSandbox, sandboxContext, type DeliveryLogEntry } from './index';
import { SEED_TENANTS } from './seed';
import { AGENCY_EVENTS_DEFAULT, AGENCY_TENANT } from './seed-agency';

export const DEFAULT_PORT = 4010;
/** First line of every `.env` the sandbox writes: such a file may be replaced by the next start. */
export const ENV_MARKER = '# Written by `npm run sandbox`';

const ROOT = path.resolve(__dirname, '..');

interface CliArgs {
  port: number;
  scale: number;
  /** Events of the agency organizer (0: none); with it, tenant 4 is the agency. */
  agency: number;
  tenant: number;
  seed: boolean;
  log: boolean;
  bodies: boolean;
  envFile: string | null;
  forceEnv: boolean;
  deviations: Deviation[];
}

const USAGE = `usage: npm run sandbox -- [options]

  --port N          port on 127.0.0.1 (default ${DEFAULT_PORT}, or $PORT; 0 picks a free one)
  --tenant 1|2|3|4  the seed organizer whose credentials go into .env (default 1; 4 with --agency,
                    which is then the default)
  --log             print every request and every webhook delivery attempt, one line each
  --bodies          also print each delivery's body and signature header (implies --log)
  --env-path PATH   where to write the .env (default .env in the project folder)
  --no-env          write no .env (the lines are still printed)
  --force-env       replace an .env that the sandbox did not write (the old one is kept as .env.bak)
  --scale N         add an event with N registrations over the last 24 h (load tests)
  --agency [N]      add a fourth organizer, Meridian Agency, with N events (default ${AGENCY_EVENTS_DEFAULT}) over two
                    years: past its 100 newest, the catalog and the keyed checks are the only way in
  --no-seed         start without seed data (the seed organizers exist but hold nothing)
  --deviate A,B     answer unlike the contract on purpose (sandbox/README.md, "Deviation switches"):
                    ${DEVIATION_NAMES.join(', ')}`;

function usage(message?: string): never {
  if (message) console.error(`${message}\n`);
  console.error(USAGE);
  process.exit(2);
}

export function parseArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): CliArgs {
  const envPort = env.PORT;
  const args: CliArgs = {
    port: envPort !== undefined && envPort !== '' ? Number(envPort) : DEFAULT_PORT,
    scale: 0,
    agency: 0,
    tenant: 0,
    seed: true,
    log: false,
    bodies: false,
    envFile: path.join(ROOT, '.env'),
    forceEnv: false,
    deviations: [],
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [flag, inline] = arg.includes('=') ? (arg.split('=', 2) as [string, string]) : [arg, undefined];
    const raw = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '') usage(`${flag} needs a value`);
      return v;
    };
    const whole = (): number => {
      const v = raw();
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0) usage(`${flag} needs a whole number, not "${v}"`);
      return n;
    };
    switch (flag) {
      case '--port':
        args.port = whole();
        break;
      case '--scale':
        args.scale = whole();
        break;
      case '--agency': {
        const next = inline ?? argv[i + 1];
        if (next !== undefined && /^\d+$/.test(next)) {
          if (inline === undefined) i++;
          args.agency = Number(next);
        } else args.agency = AGENCY_EVENTS_DEFAULT;
        if (args.agency < 1) usage('--agency needs at least 1 event');
        break;
      }
      case '--tenant':
        args.tenant = whole();
        break;
      case '--log':
        args.log = true;
        break;
      case '--bodies':
        args.log = true;
        args.bodies = true;
        break;
      case '--quiet':
        args.log = false;
        args.bodies = false;
        break;
      case '--env-path':
        args.envFile = path.resolve(raw());
        break;
      case '--no-env':
        args.envFile = null;
        break;
      case '--force-env':
        args.forceEnv = true;
        break;
      case '--no-seed':
        args.seed = false;
        break;
      case '--deviate': {
        const value = raw();
        try {
          args.deviations = [...new Set([...args.deviations, ...parseDeviations(value)])];
        } catch (error) {
          usage(`--deviate: ${(error as Error).message}`);
        }
        break;
      }
      case '--help':
      case '-h':
        console.log(USAGE);
        process.exit(0);
        break;
      default:
        usage(`unknown option ${arg}`);
    }
  }
  if (!Number.isInteger(args.port) || args.port < 0 || args.port > 65535)
    usage(`--port must be 0 to 65535 (PORT is "${envPort ?? ''}")`);
  const organizers = organizersOf(args.agency).length;
  if (args.tenant === 0) args.tenant = args.agency > 0 ? organizers : 1;
  if (args.tenant < 1 || args.tenant > organizers) usage(`--tenant must be 1 to ${organizers}`);
  return args;
}

/** The organizers of a sandbox: the seed organizers, and the agency when it has events. */
export const organizersOf = (agency: number) =>
  agency > 0 ? [...SEED_TENANTS, AGENCY_TENANT] : [...SEED_TENANTS];

/** The `.env` lines for one seed organizer of a sandbox at `url`. */
export function envLines(url: string, tenantNumber: number, agency = 0): string[] {
  const organizers = organizersOf(agency);
  const tenant = organizers[tenantNumber - 1] ?? SEED_TENANTS[0];
  return [
    `${ENV_MARKER} for ${tenant.name} (tenant ${tenantNumber}); local sandbox credentials only.`,
    `authData_apiKey=${tenant.apiKey}`,
    `authData_baseUrl=${url}`,
    `authData_companyId=${tenant.companyId}`,
    `authData_webhookSecret=${tenant.webhookSecret}`,
    `CONNECT_BASE_URL=${url}`,
    `CONNECT_FRONT_URL=${url}`,
    `CONNECT_EMBED_URL=${url}`,
  ];
}

export type EnvOutcome =
  | { kind: 'written' | 'unchanged' | 'replaced'; file: string }
  | { kind: 'backed-up'; file: string; backup: string }
  | { kind: 'kept'; file: string };

/**
 * Writes `content` to `file` unless that would silently replace a file the sandbox did not write: such a
 * file is kept (or, with `force`, moved to `.bak` first).
 */
export function writeEnvFile(file: string, content: string, force: boolean): EnvOutcome {
  if (!existsSync(file)) {
    writeFileSync(file, content);
    return { kind: 'written', file };
  }
  const current = readFileSync(file, 'utf8');
  if (current === content) return { kind: 'unchanged', file };
  if (current.startsWith(ENV_MARKER)) {
    writeFileSync(file, content);
    return { kind: 'replaced', file };
  }
  if (!force) return { kind: 'kept', file };
  const backup = `${file}.bak`;
  renameSync(file, backup);
  writeFileSync(file, content);
  return { kind: 'backed-up', file, backup };
}

const entitlementList = (e: Record<string, boolean>): string =>
  Object.entries(e)
    .filter(([, on]) => on)
    .map(([k]) => k)
    .join(', ') || 'none';

/** The seed organizers as an aligned table. */
export function tenantTable(selected: number, agency = 0): string[] {
  const header = ['#', 'Organizer', 'X-API-KEY', 'Company ID', 'Features', 'Hook secrets'];
  const rows = organizersOf(agency).map((t, i) => [
    `${i + 1}${i + 1 === selected ? '*' : ''}`,
    t.name,
    t.apiKey,
    t.companyId,
    entitlementList(t.entitlements),
    t.hookSecrets ? 'per subscription' : 'account secret',
  ]);
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] as string).length)));
  const line = (cells: string[]) =>
    `  ${cells
      .map((cell, c) => cell.padEnd(widths[c] as number))
      .join('  ')
      .trimEnd()}`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}

const describeEnv = (outcome: EnvOutcome): string => {
  const rel = path.relative(process.cwd(), outcome.file) || outcome.file;
  switch (outcome.kind) {
    case 'written':
      return `wrote ${rel}`;
    case 'unchanged':
      return `${rel} is up to date`;
    case 'replaced':
      return `updated ${rel} (written by an earlier sandbox start)`;
    case 'backed-up':
      return `wrote ${rel}; your previous one is now ${path.relative(process.cwd(), outcome.backup)}`;
    case 'kept':
      return `${rel} exists and was not written by the sandbox, so it was left alone: copy the lines above into it, or start again with --force-env (your file is kept as ${rel}.bak)`;
  }
};

/** One line per request, from fastify's JSON log lines (the key and signatures are never printed). */
function requestLogStream(print: (line: string) => void): { write(line: string): void } {
  const started = new Map<string, string>();
  return {
    write(text: string) {
      for (const raw of text.split('\n')) {
        if (!raw.trim()) continue;
        let entry: Record<string, unknown>;
        try {
          entry = JSON.parse(raw) as Record<string, unknown>;
        } catch {
          continue;
        }
        const reqId = String(entry.reqId ?? '');
        const req = entry.req as { method?: string; url?: string } | undefined;
        const res = entry.res as { statusCode?: number } | undefined;
        if (req?.method) started.set(reqId, `${req.method} ${req.url ?? ''}`);
        else if (res?.statusCode !== undefined) {
          const what = started.get(reqId) ?? '?';
          started.delete(reqId);
          const ms = typeof entry.responseTime === 'number' ? entry.responseTime.toFixed(1) : '?';
          print(`${clock()}  ${String(res.statusCode)}  ${what}  ${ms} ms`);
        } else if (entry.msg === 'subscription ended by 410') {
          print(`${clock()}  subscription ${String(entry.hook)} ended: its receiver answered 410`);
        } else if (typeof entry.level === 'number' && entry.level >= 50) {
          print(`${clock()}  error: ${String(entry.msg)}`);
        }
      }
    },
  };
}

const clock = (): string => new Date().toISOString().slice(11, 23);

function deliveryLine(entry: DeliveryLogEntry): string {
  const answer =
    entry.statusCode !== null ? `answered ${entry.statusCode}` : `no answer (${entry.error ?? 'unknown'})`;
  const retry = entry.nextRetryAt ? `, retry at ${entry.nextRetryAt.slice(11, 23)}` : '';
  return (
    `${clock()}  delivery ${entry.deliveryId} ${entry.type} → ${entry.targetUrl} ` +
    `attempt ${entry.attempt}: ${entry.state}, ${answer} in ${(entry.durationMs ?? 0).toFixed(1)} ms${retry}`
  );
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const print = (line: string): void => void process.stdout.write(`${line}\n`);
  const started = performance.now();
  let sandbox;
  try {
    sandbox = await startSandbox({
      port: args.port,
      scale: args.scale,
      agency: args.agency,
      seed: args.seed,
      deviations: args.deviations,
      logger: args.log,
      logStream: requestLogStream(print),
    });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'EADDRINUSE') {
      console.error(
        `Port ${args.port} on 127.0.0.1 is already in use (another sandbox still running?). ` +
          `Stop it, or start this one with --port and another number.`,
      );
      process.exit(1);
    }
    throw error;
  }
  const readyMs = performance.now() - started;
  const url = sandbox.url;
  const tenant = organizersOf(args.agency)[args.tenant - 1] ?? SEED_TENANTS[0];

  const delivery = sandboxContext(sandbox.app).delivery;
  if (args.log) {
    delivery.onAttemptDone = (entry) => {
      print(deliveryLine(entry));
      if (args.bodies) {
        const sent = delivery.sentBody(entry.deliveryId);
        if (sent && entry.attempt === 1) {
          print(`    ${delivery.deviations.signatureHeader()}: ${sent.signature}`);
          print(`    ${sent.body}`);
        }
      }
    };
  }

  const env = envLines(url, args.tenant, args.agency);
  const envContent = `${env.join('\n')}\n`;
  const outcome = args.envFile ? writeEnvFile(args.envFile, envContent, args.forceEnv) : null;
  const rssMb = process.memoryUsage().rss / 1024 / 1024;

  print(
    [
      `Connect sandbox listening on ${url}  (ready in ${readyMs.toFixed(0)} ms, ${rssMb.toFixed(0)} MB` +
        `${args.scale > 0 ? `, scale ${args.scale}` : ''}${args.agency > 0 ? `, agency of ${args.agency} events` : ''})`,
      ...(args.deviations.length
        ? [`  Deviating from the contract on purpose: ${args.deviations.join(', ')}`]
        : []),
      '',
      `  Connect API       ${url}/api/v1/…  ${url}/connect/v1/…  ${url}/widgets/…`,
      `  Simulation API    ${url}/_sandbox/…   (npm run simulate -- help)`,
      `  Floor-plan map    ${url}/embed/<event id>/map/<plan id>?list=1`,
      `  Embed script      ${url}/embed/v1/service-embed.js`,
      '',
      'Seed organizers (* = the one in .env):',
      ...tenantTable(args.tenant, args.agency),
      '',
      `.env for zapier-platform invoke, npm run listen and npm run simulate (${tenant.name}):`,
      ...env.slice(1).map((l) => `  ${l}`),
      outcome ? `  → ${describeEnv(outcome)}` : '  → not written (--no-env)',
      '',
      args.log
        ? `Printing requests and delivery attempts${args.bodies ? ' with bodies and signatures' : ''}.`
        : 'Quiet: start with --log to see requests and deliveries, --bodies for delivery bodies.',
      'Press Ctrl+C to stop.',
      '',
    ].join('\n'),
  );

  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    print('Stopping the sandbox.');
    sandbox.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
