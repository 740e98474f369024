/**
 * List reads with the odd-record rule: the streaming reader and the in-memory reading give the same records
 * and the same log lines for the same body, and one odd record among 100,000 fails nothing.
 */
import fc from 'fast-check';
import { ListReadError } from '../../src/connect/listSplitter';
import { type ListRead, collect, idNearStart, listReader, readListText } from '../../src/connect/lists';
import { ORDER_RULE, type RecordRule, SUBMISSION_RULE, recordLog } from '../../src/connect/records';
import type { z } from 'zod';
import { DIALECT, listMembersOf } from '../../src/connect/testing';
import { wireListFrame, wireListText } from '../../sandbox/wire';

/** A list answer of registrations, as the service writes it (a registration's own id is `submissionId`). */
const listOf = (records: unknown[]): string => wireListText(records, 'submissionId');

/** A list answer's text with one more member of its envelope (none when the answer is the list itself). */
const withMember = (written: string, name: string, value: unknown): string =>
  DIALECT.list.member === ''
    ? written
    : `${written.slice(0, -1)},${JSON.stringify(name)}:${JSON.stringify(value)}}`;

type ObjectSchema = z.ZodObject<z.ZodRawShape>;

const registration = (i: number, overrides: Record<string, unknown> = {}) => ({
  submissionId: `sub_${String(i).padStart(6, '0')}`,
  eventId: 'evt_load',
  status: i % 3 === 0 ? 'pending' : 'approved',
  email: `person.${i}@example.com`,
  firstName: ['Zoë', 'Ada', 'Łukasz', '美咲'][i % 4],
  lastName: ['Ångström', 'Lovelace', 'Nowak', '佐藤'][i % 4],
  answers: [
    { key: 'company', label: 'Company', value: `Company "${i % 50}" \\ Ltd` },
    { key: 'diet', label: 'Dietary needs', value: i % 2 ? ['vegan'] : [] },
  ],
  ticketType: 'Standard',
  qrCode: `EVT1:evt_load:sub_${i}:9f2c`,
  createdAt: new Date(Date.UTC(2026, 10, 21) + i * 431).toISOString(),
  approvedAt: i % 3 === 0 ? null : new Date(Date.UTC(2026, 10, 21, 1) + i * 431).toISOString(),
  checkedInAt: null,
  ...overrides,
});

interface Outcome extends ListRead {
  records: unknown[];
  positions: number[];
  lines: string[];
}

const readStreaming = <S extends ObjectSchema>(body: Buffer, rule: RecordRule<S>, chunk: number): Outcome => {
  const records: unknown[] = [];
  const positions: number[] = [];
  const lines: string[] = [];
  const reader = listReader(
    rule,
    (record, position) => {
      records.push(record);
      positions.push(position);
    },
    recordLog((line) => lines.push(line), 'the list'),
  );
  for (let at = 0; at < body.length; at += chunk) reader.write(body.subarray(at, at + chunk));
  return { ...reader.end(), records, positions, lines };
};

const readWhole = <S extends ObjectSchema>(body: Buffer, rule: RecordRule<S>): Outcome => {
  const records: unknown[] = [];
  const positions: number[] = [];
  const lines: string[] = [];
  const read = readListText(
    body.toString('utf8'),
    rule,
    (record, position) => {
      records.push(record);
      positions.push(position);
    },
    recordLog((line) => lines.push(line), 'the list'),
  );
  return { ...read, records, positions, lines };
};

/** Same records (in order), positions, log lines and counts; compared as text, which is fast on 100,000. */
const expectSame = (a: Outcome, b: Outcome) => expect(JSON.stringify(a)).toBe(JSON.stringify(b));

const errorOf = (fn: () => unknown): ListReadError => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ListReadError);
    return error as ListReadError;
  }
  throw new Error('expected a ListReadError');
};

it('keeps every record and one odd one among 100,000, with one log line, streaming and not', () => {
  const records = Array.from({ length: 100_000 }, (_, i) =>
    i === 61_803 ? registration(i, { approvedAt: '' }) : registration(i),
  );
  const { open, close } = wireListFrame();
  const written = listOf(records);
  // The paging's `total` among the envelope's members, before it closes.
  const body = Buffer.from(withMember(written, 'total', records.length));
  expect(written.startsWith(open) && written.endsWith(close)).toBe(true);
  const streamed = readStreaming(body, SUBMISSION_RULE, 65_536);
  expect(streamed.items).toBe(100_000);
  expect(streamed.kept).toBe(100_000);
  const total = DIALECT.list.member === '' ? {} : { total: 100_000 };
  expect(streamed.fields).toEqual({ ...listMembersOf(JSON.parse(listOf([]))), ...total });
  expect(streamed.bytes).toBe(body.length);
  expect(streamed.lines).toEqual([
    expect.stringMatching(/^Odd record in the list: registration "sub_061803" kept without approvedAt/),
  ]);
  const odd = streamed.records[61_803] as Record<string, unknown>;
  expect(odd).not.toHaveProperty('approvedAt');
  expect(odd.submissionId).toBe('sub_061803');
  expect(streamed.records[61_804]).toEqual(registration(61_804));

  expectSame(streamed, readWhole(body, SUBMISSION_RULE));
});

