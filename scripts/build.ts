/**
 * `npm run build`: the app as one CommonJS file, `dist/index.js`, which the root `index.js` loads.
 *
 * esbuild bundles `index.ts` and everything it imports from `src/`, plus zod (only the parts the schemas
 * use: its ESM build lets unused validators and the 45 other locales drop out). zapier-platform-core stays
 * external: Zapier's wrapper loads it from `node_modules` before the app. Type checking is `npm run
 * typecheck`; esbuild only strips types.
 */
import { build } from 'esbuild';
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');
const OUT = join(ROOT, 'dist', 'index.js');

/** Writes `dist/index.js` and prints its size. */
export const bundleApp = async (): Promise<void> => {
  rmSync(join(ROOT, 'dist'), { recursive: true, force: true });
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ['index.ts'],
    outfile: OUT,
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'cjs',
    external: ['zapier-platform-core'],
    // Names stay readable in stack traces Zapier shows; the file is small enough unminified.
    minifySyntax: true,
    legalComments: 'none',
    logLevel: 'warning',
    metafile: true,
  });
  const used = Object.entries(Object.values(result.metafile.outputs)[0]?.inputs ?? {})
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([file]) => file);
  const fromZod = used.filter((file) => file.startsWith('node_modules/zod/')).length;
  console.log(
    `build: dist/index.js, ${Math.round(statSync(OUT).size / 1024)} KiB from ${used.length - fromZod} app files and ${fromZod} zod modules`,
  );
};

if (require.main === module) {
  bundleApp().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
}
