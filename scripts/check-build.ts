/**
 * The built-artifact test: builds the zip Zapier would run (scripts/zip.ts), unzips it into a temporary folder and calls the
 * authentication test and the event dropdown through the unzipped `zapierwrapper.js` handler, in a fresh
 * Node process, against a local HTTP server. It proves that what Zapier loads (index.js with no `.default`
 * unwrap, every traced file present) works, that the zip holds production dependencies only, that the cold
 * load and `definition` call run no Intl formatter or collator, and that every operation's sample in the
 * zip equals what the mappers build (the bundle carries samples as values: scripts/build.ts).
 */
import AdmZip from 'adm-zip';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import App from '../index';
import { bundleApp } from './build';
import { ROOT, appZipSource, buildZip, productionPackages } from './zip';
import { paths } from '../src/connect';
import { API_KEY_HEADER } from '../src/connect/testing';
import { wireError, wireList } from '../sandbox/wire';

const KEY = 'sk_build_check_key_7e1d';
const EVENT = {
  id: '7d0c6f1e-2f6a-4a7e-9a51-3f0e1b2c4d5e',
  slug: 'techweek-2026',
  title: 'TechWeek 2026',
  status: 'published',
  startsAt: '2026-12-01T08:00:00.000Z',
  createdAt: '2026-10-01T09:12:44.512Z',
};

interface AppDefinition {
  [kind: string]: unknown;
}

/** Every operation's path (`triggers.new_event`) and static sample in a serialized definition. */
const operations = (definition: AppDefinition): Array<[string, unknown]> =>
  (['triggers', 'searches', 'creates'] as const).flatMap((kind) =>
    Object.entries((definition[kind] ?? {}) as Record<string, { operation?: { sample?: unknown } }>).map(
      ([key, operation]): [string, unknown] => [`${kind}.${key}`, operation.operation?.sample],
    ),
  );

const get = (app: object, path: string): { operation?: { sample?: unknown } } | undefined =>
  path
    .split('.')
    .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], app) as
    | { operation?: { sample?: unknown } }
    | undefined;

const jsonCopy = (value: unknown): unknown =>
  value === undefined ? undefined : JSON.parse(JSON.stringify(value));

const fail = (message: string): never => {
  console.error(`build check failed: ${message}`);
  process.exit(1);
};

