/** The kit's words for what an answer holds instead, how it blanks the key, and how a group that fails ends. */
import { PathSegmentError } from '../../src/connect/paths';
import { Probe } from '../../scripts/conformance/http';
import { guarded } from '../../scripts/conformance/index';
import { newRun } from '../../scripts/conformance/run';
import { WHOLE_TEXT_MIN, keyBlanker } from '../../scripts/conformance/secret';
import {
  alternativeList,
  counterpartOf,
  counterpartPairs,
  envelopeWords,
  errorBodyWords,
  pagingWords,
} from '../../scripts/conformance/shape';

const none = (text: string) => text;

describe('keyBlanker', () => {
  const key = 'sk_live_a+b/c_7f3a9c';

  it('blanks a key long enough to be one wherever it is, in its escaped spellings too', () => {
    const blank = keyBlanker(key);
    const text = `x${key}y "${JSON.stringify(key).slice(1, -1)}" ${encodeURIComponent(key)}`;
    expect(blank(text)).toBe('x[redacted]y "[redacted]" [redacted]');
    expect(key.length).toBeGreaterThanOrEqual(WHOLE_TEXT_MIN);
  });

  it('blanks a shorter value only as a whole word, so that it corrupts nothing else', () => {
    const blank = keyBlanker('127');
    expect(blank('http://127.0.0.1:4011 answered for 127, "127" and (127)')).toBe(
      'http://127.0.0.1:4011 answered for [redacted], "[redacted]" and ([redacted])',
    );
    expect(blank('127 127')).toBe('[redacted] [redacted]');
    expect(keyBlanker('a.b')('a.b axb')).toBe('[redacted] axb');
  });
});

describe('counterparts', () => {
  it('finds the same name in another case, a usual synonym, and id for the own identifier', () => {
    const known = new Set(['submissionId', 'createdAt', 'eventId']);
    expect(counterpartOf('createdAt', ['id', 'created_at'], known)).toBe('created_at');
    expect(counterpartOf('submissionId', ['id', 'created_at'], known, 'submissionId')).toBe('id');
    expect(counterpartOf('eventId', ['id'], known, 'submissionId')).toBeNull();
    expect(counterpartOf('data', ['results', 'total'], new Set())).toBe('results');
    expect(counterpartOf('code', ['type', 'message'], new Set(['message']))).toBe('type');
  });

  it('pairs each missing name once, over the records', () => {
    const pairs = counterpartPairs(
      [
        { id: 'a', created_at: 'x' },
        { id: 'b', first_name: 'y' },
      ],
      ['submissionId', 'createdAt', 'firstName'],
      'submissionId',
    );
    expect(pairs).toEqual([
      { wanted: 'submissionId', found: 'id' },
      { wanted: 'createdAt', found: 'created_at' },
      { wanted: 'firstName', found: 'first_name' },
    ]);
  });
});

describe('envelopes', () => {
  it('quotes the keys, names the list and the paging, with the beginning of the answer', () => {
    const json = { results: [{ id: 1 }], next: null };
    expect(envelopeWords(json, { shown: JSON.stringify(json) }, none)).toBe(
      'Its top-level keys: "results", "next". "results" is likely what the contract calls "data". "next" (null here) may mean cursor paging, which the app does not follow: it reads one answer per list, so records on a next page would be missed. The answer begins "{"results":[{"id":1}],"next":null}".',
    );
    expect(alternativeList(json)).toEqual({ key: 'results', items: [{ id: 1 }] });
    expect(alternativeList([1, 2])).toEqual({ key: null, items: [1, 2] });
    expect(alternativeList({ a: [1], b: [2] })).toBeNull();
    expect(alternativeList({ rows: [1], b: [2] })).toEqual({ key: 'rows', items: [1] });
  });

  it('says when paging says more pages follow', () => {
    expect(pagingWords({ data: [], next_cursor: 'abc' }, none)).toEqual({
      more: true,
      words: expect.stringMatching(/^"next_cursor" is set \("abc"\): the answer says more pages follow/),
    });
    expect(pagingWords({ data: [], page: 2 }, none)).toBeNull();
  });

  it('blanks the key in what it quotes before cutting it', () => {
    const key = 'sk_live_0123456789abcdef0123456789';
    const words = errorBodyWords({ error: { type: `${key}${key}`, message: 'm' } }, keyBlanker(key));
    expect(words).toBe(
      'its "error" object has "type", "message"; "type" ("[redacted][redacted]") is likely what the contract calls "code"',
    );
    expect(words).not.toContain(key.slice(0, 8));
  });
});

describe('a group that cannot finish', () => {
  const run = newRun(new Probe('https://api.example.com', 'sk_live_guard_0123456789'), {
    baseUrl: 'https://api.example.com',
    apiKey: 'sk_live_guard_0123456789',
  });

  it('reports an identifier that cannot be put in an address as a difference', async () => {
    const checks = await guarded(run, [
      'floor plans',
      'floorPlans',
      () => {
        throw new PathSegmentError('..', '".." would point to another address');
      },
    ]);
    expect(checks).toEqual([expect.objectContaining({ id: 'floorPlans.unfinished', status: 'differs' })]);
  });

  it('reports a fault of the kit as unchecked, in one line without the key', async () => {
    const checks = await guarded(run, [
      'events',
      'events',
      () => {
        throw new TypeError('boom with sk_live_guard_0123456789\n    at somewhere (file.ts:1:1)');
      },
    ]);
    expect(checks).toEqual([
      expect.objectContaining({
        id: 'events.unfinished',
        status: 'unchecked',
        detail: expect.stringMatching(
          /^They stopped at an unexpected error of the kit \(TypeError: boom with \[redacted\]\)/,
        ),
      }),
    ]);
  });
});
