/**
 * Find Registration: one event's registration by email or by registration ID, with the same fields as the
 * registration triggers (event title and dates, custom answers). Nothing found is `[]`; an event that is not
 * among the account's events (deleted, or another account's) is an error that says so.
 */
import { type Bundle, type ZObject, defineSearch } from 'zapier-platform-core';
import type { Submission } from '../connect';
import { eventContext } from '../account/events';
import { recentSubmissions } from '../account/recent';
import { matchingRegistrations } from '../account/registrations';
import { NO_SPACES_PATTERN, accepts } from '../fields/accepts';
import { eventField, requiredEventId } from '../fields/event';
import { FIND_REGISTRATION_KEY } from '../fields/keys';
import { EMAIL_PATTERN, emailInput, idInput, textInput } from '../fields/read';
import { mapEach } from '../mappers/each';
import {
  answerOutputFields,
  submissionOutputFields,
  submissionSample,
  toSubmissionItem,
} from '../mappers/submission';
import { sibling } from '../siblings';

const perform = async (z: ZObject, bundle: Bundle) => {
  const eventId = requiredEventId(z, bundle);
  const email = emailInput(z, bundle, 'email', 'Email');
  const submissionId = idInput(z, bundle, 'submissionIdText', 'Registration ID', 'sub_01JD3K9V8Q2W');
  if (!email && !submissionId) {
    throw new z.errors.Error(
      'Fill in Email or Registration ID (or both) to say which registration to find.',
      'INVALID_INPUT',
      400,
    );
  }
  const matches = await matchingRegistrations(z, bundle, eventId, { submissionId, email });
  if (matches.length === 0) return [];
  const context = await eventContext(z, bundle, eventId);
  const log = (line: string) => z.console.log(line);
  const rule = {
    noun: 'registration',
    what: 'the registrations found',
    idOf: (s: Submission) => s.submissionId,
    log,
  };
  return mapEach(matches, rule, (s) => toSubmissionItem(s, context, s.submissionId, log));
};

/** The custom questions of the chosen event, labelled with the form's own wording (best effort). */
const eventAnswerFields = async (z: ZObject, bundle: Bundle) => {
  const eventId = textInput(bundle, 'eventId');
  if (!eventId) return [];
  try {
    const { submissions } = await recentSubmissions(z, bundle, { eventId, limit: 3 });
    return answerOutputFields(submissions.flatMap((s) => s.answers ?? []));
  } catch {
    return [];
  }
};

const definition = defineSearch({
  key: FIND_REGISTRATION_KEY,
  noun: 'Registration',
  display: {
    label: 'Find Registration',
    description:
      "Finds a registration of one of your events by the attendee's email or registration ID, and returns it with its status, QR code, answers and the event, newest first. When nothing matches, it returns nothing. For what the person paid, use **Find Order**.",
  },
  operation: {
    perform,
    inputFields: [
      eventField({
        required: true,
        helpText:
          'The event whose registrations are searched, drafts included: any of your events (its search finds older ones), or its event ID mapped from an earlier step.',
      }),
      {
        key: 'email',
        label: 'Email',
        type: 'string' as const,
        required: false,
        helpText:
          "The attendee's email address, for example `ada@example.com`; case and surrounding spaces do not matter, anything that is not an email stops the step. When one person registered several times, the newest registration comes first.",
        meta: accepts({ pattern: EMAIL_PATTERN, fillOneOf: 'registration' }),
      },
      {
        key: 'submissionIdText',
        label: 'Registration ID',
        type: 'string' as const,
        required: false,
        helpText:
          'The registration ID to look up (for example `sub_01JD3K9V8Q2W`), mapped from a trigger or a payment. With Email too, both must match.',
        meta: accepts({ pattern: NO_SPACES_PATTERN, fillOneOf: 'registration' }),
      },
    ],
    sample: submissionSample,
    outputFields: [...submissionOutputFields, eventAnswerFields],
  },
});

export default sibling('registration-or-order', definition);
