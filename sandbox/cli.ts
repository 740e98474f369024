// `npm run sandbox [-- --port 4010 --scale 100000 --quiet --tenant 2]`: starts the Connect sandbox on
// 127.0.0.1 and prints the base URL, a tenant's credentials and a ready .env for `zapier-platform invoke`.

import { startSandbox } from './index';
import { SEED_TENANTS } from './seed';

interface CliArgs {
  port: number;
  scale: number;
  quiet: boolean;
  tenant: number;
  seed: boolean;
}

function usage(message?: string): never {
  if (message) console.error(message);
  console.error('usage: sandbox [--port N] [--scale N] [--quiet] [--tenant 1|2|3] [--no-seed]');
  process.exit(2);
}

function parseArgs(argv: string[]): CliArgs {
  const envPort = process.env.PORT;
  const args: CliArgs = {
    port: envPort !== undefined && envPort !== '' ? Number(envPort) : 0,
    scale: 0,
    quiet: false,
    tenant: 1,
    seed: true,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [flag, inline] = arg.includes('=') ? (arg.split('=', 2) as [string, string]) : [arg, undefined];
    const value = (): number => {
      const raw = inline ?? argv[++i];
      const n = Number(raw);
      if (raw === undefined || raw === '' || !Number.isInteger(n) || n < 0)
        usage(`${flag} needs a whole number`);
      return n;
    };
    switch (flag) {
      case '--port':
        args.port = value();
        break;
      case '--scale':
        args.scale = value();
        break;
      case '--tenant':
        args.tenant = value();
        break;
      case '--quiet':
        args.quiet = true;
        break;
      case '--no-seed':
        args.seed = false;
        break;
      case '--help':
      case '-h':
        usage();
        break;
      default:
        usage(`unknown option ${arg}`);
    }
  }
  if (!Number.isInteger(args.port) || args.port < 0 || args.port > 65535) usage('--port must be 0 to 65535');
  if (args.tenant < 1 || args.tenant > SEED_TENANTS.length)
    usage(`--tenant must be 1 to ${SEED_TENANTS.length}`);
  return args;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const started = performance.now();
  const sandbox = await startSandbox({
    port: args.port,
    scale: args.scale,
    seed: args.seed,
    logger: !args.quiet,
  });
  const readyMs = performance.now() - started;
  const tenant = SEED_TENANTS[args.tenant - 1] ?? SEED_TENANTS[0];
  const rssMb = process.memoryUsage().rss / 1024 / 1024;

  const lines = [
    `Connect sandbox listening on ${sandbox.url}`,
    `ready in ${readyMs.toFixed(0)} ms, rss ${rssMb.toFixed(0)} MB${args.scale > 0 ? `, scale ${args.scale}` : ''}`,
    '',
    'Tenants (X-API-KEY):',
    ...SEED_TENANTS.map(
      (t, i) =>
        `  ${i + 1}. ${t.name.padEnd(20)} ${t.apiKey}  ${t.companyId.padEnd(14)} ` +
        Object.entries(t.entitlements)
          .filter(([, on]) => on)
          .map(([k]) => k)
          .join(','),
    ),
    '',
    `# .env for zapier-platform invoke (tenant ${args.tenant}: ${tenant.name})`,
    `authData_apiKey=${tenant.apiKey}`,
    `authData_baseUrl=${sandbox.url}`,
    `authData_webhookSecret=${tenant.webhookSecret}`,
    `authData_companyId=${tenant.companyId}`,
    `CONNECT_BASE_URL=${sandbox.url}`,
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    if (!args.quiet) console.error(`${signal}: closing the sandbox`);
    sandbox.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
