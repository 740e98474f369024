/**
 * The rushes of `bench:poll`: each scenario alone in a fresh Node process on the compiled app
 * (scripts/bench-poll-rush.cjs over scripts/lib/pollPlay.ts), so that its peak resident set is its own.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { STREAM_LIMITS_ENV } from '../../src/connect';
import { PLAY_START, type Played, type PlayedPoll, type RushScenario, zapsOf } from './pollPlay';

const ROOT = path.resolve(__dirname, '..', '..');
const NODE = process.execPath;
const MINUTE = 60_000;
const MIB = 1024 * 1024;

const rush = (count: number, minutes: number, recordBytes: number, script: 'latin' | 'cyrillic') => ({
  count,
  minutes,
  recordBytes,
  script,
});

/** How a scenario's cache fails, in words. */
const faultText = (s: Pick<RushScenario, 'loseCacheAtMin' | 'cacheFailing' | 'failSeed'>) =>
  s.loseCacheAtMin !== undefined
    ? `whole cache lost at ${s.loseCacheAtMin} min`
    : s.cacheFailing
      ? `${Math.round(s.cacheFailing * 100)}% of cache calls failing${s.failSeed === undefined ? '' : ` (seed ${s.failSeed})`}`
      : 'no fault';

/**
 * Which calls fail decides how soon the slower Zaps have the rush (a turn started again costs 20 minutes):
 * the 5% play is played with the fixed sequence and these other seeds, and the target is taken at the worst.
 */
const FAIL_SEEDS = [1, 2, 3, 4];

/** Three Zaps of one account on one event (Zapier cannot tell them apart): every 1, 2 and 15 minutes. */
export const THREE_ZAPS = [{ everyMin: 1 }, { everyMin: 2, phaseMin: 1 }, { everyMin: 15, phaseMin: 7 }];

/** The rush whose 15-minute Zap is polled once 30 minutes late. */
const LATE_RUSH = '10,000 in 30 min, 1 KB, the 15-min Zap once 30 min late';

/** What every rush play shares: three Zaps, 1,000 registrations an hour around the rush, 30 hours at most. */
const THREE_ZAPS_PLAY = { everyMin: 1, zaps: THREE_ZAPS, perHour: 1_000, maxHours: 30, afterHours: 1 };

/**
 * The scenarios: 10,000 in 30 minutes (1 KB, 4 KB Latin, 4 KB Cyrillic, 10 KB), each through three Zaps of
 * one stream, the same with the cache failing and with one Zap polled late, and 30,000 in an hour (1 KB)
 * through five.
 */
export const RUSH_SCENARIOS: RushScenario[] = [
  ...[
    ['10,000 in 30 min, 1 KB', rush(10_000, 30, 1_000, 'latin')] as const,
    ['10,000 in 30 min, 4 KB Latin', rush(10_000, 30, 4_000, 'latin')] as const,
    ['10,000 in 30 min, 4 KB Cyrillic', rush(10_000, 30, 4_000, 'cyrillic')] as const,
    ['10,000 in 30 min, 10 KB', rush(10_000, 30, 10_000, 'latin')] as const,
  ].map(([name, r]) => ({ ...THREE_ZAPS_PLAY, name, rush: r })),
  // The same rushes when the cache fails: its whole content lost once while the rush is handed over, or
  // 5% of its calls failing (throwing, or timing out).
  ...[
    ['10,000 in 30 min, 1 KB', rush(10_000, 30, 1_000, 'latin'), { loseCacheAtMin: 40 }] as const,
    ['10,000 in 30 min, 1 KB', rush(10_000, 30, 1_000, 'latin'), { cacheFailing: 0.05 }] as const,
    ...FAIL_SEEDS.map(
      (failSeed) =>
        [
          '10,000 in 30 min, 1 KB',
          rush(10_000, 30, 1_000, 'latin'),
          { cacheFailing: 0.05, failSeed },
        ] as const,
    ),
    ['10,000 in 30 min, 10 KB', rush(10_000, 30, 10_000, 'latin'), { loseCacheAtMin: 120 }] as const,
  ].map(([name, r, fault]) => ({
    ...THREE_ZAPS_PLAY,
    name: `${name}, ${faultText(fault)}`,
    rush: r,
    ...fault,
  })),
  // A Zap whose poll Zapier runs late while the rush is handed over: the 15-minute one, once, 30 minutes
  // late at the rush's end (a share's turn covers a poll up to 5 minutes late, its late turn the rest:
  // test/polling/rushDrain.test.ts).
  {
    ...THREE_ZAPS_PLAY,
    name: LATE_RUSH,
    rush: rush(10_000, 30, 1_000, 'latin'),
    zaps: [...THREE_ZAPS.slice(0, 2), { everyMin: 15, phaseMin: 7, late: { atMin: 30, byMin: 30 } }],
    // What that Zap misses it never gets: 6 hours show it (the play would otherwise go on to its 30).
    maxHours: 6,
  },
  {
    ...THREE_ZAPS_PLAY,
    name: '30,000 in 60 min, 1 KB',
    zaps: [...THREE_ZAPS, { everyMin: 5, phaseMin: 3 }, { everyMin: 15, phaseMin: 11 }],
    rush: rush(30_000, 60, 1_000, 'latin'),
  },
];

