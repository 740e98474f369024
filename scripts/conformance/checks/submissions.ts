/**
 * Endpoint 4, the submissions of one event since a timestamp: envelope and records, order, what `since`
 * does (filters at all, inclusive or not, milliseconds honoured), and whether records appear late.
 */
import { paths } from '../../../src/connect/paths';
import { POLL_TIMINGS as CURSOR_TIMING } from '../../../src/polling';
import { SUBMISSION_RULE } from '../../../src/connect/records';
import type { Submission } from '../../../src/connect/schemas';
import { type ListOutcome, answerText, readList, unlisted } from '../evaluate';
import { type Answer, AnswerTooLargeError } from '../http';
import { type Run, pickEvent } from '../run';
import { type Check, type Outcome, checkMaker, differs, holds, tolerated, unchecked } from '../types';
import { needsRecords, noted, orderCheck, unreadable } from './lists';

export const GROUP = 'Submissions (GET /api/v1/integrations/zapier/submissions)';
const check = checkMaker(GROUP, 'submissions');

/** A `since` before any event: the whole event. */
export const WHOLE_EVENT_SINCE = '2000-01-01T00:00:00.000Z';

const POLLS = 'New Form Submission';

/** The operations that read the registrations of an event. */
export const REGISTRATION_OPERATIONS = `${POLLS}, Find Registration and the samples of New Registration, Registration Approved and Attendee Checked In`;
const SINCE_ACTION =
  'Send this report to the service: `since` must return the submissions created at or after it (docs/connect-contract.md §3).';

export const ASSUMPTIONS = {
  envelope: 'The list answers { "data": [Submission, …] } with the documented Submission records.',
  order: 'Order is not guaranteed; the usual order is newest first.',
  timestamps: 'createdAt is ISO 8601 UTC with milliseconds (2026-11-22T10:00:00.000Z).',
  filter: 'since filters: only submissions created at or after it are answered.',
  inclusive: 'since is inclusive: a submission created exactly at since is answered.',
  millis: 'since is read to the millisecond.',
  late: 'A submission becomes visible at most 2 minutes after its createdAt.',
} as const;

const ids = (records: Submission[]): Set<string> => new Set(records.map((s) => s.submissionId));
const ms = (s: Submission): number => Date.parse(s.createdAt);
const iso = (t: number): string => new Date(t).toISOString();

/** The service's clock when it answered (its Date header), else the local clock. */
export const answeredAt = (answer: Answer): number => {
  const date = Date.parse(answer.headers.get('date') ?? '');
  return Number.isFinite(date) ? date : answer.receivedAt;
};

/** Whether a candidate event has registrations enough for the checks of `since` (2 or more). */
const twoOrMore = (run: Run, found: (answer: Answer) => void) => async (eventId: string) => {
  let answer: Answer;
  try {
    answer = await run.probe.get(paths.submissions(), { eventId, since: WHOLE_EVENT_SINCE });
  } catch (error) {
    // A larger event than the kit reads is passed over: another may do (with --event, the run stops).
    if (error instanceof AnswerTooLargeError) return `answered more than the kit reads (${error.limitWords})`;
    throw error;
  }
  found(answer);
  const list = readList(answer, SUBMISSION_RULE, POLLS);
  if (list.items >= 2) return true;
  if (list.unusable && !list.items) return unlisted(answer);
  return `had ${list.items === 0 ? 'no registration' : '1 registration'}`;
};

