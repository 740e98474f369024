/**
 * Hidden trigger that feeds the Registration dropdown of Check In Attendee: the approved registrations of
 * the chosen event, sorted by last name, 100 per page ("Load more" asks for the next page).
 *
 * An event may hold 200,000 registrations, so no page ever holds them all: the first page reads the event
 * once and keeps the first `SNAPSHOT_PAGES` pages by person (a bounded selection, sort keys computed once
 * per registration), remembered for 5 minutes; the next pages are served from that snapshot, so they never
 * overlap or skip. Past the snapshot, a page reads the event again and keeps only the rows after the
 * snapshot's last one, up to that page.
 */
import { type Bundle, type ZObject, defineTrigger } from 'zapier-platform-core';
import type { Submission } from '../connect';
import { type Keyed, type SlimRegistration, firstApprovedByPerson } from '../account/registrations';
import { accountCache } from '../memory';
import { requiredEventId } from '../fields/event';
import { REGISTRATION_LIST_TRIGGER_KEY } from '../fields/keys';
import { submissionOutputFields, submissionSample, toSubmissionItem } from '../mappers/submission';
import { staticSample } from '../mappers/sample';
import { mapEach } from '../mappers/each';

export const PAGE_SIZE = 100;
/** Pages kept by the first page's read (1,000 rows, about 300 KB in the cache). */
export const SNAPSHOT_PAGES = 10;
/** The last page served (20,000 rows by name); a person further down is found by typing their ID. */
export const MAX_PAGES = 200;
const SNAPSHOT_TTL_SECONDS = 300;

/** `Lovelace, Ada — ada@example.com (checked in)` */
export const registrationLabel = (
  s: Pick<Submission, 'firstName' | 'lastName' | 'email' | 'submissionId' | 'checkedInAt'>,
) => {
  const name = [s.lastName, s.firstName].filter((part) => part?.trim()).join(', ');
  const who = [name, s.email].filter(Boolean).join(' — ') || s.submissionId;
  return `${who}${s.checkedInAt ? ' (checked in)' : ''}`;
};

interface Snapshot {
  rows: Array<Keyed<SlimRegistration>>;
  /** Whether every approved registration is in `rows`. */
  complete: boolean;
}

const SNAPSHOT_ROWS = SNAPSHOT_PAGES * PAGE_SIZE;

const readSnapshot = async (z: ZObject, bundle: Bundle, eventId: string): Promise<Snapshot> => {
  const rows = await firstApprovedByPerson(z, bundle, eventId, SNAPSHOT_ROWS + 1);
  return { rows: rows.slice(0, SNAPSHOT_ROWS), complete: rows.length <= SNAPSHOT_ROWS };
};

const rowsOfPage = async (z: ZObject, bundle: Bundle, eventId: string, page: number) => {
  const snapshot = await accountCache(z, bundle).remember(
    `registration-choices:v2:${eventId}`,
    SNAPSHOT_TTL_SECONDS,
    () => readSnapshot(z, bundle, eventId),
    page === 0,
  );
  const from = page * PAGE_SIZE;
  if (from < SNAPSHOT_ROWS || snapshot.complete) return snapshot.rows.slice(from, from + PAGE_SIZE);
  if (page >= MAX_PAGES) {
    z.console.log(
      `Registration dropdown: page ${page + 1} was not loaded; the list stops after ${MAX_PAGES} pages (type the registration ID instead).`,
    );
    return [];
  }
  const last = snapshot.rows[snapshot.rows.length - 1];
  const beyond = from - SNAPSHOT_ROWS;
  const rows = await firstApprovedByPerson(z, bundle, eventId, beyond + PAGE_SIZE, last?.key);
  return rows.slice(beyond);
};

const perform = async (z: ZObject, bundle: Bundle) => {
  const eventId = requiredEventId(z, bundle);
  const page = Math.max(0, Math.floor(Number(bundle.meta?.page) || 0));
  const rows = await rowsOfPage(z, bundle, eventId, page);
  const rule = {
    noun: 'registration',
    what: 'the registration dropdown',
    idOf: (entry: (typeof rows)[number]) => entry.row.submissionId,
    log: (line: string) => z.console.log(line),
  };
  return mapEach(rows, rule, ({ row }) => ({ ...toSubmissionItem(row), label: registrationLabel(row) }));
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
