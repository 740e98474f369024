/**
 * `npm run recipe:check`: the recipe "A new instant trigger for a kind outside `EVENT_*`" of
 * docs/developers.md, followed literally. The committed project (`git archive HEAD`) is copied to a temp
 * folder, `scripts/recipes/registration-cancelled.patch` (the recipe's change) is applied there, and:
 * - the files the patch touches must be exactly the files of the recipe's table;
 * - the typecheck and every test file the recipe names must pass in the copy.
 * Run by hand before a release (it takes a few minutes); exit code 0 when the recipe holds, 1 otherwise.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');
const PATCH = path.join(ROOT, 'scripts', 'recipes', 'registration-cancelled.patch');
const HEADING = '### A new instant trigger for a kind outside `EVENT_*`';

/** The recipe's section of docs/developers.md: from its heading to the next heading. */
export const recipeSection = (guide: string): string => {
  const start = guide.indexOf(HEADING);
  if (start < 0) throw new Error(`docs/developers.md has no section "${HEADING}"`);
  const next = guide.indexOf('\n### ', start + HEADING.length);
  return guide.slice(start, next < 0 ? undefined : next);
};

/** The files of the recipe's table: the first cell of each row, without "(new)". */
export const tableFiles = (section: string): string[] =>
  section
    .split('\n')
    .map((line) => /^\|\s*`([^`]+)`/.exec(line)?.[1])
    .filter((file): file is string => file !== undefined && file !== 'File');

/** The test files the recipe names anywhere in its section. */
export const namedTests = (section: string): string[] => [
  ...new Set([...section.matchAll(/`(test\/[\w/.-]+\.test\.ts)`/g)].map((m) => m[1] as string)),
];

/** The files a unified diff touches. */
export const patchFiles = (patch: string): string[] => [
  ...new Set([...patch.matchAll(/^\+\+\+ b\/(\S+)$/gm)].map((m) => m[1] as string)),
];

const run = (cwd: string, command: string, args: string[]): boolean => {
  console.log(`\n$ ${command} ${args.join(' ')}`);
  return (
    spawnSync(command, args, { cwd, stdio: 'inherit', env: { ...process.env, FORCE_COLOR: '0' } }).status ===
    0
  );
};

const main = (): void => {
  const section = recipeSection(readFileSync(path.join(ROOT, 'docs', 'developers.md'), 'utf8'));
  const patch = readFileSync(PATCH, 'utf8');
  const listed = tableFiles(section).sort();
  const touched = patchFiles(patch).sort();
  const missing = touched.filter((f) => !listed.includes(f));
  const unused = listed.filter((f) => !touched.includes(f));
  if (missing.length || unused.length) {
    if (missing.length)
      console.error(`The patch touches files the recipe does not list: ${missing.join(', ')}`);
    if (unused.length) console.error(`The recipe lists files the patch does not touch: ${unused.join(', ')}`);
    process.exitCode = 1;
    return;
  }
  console.log(`The recipe's ${listed.length} files are the patch's.`);
  const copy = mkdtempSync(path.join(os.tmpdir(), 'recipe-'));
  try {
    execFileSync('sh', ['-c', `git -C "${ROOT}" archive HEAD | tar -x -C "${copy}"`]);
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
    if (!run(copy, 'git', ['apply', '--whitespace=nowarn', PATCH])) {
      console.error(
        'The patch no longer applies: follow the recipe again and refresh it (see docs/developers.md).',
      );
      process.exitCode = 1;
      return;
    }
    const tests = namedTests(section);
    const ok =
      run(copy, 'npm', ['run', 'typecheck']) &&
      run(copy, 'npx', ['prettier', '--check', ...touched]) &&
      run(copy, 'npx', ['jest', ...tests]);
    console.log(ok ? `\nThe recipe holds: ${tests.length} test files pass.` : '\nThe recipe does not hold.');
    if (!ok) process.exitCode = 1;
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
};

if (require.main === module) main();
