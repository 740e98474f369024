/**
 * The cursor suite's play, for `cursorSuite*.test.ts`: whole days of polling of New Form Submission against
 * a scripted server that behaves as badly as the contract allows. Every scenario asserts that each Zap
 * received every registration created (the ids ever returned to it, whether into its dedupe table or as
 * runs, equal the set created), that nothing which existed when the Zap was turned on ran it, and counts
 * what was transferred. Importing it sets the client clock up for the test file.
 */
import { POLL_TIMINGS as CURSOR_TIMING, type PollTimings } from '../../src/polling';
import type { Clock } from '../../src/memory';
export { CURSOR_TIMING, EVENT_ID, HOUR, MINUTE, Rng, START, logLines };
import {
  EVENT_ID,
  FakeCache,
  type Failure,
  HOUR,
  MINUTE,
  Rng,
  START,
  ScriptedServer,
  Zap,
  fakeZ,
  logLines,
  performWith,
} from './harness';

export const DAY = 24 * HOUR;

export interface Schedule {
  zap: Zap;
  everyMs: number;
  offsetMs?: number;
  /** Explicit poll times instead of `everyMs` (a Zap that Zapier runs late). */
  at?: Set<number>;
  /** The failure of the poll at `t`, if any. */
  fail?: (t: number) => Failure | null;
  /** Whether Zapier loses the answer of the poll at `t`. */
  lose?: (t: number) => boolean;
}

/** Two Zaps of one stream as most plays have them: A every 5 minutes, B every 15, `offsetMin` later. */
export const fiveAndFifteen = (a: Zap, b: Zap, offsetMin = 3): Schedule[] => [
  { zap: a, everyMs: 5 * MINUTE },
  { zap: b, everyMs: 15 * MINUTE, offsetMs: offsetMin * MINUTE },
];

interface Play {
  server: ScriptedServer;
  schedules: Schedule[];
  from: number;
  to: number;
  /** Adds the registrations created in the minute ending at `t`. */
  arrive?: (t: number) => void;
  /** Client clock minus server clock. */
  skewMs?: number;
  tick?: (t: number) => void;
  /** Runs before every poll (a cache emptied before each one). */
  beforePoll?: () => void;
  /** Polls due in the same minute run at the same time (their reads and writes of the cache interleave). */
  together?: boolean;
}

/** The client's clock (`Date.now`), which a scenario may set apart from the server's. */
export const client = { now: START };
beforeAll(() => {
  jest.spyOn(Date, 'now').mockImplementation(() => client.now);
});
afterAll(() => jest.restoreAllMocks());

export const report: string[] = [];
afterAll(() => {
  if (report.length) console.log(['Cursor suite: what scheduled polls transferred', ...report].join('\n'));
});

/** Plays minute by minute from `from` to `to`, then 60 quiet minutes so that every late row and Zap shows up. */
export const play = async (p: Play) => {
  for (let t = p.from; t <= p.to + 60 * MINUTE; t += MINUTE) {
    p.server.now = t;
    client.now = t + (p.skewMs ?? 0);
    if (t > p.from && t <= p.to) p.arrive?.(t);
    p.tick?.(t);
    const due = p.schedules.filter((s) =>
      s.at ? s.at.has(t) : (t - p.from - (s.offsetMs ?? 0)) % s.everyMs === 0,
    );
    if (p.together) {
      await Promise.all(due.map((s) => s.zap.poll()));
      continue;
    }
    for (const s of due) {
      p.beforePoll?.();
      p.server.failNextRequest(s.fail?.(t) ?? null);
      await s.zap.poll({ lose: s.lose?.(t) ?? false });
    }
  }
};

/**
 * Poll times of a Zap polled every `everyMs` whose every poll Zapier may start up to `maxDelayMs` late: the
 * gap between two polls is the interval plus a delay (deterministic), up to 45 minutes.
 */
export const delayedTimes = (from: number, to: number, everyMs: number, maxDelayMs: number, seed: number) => {
  const rng = new Rng(seed);
  const times = new Set<number>();
  for (let t = from; t <= to + 60 * MINUTE; ) {
    times.add(t);
    t += everyMs + (rng.next() < 0.3 ? maxDelayMs : rng.int(maxDelayMs / MINUTE + 1) * MINUTE);
  }
  return times;
};

/** About `perMinute` registrations a minute, each up to 2 minutes late (deterministic). */
export const steady = (server: ScriptedServer, perMinute: number, seed: number, prefix = 's') => {
  const rng = new Rng(seed);
  let n = 0;
  return (t: number) => {
    const count = Math.floor(perMinute) + (rng.next() < perMinute % 1 ? 1 : 0);
    for (let i = 0; i < count; i++) {
      const created = t - 1 - rng.int(MINUTE - 1);
      const lag = rng.int(CURSOR_TIMING.visibilityDelayMs + 1);
      server.add(`${prefix}_${String(n++).padStart(6, '0')}`, created, lag);
    }
  };
};

