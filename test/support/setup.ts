// Unit tests never touch the network: nock refuses every host but loopback (the e2e sandbox binds 127.0.0.1).
// Each test file gets a fresh nock, but Node's http module is shared by the files a worker runs, so the
// interception is removed after each file and installed again by the next one.
import { relative } from 'node:path';
import nock from 'nock';
import { DIALECT_SWITCHES_ENV } from '../../sandbox/deviations';
import { speakSwitches } from './wireDialect';
import { playedSwitches } from './serviceDialect';

/**
 * The test files that play the contract's own dialect whatever `CONNECT_TEST_DIALECT` says, and why: each asserts
 * the contract's wire on purpose, or teaches the app a dialect of its own and writes the wire for it.
 */
export const CONTRACT_DIALECT_FILES: Readonly<Record<string, string>> = {
  'test/connect/dialect.test.ts':
    "teaches the app the service dialect of SERVICE_SWITCHES and shows it apart from the contract's",
  'test/connect/dialectValues.test.ts': 'teaches the app each dialect value it tests, one by one',
  'test/connect/pages.test.ts': 'teaches the app cursor paging and writes the pages it follows',
};

// `CONNECT_TEST_DIALECT=every` (or switches, `snake-query,link-paging`): every sandbox of the run has those
// switches on, the app is taught their dialect, and the nock interceptors of unit tests speak it
// (docs/developers.md, "The suite in another dialect"). A file of `CONTRACT_DIALECT_FILES` plays the contract's.
const file = relative(`${__dirname}/../..`, expect.getState().testPath ?? '').replace(/\\/g, '/');
const switches = playedSwitches();
if (switches.length > 0 && Object.hasOwn(CONTRACT_DIALECT_FILES, file)) {
  delete process.env[DIALECT_SWITCHES_ENV];
} else if (switches.length > 0) {
  process.env[DIALECT_SWITCHES_ENV] = switches.join(',');
  jest.mock('../../src/connect/dialect', () =>
    jest.requireActual<typeof import('./serviceDialect')>('./serviceDialect').taughtByRun(),
  );
  speakSwitches(switches);
}

// The app tester compiles the app once, not twice a call (see the file); set up only when a file loads it.
jest.mock('zapier-platform-core/src/tools/schema', () =>
  jest
    .requireActual<typeof import('./compiledOnce')>('./compiledOnce')
    .schemaCompilingOnce(jest.requireActual('zapier-platform-core/src/tools/schema')),
);
jest.mock('zapier-platform-core/src/tools/resolve-method-path', () =>
  jest
    .requireActual<typeof import('./compiledOnce')>('./compiledOnce')
    .resolvingAtOnce(jest.requireActual('zapier-platform-core/src/tools/resolve-method-path')),
);

// The app tester runs each call in a `node:domain`, which turns an exception thrown outside the call's promises
// into a failed call. Once a process has made one domain, Node follows every promise it makes (a hook at each
// one's creation and another at its end): a tenth of the suite's CPU. Here the tester's domain runs the call
// as it is: such an exception is the test's uncaught exception, which fails the test as the failed call did.
jest.mock('domain', () => {
  const { EventEmitter } = jest.requireActual<typeof import('node:events')>('node:events');
  return { create: () => Object.assign(new EventEmitter(), { run: (fn: () => unknown) => fn() }) };
});

beforeAll(() => {
  if (!nock.isActive()) nock.activate();
  nock.disableNetConnect();
  nock.enableNetConnect((host) => host.startsWith('127.0.0.1') || host.startsWith('localhost'));
});

afterAll(() => {
  nock.cleanAll();
  nock.restore();
});
