/**
 * The README's "Trying it by hand" works as written: every polling trigger, search and create of the app is
 * there, and each `zapier-platform invoke` line, with its input as printed, runs against a fresh sandbox
 * (through the same functions `invoke` calls, with the `.env` the sandbox writes) after the `simulate` steps
 * the section asks for.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startSandbox, type RunningSandbox } from '../../sandbox';
import { envLines } from '../../sandbox/cli';
import { functionOf, callable, type Group } from '../../scripts/lib/app';
import { parseEnv } from '../../scripts/lib/workbench';
import { simulate } from '../../scripts/simulate';
import { App, appTester } from '../support/app';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { useGenerousTimeLimits } from '../support/limits';
import { playsAnotherDialect } from '../support/serviceDialect';

useGenerousTimeLimits();

const README = readFileSync(path.resolve(__dirname, '..', '..', 'README.md'), 'utf8');
const section = (() => {
  const start = README.indexOf('## Trying it by hand');
  const end = README.indexOf('\n## ', start + 1);
  return README.slice(start, end < 0 ? undefined : end);
})();

interface Invocation {
  line: string;
  type: 'auth' | 'trigger' | 'search' | 'create';
  key: string;
  input: Record<string, unknown>;
}

const invocations: Invocation[] = [
  ...section.matchAll(/^npx zapier-platform invoke (\w+) (\w+) --non-interactive(?: -i '(.*)')?$/gm),
].map((m) => ({
  line: m[0],
  type: m[1] as Invocation['type'],
  key: m[2] as string,
  input: m[3] ? (JSON.parse(m[3]) as Record<string, unknown>) : {},
}));

const GROUPS: Record<Exclude<Invocation['type'], 'auth'>, Group> = {
  trigger: 'triggers',
  search: 'searches',
  create: 'creates',
};

it('has the section, with an invoke line for every polling trigger, search and create', () => {
  expect(section.startsWith('## Trying it by hand')).toBe(true);
  const shown = (type: string) => new Set(invocations.filter((i) => i.type === type).map((i) => i.key));
  const polling = Object.entries(App.triggers ?? {})
    .filter(([, t]) => (t.operation as { type?: string }).type !== 'hook')
    .map(([key]) => key);
  for (const key of polling)
    expect({ trigger: key, shown: shown('trigger').has(key) }).toEqual({ trigger: key, shown: true });
  for (const key of Object.keys(App.searches ?? {}))
    expect({ search: key, shown: shown('search').has(key) }).toEqual({ search: key, shown: true });
  for (const key of Object.keys(App.creates ?? {}))
    expect({ create: key, shown: shown('create').has(key) }).toEqual({ create: key, shown: true });
  expect(section).toContain('npm run sandbox');
  expect(section).toContain('npm run build');
  expect(section).toMatch(/npm run listen -- new_registration/);
  expect(section).toMatch(/npm run simulate -- register/);
});

// The invoke lines run the app in processes of their own, which only src/connect/dialect.ts can teach: not
// played in another dialect (`CONNECT_TEST_DIALECT=every`, or any switch).
(playsAnotherDialect() ? describe.skip : describe)('against a fresh sandbox', () => {
  let sandbox: RunningSandbox;
  let dir: string;
  let envFile: string;
  const saved: Record<string, string | undefined> = {};
  let authData: Record<string, string>;

  beforeAll(async () => {
    sandbox = await startSandbox();
    dir = mkdtempSync(path.join(os.tmpdir(), 'readme-'));
    envFile = path.join(dir, '.env');
    writeFileSync(envFile, `${envLines(sandbox.url, 1).join('\n')}\n`);
    // What `invoke` does with .env: authData_* lines become the connection, the others the environment.
    authData = {};
    for (const [key, value] of Object.entries(parseEnv(readFileSync(envFile, 'utf8')))) {
      if (key.startsWith('authData_')) authData[key.slice('authData_'.length)] = value;
      else {
        saved[key] = process.env[key];
        process.env[key] = value;
      }
    }
  });

  afterAll(async () => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs every invoke line as written, after the simulate steps it names', async () => {
    const printed: string[] = [];
    const steps = [...section.matchAll(/`npm run simulate -- ((?:register|pay)[^`]*)`/g)].map(
      (m) => m[1] as string,
    );
    expect(steps[0]).toMatch(/^register .*--email ada@example\.com/);
    for (const step of steps) await simulate(step.split(/\s+/), (line) => printed.push(line), envFile);
    const adaId = /Registered Ada Lovelace <ada@example\.com> .*: (sub_\w+) \(approved\)/.exec(
      printed.join('\n'),
    )?.[1];
    expect(adaId).toBeDefined();

    expect(invocations.length).toBeGreaterThanOrEqual(15);
    for (const invocation of invocations) {
      const input = JSON.parse(
        JSON.stringify(invocation.input).replace('<registration ID>', adaId as string),
      );
      const fn =
        invocation.type === 'auth'
          ? callable(App.authentication?.test, 'the authentication test')
          : functionOf(GROUPS[invocation.type], invocation.key);
      let result: unknown;
      try {
        result = await appTester(fn, {
          authData,
          inputData: input,
          meta: { isLoadingSample: false, isFillingDynamicDropdown: false, isPopulatingDedupe: false },
        });
      } catch (error) {
        throw new Error(
          `${invocation.line}\nfailed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      const items = Array.isArray(result) ? result : [result];
      expect({ line: invocation.line, nothing: items.length === 0 }).toEqual({
        line: invocation.line,
        nothing: false,
      });
    }
  });
});
