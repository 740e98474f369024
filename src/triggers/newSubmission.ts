/**
 * New Form Submission (polling): registrations of one event, newest first, id = submissionId, read with a
 * since-cursor that never misses one (see src/triggers/common/cursor.ts and the README's "Reliability"
 * section). Items have exactly the fields of the instant New Registration trigger: same mapper, same event
 * context. One pass: the connect list is sorted and de-duplicated once, the cursor selects from it, and the
 * answer keeps its order.
 */
import { type Bundle, type ZObject, defineTrigger } from 'zapier-platform-core';
import { type Submission, type SubmissionKey, readSubmissionKeys, readSubmissions } from '../connect';
import { eventContext } from '../account/events';
import { recentSubmissions } from '../account/recent';
import { eventField, requiredEventId } from '../fields/event';
import { chosenStatus, hasStatus, statusField } from '../fields/status';
import { type EventContext, NO_EVENT_CONTEXT, eventContextOf, toSubmissionItem } from '../mappers/submission';
import { WindowKeeper, closePoll, openPoll, pollRequest, selectRecords } from './common/cursor';
import { registrationItem } from './common/items';
import { pollKind, present } from './common/polling';

export const NEW_SUBMISSION_KEY = 'new_submission';

const idOf = (submission: SubmissionKey) => submission.submissionId;

const presenter = (context: EventContext) => ({
  idOf,
  toItem: (submission: Submission) => toSubmissionItem(submission, context),
});

/** The cursor's stream: the event, the filter, and the Zap when Zapier names it (see README, Reliability). */
export const submissionStreamKey = (bundle: Pick<Bundle, 'meta'>, eventId: string, status: string | null) => {
  const zapId = (bundle.meta as { zap?: { id?: unknown } } | undefined)?.zap?.id;
  const consumer = typeof zapId === 'string' || typeof zapId === 'number' ? `zap-${zapId}` : 'account';
  return `poll:submissions:${eventId}:${status ?? 'any'}:${consumer}`;
};

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
    return present(bundle, submissions, presenter(eventContextOf(event)));
  }

  const poll = await openPoll(z, bundle, { key: submissionStreamKey(bundle, eventId, status), kind });
  const request = { eventId, since: poll.since, timeoutMs: poll.timeoutMs };

  if (kind === 'dedupe') {
    // Zapier only records the ids: read only the keys of the widest window and answer with ids.
    const keys = new WindowKeeper<SubmissionKey>(poll, idOf);
    const read = await pollRequest(poll, readSubmissionKeys(z, bundle, request, keys.visit));
    const selection = selectRecords(poll, keys.records(), read.serverTime, idOf);
    const answer = present(bundle, selection.records.filter(keep), {
      idOf,
      toItem: (k) => ({ id: idOf(k) }),
    });
    await closePoll(poll, selection);
    return answer;
  }

  // The answer streams by; only the records the poll may return are kept (see WindowKeeper).
  const window = new WindowKeeper<Submission>(poll, idOf);
  const read = await pollRequest(poll, readSubmissions(z, bundle, request, window.visit));
  const selection = selectRecords(poll, window.records(), read.serverTime, idOf);
  const matching = selection.records.filter(keep);
  const context = matching.length ? await eventContext(z, bundle, eventId) : NO_EVENT_CONTEXT;
  const answer = present(bundle, matching, presenter(context));
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
