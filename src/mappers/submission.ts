/**
 * The one mapper of the Submission (registration) noun: polling and instant triggers, searches and samples
 * all produce registrations through it, so test data and live data have the same fields.
 */
import { createHash } from 'node:crypto';
import type { PlainOutputField } from 'zapier-platform-core';
import type { Answer, Event, Submission } from '../connect';
import { cutFieldsOutputField, cutSummary, extraFields, itemCuts } from './cuts';
import { trimChar } from './text';
import { staticSample } from './sample';

/** Event context added to every registration so a Zap needs no extra Find step. */
export type EventContext = {
  eventTitle: string | null;
  eventSlug: string | null;
  eventStartsAt: string | null;
  eventEndsAt: string | null;
};

export const NO_EVENT_CONTEXT: EventContext = {
  eventTitle: null,
  eventSlug: null,
  eventStartsAt: null,
  eventEndsAt: null,
};

export const eventContextOf = (event: Event | null | undefined): EventContext =>
  event
    ? {
        eventTitle: event.title,
        eventSlug: event.slug,
        eventStartsAt: event.startsAt ?? null,
        eventEndsAt: event.endsAt ?? null,
      }
    : NO_EVENT_CONTEXT;

export type SubmissionItem = EventContext & {
  [extra: string]: unknown;
  id: string;
  submissionId: string;
  eventId: string;
  status: string;
  isApproved: boolean;
  isCheckedIn: boolean;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  fullName: string | null;
  ticketType: string | null;
  qrCode: string | null;
  createdAt: string;
  approvedAt: string | null;
  checkedInAt: string | null;
  /** The questions answered, without their answers: each answer is in its own field once (`answerKey`). */
  answers: AnswerLine[];
  /** The fields cut to fit, with their whole size; `null` when nothing was cut. */
  cutFields: string | null;
};

/**
 * The fields of a registration item (the contract's, and the app's own): any other field of the service is
 * kept only within `extraFields`' bounds, as for every record kind.
 */
const SUBMISSION_ITEM_KEYS: ReadonlySet<string> = new Set([
  ...Object.keys(NO_EVENT_CONTEXT),
  'id',
  'submissionId',
  'eventId',
  'status',
  'isApproved',
  'isCheckedIn',
  'email',
  'firstName',
  'lastName',
  'fullName',
  'ticketType',
  'qrCode',
  'createdAt',
  'approvedAt',
  'checkedInAt',
  'answers',
  'cutFields',
]);

/** A question of a registration's form: its key and its wording; the answer is in the item's own field. */
export type AnswerLine = {
  key: string;
  label: string | null;
  /** The key of the item's field that holds the answer (`answers__company`). */
  field: string;
};

/** A custom answer as text: lists joined with ", ", empty values as "". */
const answerText = (value: Answer['value']): string => {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) {
    return value
      .map((v) =>
        v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v),
      )
      .filter((v) => v !== '')
      .join(', ');
  }
  return String(value);
};

const SIMPLE_KEY = /^[A-Za-z0-9_]+$/;

/**
 * The longest answer key used as it is in a field name: a longer one is cut to this many characters before
 * it is normalised (its fingerprint is still of the whole key), so one key costs at most this much work.
 */
export const MAX_ANSWER_KEY_CHARS = 200;

/**
 * The output key of a custom answer, the same for a question in every item and every version:
 * - a key of letters, digits and underscores only keeps its key: `company` → `answers__company`;
 * - any other key gets its letters, digits and underscores plus a short fingerprint of the whole key, so two
 *   questions that differ only in punctuation stay two fields: `job-title` → `answers__job_title__h5d2c0e`,
 *   while `job_title` stays `answers__job_title`;
 * - a key longer than `MAX_ANSWER_KEY_CHARS` is read as its first characters plus the fingerprint.
 * Every step is linear in the key (no pattern that backtracks), and bounded past the first characters.
 */
export const answerKey = (key: string): string => {
  const long = key.length > MAX_ANSWER_KEY_CHARS;
  if (!long && SIMPLE_KEY.test(key)) return `answers__${key}`;
  const head = long ? key.slice(0, MAX_ANSWER_KEY_CHARS) : key;
  const readable = trimChar(head.replace(/[^A-Za-z0-9_]+/g, '_'), '_') || 'question';
  const fingerprint = createHash('sha256').update(key).digest('hex').slice(0, 6);
  return `answers__${readable}__h${fingerprint}`;
};

