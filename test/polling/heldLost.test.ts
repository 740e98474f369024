/**
 * A Zap that Zapier holds 2 hours at steady traffic (a day of it behind), while the cache loses the stream's
 * kept entry, or all of it: the held Zap's next poll finds everything it lacks in the kept entry, rebuilt
 * from the service as far back as the entry keeps and dated by when each record was returned (or visible),
 * not taken for recent (the recent records' cap would let them go as owed shares, whose 20-minute turns a
 * held Zap sleeps through). After a total loss, the day read again is a precaution (the answer held the
 * whole window) and comes after the older kept records, which only the kept entry carries to a held Zap.
 * Before: 118 to 1,250 registrations missed at 1,000 an hour, by when in the hold it was lost.
 */
import { type RushScenario, playRush } from '../../scripts/lib/pollPlay';
import { MINUTE, performWith, playClock, scaledTimings } from './harness';

const perform = performWith(scaledTimings(1, { leaseWaitMs: 20 }), playClock);
const PLAY_START = 1_800_000_000_000;

/** Zap A every 5 minutes; Zap B every 15, its first poll at or after minute 30 run 2 hours late. */
const HELD_AT_MIN = 30;
const held: RushScenario = {
  name: 'steady traffic, a Zap held 2 hours',
  everyMin: 5,
  zaps: [{ everyMin: 5 }, { everyMin: 15, phaseMin: 1, late: { atMin: HELD_AT_MIN, byMin: 120 } }],
  rush: { count: 10, minutes: 30, recordBytes: 1_000, script: 'latin' },
  perHour: 1_000,
  maxHours: 4.5,
  afterHours: 3,
  turnedOnMin: 200,
  historyHours: 24,
};

const KEPT = /:kept$|:kept:tail\d*$/;

describe('a Zap held 2 hours while the cache loses the stream’s memory', () => {
  const when = (intoMin: number) =>
    intoMin < 0 ? `${-intoMin} minutes before the hold` : `${intoMin} minutes into the hold`;
  it.each(
    [
      ['the kept entry', 20],
      ['the kept entry', 60],
      ['the kept entry', 100],
      ['the whole cache', -20],
      ['the whole cache', 20],
      ['the whole cache', 40],
      ['the whole cache', 60],
      ['the whole cache', 100],
    ].map(([what, intoMin]) => ({
      what: what as string,
      intoMin: intoMin as number,
      at: when(intoMin as number),
    })),
  )('$what lost $at: both Zaps miss nothing', async ({ what, intoMin }) => {
    let lost = false;
    const played = await playRush(held, perform, (cache) => {
      if (lost || Date.now() < PLAY_START + (HELD_AT_MIN + intoMin) * MINUTE) return;
      lost = true;
      if (what === 'the whole cache') cache.evict();
      else for (const key of cache.keys()) if (KEPT.test(key)) cache.drop(key);
    });
    expect(lost).toBe(true);
    // B's polls: one before the hold, the next 2 hours and an interval later, then more.
    const times = played.polls
      .filter((poll) => poll.zap === 1)
      .map((poll) => (poll.at - PLAY_START) / MINUTE);
    const gap = Math.max(...times.slice(1).map((t, i) => t - (times[i] as number)));
    expect(gap).toBe(135);
    expect(times.some((t) => t > HELD_AT_MIN + 135)).toBe(true);
    expect(played.zaps.map((zap) => zap.lost)).toEqual([0, 0]);
  });
});
