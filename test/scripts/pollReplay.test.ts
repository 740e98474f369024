/**
 * A poll of a rush play replayed alone (what `bench:poll` measures the memory of, in a process of its own):
 * the cache saved to a file as the play left it answers as it did, and the poll replayed over it reads and
 * answers what it did in the play.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FakeCache } from '../../scripts/lib/fakeCache';
import { playRush } from '../../scripts/lib/pollPlay';
import { replayPoll, serveService } from '../../scripts/lib/pollReplay';
import { perform, scenario } from '../polling/faultPlay';

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'poll-replay-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('a cache saved to a file', () => {
  it('answers what it held until each entry expires; what is written or deleted after wins', async () => {
    let now = 1_000;
    const live = new FakeCache(() => now);
    await live.api.set('a', { text: 'é'.repeat(3), n: 1 }, 10);
    await live.api.set('b', [1, 2, 3], 100);
    await live.api.set('c', 'forever');
    await live.api.set('gone', 'expired', 1);
    now = 3_000;
    const file = path.join(dir, 'cache');
    live.save(file);
    const saved = FakeCache.fromFile(file, () => now);
    try {
      expect(saved.keys().sort()).toEqual(['a', 'b', 'c']);
      expect(await saved.api.get('a')).toEqual({ text: 'ééé', n: 1 });
      expect(await saved.api.get('gone')).toBeNull();
      await saved.api.set('b', 'new', 100);
      expect(await saved.api.get('b')).toBe('new');
      expect(await saved.api.delete('c')).toBe(true);
      expect(await saved.api.get('c')).toBeNull();
      expect(await saved.api.set('a', 'taken', 10, undefined, true)).toBe(false);
      now = 11_001;
      expect(await saved.api.get('a')).toBeNull();
      expect(saved.keys()).toEqual(['b']);
      saved.evict();
      expect(await saved.api.get('b')).toBeNull();
    } finally {
      saved.close();
    }
  });
});

describe('a poll replayed alone', () => {
  it('over the cache saved before it, reads and answers what it did in the play', async () => {
    // Polls while the slower Zaps catch up on the rush (the shares owed, the kept entry full), and one after.
    const chosen = [60, 92, 128, 170];
    const played = await playRush(scenario, perform, (cache, poll) => {
      if (chosen.includes(poll)) cache.save(path.join(dir, `${poll}.cache`));
    });
    for (const [i, poll] of chosen.entries()) {
      const inPlay = played.polls[poll];
      if (!inPlay) throw new Error(`the play has no poll ${poll}`);
      // The service in this process, or answering over HTTP on 127.0.0.1 (as the benchmark has it).
      const served = i % 2 ? await serveService(scenario, inPlay.at) : null;
      let saved: FakeCache | undefined;
      const cacheOf = (now: () => number) => {
        saved = FakeCache.fromFile(path.join(dir, `${poll}.cache`), now);
        return saved;
      };
      try {
        const alone = await replayPoll(scenario, inPlay.at, cacheOf, perform, served?.url);
        expect({ poll, ...alone }).toEqual({
          poll,
          service: inPlay.service,
          items: inPlay.items,
          answer: inPlay.answer,
        });
      } finally {
        saved?.close();
        served?.close();
      }
      expect(inPlay.items).toBeGreaterThan(0);
    }
  });
});
