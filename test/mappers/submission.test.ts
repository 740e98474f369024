/** Custom answers as output fields: one field per question, labelled with its own question, keys stable. */
import type { Answer, Submission } from '../../src/connect';
import {
  MAX_ANSWER_KEY_CHARS,
  SAMPLE_SUBMISSION,
  answerKey,
  answerOutputFields,
  toSubmissionItem,
} from '../../src/mappers/submission';
import { slugText, trimChar } from '../../src/mappers/text';

const COLLIDING: Answer[] = [
  { key: 'job-title', label: 'Job title', value: 'Engineer' },
  { key: 'job_title', label: 'Job title (as printed on the badge)', value: 'Chief Engineer' },
  { key: 'job title', label: 'Job title', value: 'Tinkerer' },
  { key: 'topics', label: 'Topics', value: ['cloud', 'data'] },
];

it('keeps the key of every simple question key as it always was', () => {
  expect(answerKey('company')).toBe('answers__company');
  expect(answerKey('job_title')).toBe('answers__job_title');
  expect(answerKey('Q1_size')).toBe('answers__Q1_size');
});

it('gives keys that differ only in punctuation their own stable output key', () => {
  const keys = COLLIDING.map((a) => answerKey(a.key));
  expect(new Set(keys).size).toBe(COLLIDING.length);
  expect(answerKey('job-title')).toMatch(/^answers__job_title__h[0-9a-f]{6}$/);
  expect(answerKey('job-title')).toBe(answerKey('job-title'));
  expect(answerKey('job-title')).not.toBe(answerKey('job title'));
  expect(answerKey('¿?')).toMatch(/^answers__question__h[0-9a-f]{6}$/);
});

it('a registration with colliding question keys keeps every answer', () => {
  const submission: Submission = { ...SAMPLE_SUBMISSION, answers: COLLIDING };
  const item = toSubmissionItem(submission);
  expect(item[answerKey('job-title')]).toBe('Engineer');
  expect(item.answers__job_title).toBe('Chief Engineer');
  expect(item[answerKey('job title')]).toBe('Tinkerer');
  expect(item.answers__topics).toBe('cloud, data');
});

it('labels each field with its own question, adds the key when wordings are shared, and marks lists', () => {
  expect(answerOutputFields(COLLIDING)).toEqual([
    { key: answerKey('job-title'), label: 'Answer: Job title (job-title)', type: 'string' },
    { key: 'answers__job_title', label: 'Answer: Job title (as printed on the badge)', type: 'string' },
    { key: answerKey('job title'), label: 'Answer: Job title (job title)', type: 'string' },
    { key: 'answers__topics', label: 'Answer: Topics (List, Comma-Separated)', type: 'string' },
  ]);
});

it('a question without a label is named by its key', () => {
  expect(answerOutputFields([{ key: 'shirt-size', label: null, value: 'M' }])).toEqual([
    { key: answerKey('shirt-size'), label: 'Answer: shirt-size', type: 'string' },
  ]);
});

describe('long answer keys', () => {
  // A run of underscores that does not reach the end is what made a backtracking pattern quadratic: 120,000
  // characters took seconds, 240,000 four times as long. These complete at once, in one pass each.
  const runKey = (length: number) => `!q${'_'.repeat(length)}x`;

  it.each([120_000, 240_000])('normalises a key of %i characters, reading only its first 200', (length) => {
    const key = runKey(length);
    const normalised = answerKey(key);
    expect(normalised).toMatch(/^answers__q__h[0-9a-f]{6}$/);
    expect(normalised.length).toBeLessThanOrEqual('answers__'.length + MAX_ANSWER_KEY_CHARS + 9);
    // Two keys that share their first 200 characters stay two fields (the fingerprint is of the whole key).
    expect(answerKey(`${key}y`)).not.toBe(normalised);
    expect(answerKey(`${key}y`).slice(0, -7)).toBe(normalised.slice(0, -7));
  });

  it('keeps short keys as they were, and cuts a long simple key with a fingerprint', () => {
    expect(answerKey('job-title')).toMatch(/^answers__job_title__h[0-9a-f]{6}$/);
    expect(answerKey('__a__')).toBe('answers____a__');
    expect(answerKey('__a-b__')).toMatch(/^answers__a_b__h[0-9a-f]{6}$/);
    expect(answerKey('---')).toMatch(/^answers__question__h[0-9a-f]{6}$/);
    const simple = 'a'.repeat(MAX_ANSWER_KEY_CHARS + 1);
    expect(answerKey(simple)).toMatch(new RegExp(`^answers__a{${MAX_ANSWER_KEY_CHARS}}__h[0-9a-f]{6}$`));
    expect(answerKey('a'.repeat(MAX_ANSWER_KEY_CHARS))).toBe(`answers__${'a'.repeat(MAX_ANSWER_KEY_CHARS)}`);
  });

  it('notes a registration whose answer keys were cut, naming the registration and not the key', () => {
    const notes: string[] = [];
    const item = toSubmissionItem(
      { ...SAMPLE_SUBMISSION, answers: [{ key: runKey(120_000), value: 'yes' }] },
      undefined,
      undefined,
      (line) => notes.push(line),
    );
    expect(notes).toEqual([
      `Registration "${SAMPLE_SUBMISSION.submissionId}": 1 answer key(s) longer than 200 characters; each answer's field name uses the key's first 200 characters and a fingerprint of the whole key.`,
    ]);
    expect(Object.values(item)).toContain('yes');
  });
});

describe('slugs', () => {
  it.each([120_000, 240_000])(
    'turn a title with a run of %i dashes or spaces into a slug in one pass',
    (length) => {
      expect(slugText(`-a${'-'.repeat(length)}b!`)).toBe('a-b');
      expect(slugText(`a${' '.repeat(length)}!`)).toBe('a');
      expect(trimChar(`__x${'_'.repeat(length)}y__`, '_')).toBe(`x${'_'.repeat(length)}y`);
    },
  );
});
