/**
 * Whole-event registration reads for lookups (searches and the registration dropdown). The submissions
 * endpoint has no limit and no "get one" form, so a lookup reads the event's registrations since a date
 * before any event could have been created, and filters them here.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { type Submission, listSubmissions } from '../connect';
import { folded } from '../text';

/** Earlier than any registration of the service: a lookup reads the whole event. */
export const ALL_TIME = '2000-01-01T00:00:00.000Z';

/** Every registration of one event, newest first. */
export const eventRegistrations = async (
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  eventId: string,
): Promise<Submission[]> => (await listSubmissions(z, bundle, { eventId, since: ALL_TIME })).submissions;

/** Emails compared as people type them: surrounding spaces and case do not matter. */
export const sameEmail = (a: string | null | undefined, b: string): boolean =>
  typeof a === 'string' && a.trim().toLowerCase() === b.trim().toLowerCase();

/** Sort key of a registration by person: last name, first name, email (accent- and case-insensitive). */
export const byPerson = (a: Submission, b: Submission): number => {
  const key = (s: Submission) =>
    [s.lastName ?? '', s.firstName ?? '', s.email ?? '', s.submissionId].map(folded).join('\u0000');
  const ka = key(a);
  const kb = key(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
};
