/**
 * The incremental reader of `{ "data": [ … ] }`: the records it hands out are exactly those of `JSON.parse` on
 * the whole body (own keys only), however the body is cut into chunks, and a body that is not a complete list is an error.
 * The bytes read here name their list member `data` and the splitter is told so (`listKey`), whatever member
 * the service's dialect holds its lists in (src/connect/dialect.ts): the subject is the reading of bytes.
 */
import fc from 'fast-check';
import { parseJsonSafely } from '../../src/connect/json';
import {
  ENVELOPE_MEMBERS,
  EnvelopeSplitter,
  ListReadError,
  type ListReadErrorKind,
} from '../../src/connect/listSplitter';

/** The list member the bytes of these tests name. */
const DATA = { listKey: 'data' };

interface Read {
  records: unknown[];
  fields: Record<string, unknown>;
  bytes: number;
}

/** Reads `body` cut at the given byte offsets. */
const readCut = (body: Buffer, cuts: number[]): Read => {
  const records: unknown[] = [];
  const splitter = new EnvelopeSplitter((value, index) => {
    expect(index).toBe(records.length);
    records.push(value);
  }, DATA);
  let from = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    splitter.write(body.subarray(from, cut));
    from = cut;
  }
  splitter.write(body.subarray(from));
  const summary = splitter.end();
  expect(summary.records).toBe(records.length);
  return { records, fields: summary.fields, bytes: summary.bytes };
};

const readChunks = (body: Buffer, size: number): Read => {
  const cuts: number[] = [];
  for (let at = size; at < body.length; at += size) cuts.push(at);
  return readCut(body, cuts);
};

/**
 * The whole body parsed at once, own keys only (as every answer is read: `parseJsonSafely`); of the envelope's
 * other members only the paging is kept.
 */
const expected = (body: Buffer): Read => {
  const parsed = parseJsonSafely(body.toString('utf8'));
  if (!parsed.ok) throw new Error('not JSON');
  const { data, ...members } = parsed.value as { data: unknown[] };
  const fields = Object.fromEntries(Object.entries(members).filter(([key]) => ENVELOPE_MEMBERS.has(key)));
  return { records: data, fields, bytes: body.length };
};

const failure = (body: Buffer | string, size = 7): ListReadError => {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  try {
    readChunks(bytes, size);
  } catch (error) {
    expect(error).toBeInstanceOf(ListReadError);
    return error as ListReadError;
  }
  throw new Error('expected the read to fail');
};

const kindOf = (body: string, size = 7): ListReadErrorKind => failure(body, size).kind;

const TRICKY = [
  { id: 'a', text: 'quote " inside', path: 'C:\\dir\\', both: '\\"', many: '\\\\\\"x' },
  { id: 'b', text: 'brackets ] } [ { and , commas: "', nested: { deep: [[1, [2, { x: '}' }]], {}], e: [] } },
  { id: 'c', name: 'Zoë Ångström — 日本語 😀 𝄞', escapes: '\u0000\u001f\u2028\u2029\ud83d\ude00', tab: '\t' },
  { id: 'd', n: -1.5e-7, big: 12345678901234567890, t: true, f: false, z: null, s: '' },
  'a bare string ] with , structure',
  42,
  null,
  [1, '2', [3]],
  { id: 'e', backslashEnd: '\\', quoteEnd: '"', onlyBackslashes: '\\\\\\\\' },
];

