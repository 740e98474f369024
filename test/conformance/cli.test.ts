/**
 * `npm run conformance`: exit codes, the printed report and the JSON file, usage and connection errors said
 * plainly before anything runs, and the API key never written anywhere.
 */
import { spawn } from 'node:child_process';
import { captureDelivery } from '../support/capture';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type Deviation, type RunningSandbox, SEED_TENANTS, startSandbox } from '../../sandbox';
import { EXIT, main } from '../../scripts/conformance';
import { MAX_ANSWER_BYTES } from '../../scripts/conformance/http';
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
    let secret = '';
    const ran = await withSandbox([], async (sandbox) => {
      const captured = await captureDelivery(sandbox);
      secret = captured.secret;
      return runMain([
        '--base-url',
        sandbox.url,
        '--api-key',
        NORTHWIND.apiKey,
        '--company',
        NORTHWIND.companyId,
        '--json',
        json,
        '--delivery',
        captured.delivery,
        '--secret',
        secret,
      ]);
    });
    expect(ran.code).toBe(EXIT.clean);
    expect(ran.out).toMatch(/^Connection$/m);
    expect(ran.out).toMatch(/^Submissions \(GET \/api\/v1\/integrations\/zapier\/submissions\)$/m);
    expect(ran.out).toMatch(/Summary: \d+ checks: \d+ holds, 1 tolerated, 0 differs, 0 unchecked\./);
    expect(ran.out).toMatch(/signature +A delivery is signed/);
    const file = JSON.parse(readFileSync(json, 'utf8')) as { checks: Array<Record<string, unknown>> };
    expect(file.checks.length).toBeGreaterThan(30);
    for (const check of file.checks) {
      expect(Object.keys(check)).toEqual(['id', 'assumption', 'status', 'detail']);
      expect(['holds', 'tolerated']).toContain(check.status);
    }
    expect(`${ran.out}${ran.err}${readFileSync(json, 'utf8')}`).not.toContain(NORTHWIND.apiKey);
    expect(`${ran.out}${ran.err}${readFileSync(json, 'utf8')}`).not.toContain(secret);
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
      /"ftp:\/\/api\.example\.com" cannot be used: it must start with https:\/\/, or with http:\/\/ \(which the app itself accepts only for a loopback address such as http:\/\/127\.0\.0\.1:4010\)/,
    ],
    [
      'a key given without --api-key',
      ['--base-url', 'https://api.example.com', RECOGNISABLE_KEY],
      /argument 3 is not an option \(it is not shown: it may be a key\); every value follows its option, as in --api-key KEY/,
    ],
    [
      'a key given after a mistyped option',
      ['--base-url', 'https://api.example.com', `--apikey=${RECOGNISABLE_KEY}`],
      /unknown option --apikey\n/,
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
    [
      'a delivery without its secret',
      ['--base-url', 'https://api.example.com', '--api-key', RECOGNISABLE_KEY, '--delivery', __filename],
      /--delivery and --secret go together/,
    ],
    [
      'a delivery that is a folder',
      [
        '--base-url',
        'https://api.example.com',
        '--api-key',
        RECOGNISABLE_KEY,
        '--delivery',
        __dirname,
        '--secret',
        'whsec_x',
      ],
      /--delivery .*: no such file/,
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

/** A server on 127.0.0.1 answering with `handle`; closed by `use`'s end. */
const withServer = async <T>(
  handle: http.RequestListener,
  use: (url: string, server: http.Server) => Promise<T>,
): Promise<T> => {
  const server = http.createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await use(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, server);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
};

describe('the key', () => {
  it('is blanked before any excerpt is cut: not even a part of it shows when the service echoes it', async () => {
    // Every answer but the events list echoes the key after a padding that changes with each request, so
    // that the key straddles every cut the report makes (60, 80, 120 and 200 characters).
    let count = 0;
    const json = path.join(dir, 'echo.json');
    const event = {
      id: 'e1',
      slug: 's1',
      title: 'T',
      status: 'published',
      createdAt: new Date().toISOString(),
    };
    const ran = await withServer(
      (req, res) => {
        const key = String(req.headers['x-api-key'] ?? RECOGNISABLE_KEY);
        if (req.url?.startsWith('/api/v1/integrations/zapier/events?')) {
          res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ data: [event] }));
          return;
        }
        count++;
        const pad = 'x'.repeat((count * 7) % 130);
        const body =
          count % 2
            ? `Nothing here for ${pad} ${key}`
            : JSON.stringify({ error: { code: 'NOPE', message: `${pad} ${key}` }, echo: key });
        res.writeHead([404, 200, 500, 400][count % 4] as number, { 'Content-Type': 'text/plain' }).end(body);
      },
      (url) => runMain(['--base-url', url, '--api-key', RECOGNISABLE_KEY, '--json', json]),
    );
    expect(ran.code).toBe(EXIT.differs);
    const written = `${ran.out}${ran.err}${readFileSync(json, 'utf8')}`;
    expect(written).toContain('[redacted]');
    expect(written).not.toContain(RECOGNISABLE_KEY.slice(0, 12));
    expect(count).toBeGreaterThanOrEqual(8);
  });

  it('when short, is blanked as a whole word only: other text that contains it stays whole', async () => {
    const ran = await withServer(
      (req, res) => {
        if (req.url?.startsWith('/api/v1/integrations/zapier/events')) {
          res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"data":[]}');
          return;
        }
        res
          .writeHead(404, { 'Content-Type': 'text/plain' })
          .end(`Nothing here for ${String(req.headers['x-api-key'])}`);
      },
      async (url) => ({ url, ran: await runMain(['--base-url', url, '--api-key', '127']) }),
    );
    expect(ran.ran.out).toContain(`Conformance of ${ran.url} to`);
    expect(ran.ran.out).toContain('Nothing here for [redacted]');
    expect(ran.ran.out).not.toContain('[redacted].0.0.1');

    const port = await closedPort();
    const refused = await runMain(['--base-url', `http://127.0.0.1:${port}`, '--api-key', '127']);
    expect(refused.err).toContain(`No answer from http://127.0.0.1:${port} for GET`);
  });
});

