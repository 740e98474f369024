/**
 * The one mapper of the Check-in result noun: the Check In Attendee action's live answer and its sample.
 */
import type { PlainOutputField } from 'zapier-platform-core';
import type { CheckInResult, Event } from '../connect';
import { cutFieldsOutputField, cutSummary, extraFields, itemCuts } from './cuts';
import { staticSample } from './sample';

export type CheckInItem = {
  [extra: string]: unknown;
  id: string;
  result: string;
  alreadyCheckedIn: boolean;
  checkInTime: string;
  submissionId: string;
  eventId: string;
  eventTitle: string | null;
  eventSlug: string | null;
  firstName: string | null;
  lastName: string | null;
  fullName: string | null;
  email: string | null;
  isRepeatedScan: boolean;
  scanId: string;
  /** The fields cut to fit, with their whole size; `null` when nothing was cut. */
  cutFields: string | null;
};

/**
 * The fields of a check-in item (the contract's, and the app's own): any other field of the service is kept
 * only within `extraFields`' bounds, as for every record kind.
 */
const CHECK_IN_ITEM_KEYS: ReadonlySet<string> = new Set([
  'id',
  'result',
  'alreadyCheckedIn',
  'checkInTime',
  'submissionId',
  'eventId',
  'eventTitle',
  'eventSlug',
  'attendee',
  'firstName',
  'lastName',
  'fullName',
  'email',
  'isRepeatedScan',
  'scanId',
  'cutFields',
]);

/**
 * A check-in answer as a flat Zapier item. `replayed` says the service answered from its idempotency store
 * (the same scan was sent before); `scanId` is the Idempotency-Key that identified the scan.
 */
export const toCheckInItem = (
  answer: CheckInResult,
  event: Pick<Event, 'title' | 'slug'> | null,
  options: { replayed: boolean; scanId: string },
): CheckInItem => {
  const attendee = answer.attendee ?? {};
  const fullName = [attendee.firstName, attendee.lastName].filter((part) => part?.trim()).join(' ') || null;
  const extras = extraFields(answer, CHECK_IN_ITEM_KEYS);
  return {
    ...extras.fields,
    ...(answer.attendee === undefined ? {} : { attendee: answer.attendee }),
    id: answer.submissionId,
    result: answer.result,
    alreadyCheckedIn: answer.result === 'already_checked_in',
    checkInTime: answer.checkInTime,
    submissionId: answer.submissionId,
    eventId: answer.eventId,
    eventTitle: event?.title ?? null,
    eventSlug: event?.slug ?? null,
    firstName: attendee.firstName ?? null,
    lastName: attendee.lastName ?? null,
    fullName,
    email: attendee.email ?? null,
    isRepeatedScan: options.replayed,
    scanId: options.scanId,
    cutFields: cutSummary(itemCuts(answer, CHECK_IN_ITEM_KEYS, extras)),
  };
};

export const SAMPLE_CHECK_IN: CheckInResult = {
  result: 'checked_in',
  submissionId: 'sub_01JD3K9V8Q2W',
  eventId: '7d0c6f1e-2f6a-4a7e-9a51-3f0e1b2c4d5e',
  checkInTime: '2026-12-01T08:01:12.000Z',
  attendee: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
};

export const checkInSample: CheckInItem = staticSample('checkIn', () =>
  toCheckInItem(
    SAMPLE_CHECK_IN,
    { title: 'TechWeek 2026', slug: 'techweek-2026' },
    {
      replayed: false,
      scanId: 'zapier-checkin-v1-3b1f0c9e8d7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c',
    },
  ),
);

export const checkInOutputFields: PlainOutputField[] = [
  { key: 'id', label: 'ID', type: 'string', primary: true },
  { key: 'result', label: 'Result', type: 'string' },
  { key: 'alreadyCheckedIn', label: 'Was Already Checked In', type: 'boolean' },
  { key: 'checkInTime', label: 'Check-In Time', type: 'datetime' },
  { key: 'submissionId', label: 'Registration ID', type: 'string' },
  { key: 'eventId', label: 'Event ID', type: 'string' },
  { key: 'eventTitle', label: 'Event Title', type: 'string' },
  { key: 'eventSlug', label: 'Event Slug', type: 'string' },
  { key: 'firstName', label: 'Attendee First Name', type: 'string' },
  { key: 'lastName', label: 'Attendee Last Name', type: 'string' },
  { key: 'fullName', label: 'Attendee Full Name', type: 'string' },
  { key: 'email', label: 'Attendee Email', type: 'string' },
  { key: 'isRepeatedScan', label: 'Same Scan Sent Before', type: 'boolean' },
  { key: 'scanId', label: 'Scan Reference Sent as Idempotency-Key', type: 'string' },
  cutFieldsOutputField,
];