/**
 * The steady play whose CPU per poll `bench:poll` prints: the three Zaps and 1,000 registrations an hour,
 * turned on 210 minutes before the measured hour, so that the kept entry holds its whole 150 minutes at
 * every measured poll (each hands back about 2,500 registrations), and no rush (one registration).
 */
export const STEADY_SCENARIO: RushScenario = {
  ...THREE_ZAPS_PLAY,
  name: 'steady, 1,000 an hour',
  rush: rush(1, 1, 1_000, 'latin'),
  turnedOnMin: 210,
  maxHours: 0.25,
  afterHours: 0,
};

type Outcome = { code: number | null; stdout: string; stderr: string };

/**
 * The app's own time limits for a play (the connect layer's, set through the environment): a request may
 * take 20 s to start and 27 s in all, on real time, which a long play on a busy machine reaches. The plays
 * give them 10 minutes, and the polling room's run limit too (`BENCH_TIMINGS`): the figures are of the
 * logic, not of this machine's speed.
 */
export const PLAY_LIMITS = JSON.stringify({ requestMs: 600_000, lookupMs: 600_000, stallMs: 600_000 });

/** Runs a child; its `PROGRESS` lines are handed to `progress` as they come. */
const run = (args: string[], progress: (line: string) => void = () => undefined): Promise<Outcome> =>
  new Promise((resolve) => {
    const env = { ...process.env, [STREAM_LIMITS_ENV]: PLAY_LIMITS };
    const child = spawn(NODE, args, { cwd: ROOT, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      for (const line of text.split('\n')) if (line.startsWith('PROGRESS ')) progress(line.slice(9));
      stderr += text
        .split('\n')
        .filter((line) => !line.startsWith('PROGRESS '))
        .join('\n');
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });

/** Compiles the app and the play into .tmp/bench-rush (plain Node, as Zapier runs the app). */
const compile = async (): Promise<string> => {
  const out = path.join(ROOT, '.tmp', 'bench-rush');
  const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const options = ['--outDir', out, '--rootDir', '.', '--module', 'commonjs', '--target', 'ES2023'];
  const flags = ['--esModuleInterop', '--resolveJsonModule', '--skipLibCheck', '--strict'];
  await run([
    tsc,
    'index.ts',
    'scripts/lib/pollPlay.ts',
    'scripts/lib/pollReplay.ts',
    ...options,
    ...flags,
    '--types',
    'node',
  ]);
  if (!existsSync(path.join(out, 'scripts', 'lib', 'pollPlay.js')))
    throw new Error('the rush play did not compile');
  return out;
};

/** A poll of a rush play replayed alone in a fresh process (scripts/bench-poll-lone.cjs). */
export interface LonePoll {
  /** Its index in the play, and its figures there. */
  poll: number;
  inPlay: PlayedPoll;
  /** Alone: bytes read from the service, items answered, the process before the poll and at its peak. */
  service?: number;
  items?: number;
  ms?: number;
  rssBefore?: number;
  peakRss?: number;
  peakHeap?: number;
  /** The same poll's peak with V8's old generation capped at 128 MB: what it keeps alive, less garbage. */
  cappedPeakRss?: number;
  error?: string;
}

/** A played rush; `alone`: its heaviest polls, each replayed alone (`measuredAlone`). */
export type RushResult = (Played & { alone?: LonePoll[] }) | { scenario: RushScenario; error: string };

/** Zapier's memory limit for a run. */
const RUN_MEMORY = 256 * MIB;

/** How a play's garbage is collected: a full collection forced before each poll, or as V8 chooses. */
export type Collect = 'forced' | 'gc-as-v8-chooses';

/**
 * Plays `scenario` in a child process on the compiled app (`out`), its garbage collected as `collect` says;
 * `saving`: only to save the cache before those polls (scripts/bench-poll-rush.cjs).
 */
const playChild = async (
  out: string,
  scenario: RushScenario,
  collect: Collect,
  progress: (line: string) => void,
  saving: string[] = [],
): Promise<RushResult> => {
  const child = path.join(ROOT, 'scripts', 'bench-poll-rush.cjs');
  const args = [child, out, JSON.stringify(scenario), collect, ...saving];
  const outcome = await run(['--expose-gc', ...args], progress);
  const line = /^RESULT (.*)$/m.exec(outcome.stdout)?.[1];
  return line
    ? (JSON.parse(line) as Played)
    : { scenario, error: outcome.stderr.slice(0, 400) || `exit ${outcome.code}` };
};

/** How a steady poll's CPU is measured (see `playSteadyCpu`). */
export type SteadyCpuWay = Collect | 'fresh-workers';

/**
 * CPU per steady poll (ms, the mean over the measured hour of `STEADY_SCENARIO`), measured three ways, each
 * in a fresh process: with garbage collected as V8 chooses (what a warm Zapier worker pays: each poll's
 * garbage is collected in whichever poll V8 picks, and counted there), the worker remembering what it
 * decoded (src/polling/decoded.ts: a worker that ran the stream's previous poll); the same with every poll
 * in a worker that ran none of the stream's polls before (`freshWorkers`: Zapier may send each poll to
 * another process); and with a full collection forced before each poll and not counted (what the rush plays
 * do, for their memory figures). A forced collection empties the young generation, so the next poll's
 * objects are copied more often: that figure is higher, for a cost Zapier never pays.
 */
export const playSteadyCpu = async (
  progress: (line: string) => void,
): Promise<Record<SteadyCpuWay, number | string>> => {
  const out = await compile();
  const figures: Record<SteadyCpuWay, number | string> = {
    'gc-as-v8-chooses': NaN,
    'fresh-workers': NaN,
    forced: NaN,
  };
  for (const way of ['gc-as-v8-chooses', 'fresh-workers', 'forced'] as const) {
    const fresh = way === 'fresh-workers';
    const scenario = fresh ? { ...STEADY_SCENARIO, freshWorkers: true } : STEADY_SCENARIO;
    const played = await playChild(out, scenario, fresh ? 'gc-as-v8-chooses' : way, progress);
    figures[way] = 'error' in played ? played.error : rushFigures(played).steadyCpu;
  }
  return figures;
};

/** Runs one poll alone (scripts/bench-poll-lone.cjs, with `args` after Node's flags): its figures. */
const lone = async (args: string[]): Promise<Omit<LonePoll, 'poll' | 'inPlay'>> => {
  const outcome = await run(['--expose-gc', ...args]);
  const line = /^RESULT (.*)$/m.exec(outcome.stdout)?.[1];
  return line
    ? (JSON.parse(line) as Omit<LonePoll, 'poll' | 'inPlay'>)
    : { error: outcome.stderr.slice(0, 400) || `exit ${outcome.code}` };
};

/**
 * The polls of a play to replay alone: the three during which its whole process peaked highest and the
 * three that read the most (from the service and the cache), in the order they were played.
 */
const heaviestPolls = (p: Played): number[] => {
  const top = (weight: (poll: PlayedPoll) => number) =>
    p.polls
      .map((poll, index) => ({ index, weight: weight(poll) }))
      .sort((a, b) => b.weight - a.weight)
      .slice(0, 3)
      .map(({ index }) => index);
  const picked = [...top((poll) => poll.rss), ...top((poll) => poll.service + poll.cacheRead)];
  return [...new Set(picked)].sort((a, b) => a - b);
};

/**
 * The heaviest polls of `p` (`heaviestPolls`), each replayed alone in a fresh process over the cache as the
 * play left it before that poll, reading the service from another process: the scenario is played again to
 * save those caches (a play replays exactly), then each poll runs alone (scripts/bench-poll-lone.cjs), its
 * memory its own and the app's, as at Zapier (the play's process also holds its cache and makes the
 * service's answers).
 */
const measureAlone = async (out: string, p: Played, progress: (line: string) => void) => {
  const polls = heaviestPolls(p);
  const dir = path.join(out, 'alone');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const saving = JSON.stringify({ dir, polls });
  const saved = await playChild(out, p.scenario, 'forced', progress, [saving]);
  const loseAt = PLAY_START + (p.scenario.loseCacheAtMin ?? Infinity) * MINUTE;
  const lostAt = p.polls.findIndex((poll) => poll.at >= loseAt);
  const alone: LonePoll[] = [];
  for (const poll of polls) {
    const inPlay = p.polls[poll] as PlayedPoll;
    if ('error' in saved) {
      alone.push({ poll, inPlay, error: `saving the cache: ${saved.error}` });
      continue;
    }
    // The poll that found the whole cache lost ran over an empty one (the play empties it just before).
    const file = poll === lostAt ? '' : path.join(dir, `${poll}.cache`);
    const child = path.join(ROOT, 'scripts', 'bench-poll-lone.cjs');
    const args = [child, out, JSON.stringify(p.scenario), String(inPlay.at), file];
    const figures = await lone(args);
    const capped = await lone(['--max-old-space-size=128', ...args]);
    alone.push({ poll, inPlay, ...figures, cappedPeakRss: capped.peakRss });
    progress(aloneLines(alone.slice(-1))[0] ?? '');
  }
  rmSync(dir, { recursive: true, force: true });
  return alone;
};

/**
 * Whether a play's heaviest polls are replayed alone: when the whole cache is lost (its recovery polls read
 * the service again the most) and when its whole process passed 256 MB (that figure then proves nothing of
 * one poll).
 */
const measuredAlone = (p: Played): boolean =>
  p.scenario.loseCacheAtMin !== undefined || rushFigures(p).peakRss > RUN_MEMORY;

/** Plays every scenario, one child process at a time; `progress` is given each one's line as it ends. */
export const playRushes = async (
  scenarios: RushScenario[],
  progress: (line: string) => void,
): Promise<RushResult[]> => {
  const out = await compile();
  const results: RushResult[] = [];
  for (const scenario of scenarios) {
    const result = await playChild(out, scenario, 'forced', (line) => progress(`  … ${line}`));
    if (!('error' in result) && measuredAlone(result))
      result.alone = await measureAlone(out, result, (line) => progress(`  … ${line}`));
    results.push(result);
    progress(rushLines([result])[1] ?? '');
  }
  return results;
};

const pad = (value: string | number, width: number) => String(value).padStart(width);
const minutes = (ms: number) => (Number.isFinite(ms) ? `${(ms / MINUTE).toFixed(0)} min` : 'never');

/** The figures of one played rush. */
export const rushFigures = (p: Played) => {
  const after = p.drainedFrom >= 0 ? p.polls.slice(p.drainedFrom) : [];
  // A poll reads again the last 2.5 minutes before the previous one (late visibility): right after a rush,
  // that is rush registrations. These polls read only after the rush.
  const rushEnd = PLAY_START + p.scenario.rush.minutes * MINUTE;
  const every = Math.max(...zapsOf(p.scenario).map((zap) => zap.everyMin)) * MINUTE;
  const pastMargin = after.filter((poll) => poll.at - every - 2.5 * MINUTE >= rushEnd);
  const count = Math.max(p.polls.length, 1);
  // Several Zaps may poll in the same minute: ratios are of sums over the polls, not of single polls.
  const ratio = (polls: typeof after, key: 'service' | 'least') =>
    polls.reduce((n, poll) => n + poll[key], 0) /
    Math.max(
      polls.reduce((n, poll) => n + poll.floor, 0),
      1,
    );
  // At steady state: the hour before the rush (the kept entry holds its 150 minutes by then).
  const steady = p.polls.filter((poll) => poll.at < PLAY_START && poll.at >= PLAY_START - 60 * MINUTE);
  const cpu = (polls: typeof after) =>
    polls.reduce((n, poll) => n + (poll.cpuMs ?? 0), 0) / Math.max(polls.length, 1);
  return {
    /** CPU per poll (ms): over the whole play, and at steady state before the rush. */
    cpuPerPoll: cpu(p.polls),
    steadyCpu: cpu(steady),
    maxAnswer: Math.max(...p.polls.map((poll) => poll.answer)),
    peakRss: Math.max(...p.polls.map((poll) => poll.rss)),
    cacheRead: p.polls.reduce((n, poll) => n + poll.cacheRead, 0) / count,
    cacheWritten: p.polls.reduce((n, poll) => n + poll.cacheWritten, 0) / count,
    /** Service bytes against the floor over the polls once the backlog is drained. */
    afterRatio: ratio(after, 'service'),
    /** What any reader of the endpoint must read over those polls, against the floor. */
    leastRatio: ratio(after, 'least'),
    /** Service bytes over those polls against what any reader must read. */
    overLeast: ratio(after, 'service') / Math.max(ratio(after, 'least'), 1e-9),
    /** The same, from the first poll whose re-read of the late-visibility margin is past the rush. */
    pastMarginRatio: ratio(pastMargin, 'service'),
  };
};

const zapsText = (s: RushScenario) =>
  zapsOf(s)
    .map((zap) => zap.everyMin)
    .join('/');

/** One line per scenario, then one per Zap: what it missed, when it had the whole rush, how late after. */
export const rushLines = (results: RushResult[]): string[] => {
  const head = `${pad('rush', 32)} ${pad('Zaps (min)', 12)} ${pad('CPU/poll', 9)} ${pad('steady', 8)} ${pad('lost', 5)} ${pad('max answer', 11)} ${pad('peak RSS', 9)} ${pad('cache r/poll', 13)} ${pad('cache w/poll', 13)} ${pad('svc/floor after', 15)} ${pad('least/floor', 11)} ${pad('svc/least', 9)} ${pad('past margin', 11)}`;
  const rows = results.flatMap((r) => {
    if ('error' in r)
      return [`${pad(r.scenario.name, 32)} ${pad(zapsText(r.scenario), 12)}  failed: ${r.error}`];
    const f = rushFigures(r);
    const line = `${pad(r.scenario.name, 32)} ${pad(zapsText(r.scenario), 12)} ${pad(`${f.cpuPerPoll.toFixed(0)} ms`, 9)} ${pad(`${f.steadyCpu.toFixed(0)} ms`, 8)} ${pad(r.lost, 5)} ${pad(`${(f.maxAnswer / MIB).toFixed(2)} MiB`, 11)} ${pad(`${(f.peakRss / MIB).toFixed(0)} MiB`, 9)} ${pad(`${(f.cacheRead / 1024).toFixed(0)} KiB`, 13)} ${pad(`${(f.cacheWritten / 1024).toFixed(0)} KiB`, 13)} ${pad(`${f.afterRatio.toFixed(2)}x`, 15)} ${pad(`${f.leastRatio.toFixed(2)}x`, 11)} ${pad(`${f.overLeast.toFixed(2)}x`, 9)} ${pad(`${f.pastMarginRatio.toFixed(2)}x`, 11)}`;
    const zaps = (r.zaps ?? []).map(
      (zap, i) =>
        `${pad(`Zap ${i + 1}, every ${zap.everyMin} min:`, 34)} missed ${zap.lost}; had the whole rush ${minutes(zap.wholeRushMs ?? Infinity)} after it began (its last registration ${minutes(zap.lastDelayMs ?? Infinity)} after it was made); later registrations at most ${((zap.latestAfterMs ?? 0) / MINUTE).toFixed(1)} min after they were made`,
    );
    return [line, ...zaps, ...aloneLines(r.alone ?? [])];
  });
  return [head, ...rows];
};

/** One line per poll replayed alone: its memory alone against the play's whole process at that poll. */
export const aloneLines = (alone: LonePoll[]): string[] =>
  alone.map((lone) => {
    const { inPlay } = lone;
    const when = `${pad(`poll ${lone.poll}`, 10)} (minute ${((inPlay.at - PLAY_START) / MINUTE).toFixed(0)}, Zap ${inPlay.zap + 1})`;
    const mb = (bytes: number | undefined) => `${((bytes ?? NaN) / MIB).toFixed(0)} MiB`;
    if (lone.error) return `${pad('', 34)} ${when} alone: failed: ${lone.error}`;
    const same = lone.service === inPlay.service && lone.items === inPlay.items;
    return `${pad('', 34)} ${when} alone: peak RSS ${mb(lone.peakRss)} (${mb(lone.rssBefore)} before it; heap peak ${mb(lone.peakHeap)}; ${mb(lone.cappedPeakRss)} with the old generation capped at 128 MB), ${(lone.ms ?? NaN).toFixed(0)} ms; read ${mb(lone.service)} from the service, answered ${lone.items} items (${same ? 'as in the play' : `in the play: ${mb(inPlay.service)}, ${inPlay.items} items`}); whole process in the play ${mb(inPlay.rss)}`;
  });

/** The rush targets, met or missed. */
export const rushTargets = (results: RushResult[]): Array<[boolean, string]> => {
  const played = results.filter((r): r is Played & { alone?: LonePoll[] } => !('error' in r));
  const figures = played.map((p) => ({ p, f: rushFigures(p) }));
  const onTime = played.filter((p) => p.scenario.name !== LATE_RUSH);
  const lost = onTime.reduce((n, p) => n + p.lost, 0);
  const lateZaps = played.find((p) => p.scenario.name === LATE_RUSH)?.zaps.map((zap) => zap.lost);
  const zaps = onTime.flatMap((p) => p.zaps ?? []);
  // On time once it had the rush: within its interval, the 2-minute late visibility and a minute.
  const late = zaps.filter((zap) => (zap.latestAfterMs ?? 0) > (zap.everyMin + 3) * MINUTE);
  const never = zaps.filter((zap) => zap.wholeRushMs === null || zap.wholeRushMs === Infinity);
  const answer = Math.max(...figures.map(({ f }) => f.maxAnswer));
  const rss = Math.max(...figures.map(({ f }) => f.peakRss));
  // A play whose whole process passed 256 MB counts by its heaviest polls replayed alone.
  const alone = played.flatMap(
    (p): Array<Pick<LonePoll, 'peakRss' | 'error'>> =>
      rushFigures(p).peakRss > RUN_MEMORY ? (p.alone ?? [{ error: 'not measured alone' }]) : [],
  );
  const aloneRss = Math.max(0, ...alone.map((lone) => (lone.error ? Infinity : (lone.peakRss ?? Infinity))));
  const perPoll = Math.max(
    aloneRss,
    ...figures.filter(({ f }) => f.peakRss <= RUN_MEMORY).map(({ f }) => f.peakRss),
  );
  const ratio = Math.max(...figures.map(({ f }) => f.afterRatio));
  const pastMargin = Math.max(...figures.map(({ f }) => f.pastMarginRatio));
  const least = Math.max(...figures.map(({ f }) => f.leastRatio));
  const overLeast = Math.max(...figures.map(({ f }) => f.overLeast));
  // Minutes to the whole rush, per Zap, of the rush named `name` (its fault, if any, after a comma).
  const whole = (name: string) =>
    played.find((p) => p.scenario.name === name)?.zaps.map((zap) => zap.wholeRushMs / MINUTE) ?? [];
  const list = (mins: number[]) => (mins.length ? mins.map((m) => m.toFixed(0)).join(' / ') : 'not played');
  const tenKb = whole('10,000 in 30 min, 10 KB');
  const oneKb = whole('10,000 in 30 min, 1 KB');
  // The 5% play with each sequence of failing calls: its slowest Zap against the same Zap without faults.
  const failings = [undefined, ...FAIL_SEEDS]
    .map((failSeed) => whole(`10,000 in 30 min, 1 KB, ${faultText({ cacheFailing: 0.05, failSeed })}`))
    .filter((mins) => mins.length);
  const slowerOf = (mins: number[]) => Math.max(...mins.map((m, i) => m / (oneKb[i] ?? NaN)));
  const failing = failings.reduce<number[]>(
    (worst, mins) => (slowerOf(mins) > slowerOf(worst) ? mins : worst),
    [],
  );
  const slower = slowerOf(failing);
  const within = failings.filter((mins) => slowerOf(mins) <= 1.5).length;
  const steadyCpu = Math.max(...figures.map(({ f }) => f.steadyCpu));
  return [
    [
      tenKb.length > 0 && Math.max(...tenKb) <= 8 * 60,
      `10,000 x 10 KB: every Zap (1/2/15 min) has the whole rush within 8 hours: ${list(tenKb)} min`,
    ],
    [
      oneKb.length > 0 && Math.max(...oneKb) <= 60,
      `10,000 x 1 KB: every Zap has the whole rush within 60 minutes: ${list(oneKb)} min`,
    ],
    [
      failing.length > 0 && slower <= 1.5,
      `with 5% of cache calls failing, at most 1.5x the time without faults: at worst ${list(failing)} min (${slower.toFixed(2)}x); within 1.5x with ${within} of ${failings.length} sequences of failing calls`,
    ],
    [true, `CPU per steady poll (the hour before a rush, three Zaps): ${steadyCpu.toFixed(1)} ms at most`],
    [played.length === results.length, `every rush played: ${played.length} of ${results.length}`],
    [lost === 0, `nothing lost by any Zap polled on schedule in any rush: ${lost}`],
    [
      !lateZaps || lateZaps.every((n) => n === 0),
      `a Zap polled once 30 minutes late while the rush is handed over misses nothing (a share's late turn): ${lateZaps ? `missed ${lateZaps.join(' / ')}` : 'not played'}`,
    ],
    [
      never.length === 0,
      `every Zap had the whole rush: ${zaps.length - never.length} of ${zaps.length} Zaps`,
    ],
    [
      late.length === 0,
      `once it had the rush, every later registration reached each Zap within its interval and 3 minutes of being made: ${zaps.length - late.length} of ${zaps.length} Zaps`,
    ],
    [
      answer < 6 * MIB,
      `every answer under 6 MiB (UTF-8 bytes of JSON.stringify): largest ${(answer / MIB).toFixed(3)} MiB`,
    ],
    [
      perPoll <= RUN_MEMORY,
      `peak RSS at most 256 MB at every poll of every rush: ${(perPoll / MIB).toFixed(0)} MiB at most (${alone.length ? `the whole process of a play, or the ${alone.length} heaviest polls, replayed alone, of the plays whose whole process passed it: ${(rss / MIB).toFixed(0)} MiB at most` : 'the whole process of every play, which holds its polls'})`,
    ],
    [
      ratio <= 3,
      `after a rush, service bytes at most 3x the floor over the polls once drained: ${ratio.toFixed(2)}x (any reader of the endpoint that loses no late registration must read ${least.toFixed(2)}x the floor over those polls; this one reads ${overLeast.toFixed(2)}x what it must)`,
    ],
    [
      pastMargin <= 3,
      `the same from the first poll whose 2.5-minute re-read (late visibility) is past the rush: ${pastMargin.toFixed(2)}x`,
    ],
  ];
};
