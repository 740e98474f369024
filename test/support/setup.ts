// Unit tests never touch the network: nock refuses every host but loopback (the e2e sandbox binds 127.0.0.1).
// Each test file gets a fresh nock, but Node's http module is shared by the files a worker runs, so the
// interception is removed after each file and installed again by the next one.
import nock from 'nock';
import { DIALECT_SWITCHES_ENV } from '../../sandbox/deviations';
import { DIALECT_ENV, EVERY_SWITCH } from './serviceDialect';

// `CONNECT_TEST_DIALECT=every`: every sandbox plays `EVERY_SWITCH` and the app is taught its dialect, for the
// whole run (docs/developers.md, "The suite in another dialect"). A test that mocks the dialect itself keeps its own.
if (process.env[DIALECT_ENV] === 'every') {
  process.env[DIALECT_SWITCHES_ENV] = EVERY_SWITCH.join(',');
  jest.mock('../../src/connect/dialect', () =>
    jest.requireActual<typeof import('./serviceDialect')>('./serviceDialect').taughtEvery(),
  );
}

beforeAll(() => {
  if (!nock.isActive()) nock.activate();
  nock.disableNetConnect();
  nock.enableNetConnect((host) => host.startsWith('127.0.0.1') || host.startsWith('localhost'));
});

afterAll(() => {
  nock.cleanAll();
  nock.restore();
});
