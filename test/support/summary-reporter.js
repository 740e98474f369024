// Writes the one-line summary `.ci/run` prints last: `tests: N passed, N failed`.
const fs = require('fs');
const path = require('path');

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const dir = path.join(__dirname, '..', '..', 'reports');
    fs.mkdirSync(dir, { recursive: true });
    const line = `tests: ${results.numPassedTests} passed, ${results.numFailedTests} failed`;
    fs.writeFileSync(path.join(dir, 'jest-summary.txt'), `${line}\n`);
  }
}

module.exports = SummaryReporter;