/** Where a mapper notes what it shortened (`z.console.log`); the line names the record, never a value. */
export type MapperNote = (line: string) => void;

/** Output fields have no help text: a list answer says in its label that it is a list, and how it is joined. */
export const LIST_SUFFIX = ' (List, Comma-Separated)';

/** Whether an answer's value is a list (several choices): its text joins them with ", ". */
const isListValue = (value: Answer['value']): boolean => Array.isArray(value);

const fullNameOf = (first?: string | null, last?: string | null): string | null => {
  const hasFirst = !!first?.trim();
  const hasLast = !!last?.trim();
  if (hasFirst && hasLast) return `${first} ${last}`;
  return (hasFirst ? first : hasLast ? last : null) || null;
};

/** The field names of the answer keys seen lately: a form asks the same questions of every registration. */
const fieldNames = new Map<string, string>();
/** How many field names are remembered (all of them are forgotten past it). */
const FIELD_NAMES_HELD = 1000;

/** `answerKey(key)`, worked out once per key (keys longer than `MAX_ANSWER_KEY_CHARS` each time). */
const fieldOf = (key: string): string => {
  const known = fieldNames.get(key);
  if (known !== undefined) return known;
  const field = answerKey(key);
  if (key.length > MAX_ANSWER_KEY_CHARS) return field;
  if (fieldNames.size >= FIELD_NAMES_HELD) fieldNames.clear();
  fieldNames.set(key, field);
  return field;
};

/** Sets `key` of `item` as a spread would (`__proto__` is then a field of its own, not the prototype). */
const put = (item: Record<string, unknown>, key: string, value: unknown) => {
  if (key === '__proto__')
    Object.defineProperty(item, key, { value, enumerable: true, writable: true, configurable: true });
  else item[key] = value;
};

/**
 * A contract Submission as a flat Zapier item. `id` defaults to the submission id; instant triggers whose
 * deliveries can repeat one submission (payments) pass their own id. `note` hears of answer keys that were
 * too long to use whole. The item is built field by field in the order of
 * `{ ...fields the service added (`extraFields`), ...answers, ...context, id, submissionId, … }` (a poll maps
 * thousands).
 */
export const toSubmissionItem = (
  submission: Submission,
  context: EventContext = NO_EVENT_CONTEXT,
  id: string = submission.submissionId,
  note?: MapperNote,
): SubmissionItem => {
  const answers = submission.answers ?? [];
  const extras = extraFields(submission, SUBMISSION_ITEM_KEYS);
  const item: Record<string, unknown> = {};
  for (const key of Object.keys(extras.fields)) put(item, key, extras.fields[key]);
  const fields: string[] = [];
  let longKeys = 0;
  for (const answer of answers) {
    if (answer.key.length > MAX_ANSWER_KEY_CHARS) longKeys++;
    const field = fieldOf(answer.key);
    fields.push(field);
    item[field] = answerText(answer.value);
  }
  if (longKeys && note) {
    note(
      `Registration "${submission.submissionId.slice(0, 80)}": ${longKeys} answer key(s) longer than ${MAX_ANSWER_KEY_CHARS} characters; each answer's field name uses the key's first ${MAX_ANSWER_KEY_CHARS} characters and a fingerprint of the whole key.`,
    );
  }
  for (const key of Object.keys(context)) put(item, key, context[key as keyof EventContext]);
  item.id = id;
  item.submissionId = submission.submissionId;
  item.eventId = submission.eventId;
  item.status = submission.status;
  item.isApproved = submission.status === 'approved';
  item.isCheckedIn = Boolean(submission.checkedInAt);
  item.email = submission.email ?? null;
  item.firstName = submission.firstName ?? null;
  item.lastName = submission.lastName ?? null;
  item.fullName = fullNameOf(submission.firstName, submission.lastName);
  item.ticketType = submission.ticketType ?? null;
  item.qrCode = submission.qrCode ?? null;
  item.createdAt = submission.createdAt;
  item.approvedAt = submission.approvedAt ?? null;
  item.checkedInAt = submission.checkedInAt ?? null;
  // Each text once: an answer is in its own field, and only the question is listed here.
  item.answers = answers.map((answer, i) => ({
    key: answer.key,
    label: answer.label ?? null,
    field: fields[i],
  }));
  item.cutFields = cutSummary(itemCuts(submission, SUBMISSION_ITEM_KEYS, extras));
  return item as SubmissionItem;
};

