/**
 * `npm run test:dialects -- [jest paths…]`: the tests played in each dialect the app can be taught, one run of
 * jest per dialect: every switch at once (`every`), then each switch of `TAUGHT_SWITCHES` alone
 * (test/support/serviceDialect.ts), each with `CONNECT_TEST_DIALECT` set (docs/developers.md, "The suite in another
 * dialect"). Without paths it plays the nock unit tests of the wire (test/connect, test/account, test/creates,
 * test/searches, test/triggers, test/webhooks). `--only a,b` plays those dialects alone (`--only every`).
 *
 * Prints one line per dialect (tests passed, failed and skipped, wall time), then the failing tests of each; the
 * exit code is 1 if any dialect failed. The runs take both cores one after the other: run it on a quiet machine.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DIALECT_ENV, TAUGHT_SWITCHES } from './serviceDialect';

const UNIT_PATHS = [
  'test/connect',
  'test/account',
  'test/creates',
  'test/searches',
  'test/triggers',
  'test/webhooks',
];

interface JestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  testResults: Array<{ name: string; assertionResults: Array<{ fullName: string; status: string }> }>;
}

const paths: string[] = [];
let only: string[] | null = null;
for (const [i, arg] of process.argv.entries()) {
  if (i < 2 || process.argv[i - 1] === '--only') continue;
  if (arg === '--only') only = (process.argv[i + 1] ?? '').split(',').filter(Boolean);
  else paths.push(arg);
}
const dialects = ['every', ...TAUGHT_SWITCHES].filter((d) => only === null || only.includes(d));
if (dialects.length === 0) {
  console.error(`--only: none of ${only?.join(', ')} is a dialect (every, ${TAUGHT_SWITCHES.join(', ')})`);
  process.exit(2);
}

const dir = mkdtempSync(join(tmpdir(), 'dialects-'));
const failures: string[] = [];
let failed = false;
for (const dialect of dialects) {
  const out = join(dir, `${dialect}.json`);
  const started = Date.now();
  const run = spawnSync(
    'npx',
    ['jest', '--silent', '--json', '--outputFile', out, ...(paths.length > 0 ? paths : UNIT_PATHS)],
    {
      env: { ...process.env, [DIALECT_ENV]: dialect },
      stdio: ['ignore', 'ignore', 'pipe'],
      encoding: 'utf8',
    },
  );
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  let report: JestReport;
  try {
    report = JSON.parse(readFileSync(out, 'utf8')) as JestReport;
  } catch {
    failed = true;
    console.log(`${dialect.padEnd(22)} did not run (exit ${run.status}): ${run.stderr.slice(-400)}`);
    continue;
  }
  const { numPassedTests: passed, numFailedTests: failing, numPendingTests: skipped } = report;
  if (failing > 0 || run.status !== 0) failed = true;
  console.log(
    `${dialect.padEnd(22)} ${failing === 0 && run.status === 0 ? 'pass' : 'FAIL'}  ${passed} passed, ${failing} failed, ${skipped} skipped  (${seconds} s)`,
  );
  for (const file of report.testResults)
    for (const test of file.assertionResults)
      if (test.status === 'failed')
        failures.push(`${dialect}: ${file.name.replace(`${process.cwd()}/`, '')} › ${test.fullName}`);
}
rmSync(dir, { recursive: true, force: true });
if (failures.length > 0) console.log(`\nFailing:\n${failures.join('\n')}`);
process.exit(failed ? 1 : 0);
