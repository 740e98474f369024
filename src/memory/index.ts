/**
 * The shared memory beneath the app's stateful rooms: the account's store over `z.cache`, typed records read
 * back through a schema, and one "one at a time, others wait" primitive.
 */
export { type AccountCache, CACHE_FAILED, accountCache, accountFingerprint } from './store';
export { type Clock, systemClock } from './clock';
export { type CacheRecord, cacheRecord } from './record';
export { type LeaseOutcome, type LeaseSteps, type LeaseTimings, oneAtATime } from './lease';
