/**
 * The order jest hands the test files to its workers: the files of `FIRST` before the others, each group in
 * jest's own order (those that failed last time, then the slowest it knows of, else the largest).
 *
 * Why: the polling plays and the sandbox's tests are the longest files, which are best started first so that
 * no worker is left with a long file at the end; on a fresh clone jest knows no durations and would order by
 * size alone. (They also never use the app tester, whose `node:domain` once made a worker follow every promise
 * it made; test/support/setup.ts now runs the tester's calls without one.)
 */
const TestSequencer = require('@jest/test-sequencer').default;

const FIRST = [/[\\/]test[\\/]polling[\\/]/, /[\\/]test[\\/]sandbox[\\/]/];

const isFirst = (test) => FIRST.some((pattern) => pattern.test(test.path));

class DomainFreeFirst extends TestSequencer {
  async sort(tests) {
    const ordered = await super.sort(tests);
    return [...ordered.filter(isFirst), ...ordered.filter((test) => !isFirst(test))];
  }
}

module.exports = DomainFreeFirst;
