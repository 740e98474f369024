// Unit tests never touch the network: nock refuses every host but loopback (the e2e sandbox binds 127.0.0.1).
import nock from 'nock';

nock.disableNetConnect();
nock.enableNetConnect((host) => host.startsWith('127.0.0.1') || host.startsWith('localhost'));
