import nock from 'nock';
import findRegistration from '../../src/searches/findRegistration';
import { type Submission, paths } from '../../src/connect';
import { SAMPLE_EVENT } from '../../src/mappers/event';
import {
  answerKey,
  SAMPLE_SUBMISSION,
  submissionSample,
  toSubmissionItem,
  eventContextOf,
} from '../../src/mappers/submission';
import { ALL_TIME } from '../../src/account/registrations';
import { functionOf } from '../../scripts/lib/app';
import { BASE_URL, appTester, authData, caught, errorMessage, meta } from '../support/app';
import { wireError, wireList } from '../../sandbox/wire';

const operation = findRegistration.operation;
const EVENT_ID = SAMPLE_EVENT.id;
const run = (inputData: Record<string, unknown>) =>
  appTester(
    functionOf('searches', findRegistration.key),
    { authData: authData(), inputData, meta: meta() },
    true,
  ) as Promise<Array<Record<string, unknown>>>;

const sub = (
  id: string,
  email: string,
  createdAt: string,
  overrides: Partial<Submission> = {},
): Submission => ({
  ...SAMPLE_SUBMISSION,
  submissionId: id,
  email,
  createdAt,
  ...overrides,
});
const ADA_OLD = sub('sub_1', 'ada@example.com', '2026-11-01T10:00:00.000Z');
const ADA_NEW = sub('sub_2', 'Ada@Example.com', '2026-11-02T10:00:00.000Z', { status: 'pending' });
const BOB = sub('sub_3', 'bob@example.com', '2026-11-03T10:00:00.000Z', { firstName: 'Bob' });

const registrations = (data: Submission[]) =>
  nock(BASE_URL)
    .get(paths.submissions())
    .query({ eventId: EVENT_ID, since: ALL_TIME })
    .reply(200, wireList(data));
const events = () =>
  nock(BASE_URL)
    .get(paths.events())
    .query(true)
    .reply(200, wireList([SAMPLE_EVENT]));

afterEach(() => nock.cleanAll());

it('finds by email without case or spaces, newest first, with the same fields as the triggers', async () => {
  registrations([ADA_OLD, BOB, ADA_NEW]);
  events();
  const results = await run({ eventId: EVENT_ID, email: '  ADA@example.COM ' });
  expect(results.map((r) => r.submissionId)).toEqual(['sub_2', 'sub_1']);
  expect(results[1]).toEqual(toSubmissionItem(ADA_OLD, eventContextOf(SAMPLE_EVENT)));
  expect(Object.keys(results[0] ?? {}).sort()).toEqual(Object.keys(submissionSample).sort());
});

it('finds by email however the service writes it: an escape, the Kelvin sign, any case', async () => {
  const KELVIN = sub('sub_4', 'kim@example.com', '2026-11-04T10:00:00.000Z');
  const text = JSON.stringify(wireList([ADA_OLD, BOB, ADA_NEW, KELVIN]))
    .replace('"ada@example.com"', '"ada\\u0040example.com"')
    .replace('"kim@example.com"', '"\u212aIM@EXAMPLE.COM"');
  nock(BASE_URL)
    .get(paths.submissions())
    .query({ eventId: EVENT_ID, since: ALL_TIME })
    .times(2)
    .reply(200, text, { 'Content-Type': 'application/json' });
  nock(BASE_URL)
    .get(paths.events())
    .query(true)
    .times(2)
    .reply(200, wireList([SAMPLE_EVENT]));
  const ada = await run({ eventId: EVENT_ID, email: 'ada@example.com' });
  expect(ada.map((r) => r.submissionId)).toEqual(['sub_2', 'sub_1']);
  expect(ada[1]?.email).toBe('ada@example.com');
  expect((await run({ eventId: EVENT_ID, email: 'kim@example.com' })).map((r) => r.submissionId)).toEqual([
    'sub_4',
  ]);
});

it('finds by registration ID, and by both (both must match)', async () => {
  registrations([ADA_OLD, BOB]);
  events();
  expect((await run({ eventId: EVENT_ID, submissionIdText: 'sub_3' })).map((r) => r.firstName)).toEqual([
    'Bob',
  ]);
  registrations([ADA_OLD, BOB]);
  await expect(
    run({ eventId: EVENT_ID, submissionIdText: 'sub_3', email: 'ada@example.com' }),
  ).resolves.toEqual([]);
});

