/**
 * Every `zapier-platform invoke` command a reader can copy from README.md or docs/*.md works as written: each
 * one, found in the documents (fenced code lines and inline code), runs through the real command-line tool
 * (its own entry, with the project's Node; a document's commands one after the other in one process of it,
 * each with its own output, exit code and freshly loaded app: test/support/invokeMany.cjs) against a fresh
 * sandbox on 127.0.0.1, from a temp folder holding the built app and the `.env` that `npm run sandbox`
 * writes ("Trying it by hand").
 *
 * Before a document's commands run, its `npm run simulate -- register|approve|pay …` steps run in order (the
 * README asks for them before Find Registration and Find Order). A `<registration ID>` in a command is
 * replaced by the newest approved registration those steps made. The tool gets no network: analytics and update checks are
 * switched off, its home folder is empty, and a preloaded guard refuses any connection off this machine.
 * Nothing is written inside the repository.
 */
import { execFile } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSandbox, type RunningSandbox } from '../../sandbox';
import { envLines } from '../../sandbox/cli';
import { simulate } from '../../scripts/simulate';
import { STREAM_LIMITS_ENV } from '../../src/connect';
import { playsAnotherDialect } from '../support/serviceDialect';

// The tool takes seconds to start on a busy machine: a document's commands share one start of it.
jest.setTimeout(600_000);

const ROOT = path.resolve(__dirname, '..', '..');
const NODE = path.join(ROOT, 'node_modules', '.bin', 'node');
/** The tool's own entry (what `node_modules/.bin/zapier-platform` links to). */
const BIN = require.resolve('zapier-platform-cli/src/bin/run');
const MANY = path.join(ROOT, 'test', 'support', 'invokeMany.cjs');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
const GUARD = path.join(ROOT, 'test', 'support', 'loopbackOnly.cjs');
const REFUSED = '[loopback only] refused a connection to';

interface Command {
  /** `README.md:591`. */
  where: string;
  /** The command as the document shows it. */
  text: string;
}

