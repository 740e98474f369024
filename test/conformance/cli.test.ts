/**
 * `npm run conformance`: exit codes, the printed report and the JSON file, usage and connection errors said
 * plainly before anything runs, and the API key never written anywhere.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type Deviation, type RunningSandbox, SEED_TENANTS, startSandbox } from '../../sandbox';
import { EXIT, main } from '../../scripts/conformance';
import { parseArgs } from '../../scripts/conformance/args';

const ROOT = path.resolve(__dirname, '..', '..');
const NORTHWIND = SEED_TENANTS[0];
/** A key no service accepts, easy to spot in any output. */
const RECOGNISABLE_KEY = 'sk_live_CONFORMANCE_SECRET_7f3a9c';

interface Ran {
  code: number;
  out: string;
  err: string;
}

const runMain = async (args: string[]): Promise<Ran> => {
  let out = '';
  let err = '';
  const code = await main(args, {
    out: { write: (text: string) => (out += text) },
    err: { write: (text: string) => (err += text) },
  });
  return { code, out, err };
};

const withSandbox = async <T>(deviations: Deviation[], use: (sandbox: RunningSandbox) => Promise<T>) => {
  const sandbox = await startSandbox({ deviations });
  try {
    return await use(sandbox);
  } finally {
    await sandbox.close();
  }
};