it('returns [] when nothing matches, and says so when the event is gone', async () => {
  registrations([BOB]);
  await expect(run({ eventId: EVENT_ID, email: 'nobody@example.com' })).resolves.toEqual([]);
  nock(BASE_URL).get(paths.submissions()).query(true).reply(404, wireError('NOT_FOUND', 'Event not found'));
  const error = await caught(() => run({ eventId: EVENT_ID, email: 'ada@example.com' }));
  expect(errorMessage(error)).toBe(
    `The event in the Event field (ID ${EVENT_ID}) is not among the events of the connected account: it may have been deleted, or it belongs to another organizer account. Choose the event again in the Event field, or map an event ID of this account from an earlier step.`,
  );
});

it('needs an email or a registration ID, and a real event ID', async () => {
  expect(errorMessage(await caught(() => run({ eventId: EVENT_ID })))).toMatch(
    /^Fill in Email or Registration ID/,
  );
  expect(errorMessage(await caught(() => run({ eventId: 'techweek', email: 'a@b.c' })))).toMatch(
    /^"techweek" is not an event ID/,
  );
});

it('stops on an email that cannot be one, quoting it, before any request', async () => {
  // No nock scope: a request would fail the test with a refused connection instead of this message.
  const error = await caught(() => run({ eventId: EVENT_ID, email: 'ada at example' }));
  expect(errorMessage(error)).toBe(
    '"ada at example" in Email is not an email address. Write it as name@domain, for example ada@example.com, or map the email from an earlier step.',
  );
  expect(nock.pendingMocks()).toEqual([]);
});

it('stops on a registration ID with spaces inside, quoting it, before any request', async () => {
  const error = await caught(() => run({ eventId: EVENT_ID, submissionIdText: 'sub 01 JD3' }));
  expect(errorMessage(error)).toMatch(/^"sub 01 JD3" in Registration ID is not an ID: an ID has no spaces/);
});

it('labels the custom answers of the chosen event as output fields', async () => {
  nock(BASE_URL)
    .get(paths.submissions())
    .query(true)
    .reply(200, wireList([ADA_OLD]))
    .persist();
  events();
  const dynamic = (operation.outputFields ?? []).find(
    (f): f is Exclude<typeof f, { key: string }> => typeof f === 'function',
  );
  const fields = await appTester(dynamic!, { authData: authData(), inputData: { eventId: EVENT_ID } }, true);
  expect(fields).toEqual([
    { key: 'answers__company', label: 'Answer: Company', type: 'string' },
    { key: 'answers__diet', label: 'Answer: Dietary needs (List, Comma-Separated)', type: 'string' },
  ]);
});

it('two questions whose keys differ only in punctuation give two fields, in the item and in the output fields', async () => {
  const answers = [
    { key: 'job-title', label: 'Job title', value: 'Engineer' },
    { key: 'job_title', label: 'Badge title', value: 'Chief Engineer' },
  ];
  const both = sub('sub_9', 'grace@example.com', '2026-11-04T10:00:00.000Z', { answers });
  registrations([both]);
  events();
  const [item] = await run({ eventId: EVENT_ID, email: 'grace@example.com' });
  expect(item).toMatchObject({
    [answerKey('job-title')]: 'Engineer',
    answers__job_title: 'Chief Engineer',
  });
  nock(BASE_URL)
    .get(paths.submissions())
    .query(true)
    .reply(200, wireList([both]))
    .persist();
  events();
  const dynamic = (operation.outputFields ?? []).find(
    (f): f is Exclude<typeof f, { key: string }> => typeof f === 'function',
  );
  const fields = await appTester(dynamic!, { authData: authData(), inputData: { eventId: EVENT_ID } }, true);
  expect(fields).toEqual([
    { key: answerKey('job-title'), label: 'Answer: Job title', type: 'string' },
    { key: 'answers__job_title', label: 'Answer: Badge title', type: 'string' },
  ]);
});
