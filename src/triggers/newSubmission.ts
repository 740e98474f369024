/**
 * New Form Submission (polling): registrations of one event, newest first, id = submissionId, read with a
 * since-window that never misses one (see src/triggers/common/cursor.ts and docs/design.md, "New Form Submission cursor"
 * section). Items have exactly the fields of the instant New Registration trigger: same mapper, same event
 * context. A steady poll downloads only what is new since the stream's previous poll (and its last 2.5
 * minutes again) and returns with it the registrations the stream kept in its cache entry for the last 150
 * minutes. The answer streams by record by record and the poll's window (`PollWindow`) keeps only what the
 * poll returns, so a day of registrations is never held whole.
 */
import { type Bundle, type ZObject, defineTrigger } from 'zapier-platform-core';
import { type Submission, type SubmissionKey, readSubmissionKeys, readSubmissions } from '../connect';
import { eventContext } from '../account/events';
import { recentSubmissions } from '../account/recent';
import { eventField, requiredEventId } from '../fields/event';
import { chosenStatus, hasStatus, statusField } from '../fields/status';
import { type EventContext, NO_EVENT_CONTEXT, eventContextOf, toSubmissionItem } from '../mappers/submission';
import { PollWindow, closePoll, openPoll, pollRequest } from './common/cursor';
import { registrationItem } from '../items';
import { pollKind, present } from './common/polling';

export const NEW_SUBMISSION_KEY = 'new_submission';

const idOf = (submission: SubmissionKey) => submission.submissionId;

const presenter = (z: ZObject, context: EventContext) => ({
  idOf,
  noun: 'registration',
  toItem: (submission: Submission) =>
    toSubmissionItem(submission, context, submission.submissionId, (line) => z.console.log(line)),
});

const logTo = (z: ZObject) => (line: string) => z.console.log(line);

/**
 * The stream whose state the polls share: the event and the filter. Zapier sends polling triggers nothing
 * that tells one Zap from another, so every Zap of the account with these inputs polls this one stream.
 */
export const submissionStreamKey = (eventId: string, status: string | null) =>
  `poll:submissions:${eventId}:${status ?? 'any'}`;

/**
 * What one registration adds to the answer, in bytes: its item carries the record's fields, each answer
 * again as a flat field, and the event's context. An upper estimate, cheaper than mapping twice.
 */
const itemBytes = (submission: Submission) => Math.ceil(1.5 * JSON.stringify(submission).length) + 300;

const registrationStatusField = statusField({
  label: 'Registration Status',
  choices: [
    { value: 'approved', label: 'Approved' },
    { value: 'pending', label: 'Pending approval' },
    { value: 'rejected', label: 'Rejected' },
  ],
  helpText:
    'Only registrations with this status when Zapier first reads them, which is within minutes of the form being sent. A registration approved later does not start this Zap: use the instant **Registration Approved** trigger for that.',
});

const perform = async (z: ZObject, bundle: Bundle) => {
  const eventId = requiredEventId(z, bundle);
  const status = chosenStatus(z, bundle, registrationStatusField);
  const keep = hasStatus(status);
  const kind = pollKind(bundle);

  if (kind === 'sample') {
    const { event, submissions } = await recentSubmissions(z, bundle, { eventId, keep });
    return present(bundle, submissions, presenter(z, eventContextOf(event)), logTo(z));
  }

  const poll = await openPoll(z, bundle, { key: submissionStreamKey(eventId, status), kind });
  const request = { eventId, since: poll.since, timeoutMs: poll.timeoutMs };

  if (kind === 'dedupe') {
    // Zapier only records the ids: read the keys of the widest window and answer with ids.
    const window = new PollWindow<SubmissionKey>(poll, idOf);
    const read = await pollRequest(poll, readSubmissionKeys(z, bundle, request, window.visit));
    const selection = window.select(read.serverTime);
    const answer = present(
      bundle,
      selection.records.filter(keep),
      { idOf, noun: 'registration', toItem: (k) => ({ id: idOf(k) }) },
      logTo(z),
    );
    await closePoll(poll, selection);
    return answer;
  }

  const window = new PollWindow<Submission>(poll, idOf, itemBytes);
  const read = await pollRequest(poll, readSubmissions(z, bundle, request, window.visit));
  const selection = window.select(read.serverTime);
  const matching = selection.records.filter(keep);
  const context = matching.length ? await eventContext(z, bundle, eventId) : NO_EVENT_CONTEXT;
  const answer = present(bundle, matching, presenter(z, context), logTo(z));
  await closePoll(poll, selection);
  return answer;
};

export default defineTrigger({
  key: NEW_SUBMISSION_KEY,
  noun: 'Form Submission',
  display: {
    label: 'New Form Submission',
    description:
      'Triggers when someone submits the registration form of an event (checked every few minutes, none missed).',
  },
  operation: {
    inputFields: [
      eventField({
        required: true,
        helpText: 'The event whose registrations start this Zap. The list shows your 100 newest events.',
      }),
      registrationStatusField,
    ],
    perform,
    sample: registrationItem.sample,
    outputFields: registrationItem.outputFields,
  },
});
