/**
 * `npm run bench:coldstart`: what a cold Zapier invocation costs before the app does any work. The app's
 * zip and the zip of Zapier's minimal template (`zapier init -t minimal`: an `index.js` exporting `version`
 * and `platformVersion`, no operations, on zapier-platform-core) are built the same way (scripts/zip.ts,
 * production dependencies from this project's `node_modules`, nothing downloaded; without the CLI's
 * "Testing build" step, whose 5 s limit a busy machine exceeds: `buildZipUntested`), unzipped, and each is
 * loaded in a fresh Node process that requires `zapierwrapper.js` and asks its handler for the definition,
 * as Zapier's backend does.
 *
 * Two more folders show what zapier-platform-core alone costs for this definition, the floor no change to the
 * app's code can go below: the template's folder with the app's definition as its `index.js` ("app as
 * data": the definition's JSON written as a module, each distinct piece once (314 objects; the app's own
 * definition has 379), each function an empty one of the same arity, no app code; its answer is the app's,
 * byte for byte), and the same without output fields ("as data, no output fields": each operation's
 * `outputFields` one function instead of its list, what giving output fields by a function would make of
 * the definition). Runs take the subjects in turn (the order rotating), after one unmeasured run of each.
 *
 * Per run: the wrapper's load (zapier-platform-core), the first `definition` call (the app's own load, then
 * core compiling and serializing the definition), their sum (the cold start), the process CPU time of that
 * sum (steadier than wall time on a busy machine) and the CPU time of the definition call alone (what the
 * app adds, without the core load every subject pays). The CPU ratio is also taken per run, against the
 * template's run of the same turn (paired), and given as its median and spread.
 *
 * Targets: cold-start median at most 1.10× the template's; zip under 1.1 MB.
 */
import AdmZip from 'adm-zip';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleApp } from './build';
import { ROOT, appZipSource, buildZipUntested } from './zip';

const RUNS = Number(process.env.RUNS ?? 10);
const TARGET_RATIO = 1.1;
const TARGET_ZIP_BYTES = 1.1e6;

interface Sample {
  load: number;
  definition: number;
  coldStart: number;
  cpu: number;
  definitionCpu: number;
}

interface Subject {
  name: string;
  dir: string;
  zipBytes: number;
  files: number;
  samples: Sample[];
  operations: number;
}

// Runs inside the unzipped folder. zapier-platform-core prints a memory line to stdout on every call.
const PROBE = `
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const { handler } = require('./zapierwrapper.js');
const t1 = performance.now();
const cpu1 = process.cpuUsage(cpu0);
handler({ command: 'definition', bundle: {} }).then((output) => {
  const t2 = performance.now();
  const cpu = process.cpuUsage(cpu0);
  const app = output.results;
  const operations = ['triggers', 'searches', 'creates'].reduce((n, kind) => n + Object.keys(app[kind] || {}).length, 0);
  if (!app.version || !app.platformVersion) throw new Error('the definition has no version');
  process.stdout.write('\\nRESULT ' + JSON.stringify({
    load: t1 - t0, definition: t2 - t1, coldStart: t2 - t0, cpu: (cpu.user + cpu.system) / 1000,
    definitionCpu: (cpu.user + cpu.system - cpu1.user - cpu1.system) / 1000, operations,
  }) + '\\n');
}).catch((error) => { console.error(error && error.message); process.exit(1); });
`;

// Zapier's minimal template, as `zapier init -t minimal` writes it (CommonJS).
const TEMPLATE_INDEX = `module.exports = {
  version: require('./package.json').version,
  platformVersion: require('zapier-platform-core').version,
  triggers: {},
  searches: {},
  creates: {},
  resources: {},
};
`;