describe('splitting', () => {
  it('gives the records of JSON.parse at every single cut point', () => {
    const body = Buffer.from(JSON.stringify({ before: { data: [1] }, data: TRICKY, total: 9, after: ']}' }));
    const want = expected(body);
    for (let cut = 0; cut <= body.length; cut++) {
      expect(readCut(body, [cut])).toEqual(want);
    }
  });

  it('reads one byte at a time, pretty-printed with every kind of whitespace', () => {
    const pretty = JSON.stringify({ meta: { a: [1, 2] }, data: TRICKY, page: 1 }, null, '\t \r\n');
    const body = Buffer.from(` \n\r\t${pretty}\n \t\r`);
    expect(readChunks(body, 1)).toEqual(expected(body));
  });

  it('splits multi-byte characters at every byte across chunks', () => {
    const body = Buffer.from(JSON.stringify({ data: [{ id: 'x', name: 'é日😀𝄞' }, '😀'] }));
    for (let a = 1; a < body.length; a++) {
      for (const b of [a + 1, a + 2, a + 3]) {
        if (b < body.length) expect(readCut(body, [a, b]).records).toEqual(expected(body).records);
      }
    }
  });

  it('cuts between backslashes of an escape run at every position', () => {
    const records = [{ s: '\\\\\\"\\\\' }, { s: '\\' }, { s: '\\\\"' }, { s: '"\\"' }];
    const body = Buffer.from(JSON.stringify({ data: records }));
    for (let a = 1; a < body.length; a++) {
      for (let b = a + 1; b < Math.min(body.length, a + 5); b++) {
        expect(readCut(body, [a, b]).records).toEqual(records);
      }
    }
  });

  it('reads an empty list, and envelope members before and after the list', () => {
    expect(readChunks(Buffer.from('{"data":[]}'), 1)).toEqual({ records: [], fields: {}, bytes: 11 });
    expect(readChunks(Buffer.from('{ "page" : 2 , "data" : [ ] , "x" : {"data":[1]} }'), 3)).toEqual({
      records: [],
      fields: { page: 2 },
      bytes: 50,
    });
  });

  it('takes member names with escapes, and a "data" member nested elsewhere is not the list', () => {
    const body = Buffer.from('{"d\\u0061ta":[{"a":1}],"o":{"data":[9]},"q\\"":1}');
    expect(readChunks(body, 2)).toEqual(expected(body));
  });

  it('accepts text chunks as well as bytes', () => {
    const splitter = new EnvelopeSplitter(() => undefined, DATA);
    splitter.write('{"data":[{"name":"Zoë"}');
    splitter.write(']}');
    expect(splitter.end()).toEqual({
      fields: {},
      skippedMembers: 0,
      skippedNames: [],
      records: 1,
      bytes: Buffer.byteLength('{"data":[{"name":"Zoë"}]}'),
      droppedKeys: 0,
      unread: 0,
    });
  });

  it('reads only own keys: a "__proto__" key of a record is dropped and counted, never a prototype', () => {
    const records: unknown[] = [];
    const splitter = new EnvelopeSplitter((value) => records.push(value), DATA);
    for (const chunk of [
      '{"data":[{"id":"a","__proto__":{"email":"x@evil.test"}},',
      '{"id":"b","\u005f_proto__":{"email":"y@evil.test"}},{"id":"c"}]}',
    ]) {
      splitter.write(chunk);
    }
    expect(splitter.end()).toMatchObject({ records: 3, droppedKeys: 2 });
    for (const record of records) {
      expect(Object.getPrototypeOf({ ...(record as object) })).toBe(Object.prototype);
      expect((record as { email?: string }).email).toBeUndefined();
      expect(Object.keys(record as object)).toEqual(['id']);
    }
  });

  it('drops a "__proto__" member of the envelope too, spelled out or escaped', () => {
    for (const body of [
      '{"data":[],"__proto__":[]}',
      '{"\\u005f_proto__":{"total":9},"data":[{"id":"a"}],"total":1}',
    ]) {
      const splitter = new EnvelopeSplitter(() => undefined, DATA);
      splitter.write(body);
      const summary = splitter.end();
      expect(Object.keys(summary.fields)).not.toContain('__proto__');
      expect(summary.droppedKeys).toBe(1);
      expect(readCut(Buffer.from(body), [])).toEqual(expected(Buffer.from(body)));
    }
  });

  it('equals JSON.parse for any list of JSON values cut anywhere (property)', () => {
    const envelope = fc.record({
      before: fc.dictionary(
        fc.string().filter((k) => k !== 'data'),
        fc.jsonValue(),
        { maxKeys: 2 },
      ),
      data: fc.array(fc.jsonValue({ maxDepth: 4 }), { maxLength: 12 }),
      after: fc.dictionary(
        fc.string().filter((k) => k !== 'data'),
        fc.jsonValue(),
        { maxKeys: 2 },
      ),
    });
    fc.assert(
      fc.property(envelope, fc.array(fc.nat(), { maxLength: 6 }), fc.boolean(), (env, rawCuts, pretty) => {
        const value = { ...env.before, data: env.data, ...env.after };
        const body = Buffer.from(pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value));
        const cuts = rawCuts.map((c) => c % (body.length + 1));
        expect(readCut(body, cuts)).toEqual(expected(body));
      }),
      { numRuns: 300 },
    );
  });
});

