/** The cache stand-in lives beside the scripts that also use it. */
export { FakeCache } from '../../scripts/lib/fakeCache';
