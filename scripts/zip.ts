/**
 * Builds the zip Zapier runs, `build/build.zip`, from production dependencies only.
 *
 * `zapier-platform build` puts every `package.json` under the build folder into the zip, and its other mode
 * (a temporary copy of the whole project, `node_modules` included) fails on this machine with too many
 * open files. So the build runs in a staging folder holding only what the zip needs: the root `index.js`,
 * the bundled `dist/index.js`, `.zapierapprc`, a `package.json` without scripts, and the production
 * dependency tree copied from this project's `node_modules` (what `npm install --omit=dev` would give,
 * without reaching the registry). There `zapier-platform build --skip-validation --skip-dep-install`
 * writes `zapierwrapper.js` and `definition.json`, traces the files the wrapper loads, zips them and tests
 * the zip by loading it.
 *
 * That test ("Testing build") loads the unzipped wrapper and `index.js` in fresh processes that the CLI
 * kills after 5 s: on a busy machine loading zapier-platform-core alone takes longer, and the build fails
 * with a message about the build. `buildZipUntested` (what `bench:coldstart` uses: it loads the zip itself,
 * many times) makes the same zip with the CLI's own steps but that one.
 *
 * `npm run zip` builds the app first and writes `build/build.zip` and the `build/source.zip` that
 * `zapier-platform upload` sends with it; `scripts/check-build.ts` and
 * `scripts/bench-coldstart.ts` use `buildZip` directly.
 */
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { bundleApp } from './build';

export const ROOT = join(__dirname, '..');

interface PackageJson {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  [field: string]: unknown;
}

const readPackage = (dir: string): PackageJson =>
  JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;

/** Node's lookup of package `name` from `fromDir`: the nearest `node_modules/<name>` up to `rootDir`. */
const resolvePackage = (name: string, fromDir: string, rootDir: string): string | null => {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === rootDir || dirname(dir) === dir) return null;
  }
};

/**
 * The folders (relative to `rootDir`) of every package that `dependencies` need at run time, found the way
 * Node resolves them, following each package's `dependencies` and installed `optionalDependencies`. Peer
 * dependencies are not followed (npm does not install optional ones, such as node-fetch's `encoding`), and
 * `@types/*` packages are declarations only.
 */
export const productionPackages = (dependencies: Record<string, string>, rootDir: string): string[] => {
  const found = new Set<string>();
  const visit = (name: string, fromDir: string, optional: boolean) => {
    if (name.startsWith('@types/')) return;
    const dir = resolvePackage(name, fromDir, rootDir);
    if (!dir) {
      if (optional) return;
      throw new Error(`${name} (needed from ${relative(rootDir, fromDir) || 'the app'}) is not installed`);
    }
    if (found.has(dir)) return;
    found.add(dir);
    const pkg = readPackage(dir);
    for (const dep of Object.keys(pkg.dependencies ?? {})) visit(dep, dir, false);
    for (const dep of Object.keys(pkg.optionalDependencies ?? {})) visit(dep, dir, true);
  };
  for (const name of Object.keys(dependencies)) visit(name, rootDir, false);
  return [...found].map((dir) => relative(rootDir, dir)).sort();
};

export interface ZipSource {
  /** Where the app files are read from. */
  dir: string;
  /** The folder whose `node_modules` the dependencies are copied from (`dir` when not given). */
  modulesDir?: string;
  /** Files and folders of the app, relative to `dir` (the root `index.js` first). */
  files: string[];
  /** The `package.json` the zip carries; its `dependencies` decide which packages are copied. */
  packageJson: PackageJson;
}

export interface BuiltZip {
  zipPath: string;
  packages: number;
}

