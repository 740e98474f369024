/** The command line of `npm run conformance`. */
import { existsSync, statSync } from 'node:fs';
import { normalizeServiceUrl } from '../../src/connect/config';
import { pathSegmentProblem } from '../../src/connect/paths';

export const USAGE = `usage: npm run conformance -- --base-url URL --api-key KEY [options]

Checks, read-only, that a Connect service behaves as docs/connect-contract.md says (docs/conformance.md).

  --base-url URL    the service's API address, e.g. https://api.example.com (required)
  --api-key KEY     an API key of the organizer account to check with (required; never printed)
  --company ID      the account's company ID (Settings → Company): orders are unchecked without it
  --event UUID      the event to use for registrations and floor plans (default: the newest suitable one)
  --json FILE       also write the checks to FILE as JSON
  --delivery FILE   a webhook delivery you captured (JSON { "headers": {…}, "body": "<raw body>" }, or
                    the raw HTTP request), to check how the service signs deliveries
  --secret SECRET   the signing secret of that delivery's subscription (never printed)
  --write-dialect FILE  write the dialect found (names, lists and their pages, query parameters,
                    spellings, errors, signature) to FILE, ready to paste into src/connect/dialect.ts
  --probe-turn-on   also send one POST …/hooks that the contract makes the service refuse (a malformed
                    Idempotency-Key and an unknown kind): whether it reads the key before making anything
  --help            this text

Exit code: 0 when no check differs, 1 when at least one differs, 2 on a usage or connection error.`;

export interface CliArgs {
  baseUrl: string;
  apiKey: string;
  companyId?: string;
  eventId?: string;
  json?: string;
  /** `--delivery`: a captured delivery, for the signature check. */
  delivery?: string;
  /** `--secret`: its subscription's signing secret. */
  secret?: string;
  /** `--write-dialect`: where the dialect found is written, ready to paste into src/connect/dialect.ts. */
  writeDialect?: string;
  /** `--probe-turn-on`: send the one refused POST of the hooks.idempotency-key check. */
  probeTurnOn?: boolean;
}

export type Parsed = { help: true } | { help: false; args: CliArgs };

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Options without a value. */
const SWITCHES: Record<string, 'probeTurnOn'> = { '--probe-turn-on': 'probeTurnOn' };

const FLAGS: Record<string, Exclude<keyof CliArgs, 'probeTurnOn'>> = {
  '--base-url': 'baseUrl',
  '--api-key': 'apiKey',
  '--company': 'companyId',
  '--event': 'eventId',
  '--json': 'json',
  '--delivery': 'delivery',
  '--secret': 'secret',
  '--write-dialect': 'writeDialect',
};

/** An option's name as typed, shown only when it looks like one (`--colour`): any other text may be a key. */
const OPTION_NAME = /^--?[a-z][a-z0-9-]{0,30}$/i;

/** Why `arg` (at `index`) is no option, without ever showing a value: a key typed without --api-key is one. */
const unknownOption = (arg: string, index: number): UsageError =>
  OPTION_NAME.test(arg)
    ? new UsageError(`unknown option ${arg}`)
    : new UsageError(
        `argument ${index + 1} is not an option (it is not shown: it may be a key); every value follows its option, as in --api-key KEY`,
      );

/** Reads `argv` (after the script name); throws `UsageError` naming what is wrong (never the key's value). */
export const parseArgs = (argv: string[]): Parsed => {
  const given: Partial<CliArgs> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--help' || arg === '-h') return { help: true };
    const eq = arg.indexOf('=');
    const flag = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    const toggle = SWITCHES[arg];
    if (toggle) {
      given[toggle] = true;
      continue;
    }
    const field = FLAGS[flag];
    if (!field) throw unknownOption(flag, i);
    const value = flag === arg ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined || value.trim() === '' || (flag === arg && value.startsWith('--'))) {
      throw new UsageError(`${flag} needs a value`);
    }
    given[field] = value.trim();
  }
  if (!given.baseUrl) throw new UsageError('--base-url is required');
  if (!given.apiKey) throw new UsageError('--api-key is required');
  if ((given.delivery === undefined) !== (given.secret === undefined)) {
    throw new UsageError(
      '--delivery and --secret go together: the delivery, and the secret it was signed with',
    );
  }
  if (given.delivery !== undefined && !(existsSync(given.delivery) && statSync(given.delivery).isFile())) {
    throw new UsageError(`--delivery ${given.delivery}: no such file`);
  }
  const args = { ...given, baseUrl: checkedBaseUrl(given.baseUrl), apiKey: given.apiKey };
  checkIds(args);
  return { help: false, args };
};

/** What `--base-url` accepts, in words. */
export const ACCEPTED_URLS =
  'it must start with https://, or with http:// (which the app itself accepts only for a loopback address such as http://127.0.0.1:4010)';

/** The base URL as the app would use it; plain http to another host is kept, for the https check to report. */
const checkedBaseUrl = (raw: string): string => {
  const result = normalizeServiceUrl(raw);
  if ('url' in result) return result.url;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(raw.trim())?.[1]?.toLowerCase();
  let problem = result.problem;
  if (scheme === 'http') {
    const plain = normalizeServiceUrl(raw.trim().replace(/^http:/i, 'https:'));
    if ('url' in plain) return plain.url.replace(/^https:/, 'http:');
    problem = plain.problem;
  } else if (scheme !== undefined && scheme !== 'https') problem = ACCEPTED_URLS;
  throw new UsageError(`--base-url "${raw.slice(0, 100)}" cannot be used: ${problem}`);
};

/** Checks the optional identifiers: they become path segments. */
const checkIds = (args: CliArgs): void => {
  for (const [flag, value] of [
    ['--event', args.eventId],
    ['--company', args.companyId],
  ] as const) {
    const problem = value === undefined ? null : pathSegmentProblem(value);
    if (problem) throw new UsageError(`${flag} "${String(value).slice(0, 60)}" cannot be used: ${problem}`);
  }
};
