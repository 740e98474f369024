/**
 * An owed share's two turns (src/polling/owed.ts): its turn, first in every answer, then, for a share holding
 * records, its late turn, in the room an answer has left, each by the same rule: done once polls have
 * returned it whole for the turn's length, started again by a poll that did not.
 */
import { POLL_TIMINGS } from '../../src/polling';
import { entryOf } from '../../src/polling/entry';
import {
  type OwedChange,
  type OwedIndex,
  type ShareRef,
  owedStore,
  owingBytes,
  sharesInTurn,
  sharesLate,
} from '../../src/polling/owed';
import { accountCacheAt } from '../support/cache';

const NOW = 1_800_000_000_000;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const { owedTurnMs, owedLateMs, answerBudgetBytes } = POLL_TIMINGS;

const storeAt = () => {
  const { cache, account } = accountCacheAt(NOW);
  return { cache, store: owedStore(account, 'stream', POLL_TIMINGS) };
};

/** A share holding one record, written, its turn started at `turnStarted`. */
const shareOf = async (store: ReturnType<typeof storeAt>['store'], n: number, turnStarted: number) => {
  const [ref] = await store.writeShares([entryOf({ n }, NOW - 90 * MINUTE + n, `sub_${n}`, 100)]);
  return { ...(ref as ShareRef), turnStarted };
};

const change = (returned: string[], lost: string[] = []): OwedChange => ({
  returned: new Set(returned),
  lost: new Set(lost),
  inTurn: [],
  replaced: new Set(),
  added: [],
});

const indexOf = (...shares: ShareRef[]): OwedIndex => ({ revision: 1, shares });

describe("an owed share's late turn", () => {
  it('begins when its turn is over: the share leaves the turns and waits in the late ones', async () => {
    const { store } = storeAt();
    const share = await shareOf(store, 1, NOW - owedTurnMs);
    const index = indexOf(share);
    expect(sharesInTurn(index, NOW, POLL_TIMINGS)).toEqual([]);
    expect(sharesLate(index, NOW, POLL_TIMINGS, answerBudgetBytes)).toEqual([share]);
    // What a Zap polled on time may still lack leaves it out.
    expect(owingBytes(index, NOW, POLL_TIMINGS)).toBe(0);
    expect(owingBytes(indexOf({ ...share, turnStarted: NOW }), NOW, POLL_TIMINGS)).toBe(share.bytes);
    // Nor what is read again from the service after a loss: not a backlog handed over for the first time.
    expect(owingBytes(indexOf({ ...share, turnStarted: NOW, again: true }), NOW, POLL_TIMINGS)).toBe(0);
    expect(store.rangeShare({ ms: NOW - HOUR, id: '' }, { ms: NOW, id: '' }, 1_000).again).toBe(true);
    const precaution = store.rangeShare({ ms: NOW - HOUR, id: '' }, { ms: NOW, id: '' }, 1_000, [], true);
    expect(precaution).toMatchObject({ again: true, precaution: true });
  });

  it('starts at the first poll that returns it, and again at the next one after a poll that did not', async () => {
    const { store } = storeAt();
    const share = await shareOf(store, 1, NOW - owedTurnMs);
    const returned = await store.close(indexOf(share), change([share.id]), NOW);
    expect(returned?.shares[0]?.lateStarted).toBe(NOW);
    const missed = await store.close(returned!, change([]), NOW + MINUTE);
    expect(missed?.shares[0]).not.toHaveProperty('lateStarted');
    expect(missed?.shares[0]?.turnStarted).toBe(share.turnStarted);
  });

  it('ends once polls returned it for a turn and until the longest delay after its turn ended: its key is cleared', async () => {
    const { cache, store } = storeAt();
    const ended = NOW - owedLateMs; // its turn ended the longest delay ago
    const share = await shareOf(store, 1, ended - owedTurnMs);
    const key = `:owed:${share.id}`;
    expect(cache.keys().some((k) => k.endsWith(key))).toBe(true);
    // Returned by every poll for less than a turn: going on.
    const short = await store.close(
      indexOf({ ...share, lateStarted: NOW - owedTurnMs + 1 }),
      change([]),
      NOW,
    );
    expect(short?.shares).toHaveLength(1);
    // Returned for a turn, but its turn ended less than the longest delay ago: a Zap run late may not have
    // polled yet (it will before then), so it goes on.
    const recent = { ...share, turnStarted: share.turnStarted + 1, lateStarted: NOW - owedTurnMs };
    expect((await store.close(indexOf(recent), change([]), NOW))?.shares).toHaveLength(1);
    const done = await store.close(indexOf({ ...share, lateStarted: NOW - owedTurnMs }), change([]), NOW);
    expect(done).toEqual({ revision: 2, shares: [] });
    expect(cache.keys().some((k) => k.endsWith(key))).toBe(false);
  });

  it('is let go when the cache lost the share: it is not read again from the service', async () => {
    const { store } = storeAt();
    const share = await shareOf(store, 1, NOW - owedTurnMs);
    const next = await store.close(indexOf(share), change([], [share.id]), NOW);
    expect(next?.shares).toEqual([]);
  });

  it('a range, whose records the service gives again, has none: it is done with its turn', async () => {
    const { store } = storeAt();
    const range = {
      ...store.rangeShare({ ms: NOW - HOUR, id: '' }, { ms: NOW, id: '' }, 100),
      turnStarted: NOW - owedTurnMs,
    };
    expect(sharesLate(indexOf(range), NOW, POLL_TIMINGS, 1e9)).toEqual([]);
    const next = await store.close(indexOf(range), change([]), NOW);
    expect(next?.shares).toEqual([]);
  });

  it('late shares come within the room, those whose late turn began first first, then the turn that ended first', async () => {
    const { store } = storeAt();
    const a = await shareOf(store, 1, NOW - owedTurnMs - 2 * MINUTE);
    const b = await shareOf(store, 2, NOW - owedTurnMs - MINUTE);
    const c = { ...(await shareOf(store, 3, NOW - owedTurnMs)), lateStarted: NOW - MINUTE };
    const index = indexOf(a, b, c);
    expect(sharesLate(index, NOW, POLL_TIMINGS, 1e9).map((ref) => ref.id)).toEqual([c.id, a.id, b.id]);
    const room = c.bytes + a.bytes;
    expect(sharesLate(index, NOW, POLL_TIMINGS, room).map((ref) => ref.id)).toEqual([c.id, a.id]);
  });
});