const main = async () => {
  console.log('build check: the bundle, then zapier-platform build on production dependencies only');
  await bundleApp();
  const { zipPath } = buildZip(appZipSource(), join(ROOT, 'build', 'build.zip'));
  if (!existsSync(zipPath)) fail('build/build.zip was not written');

  const dir = mkdtempSync(join(tmpdir(), 'connect-zip-'));
  // The events list (authentication test, dropdown) and the company's orders (the test's Company ID check).
  const server = createServer((req, res) => {
    const path = req.url?.split('?')[0];
    const data = { [paths.events()]: [EVENT], [paths.orders()]: [] }[path ?? ''];
    const ok = req.headers[API_KEY_HEADER.toLowerCase()] === KEY && data !== undefined;
    res.writeHead(ok ? 200 : 401, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(ok ? wireList(data) : wireError('INVALID_API_KEY', 'no')));
  });
  try {
    const zip = new AdmZip(zipPath);
    zip.extractAllTo(dir, true);
    const files = zip.getEntries().length;
    if (!existsSync(join(dir, 'zapierwrapper.js'))) fail('zapierwrapper.js is missing from the zip');
    const production = new Set(productionPackages(appZipSource().packageJson.dependencies ?? {}, ROOT));
    const stray = new Set(
      zip
        .getEntries()
        .map((entry) => /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(entry.entryName)?.[1])
        .filter((pkg): pkg is string => pkg !== undefined && !production.has(pkg)),
    );
    if (stray.size)
      fail(`the zip holds packages that are not production dependencies: ${[...stray].join(', ')}`);

    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // The first call loads the app and answers the definition, as on a cold start; it must run no Intl
    // formatter or collator (samples are bundled as values). Later calls may.
    const probe = `
      let intlCalls = [];
      const count = (name) => (target) => new Proxy(target, {
        construct: (t, args, n) => (intlCalls.push(name), Reflect.construct(t, args, n)),
        apply: (t, self, args) => (intlCalls.push(name), Reflect.apply(t, self, args)),
      });
      for (const name of ['Collator', 'DateTimeFormat', 'DisplayNames', 'ListFormat', 'NumberFormat', 'PluralRules', 'RelativeTimeFormat', 'Segmenter']) {
        if (Intl[name]) Intl[name] = count('Intl.' + name)(Intl[name]);
      }
      for (const [proto, names] of [[String.prototype, ['localeCompare', 'toLocaleLowerCase', 'toLocaleUpperCase']], [Number.prototype, ['toLocaleString']], [Date.prototype, ['toLocaleString', 'toLocaleDateString', 'toLocaleTimeString']]]) {
        for (const name of names) proto[name] = count(name)(proto[name]);
      }
      const { handler } = require('./zapierwrapper.js');
      const bundle = { authData: { apiKey: ${JSON.stringify(KEY)}, baseUrl: ${JSON.stringify(baseUrl)}, companyId: 'cmp_build' } };
      (async () => {
        const definition = await handler({ command: 'definition', bundle: {} });
        const coldIntlCalls = [...intlCalls];
        const auth = await handler({ command: 'execute', method: 'authentication.test', bundle });
        const label = await handler({ command: 'execute', method: 'authentication.connectionLabel', bundle: { ...bundle, inputData: auth.results } });
        const events = await handler({ command: 'execute', method: 'triggers.event_list.operation.perform', bundle });
        require('fs').writeFileSync('probe-result.json', JSON.stringify({ auth: auth.results, label: label.results, events: events.results, definition: definition.results, coldIntlCalls }));
      })().catch((error) => { console.error(error && error.message); process.exit(1); });
    `;
    writeFileSync(join(dir, 'probe.js'), probe);
    // Asynchronous: the local server answers from this process's event loop while the probe runs.
    const child = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const proc = spawn(process.execPath, ['probe.js'], {
        cwd: dir,
        env: { ...process.env, LOG_TO_STDOUT: '' },
      });
      let stdout = '';
      let stderr = '';
      proc.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      proc.on('close', (status) => resolve({ status, stdout, stderr }));
    });
    if (child.status !== 0) fail(`the unzipped handler failed: ${child.stderr.trim()}`);
    const result = readFileSync(join(dir, 'probe-result.json'), 'utf8');
    const out = JSON.parse(result) as {
      auth: { host: string; latestEventTitle: string };
      label: string;
      events: Array<{ id: string; label: string }>;
      definition: AppDefinition;
      coldIntlCalls: string[];
    };
    if (out.coldIntlCalls.length) {
      fail(`loading the app and answering the definition ran ${[...new Set(out.coldIntlCalls)].join(', ')}`);
    }
    const wrong = operations(out.definition).filter(
      ([path, sample]) => !isDeepStrictEqual(sample, jsonCopy(get(App, path)?.operation?.sample)),
    );
    if (wrong.length)
      fail(`samples differ from the mappers' output: ${wrong.map(([path]) => path).join(', ')}`);
    if (out.auth.latestEventTitle !== EVENT.title) fail(`unexpected auth test result ${result}`);
    if (!out.label.startsWith('Company cmp_build on 127.0.0.1')) fail(`unexpected label ${out.label}`);
    if (out.events[0]?.id !== EVENT.id) fail(`unexpected dropdown ${result}`);
    if (`${result}${child.stdout}${child.stderr}`.includes(KEY)) fail('the API key appears in the output');
    console.log(
      `build check: ${files} files in build.zip; ${operations(out.definition).length} operations' samples as the mappers build them, no Intl call on load; the unzipped handler ran the authentication test ("${out.label}") and the event dropdown ("${out.events[0]?.label}")`,
    );
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
};

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