export const submissionChecks = async (run: Run): Promise<Check[]> => {
  let answer: Answer | null = null;
  const picked = await pickEvent(
    run,
    'has 2 registrations or more',
    twoOrMore(run, (a) => (answer = a)),
  );
  if ('why' in picked) {
    run.firstReadWhy = picked.why;
    return Object.entries(ASSUMPTIONS)
      .filter(([name]) => name !== 'late')
      .map(([name, assumption]) => check(name, assumption, unchecked(picked.why)));
  }
  const { eventId } = picked;
  answer ??= await run.probe.get(paths.submissions(), { eventId, since: WHOLE_EVENT_SINCE });
  const full = readList(answer, SUBMISSION_RULE, REGISTRATION_OPERATIONS);
  const checks = [check('envelope', ASSUMPTIONS.envelope, full.outcome)];
  const why = needsRecords(full, 'submissions.envelope');
  if (why) {
    run.firstReadWhy = why.detail;
    const { order, timestamps, filter, inclusive, millis } = ASSUMPTIONS;
    const rest = unreadable({ order, timestamps, filter, inclusive, millis }, why);
    return [...checks, ...rest.map((l) => check(l.name, l.assumption, l.outcome))];
  }
  run.firstRead = { eventId, ids: ids(full.records), answeredAt: answeredAt(answer) };
  checks.push(
    check('order', ASSUMPTIONS.order, noted(orderCheck(full.records, 'registrations'), full)),
    check('timestamps', ASSUMPTIONS.timestamps, noted(timestampCheck(full.records), full)),
  );
  const since = await sinceChecks(run, eventId, full.records);
  return [...checks, ...since.map(([name, outcome]) => check(name, ASSUMPTIONS[name], outcome))];
};

const UTC_MILLIS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** The contract's form of a timestamp holds; any other ISO 8601 time with a zone is tolerated. */
const timestampCheck = (records: Submission[]): Outcome => {
  const other = records.filter((s) => !UTC_MILLIS.test(s.createdAt));
  if (!other.length) return holds(`All ${records.length} createdAt values are UTC with milliseconds.`);
  return tolerated(
    `${other.length} of ${records.length} createdAt values have another form (first: ${(other[0] as Submission).createdAt}); the app reads any ISO 8601 time with a zone.`,
  );
};

/** The middle distinct createdAt with records before it, preferring one whose milliseconds are not 0 or 999. */
const pivotOf = (records: Submission[]): number | null => {
  const times = [...new Set(records.map(ms))].sort((a, b) => a - b).slice(1);
  const odd = times.filter((t) => t % 1000 !== 0 && t % 1000 !== 999);
  const pool = odd.length ? odd : times;
  return pool.length ? (pool[Math.floor(pool.length / 2)] as number) : null;
};

type Named = ['filter' | 'inclusive' | 'millis', Outcome];

const sinceChecks = async (run: Run, eventId: string, full: Submission[]): Promise<Named[]> => {
  const pivot = pivotOf(full);
  if (pivot === null) {
    const why = unchecked('Every registration of the event has the same createdAt: since cannot be tried.');
    return [
      ['filter', why],
      ['inclusive', why],
      ['millis', why],
    ];
  }
  const read = async (t: number) => {
    const answer = await run.probe.get(paths.submissions(), { eventId, since: iso(t) });
    return { answer, list: readList(answer, SUBMISSION_RULE, POLLS) };
  };
  const at = await read(pivot);
  if (at.list.unusable) {
    const why = unchecked(`since=${iso(pivot)} gave no registration to compare (see submissions.filter).`);
    return [
      ['filter', at.list.outcome],
      ['inclusive', why],
      ['millis', why],
    ];
  }
  const older = at.list.records.filter((s) => ms(s) < pivot);
  const filter: Outcome = !older.length
    ? noted(
        holds(
          `since=${iso(pivot)} answered ${at.list.records.length} of ${full.length}, none created before it.`,
        ),
        at.list,
      )
    : differs(
        older.length >= full.filter((s) => ms(s) < pivot).length
          ? `since is ignored (since=${iso(pivot)} answered all ${at.list.records.length} registrations): every poll of ${POLLS} would read the whole event, and a large event would make polls time out.`
          : `since=${iso(pivot)} answered ${older.length} registrations created before it: ${POLLS} would read more than they ask for.`,
        SINCE_ACTION,
      );
  if (filter.status === 'differs') {
    const why = unchecked('since does not filter (see above), so its boundary cannot be told.');
    return [
      ['filter', filter],
      ['inclusive', why],
      ['millis', why],
    ];
  }
  const atPivot = full.filter((s) => ms(s) === pivot).map((s) => s.submissionId);
  const got = ids(at.list.records);
  const inclusive: Outcome = noted(
    atPivot.every((id) => got.has(id))
      ? holds(`The ${atPivot.length} registration(s) created exactly at since were answered.`)
      : tolerated(
          `since is exclusive: the ${atPivot.length} registration(s) created exactly at since were left out; the app asks from just before what it has, so it misses nothing.`,
        ),
    at.list,
  );
  return [
    ['filter', filter],
    ['inclusive', inclusive],
    ['millis', await millisCheck(read, pivot, atPivot)],
  ];
};

