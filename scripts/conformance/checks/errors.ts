/**
 * Error answers (contract §2): a wrong key, an unknown event, a malformed `since`, a missing entitlement
 * (where one showed during the run), each with its status and `{ "error": { "code", "message" } }` body.
 */
import { paths } from '../../../src/connect/paths';
import { checkError } from '../evaluate';
import type { Run } from '../run';
import { type Check, checkMaker, unchecked } from '../types';
import { WHOLE_EVENT_SINCE } from './submissions';

const check = checkMaker('Errors', 'errors');

/** A key no service issues, recognisably the kit's. */
export const WRONG_KEY = 'conformance-kit-wrong-key-0000000000';
/** An event id no service holds (a well-formed UUID). */
export const UNKNOWN_EVENT = '00000000-0000-4000-8000-00000000c0f0';

export const errorChecks = async (run: Run): Promise<Check[]> => {
  const wrongKey = await run.probe.get(paths.events(), { limit: 1 }, WRONG_KEY);
  const unknownEvent = await run.probe.get(paths.submissions(), {
    eventId: UNKNOWN_EVENT,
    since: WHOLE_EVENT_SINCE,
  });
  const badSince = await run.probe.get(paths.submissions(), {
    eventId: run.firstRead?.eventId ?? run.events[0]?.id ?? UNKNOWN_EVENT,
    since: 'yesterday',
  });
  return [
    check(
      'wrong-key',
      'A wrong key answers 401 INVALID_API_KEY.',
      checkError(wrongKey, {
        status: 401,
        meaning: 'reconnect',
        what: 'the list of your events',
        wrongStatus:
          'A revoked key would not make Zapier ask the user to reconnect the account; every Zap would fail with an unclear error instead',
        noCode: null,
      }),
    ),
    check(
      'unknown-event',
      'An unknown event answers 404 NOT_FOUND.',
      checkError(unknownEvent, {
        status: 404,
        meaning: 'not_found',
        what: 'the registrations of this event',
        wrongStatus: 'New Form Submission on a deleted event would not say that the event is gone',
        noCode: null,
      }),
    ),
    check(
      'malformed-since',
      'A malformed since answers 400 VALIDATION_ERROR naming the field.',
      checkError(badSince, {
        status: 400,
        meaning: 'rejected',
        what: 'the registrations of this event',
        member: 'field',
        wrongStatus:
          'since=yesterday was not refused: the service does not check since, so a since it reads differently from the app would silently widen or empty every poll of New Form Submission',
        noCode: null,
      }),
    ),
    check(
      'entitlement',
      "A feature missing from the organizer's offer answers 403 ENTITLEMENT_REQUIRED naming it.",
      run.entitlement
        ? {
            ...run.entitlement.outcome,
            detail: `${run.entitlement.where}: ${run.entitlement.outcome.detail}`,
          }
        : unchecked(
            `No request of the run was refused for a missing feature (${run.featureReads.join('; ') || 'no floor plan nor agenda was read'}).`,
          ),
    ),
  ];
};
