/**
 * A jest reporter beside jest's own:
 * - while the run goes on, every 20 s, one line on stderr with how many files are done and which are
 *   running (and for how long), so a long file never looks like a hang;
 * - at the end, the failing tests, each with its name, its file and line, and the message of its failure
 *   (the values that differed), printed last (`npm test` holds them, `TEST_FAILURES_HELD=1`, and prints them
 *   after every other stage);
 * - `reports/jest-summary.txt` (`tests: N passed, N failed`, which `.ci/run` prints last) and
 *   `reports/jest-failures.txt` (the failures as printed).
 */
const fs = require('fs');
const path = require('path');

const ROOT = path.join(__dirname, '..', '..');
const REPORTS = path.join(ROOT, 'reports');
const HEARTBEAT_MS = 20_000;
/** The most lines of one failure's message shown in the summary (the whole of it is in jest's output above). */
const MESSAGE_LINES = 40;

const relative = (file) => path.relative(ROOT, file).split(path.sep).join('/');

/** The line of `file` the failure points at: the first frame of the stack inside the test file. */
const lineIn = (message, file) => {
  const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`${escaped}:(\\d+):\\d+`).exec(message);
  return match ? Number(match[1]) : null;
};

/** The message without its stack (jest puts the code frame and the stack after the values). */
const messageOf = (message) => {
  const lines = message.split('\n');
  const stackAt = lines.findIndex((line) => /^\s+at /.test(line));
  const kept = (stackAt >= 0 ? lines.slice(0, stackAt) : lines).filter((line, i, all) => {
    // The code frame (`> 12 | expect(…)`) is where the line points; the file and line say it already.
    return !/^\s*>?\s*\d+ \|/.test(line) && !/^\s+\|\s+\^/.test(line) && (line.trim() || all[i - 1]?.trim());
  });
  const cut = kept.length > MESSAGE_LINES;
  return [...kept.slice(0, MESSAGE_LINES), ...(cut ? ['    … (the rest above, in jest’s output)'] : [])]
    .map((line) => (line.trim() ? `    ${line.trimEnd()}` : ''))
    .join('\n')
    .trimEnd();
};

const failureText = (results) => {
  const blocks = [];
  for (const file of results.testResults) {
    const where = relative(file.testFilePath);
    if (file.testExecError) {
      blocks.push(
        `✕ ${where} did not run\n${messageOf(file.testExecError.message ?? String(file.testExecError))}`,
      );
    }
    for (const test of file.testResults) {
      if (test.status !== 'failed') continue;
      const message = test.failureMessages.join('\n');
      const line = lineIn(message, file.testFilePath);
      blocks.push(`✕ ${test.fullName}\n  at ${where}${line ? `:${line}` : ''}\n${messageOf(message)}`);
    }
  }
  if (blocks.length === 0) return '';
  return `── failing tests (${blocks.length}) ──\n\n${blocks.join('\n\n')}\n`;
};

class SummaryReporter {
  constructor() {
    this.running = new Map();
    this.done = 0;
    this.total = 0;
    this.failed = 0;
    this.timer = null;
  }

  onRunStart(results) {
    this.total = results.numTotalTestSuites;
    this.timer = setInterval(() => this.heartbeat(), HEARTBEAT_MS);
    this.timer.unref();
  }

  onTestFileStart(test) {
    this.running.set(test.path, Date.now());
  }

  onTestFileResult(test, result) {
    this.running.delete(test.path);
    this.done += 1;
    this.failed += result.numFailingTests;
  }

  heartbeat() {
    const now = Date.now();
    const running = [...this.running]
      .map(([file, started]) => `${relative(file)} (${Math.round((now - started) / 1000)} s)`)
      .join(', ');
    const failing = this.failed ? `, ${this.failed} failed test(s) so far` : '';
    process.stderr.write(
      `jest: ${this.done} of ${this.total} files done${failing}${running ? `; running ${running}` : ''}\n`,
    );
  }

  onRunComplete(_contexts, results) {
    if (this.timer) clearInterval(this.timer);
    fs.mkdirSync(REPORTS, { recursive: true });
    const line = `tests: ${results.numPassedTests} passed, ${results.numFailedTests} failed`;
    fs.writeFileSync(path.join(REPORTS, 'jest-summary.txt'), `${line}\n`);
    const failures = failureText(results);
    fs.writeFileSync(path.join(REPORTS, 'jest-failures.txt'), failures);
    if (failures && process.env.TEST_FAILURES_HELD !== '1') process.stderr.write(`\n${failures}`);
  }
}

module.exports = SummaryReporter;
// For its test (test/testRun.test.ts).
module.exports.failureText = failureText;