describe('answers the kit cannot use', () => {
  it('stops reading an endless answer at its limit, says so and exits 2', async () => {
    // Bounded: the server stops after 4 times the kit's limit, so the test ends even if the kit did not.
    const limit = MAX_ANSWER_BYTES * 4;
    let written = 0;
    const chunk = Buffer.from(`${'{"id":"x","note":"endless"},'.repeat(2340)}`);
    const ran = await withServer(
      (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.write('{"data":[');
        const pump = () => {
          while (written < limit) {
            written += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end('{}]}');
        };
        res.on('close', () => (written = Math.max(written, 0)));
        pump();
      },
      (url) => runMain(['--base-url', url, '--api-key', RECOGNISABLE_KEY]),
    );
    expect(ran.code).toBe(EXIT.stopped);
    expect(ran.err).toMatch(
      /GET \/api\/v1\/integrations\/zapier\/events answered more than 64 MiB, where the kit stops reading/,
    );
    expect(ran.err).toContain('Nothing was checked.');
    expect(written).toBeLessThan(limit);
  });

  it('reports an identifier that cannot be put in an address (..) as a difference, and finishes its report', async () => {
    const now = Date.now();
    const event = (id: string, slug: string, ago: number) => ({
      id,
      slug,
      title: `Event ${slug}`,
      status: 'published',
      createdAt: new Date(now - ago).toISOString(),
    });
    const send = (res: http.ServerResponse, status: number, body: unknown) =>
      res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    const ran = await withServer(
      (req, res) => {
        const url = new URL(req.url ?? '/', 'http://localhost');
        if (url.pathname === '/api/v1/integrations/zapier/events') {
          return send(res, 200, { data: [event('..', '..', 1000), event('evt-ok', 'ok', 2000)] });
        }
        if (url.pathname === '/api/v1/public/events') {
          return send(res, 200, { data: [event('..', '..', 1000)], page: 1, limit: 20, total: 1 });
        }
        if (url.pathname === '/connect/v1/events/evt-ok/floor-plans') {
          return send(res, 200, { data: [{ id: '..', name: 'Hall', booths: [] }] });
        }
        return send(res, 404, { error: { code: 'NOT_FOUND', message: 'Not found' } });
      },
      (url) =>
        runMain(['--base-url', url, '--api-key', RECOGNISABLE_KEY, '--json', path.join(dir, 'dots.json')]),
    );
    expect(ran.code).toBe(EXIT.differs);
    expect(ran.err).not.toMatch(/\n\s+at /);
    expect(ran.out).toMatch(/Summary: \d+ checks:/);
    const checks = new Map(
      (
        JSON.parse(readFileSync(path.join(dir, 'dots.json'), 'utf8')) as {
          checks: Array<{ id: string; status: string; detail: string }>;
        }
      ).checks.map((c) => [c.id, c]),
    );
    expect(checks.get('events.envelope')).toMatchObject({
      status: 'differs',
      detail: expect.stringContaining('(first: id "..": ".." would point to another address)'),
    });
    expect(checks.get('catalog.envelope')?.status).toBe('differs');
    expect(checks.get('floorPlans.one')).toMatchObject({
      status: 'differs',
      detail: expect.stringContaining('The plan\'s id ".." cannot be put in an address'),
    });
  });

  it('says in words that an https:// address is answered by a plain HTTP server', async () => {
    const ran = await withServer(
      (_req, res) => res.end('plain'),
      (url) => runMain(['--base-url', url.replace('http:', 'https:'), '--api-key', RECOGNISABLE_KEY]),
    );
    expect(ran.code).toBe(EXIT.stopped);
    expect(ran.err).toMatch(
      /the server at 127\.0\.0\.1:\d+ does not speak HTTPS \(it answers like a plain HTTP server\): use the service's https:\/\/ address, or http:\/\/ for a sandbox on this machine/,
    );
    expect(ran.err).not.toMatch(/SSL routines|packet length|openssl/i);
  });
});

it('reads --flag=value as well as --flag value', () => {
  expect(parseArgs(['--base-url=https://api.example.com/', '--api-key', 'k', '--event=abc'])).toEqual({
    help: false,
    args: { baseUrl: 'https://api.example.com', apiKey: 'k', eventId: 'abc' },
  });
  expect(parseArgs(['--help'])).toEqual({ help: true });
});

it('reads --probe-turn-on as a switch without a value, and leaves it off otherwise', () => {
  expect(parseArgs(['--base-url', 'https://api.example.com', '--probe-turn-on', '--api-key', 'k'])).toEqual({
    help: false,
    args: { baseUrl: 'https://api.example.com', apiKey: 'k', probeTurnOn: true },
  });
  const plain = parseArgs(['--base-url', 'https://api.example.com', '--api-key', 'k']);
  expect(plain.help === false && plain.args.probeTurnOn).toBeFalsy();
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