it('skips one record without createdAt among 10,000 and keeps the rest in order', () => {
  const records = Array.from({ length: 10_000 }, (_, i) =>
    i === 4_242 ? registration(i, { createdAt: undefined }) : registration(i),
  );
  const body = Buffer.from(listOf(records));
  const streamed = readStreaming(body, SUBMISSION_RULE, 16_384);
  expect(streamed.items).toBe(10_000);
  expect(streamed.kept).toBe(9_999);
  expect(streamed.positions[4_242]).toBe(4_243);
  expect(streamed.lines).toEqual([
    expect.stringMatching(/registration "sub_004242" \(item 4243\) skipped: its createdAt is missing/),
  ]);
  expectSame(streamed, readWhole(body, SUBMISSION_RULE));
});

it('gives the same records and lines as the in-memory reading for any mix of odd records and chunk size', () => {
  const odd = fc.constantFrom<Record<string, unknown>>(
    {},
    { approvedAt: '' },
    { checkedInAt: 17 },
    { firstName: ['A'] },
    { answers: [{ key: 'k', label: 3 }, { value: 'no key' }] },
    { createdAt: '' },
    { submissionId: null },
    { status: 5 },
  );
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.nat(1000), odd), { maxLength: 40 }),
      fc.integer({ min: 1, max: 600 }),
      (rows, chunk) => {
        const written = listOf(rows.map(([i, o]) => registration(i, o)));
        const body = Buffer.from(withMember(written, 'page', 1));
        expect(readStreaming(body, SUBMISSION_RULE, chunk)).toEqual(readWhole(body, SUBMISSION_RULE));
      },
    ),
    { numRuns: 150 },
  );
});

it('reads any list the same way, with the rule of its noun', () => {
  const body = Buffer.from(
    wireListText([
      {
        id: 'ord_1',
        status: 'paid',
        currency: 'EUR',
        totalAmount: 100,
        createdAt: '2026-11-21T14:07:30.000Z',
      },
      { id: 'ord_2', status: 'paid', currency: 'EUR', totalAmount: 100, createdAt: 'never' },
      {
        id: 'ord_3',
        status: 'paid',
        currency: 'EUR',
        totalAmount: 100,
        createdAt: '2026-11-21T14:07:30.000Z',
        updatedAt: 0,
      },
    ]),
  );
  const streamed = readStreaming(body, ORDER_RULE, 10);
  expect(streamed.records.map((o) => (o as { id: string }).id)).toEqual(['ord_1', 'ord_3']);
  expect(streamed.lines).toHaveLength(2);
  expect(streamed).toEqual(readWhole(body, ORDER_RULE));
});

it('fails the same way streaming and not on answers that are not a list', () => {
  const { open, close } = wireListFrame();
  const log = recordLog(() => undefined, 'the list');
  for (const [text, kind] of [
    ['<html><body>Bad gateway</body></html>', 'not-json'],
    ['Internal error', 'not-json'],
    ['', 'not-json'],
    [`${open}{"submissionId":"a"`, 'truncated'],
    [`${open}{"submissionId":"a",}${close}`, 'syntax'],
    [JSON.stringify({ [`${DIALECT.list.member}_other`]: [] }), 'shape'],
    [JSON.stringify({ [DIALECT.list.member]: {} }), 'shape'],
    // An answer of the other shape: an object where the list is the answer, a list where it is in an envelope.
    [DIALECT.list.member === '' ? '{}' : '[]', 'shape'],
  ] as const) {
    const whole = errorOf(() => readListText(text, SUBMISSION_RULE, () => undefined, log));
    expect(whole.kind).toBe(kind);
    const streamed = errorOf(() => readStreaming(Buffer.from(text), SUBMISSION_RULE, 3));
    expect(streamed.kind).toBe(kind);
  }
});

it('collects visited records into an array', () => {
  const { items, visit } = collect<{ submissionId: string }>();
  readListText(
    listOf([registration(1)]),
    SUBMISSION_RULE,
    visit,
    recordLog(() => undefined, 'x'),
  );
  expect(items.map((s) => s.submissionId)).toEqual(['sub_000001']);
});