export const SAMPLE_SUBMISSION: Submission = {
  submissionId: 'sub_01JD3K9V8Q2W',
  eventId: '7d0c6f1e-2f6a-4a7e-9a51-3f0e1b2c4d5e',
  status: 'approved',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  answers: [
    { key: 'company', label: 'Company', value: 'Analytical Engines' },
    { key: 'diet', label: 'Dietary needs', value: ['vegan', 'no nuts'] },
  ],
  ticketType: 'Standard',
  qrCode: 'EVT1:7d0c6f1e:sub_01JD3K9V8Q2W:9f2c',
  createdAt: '2026-11-21T14:05:09.123Z',
  approvedAt: '2026-11-21T14:06:00.000Z',
  checkedInAt: null,
};

export const SAMPLE_SUBMISSION_EVENT: EventContext = {
  eventTitle: 'TechWeek 2026',
  eventSlug: 'techweek-2026',
  eventStartsAt: '2026-12-01T08:00:00.000Z',
  eventEndsAt: '2026-12-03T18:00:00.000Z',
};

export const submissionSample: SubmissionItem = staticSample('submission', () =>
  toSubmissionItem(SAMPLE_SUBMISSION, SAMPLE_SUBMISSION_EVENT),
);

export const submissionOutputFields: PlainOutputField[] = [
  { key: 'id', label: 'ID', type: 'string', primary: true },
  { key: 'submissionId', label: 'Registration ID', type: 'string' },
  { key: 'eventId', label: 'Event ID', type: 'string' },
  { key: 'eventTitle', label: 'Event Title', type: 'string' },
  { key: 'eventSlug', label: 'Event Slug', type: 'string' },
  { key: 'eventStartsAt', label: 'Event Starts At', type: 'datetime' },
  { key: 'eventEndsAt', label: 'Event Ends At', type: 'datetime' },
  { key: 'status', label: 'Registration Status', type: 'string' },
  { key: 'isApproved', label: 'Is Approved', type: 'boolean' },
  { key: 'isCheckedIn', label: 'Is Checked In', type: 'boolean' },
  { key: 'email', label: 'Email', type: 'string' },
  { key: 'firstName', label: 'First Name', type: 'string' },
  { key: 'lastName', label: 'Last Name', type: 'string' },
  { key: 'fullName', label: 'Full Name', type: 'string' },
  { key: 'ticketType', label: 'Ticket Type', type: 'string' },
  { key: 'qrCode', label: 'QR Code', type: 'string' },
  { key: 'createdAt', label: 'Registered At', type: 'datetime' },
  { key: 'approvedAt', label: 'Approved At', type: 'datetime' },
  { key: 'checkedInAt', label: 'Checked In At', type: 'datetime' },
  { key: 'answers[]key', label: 'Answers: Question Key', type: 'string' },
  { key: 'answers[]label', label: 'Answers: Question', type: 'string' },
  { key: 'answers[]field', label: 'Answers: Field Holding the Answer', type: 'string' },
  cutFieldsOutputField,
];

/**
 * Output fields for the custom answers seen in `answers`, each labelled with its own question (and its key
 * when two questions share a wording); a list answer says it is a list and how it is joined.
 */
export const answerOutputFields = (answers: Answer[]): PlainOutputField[] => {
  const seen = new Map<string, { question: string; key: string; list: boolean }>();
  for (const answer of answers) {
    const key = answerKey(answer.key);
    const entry = seen.get(key) ?? {
      question: answer.label?.trim() || answer.key,
      key: answer.key,
      list: false,
    };
    entry.list ||= isListValue(answer.value);
    seen.set(key, entry);
  }
  const wordings = new Map<string, number>();
  for (const { question } of seen.values()) wordings.set(question, (wordings.get(question) ?? 0) + 1);
  return [...seen].map(([key, { question, key: questionKey, list }]) => {
    const shared = (wordings.get(question) ?? 0) > 1 && question !== questionKey;
    const label = `Answer: ${question}${shared ? ` (${questionKey})` : ''}${list ? LIST_SUFFIX : ''}`;
    return { key, label, type: 'string' as const };
  });
};
