// `npm run sandbox`: the banner, the .env it writes (never silently over a file of the user's), request and
// delivery logging on demand, and a clean stop.

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ENV_MARKER, envLines, parseArgs, tenantTable, writeEnvFile } from '../../sandbox/cli';
import { SEED_TENANTS } from '../../sandbox';
import { wireRequestBody } from '../../sandbox/wire';
import { HookSubscription, readRecord, verifySignature } from '../../src/connect/testing';

const ROOT = path.resolve(__dirname, '..', '..');
const HARBOR = SEED_TENANTS[2];
const NORTHWIND = SEED_TENANTS[0];

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sandbox-cli-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('.env', () => {
  it('holds everything zapier-platform invoke and the embeds need', () => {
    expect(envLines('http://127.0.0.1:4010', 3)).toEqual([
      expect.stringMatching(/^# Written by `npm run sandbox` for Harbor Meetups \(tenant 3\)/),
      `authData_apiKey=${HARBOR.apiKey}`,
      'authData_baseUrl=http://127.0.0.1:4010',
      `authData_companyId=${HARBOR.companyId}`,
      `authData_webhookSecret=${HARBOR.webhookSecret}`,
      'CONNECT_BASE_URL=http://127.0.0.1:4010',
      'CONNECT_FRONT_URL=http://127.0.0.1:4010',
      'CONNECT_EMBED_URL=http://127.0.0.1:4010',
    ]);
  });

  it('is written when missing, replaced when the sandbox wrote it, kept when the user did', () => {
    const file = path.join(dir, '.env');
    const ours = `${ENV_MARKER} for X\nauthData_apiKey=a\n`;
    expect(writeEnvFile(file, ours, false)).toEqual({ kind: 'written', file });
    expect(writeEnvFile(file, ours, false)).toEqual({ kind: 'unchanged', file });
    const newer = `${ENV_MARKER} for X\nauthData_apiKey=b\n`;
    expect(writeEnvFile(file, newer, false)).toEqual({ kind: 'replaced', file });
    expect(readFileSync(file, 'utf8')).toBe(newer);

    const mine = 'authData_apiKey=my_real_key\nMY_SETTING=1\n';
    writeFileSync(file, mine);
    expect(writeEnvFile(file, ours, false)).toEqual({ kind: 'kept', file });
    expect(readFileSync(file, 'utf8')).toBe(mine);
    expect(writeEnvFile(file, ours, true)).toEqual({ kind: 'backed-up', file, backup: `${file}.bak` });
    expect(readFileSync(file, 'utf8')).toBe(ours);
    expect(readFileSync(`${file}.bak`, 'utf8')).toBe(mine);
  });
});

describe('options', () => {
  const exit = jest.spyOn(process, 'exit').mockImplementation((code) => {
    throw new Error(`exit ${String(code)}`);
  });
  const stderr = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  afterAll(() => {
    exit.mockRestore();
    stderr.mockRestore();
  });

  it('defaults to port 4010 (or PORT), tenant 1, quiet, .env in the project folder', () => {
    expect(parseArgs([], {})).toMatchObject({
      port: 4010,
      tenant: 1,
      log: false,
      bodies: false,
      envFile: path.join(ROOT, '.env'),
    });
    expect(parseArgs([], { PORT: '5000' }).port).toBe(5000);
    expect(parseArgs(['--bodies', '--port=0', '--no-env'], {})).toMatchObject({
      port: 0,
      log: true,
      bodies: true,
      envFile: null,
    });
  });

  it('refuses what it cannot use, naming the option', () => {
    expect(() => parseArgs(['--tenant', '4'], {})).toThrow('exit 2');
    expect(stderr).toHaveBeenLastCalledWith(expect.stringContaining('usage:'));
    expect(stderr.mock.calls.flat().join('\n')).toContain('--tenant must be 1 to 3');
    expect(() => parseArgs(['--port', 'abc'], {})).toThrow('exit 2');
    expect(stderr.mock.calls.flat().join('\n')).toContain('--port needs a whole number, not "abc"');
    expect(() => parseArgs(['--verbose'], {})).toThrow('exit 2');
    expect(stderr.mock.calls.flat().join('\n')).toContain('unknown option --verbose');
  });
});

it('lists the seed organizers in an aligned table', () => {
  const lines = tenantTable(2);
  expect(lines).toHaveLength(2 + SEED_TENANTS.length);
  const keyColumn = lines
    .filter((_, i) => i !== 1)
    .map((l) => l.indexOf(l.includes('X-API-KEY') ? 'X-API-KEY' : 'sk_sandbox_'));
  expect(new Set(keyColumn).size).toBe(1);
  expect(lines[3]).toMatch(/^ {2}2\* +Lumen Conferences/);
  expect(lines[4]).toContain('account secret');
});

// ---- the running CLI -----------------------------------------------------------------------------------

interface Cli {
  child: ChildProcess;
  out: () => string;
  waitFor: (text: string | RegExp) => Promise<void>;
  stop: () => Promise<number | null>;
}

function startCli(args: string[]): Cli {
  const child = spawn(
    path.join(ROOT, 'node_modules', '.bin', 'node'),
    ['--import', 'tsx', 'sandbox/cli.ts', ...args],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  let ended: number | null | undefined;
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      ended = code;
      resolve(code);
    }),
  );
  return {
    child,
    out: () => out,
    // Waits for a text the CLI prints, and fails as soon as the CLI exits without printing it: a changed
    // line fails the test at once instead of waiting out a time limit.
    waitFor: (text) =>
      new Promise<void>((resolve, reject) => {
        const found = () => (typeof text === 'string' ? out.includes(text) : text.test(out));
        const stopWatching = () => {
          child.stdout?.off('data', check);
          child.stderr?.off('data', check);
          child.off('close', gone);
        };
        const check = () => {
          if (!found()) return;
          stopWatching();
          resolve();
        };
        const gone = () => {
          if (found()) return check();
          stopWatching();
          reject(new Error(`the CLI exited (${String(ended)}) without printing ${String(text)}\n${out}`));
        };
        child.stdout?.on('data', check);
        child.stderr?.on('data', check);
        child.on('close', gone);
        if (child.exitCode !== null) gone();
        else check();
      }),
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

it('starts with a banner, writes .env, and stops on SIGTERM', async () => {
  const envFile = path.join(dir, '.env');
  const cli = startCli(['--port', '0', '--tenant', '3', '--env-path', envFile]);
  try {
    await cli.waitFor('Press Ctrl+C to stop.');
    const out = cli.out();
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
    expect(url).toBeDefined();
    expect(out).toContain(`${url}/embed/v1/service-embed.js`);
    expect(out).toMatch(/3\* +Harbor Meetups/);
    expect(out).toContain('→ wrote');
    expect(out).not.toContain('"level"');
    const written = readFileSync(envFile, 'utf8');
    expect(written.split('\n')).toEqual([...envLines(url as string, 3), '']);
    const res = await fetch(`${url}/api/v1/public/events`);
    expect(res.status).toBe(200);
    expect(cli.out()).not.toContain('/api/v1/public/events');
  } finally {
    expect(await cli.stop()).toBe(0);
  }
});

it('keeps a .env of the user, and with --bodies prints requests and delivery bodies, never the key', async () => {
  const envFile = path.join(dir, '.env');
  writeFileSync(envFile, 'authData_apiKey=mine\n');
  const cli = startCli(['--port', '0', '--bodies', '--env-path', envFile]);
  const server = await import('node:http').then(({ createServer }) =>
    createServer((_req, res) => res.writeHead(200).end()).listen(0, '127.0.0.1'),
  );
  try {
    await cli.waitFor('Press Ctrl+C to stop.');
    expect(cli.out()).toContain('was not written by the sandbox, so it was left alone');
    expect(readFileSync(envFile, 'utf8')).toBe('authData_apiKey=mine\n');
    expect(existsSync(`${envFile}.bak`)).toBe(false);
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(cli.out())?.[1] as string;
    const headers = { 'X-API-KEY': NORTHWIND.apiKey, 'Content-Type': 'application/json' };
    const address = server.address() as { port: number };
    const hook = await fetch(`${url}/api/v1/integrations/zapier/hooks`, {
      method: 'POST',
      headers,
      body: JSON.stringify(
        wireRequestBody({ targetUrl: `http://127.0.0.1:${address.port}/hook`, event: 'EVENT_*' }),
      ),
    });
    expect(hook.status).toBe(201);
    const { secret } = readRecord(HookSubscription, await hook.json());
    await fetch(`${url}/_sandbox/events`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ title: 'Loud' }),
    });
    // The delivery's line and the two under it (signature, body) are printed whatever the signature
    // looks like; what they say is asserted once they are there.
    await cli.waitFor(/delivery dlv_\w+ EVENT_CREATED → \S+ attempt 1: [^\n]*\n[^\n]*\n[^\n]*\n/);
    const out = cli.out();
    // The printed header signs the printed body with the subscription's secret (as the app verifies it).
    const [, signature, body] = /X-Connect-Signature: ([^\n]*)\n {4}([^\n]*)\n/.exec(out) ?? [];
    expect(verifySignature(body, signature, [secret ?? '']).ok).toBe(true);
    expect(out).toContain('"title":"Loud"');
    expect(out).toMatch(/201 {2}POST \/api\/v1\/integrations\/zapier\/hooks/);
    expect(out).toMatch(
      /delivery dlv_\w+ EVENT_CREATED → http:\/\/127\.0\.0\.1:\d+\/hook attempt 1: delivered/,
    );
    // The banner shows the sandbox's keys on purpose; the request and delivery lines never do.
    expect(out.slice(out.indexOf('Press Ctrl+C to stop.'))).not.toContain(NORTHWIND.apiKey);
  } finally {
    server.close();
    expect(await cli.stop()).toBe(0);
  }
});
