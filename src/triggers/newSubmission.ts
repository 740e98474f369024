/**
 * New Form Submission (polling): registrations of one event, newest first, id = submissionId, read with a
 * since-cursor that never misses one (see src/triggers/common/cursor.ts and the README's "Reliability" section). Items have
 * exactly the fields of the instant New Registration trigger: same mapper, same event context.
 */
import { type Bundle, type ZObject, defineTrigger } from 'zapier-platform-core';
import { type Submission, type SubmissionKey, listSubmissionKeys, listSubmissions } from '../connect';
import { eventContext } from '../account/events';
import { recentSubmissions } from '../account/recent';
import { eventField, requiredEventId } from '../fields/event';
import { chosenStatus, hasStatus, statusField } from '../fields/status';
import { type EventContext, NO_EVENT_CONTEXT, eventContextOf, toSubmissionItem } from '../mappers/submission';
import { pollSince } from './common/cursor';
import { registrationItem } from './common/items';
import { pollKind, present } from './common/polling';

export const NEW_SUBMISSION_KEY = 'new_submission';

const presenter = (context: EventContext) => ({
  idOf: (submission: Submission) => submission.submissionId,
  toItem: (submission: Submission) => toSubmissionItem(submission, context),
});

/** The cursor's stream: the event, the filter, and the Zap when Zapier names it (see README, Reliability). */
export const submissionStreamKey = (bundle: Pick<Bundle, 'meta'>, eventId: string, status: string | null) => {
  const zapId = (bundle.meta as { zap?: { id?: unknown } } | undefined)?.zap?.id;
  const consumer = typeof zapId === 'string' || typeof zapId === 'number' ? `zap-${zapId}` : 'account';
  return `poll:submissions:${eventId}:${status ?? 'any'}:${consumer}`;
};

const perform = async (z: ZObject, bundle: Bundle) => {
  const eventId = requiredEventId(z, bundle);
  const status = chosenStatus(bundle);
  const keep = hasStatus(status);
  const kind = pollKind(bundle);

  if (kind === 'sample') {
    const { event, submissions } = await recentSubmissions(z, bundle, { eventId, keep });
    return present(bundle, submissions, presenter(eventContextOf(event)));
  }

  const key = submissionStreamKey(bundle, eventId, status);
  const idOf = (submission: SubmissionKey) => submission.submissionId;

  if (kind === 'dedupe') {
    // Zapier only records the ids: read the keys of the widest window and answer with ids.
    const { result } = await pollSince(z, bundle, {
      key,
      kind,
      fetch: async (since, timeoutMs) => {
        const page = await listSubmissionKeys(z, bundle, { eventId, since, timeoutMs });
        return { records: page.submissions, serverTime: page.serverTime };
      },
      idOf,
      finish: async (keys) => present(bundle, keys.filter(keep), { idOf, toItem: (k) => ({ id: idOf(k) }) }),
    });
    return result;
  }

  const { result } = await pollSince(z, bundle, {
    key,
    kind,
    fetch: async (since, timeoutMs) => {
      const page = await listSubmissions(z, bundle, { eventId, since, timeoutMs });
      return { records: page.submissions, serverTime: page.serverTime };
    },
    idOf,
    finish: async (submissions) => {
      const matching = submissions.filter(keep);
      const context = matching.length ? await eventContext(z, bundle, eventId) : NO_EVENT_CONTEXT;
      return present(bundle, matching, presenter(context));
    },
  });
  return result;
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
      statusField({
        label: 'Registration Status',
        choices: [
          { value: 'approved', label: 'Approved' },
          { value: 'pending', label: 'Pending approval' },
          { value: 'rejected', label: 'Rejected' },
        ],
        helpText:
          'Only registrations with this status when Zapier first reads them, which is within minutes of the form being sent. A registration approved later does not start this Zap: use the instant **Registration Approved** trigger for that.',
      }),
    ],
    perform,
    sample: registrationItem.sample,
    outputFields: registrationItem.outputFields,
  },
});
