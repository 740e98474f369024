/**
 * A Zap whose poll Zapier runs late while a rush is handed over (no timings): the benchmark's 10,000
 * registrations of 1 KB in 30 minutes through three Zaps (1, 2 and 15 minutes), scaled down by 24 as in
 * rushDrain.test.ts. A share is returned by every poll for its turn, so a Zap whose next poll comes within a
 * turn of its previous one has every share. (Later than that, it can miss shares: the door comment of
 * src/polling and docs/design.md, "What remains", give the figures.)
 */
import { type RushScenario, playRush } from '../../scripts/lib/pollPlay';
import { pollTimings } from '../../src/polling';
import { performWith, playClock } from './harness';

const SCALE = 24;
const MINUTE = 60_000;
const timings = pollTimings({
  answerLimitBytes: Math.floor((6 * 1024 * 1024) / SCALE),
  cacheValueBytes: Math.floor(1_000_000 / SCALE),
  leaseWaitMs: 20,
});

/** As late as a turn allows: the 15-minute Zap's next poll then comes a whole turn after its previous one. */
const lateByMin = (timings.owedTurnMs - timings.longestIntervalMs) / MINUTE;

const rushWithLateZap = (atMin: number): RushScenario => ({
  name: `10,000 of 1 KB in 30 minutes, scaled down by 24, the 15-minute Zap late at minute ${atMin}`,
  everyMin: 1,
  zaps: [
    { everyMin: 1 },
    { everyMin: 2, phaseMin: 1 },
    { everyMin: 15, phaseMin: 7, late: { atMin, byMin: lateByMin } },
  ],
  rush: { count: Math.round(10_000 / SCALE), minutes: 30, recordBytes: 1_000, script: 'latin' },
  perHour: Math.round(1_000 / SCALE),
  maxHours: 6,
  afterHours: 0.25,
  turnedOnMin: 30,
});

describe('a Zap run late while a rush is handed over', () => {
  it.each([10, 30, 50])(
    'the 15-minute Zap, once as late as a turn allows (at minute %i), misses nothing and has the whole rush',
    async (atMin) => {
      expect(lateByMin).toBeGreaterThan(0);
      const played = await playRush(rushWithLateZap(atMin), performWith(timings, playClock));
      expect(played.zaps.map((zap) => zap.lost)).toEqual([0, 0, 0]);
      for (const zap of played.zaps) expect(Number.isFinite(zap.wholeRushMs)).toBe(true);
    },
  );
});
