/**
 * End to end against the sandbox with one event of 10,000 registrations, two of them made odd: the whole-event
 * reads stream the answer record by record, and each gives the same result as reading the same answer whole
 * (one `JSON.parse`) and applying the contract's odd-record rule to it. One odd record fails nothing.
 * The size shows the behaviour (many chunks, every dropdown page, the turn-on window); memory and time at
 * 100,000 and 200,000 are `npm run bench:scale`'s to print.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { startSandbox, type RunningSandbox } from '../../sandbox';
import type { Submission } from '../../src/connect';
import { SUBMISSION_RULE, checkRecord } from '../../src/connect/testing';
import { paths } from '../../src/connect/paths';
import { personKey } from '../../src/account/registrations';
import { POLL_TIMINGS as CURSOR_TIMING } from '../../src/polling';
import findRegistration from '../../src/searches/findRegistration';
import newSubmission from '../../src/triggers/newSubmission';
import { PAGE_SIZE } from '../../src/triggers/registrationList';
import { REGISTRATION_LIST_TRIGGER_KEY } from '../../src/fields/keys';
import { functionOf } from '../../scripts/lib/app';
import { appTester, meta } from '../support/app';
import { NORTHWIND, authOf, readWholeList, simulate } from '../support/sandbox';
import { useGenerousTimeLimits } from '../support/limits';

useGenerousTimeLimits();

type Item = Record<string, unknown>;
type Perform = (z: ZObject, bundle: Bundle) => Promise<unknown>;

const SIZE = 10_000;

let sandbox: RunningSandbox;
let eventId: string;
/** The same answer read whole, the way the app read it before streaming. */
let whole: unknown[];
let oddDate: { submissionId: string; email: string };
let noCreatedAt: { submissionId: string; email: string };

const run = (perform: Perform, inputData: Item, extraMeta: Item = {}) =>
  appTester(perform, {
    authData: authOf(sandbox, NORTHWIND),
    inputData,
    meta: meta(extraMeta),
  }) as Promise<Item[]>;

/** The odd-record rule applied to the answer read whole: the registrations that can be used. */
const usable = (): Submission[] =>
  whole.flatMap((value) => {
    const checked = checkRecord(SUBMISSION_RULE, value);
    return checked.ok ? [checked.record] : [];
  });

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, scale: SIZE });
  eventId = sandbox.scaleEventId!;
  const plain = await readWholeList<Submission>(sandbox, NORTHWIND, 'submission', paths.submissions(), {
    eventId,
    since: '2000-01-01T00:00:00.000Z',
  });
  const approved = plain.filter((s) => s.status === 'approved');
  const pick = (s: Submission | undefined) => ({ submissionId: s!.submissionId, email: s!.email! });
  oddDate = pick(approved[Math.floor(approved.length * 0.4)]);
  noCreatedAt = pick(approved[Math.floor(approved.length * 0.6)]);
  await simulate(sandbox, NORTHWIND, 'POST', `/_sandbox/submissions/${oddDate.submissionId}/odd`, {
    set: { approvedAt: '' },
  });
  await simulate(sandbox, NORTHWIND, 'POST', `/_sandbox/submissions/${noCreatedAt.submissionId}/odd`, {
    remove: ['createdAt'],
  });
  whole = await readWholeList(sandbox, NORTHWIND, 'submission', paths.submissions(), {
    eventId,
    since: '2000-01-01T00:00:00.000Z',
  });
});

afterAll(() => sandbox?.close());

it('the answer holds every registration, one with an odd date and one without createdAt', () => {
  expect(whole).toHaveLength(SIZE);
  expect(usable()).toHaveLength(SIZE - 1);
  const odd = whole.find((s) => (s as Submission).submissionId === oddDate.submissionId) as Item;
  expect(odd.approvedAt).toBe('');
});

it('Find Registration finds the registration with the odd date, with the date empty', async () => {
  const found = await run(functionOf('searches', findRegistration.key), { eventId, email: oddDate.email });
  const expected = usable().filter((s) => s.email === oddDate.email);
  expect(found.map((item) => item.submissionId)).toEqual(expected.map((s) => s.submissionId));
  expect(found[0]).toMatchObject({ submissionId: oddDate.submissionId, approvedAt: null });
});

it('Find Registration skips the record without createdAt, and the read does not fail', async () => {
  const found = await run(functionOf('searches', findRegistration.key), {
    eventId,
    email: noCreatedAt.email,
  });
  expect(found).toEqual([]);
  const other = usable()[Math.floor(SIZE * 0.12345)]!;
  const again = await run(functionOf('searches', findRegistration.key), { eventId, email: other.email! });
  expect(again.map((item) => item.submissionId)).toEqual([other.submissionId]);
});

it('the Registration dropdown pages are the approved registrations by person, as read whole', async () => {
  const expected = usable()
    .filter((s) => s.status === 'approved')
    .map((s) => ({ key: personKey(s), id: s.submissionId }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((row) => row.id);
  const perform = functionOf('triggers', REGISTRATION_LIST_TRIGGER_KEY);
  const first = await run(perform, { eventId }, { page: 0 });
  const second = await run(perform, { eventId }, { page: 1 });
  expect(first.map((item) => item.id)).toEqual(expected.slice(0, PAGE_SIZE));
  expect(second.map((item) => item.id)).toEqual(expected.slice(PAGE_SIZE, 2 * PAGE_SIZE));
});

it('New Form Submission turned on records every registration of its window, as read whole', async () => {
  const ids = await run(functionOf('triggers', newSubmission.key), { eventId }, { isPopulatingDedupe: true });
  const since = Date.now() - CURSOR_TIMING.seedMs;
  const expected = usable().filter((s) => Date.parse(s.createdAt) >= since);
  expect(ids).toHaveLength(expected.length);
  expect(new Set(ids.map((item) => item.id))).toEqual(new Set(expected.map((s) => s.submissionId)));
});
