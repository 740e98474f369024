/**
 * `npm run build`: the app as one CommonJS file, `dist/index.js`, which the root `index.js` loads.
 *
 * esbuild bundles `index.ts` and everything it imports from `src/`, plus zod (only the parts the schemas
 * use: its ESM build lets unused validators and the 45 other locales drop out). zapier-platform-core stays
 * external: Zapier's wrapper loads it from `node_modules` before the app. Type checking is `npm run
 * typecheck`; esbuild only strips types.
 *
 * Static samples are bundled as values: this script loads the app (as the tests do), so every
 * `staticSample(key, build)` runs its mapper once here, and the bundle gets, in place of
 * src/mappers/sample.ts, a module returning those values. Loading the bundle then runs no mapper (and no
 * Intl formatter or collator). scripts/check-build.ts compares the zip's samples with the mappers' output.
 */
import { type Plugin, build } from 'esbuild';
import { rmSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import '../index';
import { builtSamples } from '../src/mappers/sample';

const ROOT = join(__dirname, '..');
const OUT = join(ROOT, 'dist', 'index.js');

/** The samples the mappers built while the app loaded, as JSON (each must survive the round trip intact). */
const sampleValues = (): Record<string, unknown> => {
  const values: Record<string, unknown> = {};
  for (const [key, value] of builtSamples()) {
    const copy: unknown = JSON.parse(JSON.stringify(value));
    if (!isDeepStrictEqual(copy, value))
      throw new Error(`The static sample "${key}" is not plain JSON data.`);
    values[key] = copy;
  }
  return values;
};

/** Replaces src/mappers/sample.ts in the bundle by a module that returns the built values. */
const staticSamples = (): Plugin => ({
  name: 'static-samples',
  setup(context) {
    context.onLoad({ filter: /[\\/]src[\\/]mappers[\\/]sample\.ts$/ }, () => ({
      loader: 'ts',
      contents: `
const SAMPLES: Record<string, unknown> = ${JSON.stringify(sampleValues())};
export const staticSample = <T>(key: string, _build: () => T): T => {
  if (!Object.hasOwn(SAMPLES, key)) throw new Error(\`The static sample "\${key}" was not built.\`);
  return SAMPLES[key] as T;
};
export const builtSamples = (): ReadonlyMap<string, unknown> => new Map(Object.entries(SAMPLES));
`,
    }));
  },
});

/**
 * Writes `dist/index.js` (emptying `dist/` first) and prints its size. `npm run build -- --out FILE` writes
 * the bundle to FILE instead and removes nothing else (the documents test builds a copy in a temp folder).
 */
export const bundleApp = async (outFile: string = OUT): Promise<void> => {
  rmSync(outFile === OUT ? dirname(OUT) : outFile, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ['index.ts'],
    outfile: outFile,
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'cjs',
    external: ['zapier-platform-core'],
    // Names stay readable in stack traces Zapier shows (identifiers are kept); whitespace and syntax are
    // minified, which cuts the bytes Node compiles at a cold start by a fifth.
    minifySyntax: true,
    minifyWhitespace: true,
    legalComments: 'none',
    logLevel: 'warning',
    metafile: true,
    plugins: [staticSamples()],
  });
  const used = Object.entries(Object.values(result.metafile.outputs)[0]?.inputs ?? {})
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([file]) => file);
  const fromZod = used.filter((file) => file.startsWith('node_modules/zod/')).length;
  const locales = used.filter((file) => /^node_modules\/zod\/.*\/locales\/(?!en\.js$)/.test(file));
  if (locales.length) {
    throw new Error(
      `The bundle holds ${locales.length} zod locales besides English: import zod as \`import * as z from 'zod'\` so unused parts drop out.`,
    );
  }
  console.log(
    `build: ${relative(ROOT, outFile)}, ${Math.round(statSync(outFile).size / 1024)} KiB from ${used.length - fromZod} app files and ${fromZod} zod modules; ${builtSamples().size} static samples`,
  );
};

if (require.main === module) {
  const at = process.argv.indexOf('--out');
  const outFile = at >= 0 && process.argv[at + 1] ? resolve(process.argv[at + 1] as string) : OUT;
  bundleApp(outFile).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
}
