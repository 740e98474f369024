/**
 * How soon every Zap has a rush, in the play's minutes (no timings): the benchmark's 10,000 registrations
 * of 1 KB in 30 minutes through three Zaps (1, 2 and 15 minutes), scaled down by 24 (answers, cache values,
 * the rush and the steady flow alike), so that the same number of answers carries it (about two). And a
 * Zap whose poll Zapier runs late while the rush is handed over: a share is returned by every poll for its
 * turn, so a Zap whose next poll comes within a turn of its previous one has every share; one run later, up
 * to Zapier's longest delay, has every share from their late turns, once the answers have room for them.
 */
import { type RushScenario, playRush } from '../../scripts/lib/pollPlay';
import { MINUTE, oneKbRush, performWith, playClock, scaledTimings } from './harness';

const SCALE = 24;
const timings = scaledTimings(SCALE, { leaseWaitMs: 20 });

const rush: RushScenario = {
  ...oneKbRush(SCALE, '10,000 of 1 KB in 30 minutes, scaled down by 24'),
  maxHours: 6,
  afterHours: 0.25,
};

const minutesToWholeRush = async (scenario: RushScenario) => {
  const played = await playRush(scenario, performWith(timings, playClock));
  expect(played.zaps.map((zap) => zap.lost)).toEqual([0, 0, 0]);
  return played.zaps.map((zap) => zap.wholeRushMs / MINUTE);
};

/** The clean rush, played once for both tests (whichever runs first; a test run alone plays it too). */
let clean: Promise<number[]> | undefined;
const cleanMinutes = () => (clean ??= minutesToWholeRush(rush));

describe('a rush of 1 KB registrations through three Zaps', () => {
  it('every Zap, the 15-minute one too, has the whole rush within 60 minutes of its start', async () => {
    // The owed shares drain in what the recent kept records leave of each answer: while shares are owed,
    // those take an eighth of it, not a quarter (with a quarter, the 15-minute Zap waited 67 minutes).
    const minutes = await cleanMinutes();
    for (const m of minutes) expect(m).toBeLessThanOrEqual(60);
  });

  const sequences: Array<{ seed: string | number; failSeed?: number }> = [
    { seed: 'the fixed one' },
    ...[6, 11, 16, 18, 27, 45, 52].map((n) => ({ seed: n, failSeed: n })),
  ];
  it.each(sequences)(
    'with 5% of cache calls failing (sequence $seed), every Zap has it within 1.5 times as long',
    async ({ failSeed }) => {
      // Which calls fail matters: a key read as lost starts a share's turn again (20 minutes) or costs a
      // range read again. With a failed call made twice at most, 7 of 50 sequences (`failSeed`) took more
      // than 1.5 times, up to 2.2 (6, 11, 16, 27 among them). Made up to 3 times, 3 of 60 still took 1.6
      // to 1.9 times (18, 45, 52: the kept entry's read failed 3 times, 1 read in 8,000, and the entry was
      // taken as lost). A kept entry that could not be read is not written over: 58 take 1.0, 2 take 1.3.
      const minutes = await cleanMinutes();
      const failing = await minutesToWholeRush({ ...rush, cacheFailing: 0.05, failSeed });
      failing.forEach((m, i) => expect(m).toBeLessThanOrEqual(1.5 * (minutes[i] as number)));
    },
  );

  it('the whole cache lost at minute 40, while the slower Zaps catch up: they have the whole rush within two turns and an interval of the loss', async () => {
    // Nothing tells what each Zap lacks: the rush (about two answers) is handed over again, in two turns
    // of its shares, newest first (the day before it, which every Zap had, after it). With the oldest
    // first, the day's first hours went before the rush: the 2- and 15-minute Zaps had it at 101 and 112.
    const lostAt = 40;
    const [, twoMinutes, fifteenMinutes] = await minutesToWholeRush({ ...rush, loseCacheAtMin: lostAt });
    const bound = lostAt + (2 * timings.owedTurnMs + timings.longestIntervalMs) / MINUTE;
    expect(twoMinutes).toBeLessThanOrEqual(bound);
    expect(fifteenMinutes).toBeLessThanOrEqual(bound);
  });
});

/** As late as a turn allows: the 15-minute Zap's next poll then comes a whole turn after its previous one. */
const lateByMin = (timings.owedTurnMs - timings.longestIntervalMs) / MINUTE;

/** The 15-minute Zap, once late by `byMin` at the first of its polls from `atMin` on: what each Zap missed. */
const playLate = async (atMin: number, byMin: number) => {
  const late = { atMin, byMin };
  const zaps = (rush.zaps ?? []).map((zap) => (zap.everyMin === 15 ? { ...zap, late } : zap));
  const name = `${rush.name}, the 15-minute Zap ${byMin} minutes late at minute ${atMin}`;
  const played = await playRush({ ...rush, name, zaps }, performWith(timings, playClock));
  expect(played.zaps[2]?.everyMin).toBe(15);
  return played;
};

describe('a Zap run late while a rush is handed over', () => {
  it.each([0, 25, 40])(
    'the 15-minute Zap, once as late as Zapier runs a poll (at minute %i), misses nothing: its shares come back in their late turns',
    async (atMin) => {
      // Without late turns, a share was done 20 minutes after its turn began: this Zap missed 104, 229 and
      // 139 registrations here. The late turns take only the room an answer has left, so they wait for the
      // rush to reach the Zaps polled on time, whose minutes do not change.
      const played = await playLate(atMin, timings.longestDelayMs / MINUTE);
      expect(played.zaps.map((zap) => zap.lost)).toEqual([0, 0, 0]);
      expect(played.zaps.map((zap) => zap.wholeRushMs / MINUTE).slice(0, 2)).toEqual(
        await cleanMinutes().then((m) => m.slice(0, 2)),
      );
      for (const zap of played.zaps) expect(Number.isFinite(zap.wholeRushMs)).toBe(true);
    },
  );

  it.each([10, 30, 50])(
    'the 15-minute Zap, once as late as a turn allows (at minute %i), misses nothing and has the whole rush',
    async (atMin) => {
      expect(lateByMin).toBeGreaterThan(0);
      const played = await playLate(atMin, lateByMin);
      expect(played.zaps.map((zap) => zap.lost)).toEqual([0, 0, 0]);
      for (const zap of played.zaps) expect(Number.isFinite(zap.wholeRushMs)).toBe(true);
    },
  );
});