/** Splits a shell command into words (quotes and backslashes as sh reads them); `#` starts a comment. */
const shellWords = (text: string): string[] => {
  const words: string[] = [];
  let word: string | null = null;
  let i = 0;
  const add = (s: string) => {
    word = (word ?? '') + s;
  };
  while (i < text.length) {
    const c = text[i] as string;
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) throw new Error('a single quote is not closed');
      add(text.slice(i + 1, end));
      i = end + 1;
    } else if (c === '"') {
      let j = i + 1;
      let s = '';
      while (j < text.length && text[j] !== '"') {
        if (text[j] === '\\' && /["\\$`]/.test(text[j + 1] ?? '')) j += 1;
        else if (/[$`]/.test(text[j] as string))
          throw new Error(`"${text[j]}" inside double quotes is not supported`);
        s += text[j];
        j += 1;
      }
      if (j >= text.length) throw new Error('a double quote is not closed');
      add(s);
      i = j + 1;
    } else if (c === '\\') {
      add(text[i + 1] ?? '');
      i += 2;
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
      i += 1;
    } else if (c === '#' && word === null) {
      break;
    } else if (/[;&|<>$`()]/.test(c)) {
      throw new Error(`"${c}" outside quotes makes it more than one plain command`);
    } else {
      add(c);
      i += 1;
    }
  }
  if (word !== null) words.push(word);
  return words;
};

// A command has arguments: a bare `zapier-platform invoke` in a sentence names the tool.
const INVOKE = /^(?:\$\s+)?(?:npx\s+)?zapier-platform\s+invoke\s+\S/;
const SIMULATE = /^(?:\$\s+)?npm run simulate --\s+(.*)$/;

/** The commands of a Markdown text matching `pattern`: fenced code lines (joined at `\`) and inline code. */
const commandsIn = (file: string, markdown: string, pattern: RegExp): Command[] => {
  const found: Command[] = [];
  const lines = markdown.split('\n');
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] as string;
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === null || marker.startsWith(fence))) {
      fence = fence === null ? marker : null;
      continue;
    }
    if (fence !== null) {
      let text = line.trim();
      const start = i;
      while (text.endsWith('\\') && i + 1 < lines.length) {
        i += 1;
        text = `${text.slice(0, -1)} ${(lines[i] as string).trim()}`;
      }
      if (pattern.test(text)) found.push({ where: `${file}:${start + 1}`, text });
    } else {
      for (const span of line.matchAll(/(?<!`)`([^`]+)`(?!`)/g)) {
        const text = (span[1] as string).trim();
        if (pattern.test(text)) found.push({ where: `${file}:${i + 1}`, text });
      }
    }
  }
  return found;
};

const DOCUMENTS = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
].map((file) => {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  return { file, invokes: commandsIn(file, text, INVOKE), steps: commandsIn(file, text, SIMULATE) };
});

const stripAnsi = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

const run = (file: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }) =>
  new Promise<Run>((resolve) => {
    // Asynchronous on purpose: the sandbox answering the tool runs in this process.
    execFile(file, args, { ...options, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout: stripAnsi(String(stdout)), stderr: stripAnsi(String(stderr)) });
    });
  });

/** The last lines of a tool's output, for a failure message. */
const tail = (text: string, lines = 25) => text.trim().split('\n').slice(-lines).join('\n');

let work: string;
let home: string;

beforeAll(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), 'documents-'));
  home = path.join(work, 'home');
  mkdirSync(home);
  // The app as `invoke` loads it: index.js, package.json, the built dist/ and the project's node_modules.
  copyFileSync(path.join(ROOT, 'index.js'), path.join(work, 'index.js'));
  copyFileSync(path.join(ROOT, 'package.json'), path.join(work, 'package.json'));
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(work, 'node_modules'), 'dir');
  const build = await run(
    TSX,
    [path.join(ROOT, 'scripts', 'build.ts'), '--out', path.join(work, 'dist', 'index.js')],
    {
      cwd: ROOT,
      env: process.env,
    },
  );
  if (build.code !== 0) throw new Error(`npm run build failed:\n${tail(build.stdout + build.stderr)}`);
});

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

it('finds the invoke commands of the README', () => {
  const readme = DOCUMENTS.find((d) => d.file === 'README.md');
  expect(readme?.invokes.length).toBeGreaterThan(0);
});

// The invoke lines run the app in processes of their own, which only src/connect/dialect.ts can teach: not
// played in another dialect (`CONNECT_TEST_DIALECT=every`, or any switch).
(playsAnotherDialect() ? describe.skip : describe).each(DOCUMENTS.filter((d) => d.invokes.length > 0))(
  '$file',
  ({ file, invokes, steps }) => {
    let sandbox: RunningSandbox;
    let registrationId: string | undefined;

    beforeAll(async () => {
      sandbox = await startSandbox();
      writeFileSync(path.join(work, '.env'), `${envLines(sandbox.url, 1).join('\n')}\n`);
      for (const step of steps) {
        const args = shellWords(/^(?:\$\s+)?npm run simulate --\s+(.*)$/.exec(step.text)?.[1] ?? '');
        if (!['register', 'approve', 'pay'].includes(args[0] ?? '')) continue;
        const printed: string[] = [];
        try {
          await simulate(args, (line) => printed.push(line), path.join(work, '.env'));
        } catch (error) {
          throw new Error(
            `${step.where}: \`${step.text}\` failed: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
        // A check-in needs an approved registration: the newest one registered approved or approved since.
        const text = printed.join('\n');
        const made =
          /^Registered .*: (\S+) \(approved\)/m.exec(text)?.[1] ?? /^Approved .* \((\S+)\):/m.exec(text)?.[1];
        if (made) registrationId = made;
      }
    });

    afterAll(async () => {
      await sandbox?.close();
      rmSync(path.join(work, '.env'), { force: true });
    });

    /** The tool's arguments for a command, as a reader would type it; throws why it cannot be run as written. */
    const argsOf = ({ text }: Command): string[] => {
      let words: string[];
      try {
        words = shellWords(text.replace(/^\$\s+/, ''));
      } catch (error) {
        throw new Error(
          `It cannot be read as one shell command: ${error instanceof Error ? error.message : String(error)}.`,
        );
      }
      return words.slice(words[0] === 'npx' ? 2 : 1).map((word) =>
        word.replace(/<([^<>]+)>/g, (placeholder, name: string) => {
          if (/^registration id$/i.test(name)) {
            if (!registrationId)
              throw new Error(
                `${placeholder} needs an approved registration: the document's simulate steps make none.`,
              );
            return registrationId;
          }
          throw new Error(`${placeholder} is a placeholder this test does not know how to fill in.`);
        }),
      );
    };

    /** Why the tool's run of a command shows it does not work as written, or nothing when it works. */
    const judge = (result: Run): string | undefined => {
      if (result.stderr.includes(REFUSED) || result.stdout.includes(REFUSED)) {
        return `The tool tried to reach the network:\n${tail(result.stderr)}`;
      }
      if (result.code !== 0) {
        return `It exited with code ${result.code}:\n${tail(`${result.stdout}\n${result.stderr}`)}`;
      }
      let printed: unknown;
      try {
        printed = JSON.parse(result.stdout);
      } catch {
        printed = undefined;
      }
      if (Array.isArray(printed) && printed.length === 0) {
        return 'It found nothing (it printed []): the document says what to do first, or the command is wrong.';
      }
      return undefined;
    };

    // Every command of the document that can be run as written runs in one process of the tool
    // (test/support/invokeMany.cjs: the tool's own entry, one command after the other, each with its own
    // output, exit code and freshly loaded app), after the simulate steps above; each command is still one
    // test with its own message.
    const outcomes = new Map<Command, string | undefined>();
    beforeAll(async () => {
      const runnable: Array<{ command: Command; args: string[] }> = [];
      for (const command of invokes) {
        try {
          runnable.push({ command, args: argsOf(command) });
        } catch (error) {
          outcomes.set(command, (error as Error).message);
        }
      }
      const commandsFile = path.join(work, 'commands.json');
      const resultsFile = path.join(work, 'results.json');
      writeFileSync(commandsFile, JSON.stringify(runnable.map((r) => r.args)));
      rmSync(resultsFile, { force: true });
      const driver = await run(NODE, ['--require', GUARD, MANY, BIN, commandsFile, resultsFile], {
        cwd: work,
        env: {
          PATH: process.env.PATH,
          HOME: home,
          USERPROFILE: home,
          DISABLE_ZAPIER_ANALYTICS: '1',
          NO_UPDATE_NOTIFIER: '1',
          NO_COLOR: '1',
          // The run's time limits (out of reach: test/support/timeLimits.ts), for the app the tool loads.
          [STREAM_LIMITS_ENV]: process.env[STREAM_LIMITS_ENV],
        },
      });
      // What the tool wrote between commands or after the last one (a late connection among it).
      if (driver.stderr.includes(REFUSED) || driver.stdout.includes(REFUSED)) {
        throw new Error(
          `The tool tried to reach the network while running ${file}'s commands:\n${tail(driver.stderr)}`,
        );
      }
      if (driver.code !== 0) {
        throw new Error(`The tool could not run the commands of ${file}:\n${tail(driver.stderr)}`);
      }
      const results = JSON.parse(readFileSync(resultsFile, 'utf8')) as Run[];
      runnable.forEach(({ command }, i) => {
        const result = results[i];
        outcomes.set(command, result ? judge(result) : 'The tool gave no result for it.');
      });
    });

    it.each(invokes)('$where: $text', (command) => {
      const why = outcomes.get(command);
      if (why !== undefined) {
        throw new Error(
          `${command.where}: this command from ${file} does not work as written:\n  ${command.text}\n${why}`,
        );
      }
    });
  },
);
