/**
 * Whole-event registration reads for lookups (searches and the registration dropdown). The submissions
 * endpoint has no limit and no "get one" form, so a lookup reads the event's registrations since a date
 * before any event could have been created. The answer is read as a stream (`readSubmissions`): each
 * lookup keeps only what it needs of each registration as it arrives (the matches of a search, the slim
 * rows of one dropdown page), so an event of 200,000 registrations never sits in memory.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { type Submission, newestFirst, readSubmissions } from '../connect';
import { folded } from '../mappers/text';
import { FirstN } from './selection';

type B = Pick<Bundle, 'authData'>;

/** Earlier than any registration of the service: a lookup reads the whole event. */
export const ALL_TIME = '2000-01-01T00:00:00.000Z';

/**
 * Reads every registration of one event, visiting each as it arrives (see `readSubmissions`). With
 * `mentions` (a lookup's email), only registrations that may hold it are checked and visited: the others
 * are read past unparsed.
 */
export const visitEventRegistrations = (
  z: ZObject,
  bundle: B,
  eventId: string,
  visit: (submission: Submission) => void,
  mentions?: readonly string[],
) => readSubmissions(z, bundle, { eventId, since: ALL_TIME, mentions }, visit);

/** Emails compared as people type them: surrounding spaces and case do not matter. */
export const sameEmail = (a: string | null | undefined, b: string): boolean =>
  typeof a === 'string' && a.trim().toLowerCase() === b.trim().toLowerCase();

/** The registrations of one event with this ID and/or email (both must match when both are given), newest first. */
export const matchingRegistrations = async (
  z: ZObject,
  bundle: B,
  eventId: string,
  match: { submissionId?: string; email?: string },
): Promise<Submission[]> => {
  const email = match.email?.trim().toLowerCase();
  const matches: Submission[] = [];
  const visit = (s: Submission) => {
    if (match.submissionId && s.submissionId !== match.submissionId) return;
    if (email && !(typeof s.email === 'string' && s.email.trim().toLowerCase() === email)) return;
    matches.push(s);
  };
  await visitEventRegistrations(z, bundle, eventId, visit, email ? [email] : undefined);
  return newestFirst(matches, (s) => s.submissionId);
};

/** The IDs of the registrations of one event with this email. */
export const registrationIdsWithEmail = async (
  z: ZObject,
  bundle: B,
  eventId: string,
  email: string,
): Promise<Set<string>> => {
  const ids = new Set<string>();
  const visit = (s: Submission) => {
    if (sameEmail(s.email, email)) ids.add(s.submissionId);
  };
  await visitEventRegistrations(z, bundle, eventId, visit, [email.trim()]);
  return ids;
};

/** What the dropdown keeps of a registration (answers left out: a page and its snapshot stay small). */
export type SlimRegistration = Pick<
  Submission,
  'submissionId' | 'eventId' | 'status' | 'createdAt' | 'email' | 'firstName' | 'lastName' | 'ticketType'
> &
  Required<Pick<Submission, 'approvedAt' | 'checkedInAt'>>;

export const slimRegistration = (s: Submission): SlimRegistration => ({
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

/**
 * Sort key of a registration by person: last name, first name, email, then ID (accent- and case-insensitive),
 * computed once per registration rather than on every comparison.
 */
export const personKey = (s: Pick<Submission, 'lastName' | 'firstName' | 'email' | 'submissionId'>): string =>
  [s.lastName ?? '', s.firstName ?? '', s.email ?? '', s.submissionId].map(folded).join('\u0000');

export interface Keyed<T> {
  key: string;
  row: T;
}

const byKey = <T>(a: Keyed<T>, b: Keyed<T>): number => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/**
 * The first `count` approved registrations of one event by person (`personKey`), after `after` when given,
 * as slim rows with their keys. Only `count` rows are ever held, however large the event.
 */
export const firstApprovedByPerson = async (
  z: ZObject,
  bundle: B,
  eventId: string,
  count: number,
  after?: string,
): Promise<Array<Keyed<SlimRegistration>>> => {
  const first = new FirstN<{ key: string; row: SlimRegistration | null }>(count, byKey);
  await visitEventRegistrations(z, bundle, eventId, (s) => {
    if (s.status !== 'approved') return;
    const entry = { key: personKey(s), row: null as SlimRegistration | null };
    if ((after !== undefined && entry.key <= after) || !first.wants(entry)) return;
    entry.row = slimRegistration(s);
    first.offer(entry);
  });
  return first.sorted().map(({ key, row }) => ({ key, row: row as SlimRegistration }));
};