/** Stages `source` with its production dependencies, runs Zapier's build there, copies the zip to `zipPath`. */
export const buildZip = (source: ZipSource, zipPath: string): BuiltZip => {
  const stage = mkdtempSync(join(tmpdir(), 'connect-stage-'));
  try {
    const packages = stageSource(source, stage);
    execFileSync(
      join(ROOT, 'node_modules', '.bin', 'zapier-platform'),
      ['build', '--skip-validation', '--skip-dep-install'],
      // The CLI would send usage analytics to Zapier and ask the registry for a newer version: neither.
      {
        cwd: stage,
        stdio: ['ignore', 'ignore', 'inherit'],
        env: { ...process.env, DISABLE_ZAPIER_ANALYTICS: '1', NO_UPDATE_NOTIFIER: '1' },
      },
    );
    mkdirSync(dirname(zipPath), { recursive: true });
    copyFileSync(join(stage, 'build', 'build.zip'), zipPath);
    return { zipPath, packages };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
};

/** Copies the app's files, its `package.json` and its production packages into `stage`; their count. */
const stageSource = (source: ZipSource, stage: string): number => {
  for (const file of source.files) {
    mkdirSync(dirname(join(stage, file)), { recursive: true });
    cpSync(join(source.dir, file), join(stage, file), { recursive: true });
  }
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(source.packageJson, null, 2)}\n`);
  // The build also writes a source.zip of the folder, which needs no dependencies.
  writeFileSync(join(stage, '.gitignore'), 'node_modules/\nbuild/\n');
  const modulesDir = source.modulesDir ?? source.dir;
  const packages = productionPackages(source.packageJson.dependencies ?? {}, modulesDir);
  for (const pkg of packages) {
    const from = join(modulesDir, pkg);
    // A package's own node_modules holds nested packages; those needed are in the list themselves.
    cpSync(from, join(stage, pkg), {
      recursive: true,
      filter: (path) => !path.slice(from.length).includes(`${sep}node_modules`),
    });
  }
  return packages.length;
};

/** The CLI's build steps, from its own modules (they have no type declarations, hence require). */
interface CliSteps {
  findCorePackageDir: (dir: string) => string;
  copyZapierWrapper: (coreDir: string, dir: string) => Promise<void>;
  deleteZapierWrapper: (dir: string) => Promise<void>;
  localAppCommand: (event: { command: string }, dir: string, deleteWrapper: boolean) => Promise<unknown>;
  makeBuildZip: (dir: string, zipPath: string, dumb: boolean) => Promise<void>;
}

const cliSteps = (): CliSteps => {
  const utils = 'zapier-platform-cli/src/utils';
  /* eslint-disable @typescript-eslint/no-require-imports */
  return {
    ...(require(`${utils}/misc`) as Pick<CliSteps, 'findCorePackageDir'>),
    ...(require(`${utils}/zapierwrapper`) as Pick<CliSteps, 'copyZapierWrapper' | 'deleteZapierWrapper'>),
    ...(require(`${utils}/local`) as Pick<CliSteps, 'localAppCommand'>),
    ...(require(`${utils}/build`) as Pick<CliSteps, 'makeBuildZip'>),
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
};

/**
 * Like `buildZip`, but without the CLI's "Testing build" step, which fails on a busy machine (see above):
 * staged the same way, then the CLI's own steps of `build --skip-validation --skip-dep-install` (the
 * wrapper, `definition.json` from the app's own `definition` command, the traced zip), in this process.
 */
export const buildZipUntested = async (source: ZipSource, zipPath: string): Promise<BuiltZip> => {
  const stage = mkdtempSync(join(tmpdir(), 'connect-stage-'));
  const cwd = process.cwd();
  try {
    const packages = stageSource(source, stage);
    const cli = cliSteps();
    // The CLI reads `.zapierapprc` and `package.json` from the working directory, as `zapier-platform` does.
    process.chdir(stage);
    await cli.copyZapierWrapper(cli.findCorePackageDir(stage), stage);
    const definition = await cli.localAppCommand({ command: 'definition' }, stage, false);
    writeFileSync(join(stage, 'definition.json'), `${JSON.stringify(definition, null, 2)}\n`);
    mkdirSync(dirname(zipPath), { recursive: true });
    await cli.makeBuildZip(stage, zipPath, false);
    await cli.deleteZapierWrapper(stage);
    return { zipPath, packages };
  } finally {
    process.chdir(cwd);
    rmSync(stage, { recursive: true, force: true });
  }
};

/** This app: the CommonJS entry, the bundle and the build settings, with the project's runtime dependencies. */
export const appZipSource = (): ZipSource => {
  const pkg = readPackage(ROOT);
  const { name, version, description, private: isPrivate, main, license, engines, dependencies } = pkg;
  return {
    dir: ROOT,
    files: ['index.js', 'dist/index.js', '.zapierapprc'],
    packageJson: { name, version, description, private: isPrivate, main, license, engines, dependencies },
  };
};

if (require.main === module) {
  bundleApp()
    .then(() => {
      const { zipPath, packages } = buildZip(appZipSource(), join(ROOT, 'build', 'build.zip'));
      console.log(`zip: ${relative(ROOT, zipPath)} with ${packages} production packages`);
      // `zapier-platform upload` sends the project's source with the build, zipped by the CLI's own
      // function (it has no type declarations, hence require).
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { makeSourceZip } = require('zapier-platform-cli/src/utils/build') as {
        makeSourceZip: (dir: string, zipPath: string) => Promise<void>;
      };
      return makeSourceZip(ROOT, join(ROOT, 'build', 'source.zip'));
    })
    .then(() => {
      console.log('zip: build/source.zip');
    })
    .catch((error: unknown) => {
      console.error(error instanceof Error ? error.message : String(error));
      process.exit(1);
    });
}
