/**
 * The test of a record's raw bytes before it is parsed (`mentions.ts`): it never drops a record whose email,
 * trimmed and in lower case, is the one looked for, however the service wrote it (case, spaces, escapes, the
 * Kelvin sign), and it drops records that cannot hold it.
 */
import fc from 'fast-check';
import { mentionTest } from '../../src/connect/mentions';

const bytes = (value: unknown): Buffer => Buffer.from(JSON.stringify(value), 'utf8');

/** A text as JSON writes it between quotes, some of its characters as `\u` escapes (as a service may). */
const escaped = (text: string, which: boolean[]): string =>
  [...text]
    .map((c, i) =>
      which[i % which.length]
        ? `\\u${(c.codePointAt(0) as number).toString(16).padStart(4, '0')}`
        : JSON.stringify(c).slice(1, -1),
    )
    .join('');

it('tells nothing for no value, an empty one or one with a character outside ASCII', () => {
  expect(mentionTest(undefined)).toBeNull();
  expect(mentionTest([])).toBeNull();
  expect(mentionTest([''])).toBeNull();
  expect(mentionTest(['zoë@example.com'])).toBeNull();
  expect(mentionTest(['ada@example.com', 'josé@example.com'])).toBeNull();
});

it('keeps a record holding the value in any ASCII case, and drops one that cannot hold it', () => {
  const test = mentionTest(['ada@example.com']);
  if (!test) throw new Error('no test');
  expect(test(bytes({ email: 'ada@example.com' }))).toBe(true);
  expect(test(bytes({ email: '  ADA@Example.COM ' }))).toBe(true);
  expect(test(bytes({ answers: [{ value: 'x ada@example.com y' }] }))).toBe(true);
  expect(test(bytes({ email: 'bob@example.com', note: 'ada@example' }))).toBe(false);
  expect(test(bytes({ email: 'ada@example.co' }))).toBe(false);
  expect(test(bytes({}))).toBe(false);
  // An escape of a character of the value, a broken escape or the Kelvin sign: kept for the full reading.
  expect(test(Buffer.from('{"email":"ada\\u0040example.com"}'))).toBe(true);
  expect(test(Buffer.from('{"email":"\\u0041da@example.com"}'))).toBe(true);
  expect(test(Buffer.from('{"email":"bob@example.com","note":"\\u00"}'))).toBe(true);
  expect(test(Buffer.from('{"email":"bob@example.com","note":"\\q"}'))).toBe(true);
  expect(test(bytes({ email: 'bob@example.com', note: '\u212a' }))).toBe(true);
  // Other escapes cannot be part of it: the record is still read past.
  expect(test(Buffer.from('{"email":"bob@example.com","note":"a \\"quote\\" \\\\ \\/ \\n"}'))).toBe(false);
  expect(test(Buffer.from('{"email":"bob@example.com","name":"Ren\\u00e9e \\ud83d\\ude00"}'))).toBe(false);
});

it('finds a value made of letters only, in either case, at any place', () => {
  const test = mentionTest(['ada']);
  if (!test) throw new Error('no test');
  expect(test(Buffer.from('{"a":"xAdAy"}'))).toBe(true);
  expect(test(Buffer.from('{"a":"ad"}'))).toBe(false);
  expect(test(Buffer.from('ada'))).toBe(true);
});

it('keeps a record only when it may hold every value', () => {
  const test = mentionTest(['ada@example.com', 'sub_1']);
  if (!test) throw new Error('no test');
  expect(test(bytes({ submissionId: 'sub_1', email: 'ADA@example.com' }))).toBe(true);
  expect(test(bytes({ submissionId: 'sub_2', email: 'ada@example.com' }))).toBe(false);
});

it('never drops a record whose email matches, however the service wrote it', () => {
  const local = fc.stringMatching(/^[a-z0-9._+-]{1,12}$/);
  const domain = fc.stringMatching(/^[a-z0-9-]{1,10}\.[a-z]{2,4}$/);
  fc.assert(
    fc.property(
      local,
      domain,
      fc.array(fc.boolean(), { minLength: 1, maxLength: 30 }),
      fc.array(fc.constantFrom('none', 'upper', 'kelvin'), { minLength: 1, maxLength: 30 }),
      fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }),
      fc.constantFrom('', ' ', '\t', '  '),
      fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
      (name, host, escapes, cases, escapeOn, space, others) => {
        const looked = `${name}@${host}`;
        const written = [...looked]
          .map((c, i) => {
            const how = cases[i % cases.length];
            if (how === 'kelvin' && c === 'k') return '\u212a';
            return how === 'upper' ? c.toUpperCase() : c;
          })
          .join('');
        expect(`${space}${written}${space}`.trim().toLowerCase()).toBe(looked);
        const value = `${space}${written}${space}`;
        const text = escapeOn[0] ? escaped(value, escapes) : JSON.stringify(value).slice(1, -1);
        const record = `{${JSON.stringify(others).slice(1, -1)}${Object.keys(others).length ? ',' : ''}"email":"${text}"}`;
        expect((JSON.parse(record) as { email: string }).email.trim().toLowerCase()).toBe(looked);
        expect(mentionTest([looked])?.(Buffer.from(record, 'utf8'))).toBe(true);
      },
    ),
    { numRuns: 500 },
  );
});
