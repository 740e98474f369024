/**
 * The recipe for a new instant trigger outside `EVENT_*` and its patch agree (what `npm run recipe:check`
 * checks first, before it applies the patch to a copy and runs the tests the recipe names).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { namedTests, patchFiles, recipeSection, tableFiles } from '../../scripts/recipe-check';

const ROOT = path.resolve(__dirname, '..', '..');
const section = recipeSection(readFileSync(path.join(ROOT, 'docs', 'developers.md'), 'utf8'));
const patch = readFileSync(path.join(ROOT, 'scripts', 'recipes', 'registration-cancelled.patch'), 'utf8');

it('lists exactly the files the patch touches', () => {
  expect(tableFiles(section).sort()).toEqual(patchFiles(patch).sort());
});

it('names tests that exist, the forced ones among them', () => {
  const tests = namedTests(section);
  expect(tests).toEqual(
    expect.arrayContaining([
      'test/webhooks/trigger.test.ts',
      'test/e2e/workbench.test.ts',
      'test/words.test.ts',
    ]),
  );
  for (const test of tests) expect(() => readFileSync(path.join(ROOT, test))).not.toThrow();
});

it('reads a table and a diff as the guide and git write them', () => {
  expect(tableFiles('| File | Change |\n| --- | --- |\n| `a/b.ts` (new) | x |\n| `c.md` | y |')).toEqual([
    'a/b.ts',
    'c.md',
  ]);
  expect(patchFiles('--- a/x.ts\n+++ b/x.ts\n@@\n--- /dev/null\n+++ b/y.ts\n')).toEqual(['x.ts', 'y.ts']);
});