const coreVersion = (): string =>
  (
    JSON.parse(readFileSync(join(ROOT, 'node_modules', 'zapier-platform-core', 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;

/** A serialized function (`$func$<arity>$<t if it reads \`arguments\`>$`) as an empty function core serializes alike. */
const functionSource = (serialized: string): string => {
  const [, arity = '0', usesArguments] = serialized.split('$').filter(Boolean);
  const params = Array.from({ length: Number(arity) }, (_, i) => `a${i}`).join(', ');
  return `function (${params}) { ${usesArguments === 't' ? 'return arguments;' : ''} }`;
};

/**
 * A serialized definition as a CommonJS module: each distinct object once (the app shares most of its
 * equal pieces too), each function an empty one; `withoutOutputFields` gives each operation one
 * output-fields function instead.
 */
const definitionModule = (definition: unknown, withoutOutputFields: boolean): string => {
  const names = new Map<string, string>();
  const declarations: string[] = [];
  const write = (value: unknown, path: string): string => {
    if (typeof value === 'string' && value.startsWith('$func$')) return functionSource(value);
    if (value === null || typeof value !== 'object') return JSON.stringify(value);
    if (withoutOutputFields && /^(triggers|searches|creates)\.[^.]+\.operation\.outputFields$/.test(path)) {
      return `[${functionSource('$func$2$f$')}]`;
    }
    const json = JSON.stringify(value);
    const known = json.includes('$func$') ? undefined : names.get(json);
    if (known) return known;
    const entries = Object.entries(value).map(([key, v]) => [key, write(v, path ? `${path}.${key}` : key)]);
    const body = Array.isArray(value)
      ? `[${entries.map(([, v]) => v).join(',')}]`
      : `{${entries.map(([key, v]) => `${JSON.stringify(key)}:${v}`).join(',')}}`;
    const name = `v${declarations.length}`;
    declarations.push(`const ${name} = ${body};`);
    names.set(json, name);
    return name;
  };
  const root = write(definition, '');
  return `${declarations.join('\n')}\nmodule.exports = ${root};\n`;
};

/** The template's unzipped folder with the app's definition, as data, as its module (see the top). */
const appAsData = (template: Subject, app: Subject, work: string, withoutOutputFields: boolean): Subject => {
  const name = withoutOutputFields ? 'as data, no output fields' : 'app as data';
  const dir = join(work, withoutOutputFields ? 'as-data-no-output-fields' : 'app-as-data');
  cpSync(template.dir, dir, { recursive: true });
  const definition: unknown = JSON.parse(readFileSync(join(app.dir, 'definition.json'), 'utf8'));
  writeFileSync(join(dir, 'index.js'), definitionModule(definition, withoutOutputFields));
  return { ...template, name, dir, samples: [] };
};

const unzip = (name: string, zipPath: string, work: string): Subject => {
  const dir = join(work, name);
  const zip = new AdmZip(zipPath);
  zip.extractAllTo(dir, true);
  writeFileSync(join(dir, 'probe.js'), PROBE);
  return {
    name,
    dir,
    zipBytes: statSync(zipPath).size,
    files: zip.getEntries().length,
    samples: [],
    operations: 0,
  };
};

const runOnce = (subject: Subject): Sample & { operations: number } => {
  const child = spawnSync(process.execPath, ['probe.js'], { cwd: subject.dir, encoding: 'utf8' });
  const line = child.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (child.status !== 0 || !line) {
    throw new Error(`${subject.name}: the probe failed (${child.status}): ${child.stderr.trim()}`);
  }
  return JSON.parse(line.slice('RESULT '.length)) as Sample & { operations: number };
};

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const ms = (value: number) => `${value.toFixed(1)} ms`.padStart(9);

const main = async () => {
  const work = mkdtempSync(join(tmpdir(), 'connect-coldstart-'));
  try {
    console.log(
      'bench:coldstart: building the app zip and the minimal template zip (production dependencies only)',
    );
    await bundleApp();
    const appZip = (await buildZipUntested(appZipSource(), join(work, 'app.zip'))).zipPath;

    const templateDir = join(work, 'template-src');
    const templatePackage = {
      name: 'minimal-template',
      version: '1.0.0',
      description: '',
      main: 'index.js',
      private: true,
      dependencies: { 'zapier-platform-core': coreVersion() },
    };
    mkdirSync(templateDir);
    writeFileSync(join(templateDir, 'index.js'), TEMPLATE_INDEX);
    // The template needs the same includeInBuild fix as the app on Node 22.12 and later.
    cpSync(join(ROOT, '.zapierapprc'), join(templateDir, '.zapierapprc'));
    const templateSource = {
      dir: templateDir,
      modulesDir: ROOT,
      files: ['index.js', '.zapierapprc'],
      packageJson: templatePackage,
    };
    const templateZip = (await buildZipUntested(templateSource, join(work, 'template.zip'))).zipPath;

    const [template, app] = [unzip('template', templateZip, work), unzip('app', appZip, work)];
    const floors = [false, true].map((without) => appAsData(template, app, work, without));
    const subjects = [template, app, ...floors];
    for (const subject of subjects) subject.operations = runOnce(subject).operations; // warm the file cache
    for (let run = 0; run < RUNS; run++) {
      const turn = subjects.map((_, i) => subjects[(run + i) % subjects.length]!);
      for (const subject of run % 2 ? turn.reverse() : turn) subject.samples.push(runOnce(subject));
    }
    report(template, app, floors);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
};

/** The CPU ratios of `subject` to the template, run by run (each against the template's run of that turn). */
const pairedRatios = (subject: Subject, template: Subject) =>
  subject.samples.map((sample, run) => sample.cpu / template.samples[run]!.cpu);

const spread = (values: number[]) =>
  `median ${median(values).toFixed(2)}× [${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}×]`;

const report = (template: Subject, app: Subject, floors: Subject[]) => {
  const metrics: Array<[keyof Sample, string]> = [
    ['load', 'wrapper load (core)'],
    ['definition', 'first definition call'],
    ['coldStart', 'cold start (load + definition)'],
    ['cpu', 'CPU time of the cold start'],
    ['definitionCpu', 'CPU time of the definition call'],
  ];
  console.log(`\n${RUNS} runs each, fresh Node ${process.version} process per run; median [min–max]\n`);
  console.log(`${'measure'.padEnd(32)}${'template'.padEnd(36)}${'app'.padEnd(36)}ratio (medians)`);
  for (const [key, label] of metrics) {
    const cell = (subject: Subject) => {
      const values = subject.samples.map((s) => s[key]);
      return `${ms(median(values))} [${ms(Math.min(...values)).trim()}–${ms(Math.max(...values)).trim()}]`.padEnd(
        36,
      );
    };
    const ratio = median(app.samples.map((s) => s[key])) / median(template.samples.map((s) => s[key]));
    console.log(`${label.padEnd(32)}${cell(template)}${cell(app)}${ratio.toFixed(2)}×`);
  }
  console.log(`\npaired CPU ratio to the template, run by run (and the definition call's CPU, median):`);
  for (const subject of [app, ...floors]) {
    const definitionCpu = ms(median(subject.samples.map((s) => s.definitionCpu))).trim();
    console.log(`  ${subject.name.padEnd(26)}${spread(pairedRatios(subject, template))} (${definitionCpu})`);
  }
  console.log(
    `  ${'template'.padEnd(26)}(${ms(median(template.samples.map((s) => s.definitionCpu))).trim()}); the two "as data" floors run no app code: core alone, for this definition`,
  );
  for (const subject of [template, app]) {
    console.log(
      `${subject.name.padEnd(9)} zip ${(subject.zipBytes / 1e6).toFixed(2)} MB (${subject.zipBytes} bytes), ${subject.files} files, ${subject.operations} operations`,
    );
  }
  const verdict = (key: keyof Sample) => {
    const ratio = median(app.samples.map((s) => s[key])) / median(template.samples.map((s) => s[key]));
    return `${ratio.toFixed(2)}× ${ratio <= TARGET_RATIO ? 'met' : 'NOT met'}`;
  };
  // The wrapper load is the same code in both; its ratio shows how much the machine's load skews wall times.
  console.log(
    `\ntarget: cold-start median ≤ ${TARGET_RATIO}× the template's: wall time ${verdict('coldStart')}, CPU time ${verdict('cpu')} (the same core load reads ${verdict('load').split(' ')[0]} in wall time)`,
  );
  console.log(
    `target: zip < ${TARGET_ZIP_BYTES / 1e6} MB: ${(app.zipBytes / 1e6).toFixed(2)} MB ${app.zipBytes < TARGET_ZIP_BYTES ? 'met' : 'NOT met'}`,
  );
};

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