it('skips a record its visitor throws on, with a line naming it, and reads the rest (streaming and not)', () => {
  const body = Buffer.from(listOf([registration(1), registration(2), registration(3)]));
  for (const read of [
    (visit: (s: { submissionId: string }) => void, log: (line: string) => void) => {
      const reader = listReader(SUBMISSION_RULE, visit, recordLog(log, 'the list'));
      reader.write(body);
      return reader.end();
    },
    (visit: (s: { submissionId: string }) => void, log: (line: string) => void) =>
      readListText(body.toString(), SUBMISSION_RULE, visit, recordLog(log, 'the list')),
  ]) {
    const seen: string[] = [];
    const lines: string[] = [];
    const result = read(
      (s) => {
        if (s.submissionId === 'sub_000002') throw new RangeError('the value "person.2@example.com" is odd');
        seen.push(s.submissionId);
      },
      (line) => lines.push(line),
    );
    expect(seen).toEqual(['sub_000001', 'sub_000003']);
    expect(result).toMatchObject({ items: 3, kept: 2 });
    expect(lines).toEqual([
      'Odd record in the list: registration "sub_000002" (item 2) skipped: it could not be read (RangeError).',
    ]);
  }
});

it('skips a record larger than a record may be, naming it by the id at its start, and reads the rest', () => {
  const big = registration(2, { answers: [{ key: 'notes', value: 'x'.repeat(20_000) }] });
  const body = Buffer.from(listOf([registration(1), big, registration(3)]));
  const lines: string[] = [];
  const seen: string[] = [];
  const reader = listReader(
    SUBMISSION_RULE,
    (s) => seen.push(s.submissionId),
    recordLog((line) => lines.push(line), 'the list'),
    { maxElementBytes: 10_000 },
  );
  for (let at = 0; at < body.length; at += 4096) reader.write(body.subarray(at, at + 4096));
  expect(reader.end()).toMatchObject({ items: 3, kept: 2 });
  expect(seen).toEqual(['sub_000001', 'sub_000003']);
  expect(lines).toEqual([
    expect.stringMatching(
      /^Odd record in the list: registration "sub_000002" \(item 2\) skipped: it is 20 KB, more than the 10 KB a record may be, so it was not read\.$/,
    ),
  ]);
});

it('with the email a lookup looks for, checks and logs only the records that may hold it', () => {
  const plain = (i: number, overrides: Record<string, unknown> = {}) =>
    registration(i, { answers: [], ...overrides });
  const records = [
    plain(0),
    plain(1, { createdAt: undefined }),
    plain(2, { email: ' PERSON.7@example.com', approvedAt: '' }),
    // Escapes (`\\"`, `\\\\`) of characters the email does not have: still read past.
    registration(3),
    plain(4, { answers: [{ key: 'notes', value: 'x'.repeat(20_000) }] }),
    plain(5, { email: 'person.7@example.com', createdAt: 'soon' }),
  ];
  const body = Buffer.from(listOf(records));
  const lines: string[] = [];
  const seen: string[] = [];
  const reader = listReader(
    SUBMISSION_RULE,
    (s) => seen.push(s.submissionId),
    recordLog((line) => lines.push(line), 'the list'),
    { maxElementBytes: 10_000, mentions: ['person.7@example.com'] },
  );
  for (let at = 0; at < body.length; at += 1000) reader.write(body.subarray(at, at + 1000));
  expect(reader.end()).toMatchObject({ items: 6, kept: 1 });
  expect(seen).toEqual(['sub_000002']);
  // No line for item 2 (no createdAt), which cannot hold the email; every bound and odd field still says so.
  expect(lines).toEqual([
    expect.stringMatching(/registration "sub_000002" kept without approvedAt/),
    expect.stringMatching(/registration "sub_000004" \(item 5\) skipped: it is 20 KB, more than the 10 KB/),
    expect.stringMatching(
      /registration "sub_000005" \(item 6\) skipped: its createdAt is missing or unusable/,
    ),
  ]);
});

it("finds a record's id near its start without a pattern, or none", () => {
  expect(idNearStart('{"a":1, "submissionId" :\t"sub_1","b"', 'submissionId')).toBe('sub_1');
  expect(idNearStart('{"x":"submissionId","submissionId":"sub_2"', 'submissionId')).toBe('sub_2');
  expect(idNearStart('{"submissionId":"sub_\\"x"}', 'submissionId')).toBeNull();
  expect(idNearStart('{"submissionId":"sub_cut', 'submissionId')).toBeNull();
  expect(idNearStart('{"id":"a"}', 'submissionId')).toBeNull();
});

it('fails the read when its visitor throws on most records: a fault of the app, not of the records', () => {
  const body = listOf([registration(1), registration(2), registration(3), registration(4)]);
  expect(() =>
    readListText(
      body,
      SUBMISSION_RULE,
      (s) => {
        if (s.submissionId !== 'sub_000004') throw new TypeError('visitor bug');
      },
      recordLog(() => undefined, 'the list'),
    ),
  ).toThrow('visitor bug');
});
