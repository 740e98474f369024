/**
 * The order jest hands the test files to its workers: the files of `FIRST` before the others, each group in
 * jest's own order (those that failed last time, then the slowest it knows of, else the largest).
 *
 * Why: zapier-platform-core runs every invocation of its app tester in a `node:domain`, and once a worker
 * has made one domain, Node watches every promise that worker makes for the rest of the run. The polling
 * plays make millions of promises and never use the tester: run after a file that does, the same play costs
 * about a fifth more CPU. The sandbox's own tests never use it either. These are also the longest files,
 * which jest would rather start first.
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
