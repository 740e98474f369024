/**
 * CHANGELOG.md as `zapier-platform promote` reads it: the section of the package's version, dated, naming
 * every operation of the app with a change word, so Zapier knows what each version touches.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { App } from './support/app';

// The CLI's own reader of the changelog (what `promote` sends to Zapier).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { getVersionChangelog } = require('zapier-platform-cli/src/utils/changelog') as {
  getVersionChangelog: (
    version: string,
    appDir: string,
  ) => Promise<{ changelog: string; appMetadata?: Array<{ action_type: string; action_key: string }> }>;
};

const ROOT = path.resolve(__dirname, '..');
const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
const ACTION_TYPES = { triggers: 'read', searches: 'search', creates: 'write' } as const;

it("has a dated section for the package's version", () => {
  const text = readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8');
  expect(text).toMatch(new RegExp(`^## ${version.replace(/\./g, '\\.')} — \\d{4}-\\d{2}-\\d{2}$`, 'm'));
});

it('names every operation of the app in that section, as promote reads it', async () => {
  const { changelog, appMetadata = [] } = await getVersionChangelog(version, ROOT);
  expect(changelog.length).toBeGreaterThan(0);
  const named = new Set(appMetadata.map((m) => `${m.action_type}/${m.action_key}`));
  const operations = Object.entries(ACTION_TYPES).flatMap(([group, type]) =>
    Object.keys(App[group as keyof typeof ACTION_TYPES] ?? {}).map((key) => `${type}/${key}`),
  );
  expect(operations.length).toBeGreaterThan(10);
  expect(operations.filter((operation) => !named.has(operation))).toEqual([]);
});
