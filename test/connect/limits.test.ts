/** The run's time limits: the app's own, or those its environment sets (`CONNECT_STREAM_LIMITS`). */
import { STREAM_LIMITS, STREAM_LIMITS_ENV, streamLimits } from '../../src/connect';

describe('streamLimits', () => {
  it('are the app’s own when the environment sets none', () => {
    expect(streamLimits({})).toBe(STREAM_LIMITS);
    expect(Object.isFrozen(STREAM_LIMITS)).toBe(true);
  });

  it('take the positive numbers the environment sets and keep the others', () => {
    const limits = streamLimits({ [STREAM_LIMITS_ENV]: JSON.stringify({ lookupMs: 1_500, stallMs: 300 }) });
    expect(limits).toEqual({ ...STREAM_LIMITS, lookupMs: 1_500, stallMs: 300 });
  });

  it('ignore what is not a positive number of a known limit, and what is not JSON', () => {
    const odd = { requestMs: -1, lookupMs: 'soon', stallMs: null, stepMs: Infinity, other: 5 };
    expect(streamLimits({ [STREAM_LIMITS_ENV]: JSON.stringify(odd) })).toEqual(STREAM_LIMITS);
    expect(streamLimits({ [STREAM_LIMITS_ENV]: '{not json' })).toEqual(STREAM_LIMITS);
    expect(streamLimits({ [STREAM_LIMITS_ENV]: '[1,2]' })).toEqual(STREAM_LIMITS);
  });
});
