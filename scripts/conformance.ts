/**
 * `npm run conformance -- --base-url URL --api-key KEY [--company ID] [--event UUID] [--json FILE]`: checks,
 * read-only, that a Connect service behaves as docs/connect-contract.md says (docs/conformance.md). Prints a
 * table grouped by endpoint and a summary; exit 0 when nothing differs, 1 when something does, 2 on a usage
 * or connection error. The API key is blanked from everything written (conformance/secret.ts).
 */
import { existsSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { USAGE, UsageError, parseArgs } from './conformance/args';
import { type Check, StopError, runConformance } from './conformance/index';
import { renderSummary, renderTable, toJson } from './conformance/report';
import { type Blank, keyBlanker } from './conformance/secret';
import { dialectSource } from './conformance/dialect';
import type { Dialect } from '../src/connect/dialect';

export const EXIT = { clean: 0, differs: 1, stopped: 2 } as const;

interface Streams {
  out: { write(text: string): unknown; isTTY?: boolean; columns?: number };
  err: { write(text: string): unknown; isTTY?: boolean };
}

/** A progress line on a terminal, rewritten in place and cleared at the end; nothing elsewhere. */
const progress = (err: Streams['err']) => {
  if (!err.isTTY) return { step: () => undefined, clear: () => undefined };
  return {
    step: (group: string, index: number, total: number) =>
      void err.write(`\r\u001b[2KChecking ${group}… (${index + 1}/${total})`),
    clear: () => void err.write('\r\u001b[2K'),
  };
};

/** A `--json` file must be writable where it is asked for: said before anything runs. */
const checkJsonPath = (file: string | undefined, flag = '--json'): void => {
  if (file === undefined) return;
  const folder = path.dirname(path.resolve(file));
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    throw new UsageError(`${flag} ${file}: the folder ${folder} does not exist`);
  }
  if (existsSync(file) && statSync(file).isDirectory()) throw new UsageError(`${flag} ${file} is a folder`);
};

/** Every check with its detail and action blanked of the key, before anything is wrapped or cut. */
const blankChecks = (checks: Check[], blank: Blank): Check[] =>
  checks.map((c) => ({ ...c, detail: blank(c.detail), ...(c.action ? { action: blank(c.action) } : {}) }));

export const main = async (argv: string[], streams: Streams): Promise<number> => {
  let blank: Blank = (text) => text;
  const say = (stream: Streams['out'] | Streams['err'], text: string) => void stream.write(blank(text));
  try {
    const parsed = parseArgs(argv);
    if (parsed.help) {
      say(streams.out, `${USAGE}\n`);
      return EXIT.clean;
    }
    const { args } = parsed;
    // The key, and the signing secret of a captured delivery, are blanked from everything written.
    const blankKey = keyBlanker(args.apiKey);
    const blankSecret = args.secret === undefined ? (text: string) => text : keyBlanker(args.secret);
    blank = (text) => blankSecret(blankKey(text));
    checkJsonPath(args.json);
    checkJsonPath(args.writeDialect, '--write-dialect');
    const line = progress(streams.err);
    let checks: Check[];
    let found: Dialect | null = null;
    try {
      const onDialect = (dialect: Dialect) => void (found = dialect);
      checks = blankChecks(await runConformance({ ...args, onProgress: line.step, onDialect }), blank);
    } finally {
      line.clear();
    }
    const color = Boolean(streams.out.isTTY) && !process.env.NO_COLOR;
    const width = Math.min(streams.out.columns ?? 110, 140);
    say(streams.out, `Conformance of ${args.baseUrl} to docs/connect-contract.md\n`);
    say(streams.out, renderTable(checks, { color, width }) + renderSummary(checks, { color, width }));
    if (args.json) {
      writeFileSync(args.json, blank(toJson(checks)));
      say(streams.out, `\nWrote ${args.json}.\n`);
    }
    if (args.writeDialect && found) {
      writeFileSync(args.writeDialect, blank(dialectSource(found, args.baseUrl)));
      say(
        streams.out,
        `\nWrote the dialect found to ${args.writeDialect}: paste it into src/connect/dialect.ts.\n`,
      );
    }
    return checks.some((c) => c.status === 'differs') ? EXIT.differs : EXIT.clean;
  } catch (error) {
    if (error instanceof UsageError) {
      say(streams.err, `conformance: ${error.message}\n\n${USAGE}\n`);
    } else if (error instanceof StopError) {
      const after = error.midRun ? 'The run stopped there, before its report.' : 'Nothing was checked.';
      say(streams.err, `conformance: ${error.message}\n${after}\n`);
    } else {
      // A fault of the kit: said in one line (a stack trace helps no one running it, and may quote anything).
      const message = blank(
        `${(error as Error)?.name ?? 'Error'}: ${String((error as Error)?.message ?? error)}`,
      );
      const line = message.split('\n')[0] ?? '';
      say(
        streams.err,
        `conformance: stopped by an unexpected error (${line.length > 300 ? `${line.slice(0, 300)}…` : line}); please report it.\n`,
      );
    }
    return EXIT.stopped;
  }
};

if (require.main === module) {
  main(process.argv.slice(2), { out: process.stdout, err: process.stderr }).then(
    (code) => {
      process.exitCode = code;
    },
    () => {
      process.exitCode = EXIT.stopped;
    },
  );
}
