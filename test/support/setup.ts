// Unit tests never touch the network: nock refuses every host but loopback (the e2e sandbox binds 127.0.0.1).
// Each test file gets a fresh nock, but Node's http module is shared by the files a worker runs, so the
// interception is removed after each file and installed again by the next one.
import nock from 'nock';

beforeAll(() => {
  if (!nock.isActive()) nock.activate();
  nock.disableNetConnect();
  nock.enableNetConnect((host) => host.startsWith('127.0.0.1') || host.startsWith('localhost'));
});

afterAll(() => {
  nock.cleanAll();
  nock.restore();
});
