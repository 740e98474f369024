/**
 * jest's global setup: the run's time limits set to `GENEROUS_LIMITS` in the environment of jest's own
 * process, before its workers start, so that every test file and every process a test starts inherit
 * them. Whatever `CONNECT_STREAM_LIMITS` the shell had is replaced: no outcome depends on how fast or busy
 * the machine is. Tests of a limit set their own short one (`setRunLimits` in `test/support/limits.ts`).
 */
import { STREAM_LIMITS_ENV } from '../../src/connect';
import { GENEROUS_LIMITS } from './limits';

export default (): void => {
  process.env[STREAM_LIMITS_ENV] = JSON.stringify(GENEROUS_LIMITS);
};