describe('answers that are not a complete list', () => {
  const full = JSON.stringify({ data: TRICKY, total: 9 });

  it('rejects the answer cut at any point before its end, never a shorter list', () => {
    const body = Buffer.from(full);
    for (let cut = 1; cut < body.length; cut++) {
      expect(failure(body.subarray(0, cut), 5).kind).toBe('truncated');
    }
  });

  it('says where the answer was cut', () => {
    const error = failure('{"data":[{"id":"a"},{"id":"b"},{"id":"c', 4);
    expect(error.kind).toBe('truncated');
    expect(error.message).toMatch(/ended after 39 bytes, inside record 3/);
    expect(failure('{"data":[{"id":"a"},').message).toMatch(/inside record 2/);
    expect(failure('{"data":[{"id":"a"}]').message).toMatch(/after record 1/);
    expect(failure('{"data":[{"id":"a"}').message).toMatch(/inside record 1/);
    expect(failure('{"da').kind).toBe('truncated');
  });

  it('is not JSON: an HTML error page, plain text, an empty body', () => {
    const html = '<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>';
    const error = failure(html);
    expect(error.kind).toBe('not-json');
    expect(error.near).toBe(html);
    expect(kindOf('Service Unavailable')).toBe('not-json');
    expect(kindOf('')).toBe('not-json');
    expect(kindOf('   \n')).toBe('not-json');
    expect(kindOf('{"data": [1, 2')).toBe('truncated');
  });

  it('is not JSON past its first bytes: HTML after some records, or garbage after the end', () => {
    expect(kindOf('{"data":[{"id":"a"},<html>oops</html>]}')).toBe('syntax');
    expect(kindOf('{"data":[{"id":"a"} <html>]}')).toBe('syntax');
    expect(kindOf('{"data":[{"id":"a"}]}<html>')).toBe('syntax');
    expect(kindOf('{"data":[]} {"data":[]}')).toBe('syntax');
    expect(kindOf('{"data":[1,]}')).toBe('syntax');
    expect(kindOf('{"data":[,1]}')).toBe('syntax');
    expect(kindOf('{"data":[1 2]}')).toBe('syntax');
    expect(kindOf('{"data":[{"a":1]]}')).toBe('syntax');
    expect(kindOf('{"data":[{"a":1}}')).toBe('syntax');
    expect(kindOf('{"data" [1]}')).toBe('syntax');
    expect(kindOf('{data:[1]}')).toBe('syntax');
    expect(kindOf('{"data":[1]]')).toBe('syntax');
    expect(kindOf('{"x":1,}')).toBe('syntax');
    expect(kindOf("{'data':[]}")).toBe('syntax');
    const error = failure('{"data":[{"id":"a"},{"id":"b",}]}', 64);
    expect(error.message).toMatch(/record 2 is not valid JSON/);
    expect(error.near).toContain('"b",}');
  });

  it('has the wrong shape: valid JSON without a "data" list', () => {
    expect(kindOf('{"items":[1]}')).toBe('shape');
    expect(kindOf('{}')).toBe('shape');
    expect(kindOf('{"data":{"a":[1]}}')).toBe('shape');
    expect(kindOf('{"data":null}')).toBe('shape');
    expect(kindOf('{"data":"[1,2]"}')).toBe('shape');
    expect(kindOf('{"data":[1],"data":[2]}')).toBe('shape');
    expect(kindOf('[{"id":"a"}]')).toBe('shape');
    expect(kindOf('"data"')).toBe('shape');
    expect(kindOf('null')).toBe('shape');
    expect(failure('[1,2]').message).toMatch(/is a list, not an object with a "data" list/);
    expect(failure('{"error":{"code":"X"}}').message).toMatch(/has no "data" list/);
  });

  it('reads past one element larger than its limit without holding it, and reads on', () => {
    const seen: Array<[unknown, unknown]> = [];
    const splitter = new EnvelopeSplitter(
      (value, _index, _pruned, oversize) => seen.push([value, oversize]),
      { ...DATA, maxElementBytes: 1000 },
    );
    splitter.write('{"data":[{"id":"big","s":"');
    const big = Buffer.alloc(600, 'a');
    for (let i = 0; i < 5; i++) splitter.write(big);
    splitter.write('"},{"id":"next"},{"id":"whole","s":"' + 'b'.repeat(2000) + '"}]}');
    expect(splitter.end()).toMatchObject({ records: 3 });
    expect(seen[0]).toEqual([
      undefined,
      { bytes: 3019, head: expect.stringMatching(/^\{"id":"big","s":"a+$/) },
    ]);
    expect(seen[1]).toEqual([{ id: 'next' }, undefined]);
    expect(seen[2]?.[1]).toMatchObject({ bytes: 2021, head: expect.stringMatching(/^\{"id":"whole"/) });
  });

  it('stops at the first problem and does not hand out later records', () => {
    const seen: unknown[] = [];
    const splitter = new EnvelopeSplitter((value) => seen.push(value), DATA);
    expect(() => splitter.write('{"data":[1,{"a":}]')).toThrow(ListReadError);
    expect(seen).toEqual([1]);
  });

  it('passes on what the callback throws', () => {
    const splitter = new EnvelopeSplitter(() => {
      throw new Error('visitor failed');
    }, DATA);
    expect(() => splitter.write('{"data":[1]}')).toThrow('visitor failed');
  });
});

describe('records nested too deeply', () => {
  const deep = (depth: number, inner = '1') => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;
  const read = (body: string, size = 997) => {
    const records: Array<{ value: unknown; pruned: string[] }> = [];
    const splitter = new EnvelopeSplitter((value, _index, pruned) => records.push({ value, pruned }), DATA);
    const bytes = Buffer.from(body);
    for (let at = 0; at < bytes.length; at += size) splitter.write(bytes.subarray(at, at + size));
    return { records, summary: splitter.end() };
  };

  it('reads a record 6,000 levels deep without its too-deep member, and its siblings as they are', () => {
    const body = `{"data":[{"id":"a"},{"id":"b","answers":[{"key":"q","value":${deep(6000)}},{"key":"r","value":"x"}]},{"id":"c"}]}`;
    const { records } = read(body);
    expect(records).toEqual([
      { value: { id: 'a' }, pruned: [] },
      { value: { id: 'b', answers: [{ key: 'q' }, { key: 'r', value: 'x' }] }, pruned: ['answers[0].value'] },
      { value: { id: 'c' }, pruned: [] },
    ]);
  });

  it('leaves out a whole list element or field when it is too deep at the first levels', () => {
    const body = `{"data":[{"id":"b","tags":[1,${deep(100)},2],"extra":{"a":{"b":${deep(100)}},"c":3}}]}`;
    const { records } = read(body, 5);
    expect(records[0]).toEqual({
      value: { id: 'b', tags: [1, 2], extra: { a: {}, c: 3 } },
      pruned: ['tags[1]', 'extra.a.b'],
    });
  });

  it('reads at the limit as before: 64 levels in all are kept whole', () => {
    const record = `{"id":"a","v":${deep(63)}}`;
    expect(read(`{"data":[${record}]}`).records).toEqual([{ value: JSON.parse(record), pruned: [] }]);
    expect(read(`{"data":[{"id":"a","v":${deep(64)}}]}`).records[0]).toEqual({
      value: { id: 'a', v: [] },
      pruned: ['v[0]'],
    });
  });

  it('with a \\u escape (JSON.parse with a reviver recurses), and with "__proto__" keys among the members', () => {
    const body = `{"data":[{"id":"\\u0061","__proto__":{"x":1},"v":${deep(3000, '"\\u00e9"')}}]}`;
    const { records, summary } = read(body);
    expect(records).toEqual([{ value: { id: 'a', v: [] }, pruned: ['v[0]'] }]);
    expect(summary.droppedKeys).toBe(1);
    expect(Object.getPrototypeOf(records[0]?.value)).toBe(Object.prototype);
  });

  it('hands out nothing of an item that is only nesting, 100,000 deep, and reads on', () => {
    const { records } = read(`{"data":[${deep(100_000)},{"id":"z"}]}`, 65536);
    expect(records).toHaveLength(2);
    expect(records[0]).toEqual({ value: undefined, pruned: [''] });
    expect(records[1]).toEqual({ value: { id: 'z' }, pruned: [] });
  });

  it('still refuses a too-deep record that is not valid JSON', () => {
    expect(kindOf(`{"data":[{"id":"a","v":${deep(100)}x}]}`)).toBe('syntax');
    expect(kindOf(`{"data":[{"id":"a" "v":${deep(100)}}]}`)).toBe('syntax');
  });
});

describe('envelope members besides the list', () => {
  it('keeps only the paging, and names the others without keeping them', () => {
    const splitter = new EnvelopeSplitter(() => undefined, DATA);
    splitter.write('{"page":2,"meta":{"a":[1]},"data":[],"limit":20,"total":41,"note":"x"}');
    expect(splitter.end()).toMatchObject({
      fields: { page: 2, limit: 20, total: 41 },
      skippedMembers: 2,
      skippedNames: ['meta', 'note'],
    });
  });

  it('reads past a member of 50 MB, in chunks, and the records around it are all there', () => {
    const records: unknown[] = [];
    const splitter = new EnvelopeSplitter((value) => records.push(value), DATA);
    splitter.write('{"data":[{"id":"a"}],"padding":"');
    const chunk = Buffer.alloc(1024 * 1024, 'x');
    for (let i = 0; i < 50; i++) splitter.write(chunk);
    splitter.write('","more":[');
    const open = Buffer.alloc(1024 * 1024, '[');
    const close = Buffer.alloc(1024 * 1024, ']');
    for (let i = 0; i < 4; i++) splitter.write(open);
    for (let i = 0; i < 4; i++) splitter.write(close);
    splitter.write('],"total":1}');
    expect(splitter.end()).toMatchObject({
      fields: { total: 1 },
      skippedMembers: 2,
      skippedNames: ['padding', 'more'],
    });
    expect(records).toEqual([{ id: 'a' }]);
  });

  it('reads past a member name of 1 MB, which is neither the list nor the paging', () => {
    const splitter = new EnvelopeSplitter(() => undefined, DATA);
    splitter.write(`{"${'k'.repeat(1024 * 1024)}":1,"data":[1],"page":3}`);
    expect(splitter.end()).toMatchObject({
      fields: { page: 3 },
      skippedMembers: 1,
      skippedNames: ['(a very long name)'],
      records: 1,
    });
  });

  it('a paging member too large or too deep to read is left out, never an error', () => {
    const splitter = new EnvelopeSplitter(() => undefined, DATA);
    splitter.write(
      `{"data":[],"total":"${'9'.repeat(100_000)}","page":${'['.repeat(100)}${']'.repeat(100)}}`,
    );
    expect(splitter.end()).toMatchObject({ fields: {}, skippedMembers: 2, skippedNames: ['total', 'page'] });
  });
});

describe('a list where the dialect says it is: nested in its envelope, or the answer itself', () => {
  const split = (body: string, listKey: string, chunk = 7, maxElementBytes = 1024) => {
    const seen: unknown[] = [];
    const oversize: number[] = [];
    const splitter = new EnvelopeSplitter(
      (value, index, _pruned, big) => (big ? oversize.push(index) : seen.push(value)),
      { listKey, maxElementBytes },
    );
    const bytes = Buffer.from(body);
    for (let at = 0; at < bytes.length; at += chunk) splitter.write(bytes.subarray(at, at + chunk));
    return { seen, oversize, summary: splitter.end() };
  };
  const big = { id: 'b', notes: 'x'.repeat(4000) };

  it('reads a bare array, skipping an oversize record and reading the records after it', () => {
    const read = split(JSON.stringify([{ id: 'a' }, big, { id: 'c' }]), '');
    expect(read.seen).toEqual([{ id: 'a' }, { id: 'c' }]);
    expect(read.oversize).toEqual([1]);
    expect(read.summary.records).toBe(3);
  });

  it('reads a nested list, its envelope members read past at every level, an oversize record skipped', () => {
    const body = JSON.stringify({
      meta: { a: 1 },
      result: { count: 3, items: [{ id: 'a' }, big, { id: 'c' }], next: null },
      tail: [1, 2],
    });
    const read = split(body, 'result.items', 5);
    expect(read.seen).toEqual([{ id: 'a' }, { id: 'c' }]);
    expect(read.oversize).toEqual([1]);
    expect(read.summary.skippedNames).toEqual(['meta', 'count', 'next', 'tail']);
  });

  it('says what it expected of an answer of another shape', () => {
    expect(() => split(JSON.stringify({ data: [] }), '')).toThrow(/the answer is an object|not a list/);
    expect(() => split(JSON.stringify([{ id: 'a' }]), 'result.items')).toThrow(
      /the answer is a list, not an object with a "result\.items" list/,
    );
    expect(() => split(JSON.stringify({ result: [] }), 'result.items')).toThrow(/is not a list/);
    expect(() => split(JSON.stringify({ result: { other: [] } }), 'result.items')).toThrow(
      /has no "result\.items" list/,
    );
    expect(() => split('[{"id":"a"}', '')).toThrow(ListReadError);
  });
});

describe('reading past the records that cannot hold a value (a lookup by email)', () => {
  const person = (i: number, email: string) => ({ id: `sub_${i}`, email, answers: [{ key: 'k', value: i }] });

  /** The records handed out, with their positions, and the summary, reading `body` in chunks of `size`. */
  const readWith = (body: Buffer, mentions: string[], size: number, maxElementBytes?: number) => {
    const seen: Array<[number, unknown]> = [];
    const oversize: number[] = [];
    const splitter = new EnvelopeSplitter(
      (value, index, _pruned, big) => (big ? oversize.push(index) : seen.push([index, value])),
      { ...DATA, mentions, ...(maxElementBytes ? { maxElementBytes } : {}) },
    );
    for (let at = 0; at < body.length; at += size) splitter.write(body.subarray(at, at + size));
    return { seen, oversize, summary: splitter.end() };
  };

  it('hands out every record that holds the value, with its position, and counts the others as unread', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.constantFrom(
            'ada@example.com',
            ' ADA@Example.com',
            'bob@example.com',
            'ada@example.co',
            'Zoë@example.com',
            'ADA@EXAMPLE.COM ',
          ),
          { maxLength: 30 },
        ),
        fc.array(fc.boolean(), { maxLength: 30 }),
        fc.integer({ min: 1, max: 200 }),
        (emails, escapes, size) => {
          const records = emails.map((email, i) => person(i, email));
          // Some records as a service may write them: the @ as an escape.
          const texts = records.map((r, i) =>
            escapes[i] ? JSON.stringify(r).replace('@', '\\u0040') : JSON.stringify(r),
          );
          const body = Buffer.from(`{"data":[${texts.join(',')}]}`);
          const { seen, summary } = readWith(body, ['ada@example.com'], size);
          const wanted = records.flatMap((r, i) =>
            r.email.trim().toLowerCase() === 'ada@example.com' ? [i] : [],
          );
          const handed = seen.map(([i]) => i);
          expect(handed).toEqual(expect.arrayContaining(wanted));
          for (const [i, value] of seen) expect(value).toEqual(records[i]);
          // Only records that hold it in their bytes, or that hold an escape, are parsed.
          for (const i of handed) {
            const text = texts[i] as string;
            expect(text.toLowerCase().includes('ada@example.com') || text.includes('\\')).toBe(true);
          }
          expect(summary.records).toBe(records.length);
          expect(summary.unread).toBe(records.length - seen.length);
        },
      ),
    );
  });

  it('still hands out a record nested too deeply, for its log line, whatever it holds', () => {
    const deep = `{"id":"sub_9","v":${'['.repeat(70)}1${']'.repeat(70)}}`;
    const body = Buffer.from(`{"data":[${deep},${JSON.stringify(person(1, 'bob@example.com'))}]}`);
    const read = readWith(body, ['ada@example.com'], 16);
    expect(read.seen).toEqual([[0, { id: 'sub_9', v: [] }]]);
    expect(read.summary).toMatchObject({ records: 2, unread: 1 });
  });

  it('still hands out a record too large to read, and reads a bare list the same way', () => {
    const big = person(1, `ada@example.com ${'x'.repeat(3000)}`);
    const records = [person(0, 'bob@example.com'), big, person(2, 'ADA@example.com')];
    const read = readWith(Buffer.from(JSON.stringify({ data: records })), ['ada@example.com'], 64, 1024);
    expect(read.seen).toEqual([[2, records[2]]]);
    expect(read.oversize).toEqual([1]);
    expect(read.summary.unread).toBe(1);
    const bare = new EnvelopeSplitter(() => undefined, { listKey: '', mentions: ['ada@example.com'] });
    bare.write(JSON.stringify(records.filter((r) => r !== big)));
    expect(bare.end()).toMatchObject({ records: 2, unread: 1 });
  });
});
