/** Custom answers as output fields: one field per question, labelled with its own question, keys stable. */
import type { Answer, Submission } from '../../src/connect';
import {
  SAMPLE_SUBMISSION,
  answerKey,
  answerOutputFields,
  toSubmissionItem,
} from '../../src/mappers/submission';

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