const millisCheck = async (
  read: (t: number) => Promise<{ answer: Answer; list: ListOutcome<Submission> }>,
  pivot: number,
  atPivot: string[],
): Promise<Outcome> => {
  if (pivot % 1000 === 999 || pivot % 1000 === 0) {
    return unchecked(
      'Every registration but the oldest has a createdAt at .000 or .999 of a second: a since 1 ms later cannot tell milliseconds apart.',
    );
  }
  const after = await read(pivot + 1);
  if (after.list.unusable) {
    return differs(
      `since with milliseconds (${iso(pivot + 1)}) answered ${answerText(after.answer)}: every poll of ${POLLS} would fail.`,
      SINCE_ACTION,
    );
  }
  const got = ids(after.list.records);
  return noted(
    atPivot.some((id) => got.has(id))
      ? tolerated(
          `since=${iso(pivot + 1)} still answered the registration(s) created at ${iso(pivot)}: milliseconds are ignored. Polls read up to a second more; the app drops what it has already returned.`,
        )
      : holds(`since=${iso(pivot + 1)} left out the registration(s) created 1 ms before it.`),
    after.list,
  );
};

/** How late a submission may become visible: the contract's 2 minutes, and the app's margin beyond them. */
export const LATE_LIMITS = {
  contractMs: CURSOR_TIMING.visibilityDelayMs,
  appMs: CURSOR_TIMING.visibilityDelayMs + CURSOR_TIMING.marginMs,
};

/**
 * Run last: reads the event again and looks for submissions that were not in the first read although their
 * createdAt is older than that read's answer time, i.e. submissions that became visible late.
 */
export const lateCheck = async (run: Run): Promise<Check> => {
  const first = run.firstRead;
  if (!first) return check('late', ASSUMPTIONS.late, unchecked(run.firstReadWhy));
  const since = iso(first.answeredAt - 10 * 60_000);
  const answer = await run.probe.get(paths.submissions(), { eventId: first.eventId, since });
  const list = readList(answer, SUBMISSION_RULE, POLLS);
  if (list.unusable) return check('late', ASSUMPTIONS.late, list.outcome);
  const seconds = Math.round((answeredAt(answer) - first.answeredAt) / 1000);
  const late = list.records
    .filter((s) => !first.ids.has(s.submissionId) && ms(s) < first.answeredAt - 1000)
    .map((s) => first.answeredAt - ms(s));
  const worst = Math.max(0, ...late);
  const words = `${late.length} registration(s) appeared between two reads ${seconds} s apart with a createdAt before the first read, at least ${Math.round(worst / 1000)} s late`;
  const outcome: Outcome = !late.length
    ? holds(
        `No registration appeared late between two reads ${seconds} s apart (a service with no traffic shows none).`,
      )
    : worst <= LATE_LIMITS.contractMs
      ? holds(`${words}, within the contract's 2 minutes.`)
      : worst <= LATE_LIMITS.appMs
        ? tolerated(
            `${words}: beyond the contract's 2 minutes, within the app's margin of ${LATE_LIMITS.appMs / 60_000} minutes.`,
          )
        : differs(
            `${words}: ${POLLS} may skip registrations that appear more than ${LATE_LIMITS.appMs / 60_000} minutes after their createdAt.`,
            'Ask the service how late a submission can become visible; the app waits 2 minutes plus a 3-minute margin (POLL_TIMINGS in src/polling/timings.ts).',
          );
  return check('late', ASSUMPTIONS.late, noted(outcome, list));
};