/** Registrations of the `hours` before `START` (the last ones still invisible when the Zap is turned on). */
export const history = (server: ScriptedServer, hours: number, perHour: number) => {
  const rng = new Rng(99);
  for (let i = 0; i < hours * perHour; i++) {
    server.add(`h_${String(i).padStart(5, '0')}`, START - 1 - rng.int(hours * HOUR), rng.int(2 * MINUTE + 1));
  }
};

export const setup = (count = 1, timings?: PollTimings, clock?: Clock) => {
  client.now = START;
  const server = new ScriptedServer();
  const cache = new FakeCache();
  const z = fakeZ(server, cache);
  const perform = performWith(timings, clock);
  const zaps = Array.from(
    { length: count },
    (_, i) => new Zap(`Zap ${'ABCD'[i] ?? i}`, z, { eventId: EVENT_ID }, perform),
  );
  return { server, cache, zaps };
};

/**
 * The Zap received every registration created from a day before it was turned on, and nothing that was
 * already visible when it was turned on ran it (older ones may be in its dedupe table or nowhere).
 */
export const expectComplete = (server: ScriptedServer, zap: Zap, turnedOnAt = START) => {
  const expected = [...server.createdSince(turnedOnAt - DAY)];
  const missing = expected.filter((id) => !zap.seen.has(id));
  expect({ zap: zap.name, missing: missing.slice(0, 5), count: missing.length }).toEqual({
    zap: zap.name,
    missing: [],
    count: 0,
  });
  const existing = server.visibleAt(turnedOnAt);
  expect({ zap: zap.name, ranForOld: zap.triggered.filter((id) => existing.has(id)) }).toEqual({
    zap: zap.name,
    ranForOld: [],
  });
};

/** A line of the transfer report, against a stateless 24-hour window polled as often. */
export const record = (name: string, server: ScriptedServer, perMinute: number) => {
  const polls = server.log.filter((entry) => entry.at > START);
  const items = polls.reduce((sum, entry) => sum + entry.items, 0) / polls.length;
  const kib = polls.reduce((sum, entry) => sum + entry.bytes, 0) / polls.length / 1024;
  const naive = 24 * 60 * perMinute;
  report.push(
    `  ${name.padEnd(42)} ${String(polls.length).padStart(5)} polls, ${items.toFixed(0).padStart(4)} items (${kib.toFixed(1).padStart(5)} KiB) a poll; a 24 h window: ~${naive.toFixed(0)} items (${(naive / items).toFixed(0)}x)`,
  );
};

/** About 20,000 registrations a day. */
export const BUSY = 20_000 / (24 * 60);

/** Polls whose window is the stateless one (no state was read: the cache failed, or it is a stream's first poll). */
export const statelessPolls = (server: ScriptedServer, skewMs = 0) =>
  windowPolls(server, CURSOR_TIMING.statelessMs, skewMs);

/**
 * Polls of a forgotten stream (the cache answered, with neither state nor kept entry): their window reaches
 * as far back as the kept entry keeps.
 */
export const forgottenPolls = (server: ScriptedServer, skewMs = 0) =>
  windowPolls(server, CURSOR_TIMING.keptMs + CURSOR_TIMING.settleMs, skewMs);

const windowPolls = (server: ScriptedServer, windowMs: number, skewMs: number) =>
  server.log.filter((entry) => entry.at >= START && entry.at + skewMs - entry.sinceMs === windowMs + 1);

/** Ids of the Zap's poll times: every `everyMs` from `from`, with one gap of `gapMs` starting at `heldAt`. */
export const heldTimes = (from: number, to: number, everyMs: number, heldAt: number, gapMs: number) => {
  const times = new Set<number>();
  for (let t = from; t <= to + 60 * MINUTE; t += t === heldAt ? gapMs : everyMs) times.add(t);
  return times;
};

/** The largest kept entry written, in characters of JSON. */
export const largestKept = (cache: FakeCache) =>
  Math.max(0, ...[...cache.largest].filter(([key]) => key.endsWith(':kept')).map(([, size]) => size));

/** Polls that read the service only after the newest settled point (a kept-records poll every `everyMs`). */
export const keptPolls = (server: ScriptedServer, everyMs: number) =>
  server.log.filter(
    (entry) =>
      entry.at - entry.sinceMs <=
      everyMs + CURSOR_TIMING.visibilityDelayMs + CURSOR_TIMING.settleMarginMs + 1,
  );
