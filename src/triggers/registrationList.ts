/**
 * Hidden trigger that feeds the Registration dropdown of Check In Attendee: the approved registrations of
 * the chosen event, sorted by last name, 100 per page ("Load more" asks for the next page, served from the
 * snapshot the first page was cut from, so pages never overlap or skip).
 */
import { type Bundle, type ZObject, defineTrigger } from 'zapier-platform-core';
import type { Submission } from '../connect';
import { byPerson, eventRegistrations } from '../account/registrations';
import { accountCache } from '../account/store';
import { requiredEventId } from '../fields/event';
import { REGISTRATION_LIST_TRIGGER_KEY } from '../fields/keys';
import { submissionOutputFields, submissionSample, toSubmissionItem } from '../mappers/submission';
import { staticSample } from '../mappers/sample';

export const PAGE_SIZE = 100;
const SNAPSHOT_TTL_SECONDS = 300;

/** `Lovelace, Ada — ada@example.com (checked in)` */
export const registrationLabel = (
  s: Pick<Submission, 'firstName' | 'lastName' | 'email' | 'submissionId' | 'checkedInAt'>,
) => {
  const name = [s.lastName, s.firstName].filter((part) => part?.trim()).join(', ');
  const who = [name, s.email].filter(Boolean).join(' — ') || s.submissionId;
  return `${who}${s.checkedInAt ? ' (checked in)' : ''}`;
};

/** What the dropdown keeps of a registration (answers left out: the snapshot stays small). */
const slim = (s: Submission): Submission => ({
  submissionId: s.submissionId,
  eventId: s.eventId,
  status: s.status,
  email: s.email ?? null,
  firstName: s.firstName ?? null,
  lastName: s.lastName ?? null,
  ticketType: s.ticketType ?? null,
  createdAt: s.createdAt,
  approvedAt: s.approvedAt ?? null,
  checkedInAt: s.checkedInAt ?? null,
});

const perform = async (z: ZObject, bundle: Bundle) => {
  const eventId = requiredEventId(z, bundle);
  const page = Math.max(0, Math.floor(Number(bundle.meta?.page) || 0));
  const approved = await accountCache(z, bundle).remember(
    `registration-choices:${eventId}`,
    SNAPSHOT_TTL_SECONDS,
    async () =>
      (await eventRegistrations(z, bundle, eventId))
        .filter((s) => s.status === 'approved')
        .sort(byPerson)
        .map(slim),
    page === 0,
  );
  return approved
    .slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE)
    .map((s) => ({ ...toSubmissionItem(s), label: registrationLabel(s) }));
};

export default defineTrigger({
  key: REGISTRATION_LIST_TRIGGER_KEY,
  noun: 'Registration',
  display: {
    label: 'List Approved Registrations',
    description: 'Triggers when the approved registrations of an event are loaded for a dropdown.',
    hidden: true,
  },
  operation: {
    perform,
    canPaginate: true,
    sample: staticSample('registrationChoice', () => ({
      ...submissionSample,
      label: registrationLabel(submissionSample),
    })),
    outputFields: [...submissionOutputFields, { key: 'label', label: 'Dropdown Label', type: 'string' }],
  },
});
