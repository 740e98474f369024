/**
 * Check In Attendee: by the scanned QR code or by registration, with an Idempotency-Key derived from what is
 * checked in (see src/creates/common/scan.ts), so a retried or replayed step never checks a person in twice and gets the
 * same answer back. "Already checked in" is a success carrying the first check-in time.
 */
import { type Bundle, type ZObject, defineCreate } from 'zapier-platform-core';
import {
  type CheckInBody,
  checkIn,
  checkInFailureOf,
  isOutdatedReplay,
  registrationNotInEventError,
} from '../connect';
import { findEvent } from '../account/events';
import {
  CHECK_IN_TIME_BOUNDS,
  type CheckInMode,
  checkInByField,
  checkInModeFields,
  checkInModeOf,
  checkInTimeField,
  scanReferenceField,
} from '../fields/checkIn';
import { requiredEventId } from '../fields/event';
import { dateTimeInput, textInput } from '../fields/read';
import { checkInOutputFields, checkInSample, toCheckInItem } from '../mappers/checkIn';
import { chosenScanKey, cleanCode, derivedScanKey, followUpScanKey, keyHeaderValue } from './common/scan';
import { sibling } from '../siblings';

const refuse = (z: ZObject, message: string): never => {
  throw new z.errors.Error(`${message} Nobody was checked in.`, 'INVALID_INPUT', 400);
};

/** The body to send, from the step's input; every mistake is refused before any request. */
const checkInBodyOf = (
  z: ZObject,
  bundle: Pick<Bundle, 'inputData'> & Partial<Pick<Bundle, 'meta'>>,
): CheckInBody => {
  const code = cleanCode(textInput(bundle, 'code'));
  const submissionId = textInput(bundle, 'submissionId');
  const chosen = textInput(bundle, 'checkInBy').toLowerCase();
  const mode: CheckInMode | undefined = chosen
    ? checkInModeOf(chosen)
    : code
      ? 'code'
      : submissionId
        ? 'registration'
        : undefined;
  if (chosen && !mode) {
    refuse(z, `"Check In By" must be QR Code or Registration, not "${chosen.slice(0, 40)}".`);
  }
  if (code && submissionId) {
    refuse(
      z,
      'Both a QR code and a registration were given, so it is not clear whom to check in. Fill in only the field that matches "Check In By" and clear the other one.',
    );
  }
  const { key, label } = checkInTimeField;
  const checkInTime = dateTimeInput(z, bundle, key, label, CHECK_IN_TIME_BOUNDS);
  const time = checkInTime ? { checkInTime } : {};
  if (mode === 'registration') {
    if (!submissionId) {
      refuse(
        z,
        'No registration was given. Choose the event and then the registration, or map a registration ID.',
      );
    }
    const eventId = requiredEventId(z, bundle);
    return { eventId, submissionId, ...time };
  }
  if (!code) {
    refuse(
      z,
      mode === 'code'
        ? 'The QR Code field is empty in this run. Map the scanned code from your scanner step, or switch "Check In By" to Registration.'
        : 'Neither a QR code nor a registration was given. Choose "Check In By", then fill in the QR code or pick the registration.',
    );
  }
  return { code, ...time };
};

const perform = async (z: ZObject, bundle: Bundle) => {
  const body = checkInBodyOf(z, bundle);
  const reference = textInput(bundle, 'scanReference');
  let key = reference ? chosenScanKey(reference) : derivedScanKey(body);
  let answer;
  try {
    try {
      answer = await checkIn(z, bundle, body, keyHeaderValue(key));
    } catch (error) {
      if (!isOutdatedReplay(error)) throw error;
      key = followUpScanKey(key, Date.now());
      answer = await checkIn(z, bundle, body, keyHeaderValue(key));
    }
  } catch (error) {
    // By registration, "no ticket" means the registration is not one of the chosen event's: name the event.
    if (!('submissionId' in body) || checkInFailureOf(error) !== 'no-ticket') throw error;
    const event = await findEvent(z, bundle, body.eventId).catch(() => null);
    throw registrationNotInEventError(z, body, event?.title ?? null);
  }
  // The person is checked in at this point: a failing title lookup must not turn that into an error.
  const event = await findEvent(z, bundle, answer.eventId).catch(() => null);
  return toCheckInItem(answer, event, { replayed: answer.replayed, scanId: key });
};

const definition = defineCreate({
  key: 'check_in_attendee',
  noun: 'Check-in',
  display: {
    label: 'Check In Attendee',
    description:
      'Checks a person in at the door by the scanned QR code or by registration, and returns the attendee, the check-in time and whether they were in already. A repeated scan never checks in twice: it reports the first check-in. Each check-in starts **Attendee Checked In** Zaps.',
  },
  operation: {
    perform,
    inputFields: [
      checkInByField,
      (_z: ZObject, bundle: Bundle) => checkInModeFields(bundle),
      checkInTimeField,
      scanReferenceField,
    ],
    inputFieldGroups: [{ key: 'advanced', label: 'Advanced' }],
    sample: checkInSample,
    outputFields: checkInOutputFields,
  },
});

export default sibling('check-in', definition);
