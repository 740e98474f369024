/**
 * The fields of Check In Attendee. "Check In By" alters the fields that follow it: QR Code shows the code
 * field; Registration shows the Event and Registration fields. Before any mode is chosen the default mode's
 * fields show; a mode mapped from an earlier step (unknown while the Zap is edited) shows both sets.
 */
import type { Bundle } from 'zapier-platform-core';
import { FILLED_PATTERN, accepts } from './accepts';
import { eventField } from './event';
import { FIND_REGISTRATION_KEY, REGISTRATION_LIST_TRIGGER_KEY } from './keys';
import { type DateTimeBounds, textInput } from './read';

export type CheckInMode = 'code' | 'registration';

export const DEFAULT_CHECK_IN_MODE: CheckInMode = 'code';

/** Every way a mode may be written, typed or mapped (the choice values and their words). */
const MODES: Record<string, CheckInMode> = {
  code: 'code',
  qr: 'code',
  'qr code': 'code',
  registration: 'registration',
};

/** The mode a text names, `undefined` when it names none. */
export const checkInModeOf = (text: string): CheckInMode | undefined => {
  const key = text.trim().toLowerCase();
  return Object.hasOwn(MODES, key) ? MODES[key] : undefined;
};

export const checkInByField = {
  key: 'checkInBy',
  label: 'Check In By',
  type: 'string' as const,
  required: true,
  default: DEFAULT_CHECK_IN_MODE,
  altersDynamicFields: true,
  choices: [
    { value: 'code', label: 'QR Code (the scanned ticket)', sample: 'code' },
    { value: 'registration', label: 'Registration (event and person)', sample: 'registration' },
  ],
  helpText:
    'QR Code for door scanners: map the scanned text. Registration to pick (or map) the person in one of your events. The fields below change with this choice.',
};

export const codeField = {
  key: 'code',
  label: 'QR Code',
  type: 'string' as const,
  required: false,
  helpText:
    'The raw text your scanner read from the ticket (for example `EVT1:7d0c6f1e:sub_01JD3K9V8Q2W:9f2c`), mapped from the scanner step. Only the spaces and line breaks scanners add around it are removed.',
  // A code and a registration together leave it unclear whom to check in: the step refuses them.
  meta: accepts({ pattern: FILLED_PATTERN, excludes: 'submissionId' }),
};

export const checkInEventField = eventField({
  required: false,
  helpText:
    "The registration's event: any of your events (its search finds older ones), or its event ID mapped from an earlier step. The Registration field below lists its approved registrations.",
});

export const registrationField = {
  key: 'submissionId',
  label: 'Registration',
  type: 'string' as const,
  required: false,
  dynamic: `${REGISTRATION_LIST_TRIGGER_KEY}.id.label`,
  search: `${FIND_REGISTRATION_KEY}.id`,
  dependsOn: ['eventId'],
  helpText:
    "The person, among the event's approved registrations (sorted by last name). Map a registration ID from a trigger, or find it with **Find Registration**.",
  meta: accepts({ pattern: FILLED_PATTERN }),
};

export const scanReferenceField = {
  key: 'scanReference',
  label: "Scanner's Scan Reference",
  type: 'string' as const,
  required: false,
  group: 'advanced',
  helpText:
    "Not typed by hand: map the reference your scanner app gives each scan (its scan number or scan ID), from the scanner's step. It is sent as the `Idempotency-Key`, so the same scan is never checked in twice. Leave empty when the scanner has none: a reference is then derived from the code or registration and the check-in time.",
};

/** The fields the chosen mode needs (both sets for a mode mapped from an earlier step). */
export const checkInModeFields = (bundle: Pick<Bundle, 'inputData'>) => {
  const chosen = textInput(bundle, 'checkInBy');
  const mode = chosen ? checkInModeOf(chosen) : DEFAULT_CHECK_IN_MODE;
  if (mode === 'code') return [{ ...codeField, required: true }];
  if (mode === 'registration')
    return [
      { ...checkInEventField, required: true },
      { ...registrationField, required: true },
    ];
  return [codeField, checkInEventField, registrationField];
};

/**
 * Check-In Time stands for a scan that has happened: a year before 2000 is a mistake (a two-digit year, or a
 * date an earlier step read wrongly), and a time more than 5 minutes ahead of now (clocks differ by less) has
 * not happened yet ("Dec 1" mapped on Nov 25 would check the person in for next week).
 */
export const CHECK_IN_TIME_BOUNDS: DateTimeBounds = {
  earliestYear: 2000,
  maxAheadMs: 5 * 60_000,
  emptyMeans: 'to check the person in now',
};

/** The Check-In Time field: a date and time within `CHECK_IN_TIME_BOUNDS`. */
export const checkInTimeField = {
  key: 'checkInTime',
  label: 'Check-In Time',
  type: 'datetime' as const,
  required: false,
  helpText: `When the person arrived, as an ISO 8601 date and time (for example 2026-11-25T10:00:00Z); empty means now. It cannot be more than ${CHECK_IN_TIME_BOUNDS.maxAheadMs / 60_000} minutes ahead of now, nor before ${CHECK_IN_TIME_BOUNDS.earliestYear}. Map the scan time of your scanner app here so that a second scan of the same ticket counts as a new scan and is answered with **Was Already Checked In**.`,
  meta: accepts({
    earliest: `${CHECK_IN_TIME_BOUNDS.earliestYear}-01-01T00:00:00Z`,
    minutesAhead: CHECK_IN_TIME_BOUNDS.maxAheadMs / 60_000,
  }),
};
