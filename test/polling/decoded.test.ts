/**
 * A worker's remembered decodings: a text decoded again gives the decoding made before, frozen; another
 * kind, another cap, a text too long or one that unpacks to too much, or a value that is not one is decoded
 * again; the least lately read goes first; a poll's answers are the same whether its worker remembers or not.
 */
import { decodingCounts, forgetDecodings, rememberedDecoding } from '../../src/polling/decoded';
import { playRush } from '../../scripts/lib/pollPlay';
import { oneKbRush, performWith, scaledTimings } from './harness';

/**
 * A decoding of `kind` that counts its calls: a text's JSON, `null` when it is not JSON, as if unpacked to
 * `unpackedBytes` (the text's length unless told).
 */
const counting = (kind: string, unpackedBytes: (text: string) => number = (text) => text.length) => {
  const calls: string[] = [];
  const decode = rememberedDecoding(kind, (value: unknown) => {
    calls.push(String(value));
    try {
      const decoded = JSON.parse(String(value)) as { list: Array<{ n: number }>; deep?: unknown };
      return { decoded, bytes: unpackedBytes(String(value)) };
    } catch {
      return null;
    }
  });
  return { calls, decode };
};

/** A text of `n` characters that is JSON and different for every `seed`. */
const textOf = (seed: string, n: number) => {
  const head = `{"list":[{"n":1}],"s":"${seed}`;
  return `${head}${'x'.repeat(Math.max(0, n - head.length - 2))}"}`;
};

describe('a worker remembers what it decoded', () => {
  it('gives the same decoding of the same text, decoded once, and frozen to the last object', () => {
    const { calls, decode } = counting('same');
    const text = JSON.stringify({ list: [{ n: 1 }, { n: 2 }], deep: { a: [{ b: 1 }] } });
    const first = decode(text, 100, 1_000);
    const again = decode(`${text}`, 100, 1_000);
    expect(again).toBe(first);
    expect(calls).toHaveLength(1);
    expect(Object.isFrozen(first)).toBe(true);
    expect(() => first?.list.push({ n: 3 })).toThrow(TypeError);
    expect(() => {
      (first!.list[0] as { n: number }).n = 9;
    }).toThrow(TypeError);
    const deep = first?.deep as { a: Array<{ b: number }> };
    expect(() => {
      (deep.a[0] as { b: number }).b = 2;
    }).toThrow(TypeError);
    expect(first).toEqual({ list: [{ n: 1 }, { n: 2 }], deep: { a: [{ b: 1 }] } });
  });

  it('decodes again as another kind, with another cap, or once forgotten', () => {
    const a = counting('kind-a');
    const b = counting('kind-b');
    const text = textOf('kinds', 60);
    const first = a.decode(text, 100, 1_000);
    expect(b.decode(text, 100, 1_000)).not.toBe(first);
    expect(a.decode(text, 200, 1_000)).not.toBe(first);
    const recapped = a.decode(text, 200, 1_000);
    expect(a.decode(text, 200, 1_000)).toBe(recapped);
    forgetDecodings([text]);
    expect(a.decode(text, 200, 1_000)).not.toBe(recapped);
    expect([a.calls.length, b.calls.length]).toEqual([3, 1]);
  });

  it('never remembers a text longer than it holds, nor what is not a value, yet freezes every decoding', () => {
    const { calls, decode } = counting('bounds');
    const long = textOf('long', 500);
    const once = decode(long, 100, 499);
    expect(decode(long, 100, 499)).not.toBe(once);
    expect(Object.isFrozen(once)).toBe(true);
    expect(decode(long, 100, 0)).not.toBe(once);
    expect(decode('not json', 100, 1_000)).toBeNull();
    expect(decode('not json', 100, 1_000)).toBeNull();
    expect(decode(undefined, 100, 1_000)).toBeNull();
    expect(calls).toHaveLength(6);
  });

  it('never remembers a short text that unpacks to more than it holds (a value that packs very well)', () => {
    const { calls, decode } = counting('packs well', (text) => text.length * 1_000);
    const text = textOf('well', 60);
    const once = decode(text, 100_000, 50_000);
    expect(decode(text, 100_000, 50_000)).not.toBe(once);
    expect(Object.isFrozen(once)).toBe(true);
    // Weighed as its text and what it unpacked to: 60 + 60,000.
    const held = decode(text, 100_000, 60_060);
    expect(decode(text, 100_000, 60_060)).toBe(held);
    expect(calls).toHaveLength(3);
  });

  it('forgets the text read least lately when it holds more than its bound', () => {
    // Each weighs 200: its 100 characters and the 100 bytes it unpacked to.
    const { calls, decode } = counting('bound');
    const [t1, t2, t3] = ['one', 'two', 'three'].map((seed) => textOf(seed, 100));
    const d1 = decode(t1, 100, 500);
    const d2 = decode(t2, 100, 500);
    // t1 read again: t2 is now the least lately read, and goes when t3 comes.
    expect(decode(t1, 100, 500)).toBe(d1);
    decode(t3, 100, 500);
    expect(decode(t1, 100, 500)).toBe(d1);
    expect(decode(t2, 100, 500)).not.toBe(d2);
    expect(calls).toEqual([t1, t2, t3, t2]);
  });
});

describe('a poll answers the same whether its worker remembers or not', () => {
  // The bench's rush at a 24th of its bytes: the kept entry is written whole now and then, its tail in
  // between, and every Zap's poll reads both.
  const SCALE = 24;
  const remembering = scaledTimings(SCALE);
  const forgetting = { ...remembering, decodedHeldBytes: 0 };

  it('through a rush with the whole cache lost, polled by three Zaps', async () => {
    const scenario = { ...oneKbRush(SCALE, 'lost at minute 40'), loseCacheAtMin: 40, maxHours: 4 };
    const before = { ...decodingCounts };
    const remembered = await playRush(scenario, performWith(remembering));
    const hits = decodingCounts.remembered - before.remembered;
    const made = decodingCounts.made - before.made;
    const fresh = await playRush(scenario, performWith(forgetting));
    expect(decodingCounts.remembered - before.remembered).toBe(hits);
    // Most of the kept entry's reads were remembered.
    expect(hits).toBeGreaterThan(made);
    const shape = (played: typeof fresh) => ({
      // The cache's bytes are left out: a lease's value differs from one play to the next.
      polls: played.polls.map(({ at, zap, answer, items, fresh: n, service }) => ({
        at,
        zap,
        answer,
        items,
        fresh: n,
        service,
      })),
      zaps: played.zaps,
    });
    expect(shape(remembered)).toEqual(shape(fresh));
    expect(fresh.lost).toBe(0);
  });
});
