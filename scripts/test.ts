/**
 * `npm test`: every check of the project, on both cores of a 2-core machine.
 *
 * 1. The build (`dist/index.js`), which the end-to-end tests and Zapier's validation load.
 * 2. Two lanes at once: jest (three workers on two cores, see jest.config.js; its output is printed as it runs, with a line
 *    every 20 s saying which files are running) and the static checks one after the other: typecheck,
 *    eslint, prettier, `zapier-platform validate`. Each check says in one line when it starts and how it
 *    ended; what it printed is held and shown after jest's, so the two never interleave.
 * 3. One line per stage with its result and wall time, then the failing tests last (name, file and line, the
 *    values that differed: `test/support/summary-reporter.js`); the exit code is 1 if any stage failed.
 *
 * Every stage runs even when an earlier one failed, so one run shows every problem. `npm test -- <jest
 * args>` passes the arguments to jest (the checks still run). `npm run check` (`--checks`) is the editor's
 * loop: typecheck beside eslint then prettier, no build, no jest, no validation.
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';

interface Stage {
  name: string;
  command: string;
  args: string[];
}

interface Outcome {
  name: string;
  ok: boolean;
  seconds: number;
  output: string;
}

// The checks keep what they found of each unchanged file in node_modules/.cache (by content, never by
// date), so a run after a small change checks the changed files again, not all 370; a fresh clone checks all.
const CACHE = 'node_modules/.cache';
// TypeScript 7, the native compiler (package `typescript7`): the same checks in a fraction of the CPU time.
// `typescript` (5.9) stays for typescript-eslint's parser, which needs its JavaScript API, and for the benches
// that emit JavaScript with `tsconfig.build.json`.
const TYPECHECK: Stage = {
  name: 'typecheck',
  command: 'node',
  args: [
    'node_modules/typescript7/bin/tsc',
    '-p',
    'tsconfig.json',
    '--noEmit',
    '--incremental',
    '--tsBuildInfoFile',
    `${CACHE}/typecheck.tsbuildinfo`,
  ],
};
const ESLINT: Stage = {
  name: 'eslint',
  command: 'eslint',
  args: ['.', '--cache', '--cache-location', `${CACHE}/eslint/`, '--cache-strategy', 'content'],
};
const PRETTIER: Stage = {
  name: 'prettier',
  command: 'prettier',
  args: ['--check', '.', '--log-level', 'warn', '--cache', '--cache-strategy', 'content'],
};
// The build stage has run: the CLI need not run `_zapier-build` again.
const VALIDATE: Stage = {
  name: 'validate',
  command: 'zapier-platform',
  args: ['validate', '--without-style', '--skip-build'],
};
const BUILD: Stage = { name: 'build', command: 'tsx', args: ['scripts/build.ts'] };

const ENV = {
  ...process.env,
  DISABLE_ZAPIER_ANALYTICS: '1',
  NO_UPDATE_NOTIFIER: '1',
  FORCE_COLOR: '0',
  // The reporter writes the failing tests to FAILURES; they are printed last, after the checks.
  TEST_FAILURES_HELD: '1',
};
const FAILURES = 'reports/jest-failures.txt';
/**
 * jest's workers with a larger young generation (V8's default semi-space is 16 MB): the tests that read
 * answers of several MB allocate fast, and spend about a tenth less CPU in the garbage collector so.
 */
const JEST_ENV = {
  ...ENV,
  NODE_OPTIONS: [process.env.NODE_OPTIONS, '--max-semi-space-size=64'].filter(Boolean).join(' '),
};

/** Runs one stage; `live` streams its output, otherwise it is kept for later. */
const run = (stage: Stage, live: boolean, env: NodeJS.ProcessEnv = ENV): Promise<Outcome> =>
  new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(stage.command, stage.args, {
      env,
      stdio: live ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    child.stdout?.on('data', (c: Buffer) => chunks.push(c));
    child.stderr?.on('data', (c: Buffer) => chunks.push(c));
    const done = (ok: boolean, extra = '') =>
      resolve({
        name: stage.name,
        ok,
        seconds: (Date.now() - started) / 1000,
        output: Buffer.concat(chunks).toString('utf8') + extra,
      });
    child.on('error', (error) => done(false, `${stage.command} could not start: ${error.message}\n`));
    child.on('close', (code) => done(code === 0));
  });

/** The stages one after the other, each run whatever the one before it did; `say` tells their progress. */
const inTurn = async (stages: readonly Stage[], say?: (line: string) => void): Promise<Outcome[]> => {
  const outcomes: Outcome[] = [];
  for (const stage of stages) {
    say?.(`${stage.name}: started`);
    const outcome = await run(stage, false);
    say?.(
      `${stage.name}: ${outcome.ok ? 'passed' : 'FAILED (its output comes after jest)'} in ${outcome.seconds.toFixed(1)} s`,
    );
    outcomes.push(outcome);
  }
  return outcomes;
};

/** Progress of the checks beside jest's output, one whole line at a time. */
const sayCheck = (line: string): void => {
  process.stderr.write(`checks: ${line}\n`);
};

const printHeld = (outcome: Outcome): void => {
  const text = outcome.output.trim();
  console.log(`\n── ${outcome.name}: ${outcome.ok ? 'passed' : 'FAILED'} ──`);
  if (text) console.log(text);
};

const main = async (): Promise<void> => {
  const started = Date.now();
  if (process.argv[2] === '--checks') {
    const [typecheck, lints] = await Promise.all([inTurn([TYPECHECK]), inTurn([ESLINT, PRETTIER])]);
    const checks = [...typecheck, ...lints];
    checks.forEach(printHeld);
    return finish(checks, started, 'npm run check');
  }
  const build = await run(BUILD, true);
  rmSync(FAILURES, { force: true });
  const [jest, checks] = await Promise.all([
    run({ name: 'jest', command: 'jest', args: process.argv.slice(2) }, true, JEST_ENV),
    inTurn([TYPECHECK, ESLINT, PRETTIER, VALIDATE], sayCheck),
  ]);
  checks.filter((check) => !check.ok).forEach(printHeld);
  finish([build, jest, ...checks], started);
  const failures = readFailures();
  if (failures) console.log(`\n${failures}`);
  else if (!jest.ok) console.log('\njest failed before any test failed: see its output above.');
};

const readFailures = (): string => {
  try {
    return readFileSync(FAILURES, 'utf8').trim();
  } catch {
    return '';
  }
};

const finish = (outcomes: Outcome[], started: number, title = 'npm test'): void => {
  console.log(`\n── ${title} ──`);
  for (const o of outcomes)
    console.log(`${o.ok ? 'passed' : 'FAILED'}  ${o.name.padEnd(10)} ${o.seconds.toFixed(1).padStart(6)} s`);
  console.log(`wall time ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (outcomes.some((o) => !o.ok)) process.exitCode = 1;
};

void main();