/** A port on 127.0.0.1 that nothing listens on (a server was there a moment ago). */
const closedPort = async (): Promise<number> => {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
};

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('against the sandbox', () => {
  it('prints a clean report grouped by endpoint, writes the JSON file and exits 0', async () => {
    const json = path.join(dir, 'report.json');
    const ran = await withSandbox([], (sandbox) =>
      runMain([
        '--base-url',
        sandbox.url,
        '--api-key',
        NORTHWIND.apiKey,
        '--company',
        NORTHWIND.companyId,
        '--json',
        json,
      ]),
    );
    expect(ran.code).toBe(EXIT.clean);
    expect(ran.out).toMatch(/^Connection$/m);
    expect(ran.out).toMatch(/^Submissions \(GET \/api\/v1\/integrations\/zapier\/submissions\)$/m);
    expect(ran.out).toMatch(/Summary: \d+ checks: \d+ holds, 1 tolerated, 0 differs, 0 unchecked\./);
    const file = JSON.parse(readFileSync(json, 'utf8')) as { checks: Array<Record<string, unknown>> };
    expect(file.checks.length).toBeGreaterThan(30);
    for (const check of file.checks) {
      expect(Object.keys(check)).toEqual(['id', 'assumption', 'status', 'detail']);
      expect(['holds', 'tolerated']).toContain(check.status);
    }
    expect(`${ran.out}${ran.err}${readFileSync(json, 'utf8')}`).not.toContain(NORTHWIND.apiKey);
  });

  it('exits 1 when a check differs, and the summary says what to do about it', async () => {
    const ran = await withSandbox(['since-ignored'], (sandbox) =>
      runMain(['--base-url', sandbox.url, '--api-key', NORTHWIND.apiKey]),
    );
    expect(ran.code).toBe(EXIT.differs);
    expect(ran.out).toMatch(/What to do:\n {2}- submissions\.filter \(since filters/);
    expect(ran.out).toMatch(/ {4}→ Send this report to the service/);
    expect(ran.out).toMatch(/Unchecked \(\d+\): [^]*orders\.envelope, [^]*the table says why/);
  });

  it('exits 0 when the service differs only in ways the app handles', async () => {
    const ran = await withSandbox(['since-exclusive', 'no-date', 'shuffle'], (sandbox) =>
      runMain(['--base-url', sandbox.url, '--api-key', NORTHWIND.apiKey, '--company', NORTHWIND.companyId]),
    );
    expect(ran.code).toBe(EXIT.clean);
    expect(ran.out).toMatch(/tolerated +inclusive/);
  });
});

describe('usage and connection errors (exit 2, before any check)', () => {
  it.each([
    ['no options', [], /--base-url is required/],
    ['no key', ['--base-url', 'https://api.example.com'], /--api-key is required/],
    [
      'an ftp address',
      ['--base-url', 'ftp://api.example.com', '--api-key', RECOGNISABLE_KEY],
      /cannot be used: it must start with https/,
    ],
    [
      'an unknown option',
      ['--base-url', 'https://api.example.com', '--api-key', RECOGNISABLE_KEY, '--colour'],
      /unknown option --colour/,
    ],
    [
      'an event that is no identifier',
      ['--base-url', 'https://api.example.com', '--api-key', RECOGNISABLE_KEY, '--event', '..'],
      /--event "\.\." cannot be used/,
    ],
    [
      'a key without value',
      ['--base-url', 'https://api.example.com', '--api-key'],
      /--api-key needs a value/,
    ],
    [
      'a JSON file in a missing folder',
      [
        '--base-url',
        'https://api.example.com',
        '--api-key',
        RECOGNISABLE_KEY,
        '--json',
        '/nonexistent-folder/x.json',
      ],
      /--json \/nonexistent-folder\/x\.json: the folder \/nonexistent-folder does not exist/,
    ],
  ])('%s: says what is wrong and shows the usage', async (_case, args, message) => {
    const ran = await runMain(args);
    expect(ran.code).toBe(EXIT.stopped);
    expect(ran.err).toMatch(message);
    expect(ran.err).toContain('usage: npm run conformance');
    expect(`${ran.out}${ran.err}`).not.toContain(RECOGNISABLE_KEY);
  });

  it('names an address where nothing answers', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const ran = await runMain(['--base-url', url, '--api-key', RECOGNISABLE_KEY]);
    expect(ran.code).toBe(EXIT.stopped);
    expect(ran.err).toContain(`No answer from ${url}`);
    expect(ran.err).toContain('nothing accepts connections');
    expect(ran.out).toBe('');
  });

  it('says plainly that the key was refused, without printing it', async () => {
    const ran = await withSandbox([], (sandbox) =>
      runMain(['--base-url', sandbox.url, '--api-key', RECOGNISABLE_KEY]),
    );
    expect(ran.code).toBe(EXIT.stopped);
    expect(ran.err).toMatch(/did not accept the API key \(HTTP 401\)/);
    expect(`${ran.out}${ran.err}`).not.toContain(RECOGNISABLE_KEY);
  });

  it('says when the service knows no such event or company for the key', async () => {
    const [event, company] = await withSandbox([], (sandbox) =>
      Promise.all([
        runMain(['--base-url', sandbox.url, '--api-key', NORTHWIND.apiKey, '--event', 'evt-none']),
        runMain(['--base-url', sandbox.url, '--api-key', NORTHWIND.apiKey, '--company', 'cmp_none']),
      ]),
    );
    expect(event).toMatchObject({ code: EXIT.stopped, out: '' });
    expect(event.err).toMatch(/--event evt-none: the service knows no such event for this key \(HTTP 404\)/);
    expect(company).toMatchObject({ code: EXIT.stopped, out: '' });
    expect(company.err).toMatch(/--company cmp_none: the service knows no such company for this key/);
  });

  it('says when the address is not a Connect API', async () => {
    const server = http.createServer((_, res) =>
      res.writeHead(404, { 'Content-Type': 'text/html' }).end('<h1>Not here</h1>'),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const ran = await runMain(['--base-url', url, '--api-key', RECOGNISABLE_KEY]);
      expect(ran.code).toBe(EXIT.stopped);
      expect(ran.err).toMatch(/does not answer like a Connect API/);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

it('scrubs the key from the report and the JSON file even when the service echoes it', async () => {
  const server = http.createServer((req, res) => {
    const key = String(req.headers['x-api-key'] ?? '');
    if (req.url?.startsWith('/api/v1/integrations/zapier/events') && key === RECOGNISABLE_KEY) {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"data":[]}');
      return;
    }
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end(`Nothing here for ${key}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const json = path.join(dir, 'echo.json');
  try {
    const ran = await runMain(['--base-url', url, '--api-key', RECOGNISABLE_KEY, '--json', json]);
    expect(ran.code).toBe(EXIT.differs);
    const written = `${ran.out}${ran.err}${readFileSync(json, 'utf8')}`;
    expect(written).toContain('Nothing here for [redacted]');
    expect(written).not.toContain(RECOGNISABLE_KEY);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

it('reads --flag=value as well as --flag value', () => {
  expect(parseArgs(['--base-url=https://api.example.com/', '--api-key', 'k', '--event=abc'])).toEqual({
    help: false,
    args: { baseUrl: 'https://api.example.com', apiKey: 'k', eventId: 'abc' },
  });
  expect(parseArgs(['--help'])).toEqual({ help: true });
});

describe('as a process', () => {
  const spawnCli = (args: string[]) =>
    new Promise<Ran>((resolve) => {
      const child = spawn(
        path.join(ROOT, 'node_modules', '.bin', 'node'),
        ['--import', 'tsx', 'scripts/conformance.ts', ...args],
        {
          cwd: ROOT,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let out = '';
      let err = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (err += c.toString()));
      child.on('close', (code) => resolve({ code: code ?? -1, out, err }));
    });

  it('exits 1 when a check differs and 2 when nothing answers, the key never printed', async () => {
    const differs = await withSandbox(['bare-arrays'], (sandbox) =>
      spawnCli(['--base-url', sandbox.url, '--api-key', NORTHWIND.apiKey]),
    );
    expect(differs.code).toBe(1);
    expect(differs.out).toMatch(/differs +envelope/);
    expect(`${differs.out}${differs.err}`).not.toContain(NORTHWIND.apiKey);

    const unreachable = await spawnCli([
      '--base-url',
      `http://127.0.0.1:${await closedPort()}`,
      '--api-key',
      RECOGNISABLE_KEY,
    ]);
    expect(unreachable.code).toBe(2);
    expect(unreachable.err).toMatch(/No answer from/);
    expect(`${unreachable.out}${unreachable.err}`).not.toContain(RECOGNISABLE_KEY);
  });
});
