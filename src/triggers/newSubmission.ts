/**
 * New Form Submission (polling): registrations of one event, newest first, id = submissionId, read through
 * the polling room (src/polling), which never misses one. Items have exactly the fields of the instant New
 * Registration trigger: same mapper, same event context. Each registration is sized as its item (UTF-8
 * bytes of its JSON), so that every answer stays under Zapier's 6 MiB whatever the script of the answers.
 */
import { type Bundle, type ZObject, defineTrigger } from 'zapier-platform-core';
import { type Submission, type SubmissionKey, readSubmissionKeys, readSubmissions } from '../connect';
import { eventContext } from '../account/events';
import { recentSubmissions } from '../account/recent';
import { eventField, requiredEventId } from '../fields/event';
import { chosenStatus, hasStatus, statusField } from '../fields/status';
import {
  type EventContext,
  NO_EVENT_CONTEXT,
  type SubmissionItem,
  toSubmissionItem,
} from '../mappers/submission';
import { type Clock, systemClock } from '../memory';
import { POLL_TIMINGS, type PollTimings, readNew } from '../polling';
import { registrationItem } from '../items';
import { pollKind, present } from './common/polling';
import { sibling } from '../siblings';

export const NEW_SUBMISSION_KEY = 'new_submission';

const idOf = (submission: SubmissionKey) => submission.submissionId;

/**
 * Each registration measured once a poll, and mapped again for the answer (the same item: mapping is pure).
 * Only its size is remembered: a poll reading a range again sizes every registration of it, and keeps the
 * newest answer's worth while the rest streams by; remembering each one's item too (a copy of its longest
 * fields) held twice as much, long enough for V8 to move it to the old generation (a recovery poll reading
 * 100 MB again peaked 50 MB higher).
 */
const measuredOnce = (z: ZObject, context: EventContext) => {
  const sizes = new WeakMap<Submission, number>();
  const mapOf = (submission: Submission): { item: SubmissionItem; lines: string[] } => {
    const lines: string[] = [];
    const item = toSubmissionItem(submission, context, submission.submissionId, (line) => lines.push(line));
    return { item, lines };
  };
  return {
    /** What one registration adds to the answer: the UTF-8 bytes of its item's JSON, as core measures it. */
    sizeOf: (submission: Submission) => {
      const known = sizes.get(submission);
      if (known !== undefined) return known;
      const bytes = Buffer.byteLength(JSON.stringify(mapOf(submission).item));
      sizes.set(submission, bytes);
      return bytes;
    },
    presenter: {
      idOf,
      noun: 'registration',
      toItem: (submission: Submission) => {
        // The lines its mapping writes are written once: when the answer carries it.
        const { item, lines } = mapOf(submission);
        for (const line of lines) z.console.log(line);
        return item;
      },
    },
  };
};

const logTo = (z: ZObject) => (line: string) => z.console.log(line);

/**
 * The stream whose state the polls share: the event and the filter. Zapier sends polling triggers nothing
 * that tells one Zap from another, so every Zap of the account with these inputs polls this one stream.
 */
export const submissionStreamKey = (eventId: string, status: string | null) =>
  `poll:submissions:${eventId}:${status ?? 'any'}`;

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

/** How the polls of this trigger run: the app's timings and clock unless a test or a benchmark sets them. */
export interface PollSetup {
  timings?: PollTimings;
  clock?: Clock;
}

/**
 * The event's context, or none when its lookup takes longer than `contextWaitMs` (as when it fails: the
 * items then carry no event title and dates), so that the poll keeps the time its read needs.
 */
const contextWithin = async (z: ZObject, bundle: Bundle, eventId: string, setup: PollSetup) => {
  const clock = setup.clock ?? systemClock;
  const waitMs = (setup.timings ?? POLL_TIMINGS).contextWaitMs;
  const bound = new AbortController();
  const late = clock.sleep(waitMs, bound.signal).then(() => null);
  const context = await Promise.race([eventContext(z, bundle, eventId, Date.now() + waitMs), late]);
  bound.abort();
  if (context) return context;
  z.console.log(`The title and dates of event ${eventId} could not be added: its lookup took too long.`);
  return NO_EVENT_CONTEXT;
};

const performWith = (setup: PollSetup) => async (z: ZObject, bundle: Bundle) => {
  // The poll's one deadline counts from here: the event's lookup, a wait for another poll and the read.
  const started = (setup.clock ?? systemClock).now();
  const eventId = requiredEventId(z, bundle);
  const status = chosenStatus(z, bundle, registrationStatusField);
  const keep = hasStatus(status);
  const kind = pollKind(bundle);

  if (kind === 'sample') {
    const { submissions } = await recentSubmissions(z, bundle, { eventId, keep });
    const context = await contextWithin(z, bundle, eventId, setup);
    return present(bundle, submissions, measuredOnce(z, context).presenter, logTo(z));
  }
  const stream = { ...setup, started, key: submissionStreamKey(eventId, status), idOf };

  if (kind === 'dedupe') {
    // Zapier only records the ids: read the keys of the widest window and answer with ids.
    return readNew(
      z,
      bundle,
      {
        ...stream,
        kind,
        read: (request, visit) => readSubmissionKeys(z, bundle, { eventId, ...request }, visit),
      },
      async (records) =>
        present(
          bundle,
          records.filter(keep),
          { idOf, noun: 'registration', toItem: (k) => ({ id: idOf(k) }) },
          logTo(z),
        ),
    );
  }

  // The event's context is in every item, so it is read first: each registration is sized as its item.
  const context = await contextWithin(z, bundle, eventId, setup);
  const mapped = measuredOnce(z, context);
  return readNew(
    z,
    bundle,
    {
      ...stream,
      kind,
      sizeOf: mapped.sizeOf,
      read: (request, visit) => readSubmissions(z, bundle, { eventId, ...request }, visit),
    },
    async (records) => present(bundle, records.filter(keep), mapped.presenter, logTo(z)),
  );
};

/** The trigger, with its polls' timings and clock (a test's or a benchmark's; the app's by default). */
export const newSubmissionTrigger = (setup: PollSetup = {}) =>
  defineTrigger({
    key: NEW_SUBMISSION_KEY,
    noun: 'Form Submission',
    display: {
      label: 'New Form Submission',
      description:
        'Triggers when someone submits the registration form of one event, checked every few minutes with none missed, with their answers and the event. **New Registration** runs instantly for one event or all, and suits ticket-release rushes better; **Registration Approved** runs on approval.',
    },
    operation: {
      inputFields: [
        eventField({
          required: true,
          helpText:
            'The event whose registrations start this Zap: any of your events (its search finds older ones), or its event ID mapped from an earlier step.',
        }),
        registrationStatusField,
      ],
      perform: performWith(setup),
      sample: registrationItem.sample,
      outputFields: registrationItem.outputFields,
    },
  });

export default sibling('registrations', newSubmissionTrigger());
