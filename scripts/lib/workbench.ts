/**
 * What `npm run listen` and `npm run simulate` share: the `.env` that `npm run sandbox` wrote, a check that
 * the sandbox answers, the organizer's events (by ID, slug or title words), and a small argument parser.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sandboxCall } from '../../sandbox/client';
import { paths } from '../../src/connect';
import { API_KEY_HEADER, errorOf, recordsOf, statusOfAnswer } from '../../src/connect/testing';

export const ROOT = path.resolve(__dirname, '..', '..');

/** A problem the user can fix: printed as is, without a stack trace. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export interface WorkbenchEnv {
  file: string;
  /** `authData_*` lines, without the prefix: the connection Zapier would hold. */
  authData: Record<string, string>;
  /** Every other line (CONNECT_BASE_URL, …). */
  vars: Record<string, string>;
  apiKey: string;
  baseUrl: string;
}

/** `KEY=value` lines; `#` comments and blank lines skipped; optional quotes around the value removed. */
export const parseEnv = (text: string): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    const key = line
      .slice(0, eq)
      .trim()
      .replace(/^export\s+/, '');
    let value = line.slice(eq + 1).trim();
    if (/^(["']).*\1$/.test(value)) value = value.slice(1, -1);
    out[key] = value;
  }
  return out;
};

export const loadEnv = (file = path.join(ROOT, '.env')): WorkbenchEnv => {
  if (!existsSync(file)) {
    throw new UsageError(
      `No ${path.relative(process.cwd(), file) || file} found. Start the sandbox first with \`npm run sandbox\` (it writes .env), then run this again in another terminal.`,
    );
  }
  const all = parseEnv(readFileSync(file, 'utf8'));
  const authData: Record<string, string> = {};
  const vars: Record<string, string> = {};
  for (const [key, value] of Object.entries(all)) {
    if (key.startsWith('authData_')) authData[key.slice('authData_'.length)] = value;
    else vars[key] = value;
  }
  const apiKey = authData.apiKey ?? '';
  const baseUrl = (authData.baseUrl || vars.CONNECT_BASE_URL || '').replace(/\/+$/, '');
  if (!apiKey || !baseUrl) {
    throw new UsageError(
      `${file} has no authData_apiKey or authData_baseUrl line. Start the sandbox with \`npm run sandbox -- --force-env\` to write a complete one.`,
    );
  }
  return { file, authData, vars, apiKey, baseUrl };
};

/** Throws a clear message unless the sandbox of `.env` answers. */
export const ensureSandbox = async (env: WorkbenchEnv): Promise<void> => {
  try {
    const res = await fetch(`${env.baseUrl}/_sandbox/tenant`, {
      headers: { [API_KEY_HEADER]: env.apiKey },
      signal: AbortSignal.timeout(5_000),
    });
    if (res.status === 401) {
      throw new UsageError(
        `The sandbox at ${env.baseUrl} does not know the API key in .env. Restart \`npm run sandbox\` so that it writes a fresh .env.`,
      );
    }
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(
      `Nothing answers at ${env.baseUrl} (from .env). Start the sandbox with \`npm run sandbox\` in another terminal.`,
    );
  }
};

/** One call of the sandbox (Connect or simulation API) as the organizer of `.env`. */
export const callSandbox = <T = Record<string, unknown>>(
  env: WorkbenchEnv,
  method: string,
  urlPath: string,
  body?: unknown,
): Promise<T> => sandboxCall<T>(env.baseUrl, env.apiKey, method, urlPath, body);

export interface EventJson {
  id: string;
  slug: string;
  title: string;
  status: string;
  startsAt: string;
}

export const eventsOf = async (env: WorkbenchEnv): Promise<EventJson[]> =>
  recordsOf<EventJson>('event', await callSandbox<unknown>(env, 'GET', `${paths.events()}?limit=100`));

/**
 * The organizer's event named by `ref` (its ID, its slug, or words of its title); without `ref`, the next
 * published event to start (or the latest published one).
 */
export const findEvent = async (env: WorkbenchEnv, ref?: string): Promise<EventJson> => {
  const events = await eventsOf(env);
  if (ref === undefined || ref === '') {
    const published = events
      .filter((e) => e.status === 'published')
      .sort((a, b) => a.startsAt.localeCompare(b.startsAt));
    const now = new Date().toISOString();
    const next = published.find((e) => e.startsAt >= now) ?? published.at(-1);
    if (!next)
      throw new UsageError('This organizer has no published event: run `npm run simulate -- publish` first.');
    return next;
  }
  const wanted = ref.trim().toLowerCase();
  const exact = events.find((e) => e.id.toLowerCase() === wanted || e.slug === wanted);
  if (exact) return exact;
  const words = wanted.split(/\s+/);
  let matching = events.filter((e) => words.every((w) => `${e.title} ${e.slug}`.toLowerCase().includes(w)));
  if (matching.length === 1) return matching[0] as EventJson;
  if (matching.length === 0 && events.length >= 100) {
    // Past the newest 100 that the events list answers: the organizer's own events, as its dashboard finds them.
    const older = await callSandbox<{ data: EventJson[] }>(
      env,
      'GET',
      `/_sandbox/events?q=${encodeURIComponent(wanted)}`,
    );
    const named = older.data.find((e) => e.id.toLowerCase() === wanted || e.slug === wanted);
    if (named) return named;
    matching = older.data;
    if (matching.length === 1) return matching[0] as EventJson;
  }
  const list = events.map((e) => `  ${e.slug}  (${e.status})`).join('\n');
  throw new UsageError(
    matching.length === 0
      ? `No event of this organizer matches "${ref}". Name one by its ID, its slug or words of its title:\n${list}`
      : `"${ref}" matches ${matching.length} events; name one by its slug:\n${matching.map((e) => `  ${e.slug}`).join('\n')}`,
  );
};

export interface ParsedArgs {
  positional: string[];
  flags: Record<string, string | true>;
}

/** `a b --key value --key=value --switch` → positional and flags (a flag followed by another flag is a switch). */
export const parseArgs = (argv: string[], switches: readonly string[] = []): ParsedArgs => {
  const positional: string[] = [];
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    if (eq > 0) {
      flags[arg.slice(2, eq)] = arg.slice(eq + 1);
      continue;
    }
    const name = arg.slice(2);
    const next = argv[i + 1];
    if (switches.includes(name) || next === undefined || next.startsWith('--')) flags[name] = true;
    else {
      flags[name] = next;
      i++;
    }
  }
  return { positional, flags };
};

export const clock = (date = new Date()): string => date.toISOString().slice(11, 23);

/** A failure in words: a usage problem as is, a refusal of the sandbox with its own message. */
export const problemText = (error: unknown): string => {
  if (error instanceof UsageError) return error.message;
  const text = error instanceof Error ? error.message : String(error);
  const refused = /^sandbox (\S+) (\S+) answered (\d+): (.*)$/s.exec(text);
  if (!refused) return text;
  const [, method, urlPath, status, body] = refused;
  let message = body ?? '';
  let read = Number(status);
  try {
    // Read as the app reads an error, whatever the dialect's error body and statuses (`dialect.ts`).
    const error = errorOf(JSON.parse(message));
    read = statusOfAnswer(read, error.code);
    if (error.message) message = `${error.message}${error.field ? ` (${error.field})` : ''}`;
  } catch {
    // not an error body: shown as is
  }
  return `The sandbox answered ${read} to ${method} ${urlPath}: ${message}`;
};
