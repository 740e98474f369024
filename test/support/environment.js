/**
 * jest's Node environment, with the console of a test file held per test: what a test (or the app it runs)
 * logs is kept while it runs, dropped when it passes and printed when it fails (jest then shows it as the
 * file's `● Console` block, headed by the test's name). A passing file prints no log line, so a failure is
 * not buried under the app's logs. Lines logged outside a test (a `beforeAll`) go with the next test; a
 * failing hook prints what was held.
 */
const { TestEnvironment } = require('jest-environment-node');
const { format } = require('node:util');
const vm = require('node:vm');

const METHODS = ['log', 'info', 'warn', 'error', 'debug', 'trace', 'dir'];

class HeldConsoleEnvironment extends TestEnvironment {
  constructor(config, context) {
    // The test file's global object made an ordinary object (Node's `DONT_CONTEXTIFY`), not the one jest's
    // environment makes, whose every property is read through an interceptor: each read of a global (`Object`,
    // `Math`, `JSON`, `Buffer`...) by the app, its libraries and the tests was several times slower.
    const createContext = vm.createContext;
    if (vm.constants?.DONT_CONTEXTIFY !== undefined)
      vm.createContext = (...args) =>
        createContext(...(args.length === 0 ? [vm.constants.DONT_CONTEXTIFY] : args));
    try {
      super(config, context);
    } finally {
      vm.createContext = createContext;
    }
    const target = context.console;
    this.held = [];
    this.print = target.log.bind(target);
    for (const method of METHODS) {
      if (typeof target[method] !== 'function') continue;
      target[method] = (...args) => {
        this.held.push(method === 'log' ? format(...args) : `[${method}] ${format(...args)}`);
      };
    }
  }

  /** Prints what was held, under `title`, as one block of jest's own console; then holds nothing. */
  flush(title) {
    const held = this.held;
    this.held = [];
    if (held.length > 0) this.print(`── logged during ${title} ──\n${held.join('\n')}`);
  }

  async handleTestEvent(event) {
    if (event.name === 'test_done') {
      if (event.test.errors.length > 0) this.flush(`"${nameOf(event.test)}" (failed)`);
      else this.held = [];
    } else if (event.name === 'hook_failure') {
      this.flush(`a failed ${event.hook.type} hook`);
    }
  }
}

const nameOf = (test) => {
  const names = [];
  for (let block = test; block && block.name !== 'ROOT_DESCRIBE_BLOCK'; block = block.parent)
    names.unshift(block.name);
  return names.join(' › ');
};

module.exports = HeldConsoleEnvironment;
