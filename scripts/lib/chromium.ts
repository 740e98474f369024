/**
 * Which Chromium the browser test and `npm start` drive, in this order: the binary CHROMIUM_PATH names; a
 * system Chromium on PATH (`chromium`, `chromium-browser`, as Debian and Ubuntu install it); else the headless
 * Chromium that the `@sparticuz/chromium` devDependency ships inside its npm package. That last one is
 * unpacked once (a few seconds) into `node_modules/.cache/chromium/<version>/`, so on a machine with only
 * npm, `npm install` is the only step.
 */
import { execFile } from 'node:child_process';
import {
  accessSync,
  constants,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const NPM_CHROMIUM = '@sparticuz/chromium';

/** The names a system Chromium has on PATH. */
export const SYSTEM_CHROMIUM_NAMES = ['chromium', 'chromium-browser'] as const;

export type ChromiumSource = 'CHROMIUM_PATH' | 'system' | 'npm';

export interface FoundChromium {
  executablePath: string;
  source: ChromiumSource;
}

const isExecutableFile = (file: string): boolean => {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
};

/** The first `chromium` or `chromium-browser` on the PATH of `env`, or null. */
export const systemChromium = (env: NodeJS.ProcessEnv = process.env): string | null => {
  const dirs = (env.PATH ?? '').split(path.delimiter).filter((dir) => path.isAbsolute(dir));
  for (const dir of dirs) {
    for (const name of SYSTEM_CHROMIUM_NAMES) {
      const candidate = path.join(dir, name);
      if (isExecutableFile(candidate)) return candidate;
    }
  }
  return null;
};

/** The npm package's entry file and version, or null when it is not installed. */
const npmPackage = (): { entry: string; version: string } | null => {
  let entry: string;
  try {
    entry = require.resolve(NPM_CHROMIUM);
  } catch {
    return null;
  }
  // The entry is <package>/build/index.js; the package exports no other file, so its package.json is read
  // from the folder.
  const manifest = path.resolve(path.dirname(entry), '..', 'package.json');
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
  return { entry, version };
};

/** `node_modules/.cache/chromium`: beside the package, wherever node_modules is. */
const defaultCacheDir = (entry: string): string => {
  const packageDir = path.resolve(path.dirname(entry), '..');
  return path.resolve(packageDir, '..', '..', '.cache', 'chromium');
};

// The package is an ES module, and unpacks into the system's temporary folder: it runs in a child Node
// process whose TMPDIR is a private folder, so that the unpacked browser is never half-written where
// another run looks (test runners and `npm start` may start at once).
const UNPACK = `const { default: Chromium } = await import(process.argv[1]);
process.stdout.write(await Chromium.executablePath());`;

const unpackInto = (entry: string, dir: string): Promise<string> =>
  new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--input-type=module', '-e', UNPACK, pathToFileURL(entry).href],
      { env: { ...process.env, TMPDIR: dir }, maxBuffer: 1 << 20 },
      (error, stdout, stderr) => {
        if (error)
          reject(new Error(`${NPM_CHROMIUM} could not unpack its browser: ${stderr || error.message}`));
        else resolve(stdout.trim());
      },
    );
  });

/**
 * The npm package's Chromium, unpacked on first use. Unpacked in a private folder then renamed into place in
 * one step: a run that finds the folder finds a whole browser. Null when the package is not installed.
 */
export const npmChromium = async (cacheDir?: string): Promise<string | null> => {
  const found = npmPackage();
  if (!found) return null;
  const cache = cacheDir ?? defaultCacheDir(found.entry);
  const target = path.join(cache, found.version);
  const binary = path.join(target, 'chromium');
  if (isExecutableFile(binary)) return binary;
  mkdirSync(cache, { recursive: true });
  const staging = mkdtempSync(path.join(cache, `.unpacking-${found.version}-`));
  try {
    const unpacked = await unpackInto(found.entry, staging);
    if (unpacked !== path.join(staging, 'chromium')) {
      throw new Error(`${NPM_CHROMIUM} unpacked its browser to ${unpacked}, not into ${staging}`);
    }
    try {
      renameSync(staging, target);
    } catch (error) {
      // Another run put its own whole copy there first: use it.
      if (!isExecutableFile(binary)) throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return binary;
};

const SOURCES: Record<ChromiumSource, (found: FoundChromium) => string> = {
  CHROMIUM_PATH: (found) => `CHROMIUM_PATH, ${found.executablePath}`,
  system: (found) => `the system's, ${found.executablePath}`,
  npm: () => `the ${NPM_CHROMIUM} package's`,
};

/** "Chromium 153.0.8010.0 (the @sparticuz/chromium package's)": which browser a run used, in words. */
export const describeChromium = (found: FoundChromium, version: string): string =>
  `Chromium ${version} (${SOURCES[found.source](found)})`;

export const CHROMIUM_MISSING = `No Chromium found: CHROMIUM_PATH is not set, no chromium is on PATH, and the ${NPM_CHROMIUM} devDependency is not installed (run npm install).`;

/**
 * CHROMIUM_PATH, then a system Chromium, then the npm package's (unpacked under `cacheDir`, by default
 * `node_modules/.cache/chromium`). Throws a message that says what to do.
 */
export const findChromium = async (
  env: NodeJS.ProcessEnv = process.env,
  cacheDir?: string,
): Promise<FoundChromium> => {
  if (env.CHROMIUM_PATH) {
    if (!isExecutableFile(env.CHROMIUM_PATH)) {
      throw new Error(
        `CHROMIUM_PATH names ${env.CHROMIUM_PATH}, which is not an executable file: point it at a Chromium or Chrome binary, or unset it to use ${SYSTEM_CHROMIUM_NAMES[0]} on PATH or the ${NPM_CHROMIUM} one.`,
      );
    }
    return { executablePath: env.CHROMIUM_PATH, source: 'CHROMIUM_PATH' };
  }
  const system = systemChromium(env);
  if (system) return { executablePath: system, source: 'system' };
  const npm = await npmChromium(cacheDir);
  if (npm) return { executablePath: npm, source: 'npm' };
  throw new Error(CHROMIUM_MISSING);
};
