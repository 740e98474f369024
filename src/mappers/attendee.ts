/**
 * The attendee behind an order or payment: who paid, from the registration the order names. Pure: the
 * lookup that finds the registration lives in src/account/attendee.ts.
 */
import type { PlainOutputField } from 'zapier-platform-core';
import type { Submission } from '../connect';

export interface Attendee {
  /** Whether the registration the order names was found. */
  found: boolean;
  firstName: string | null;
  lastName: string | null;
  fullName: string | null;
  email: string | null;
  /** Why the fields are empty, when they are; `''` when found. */
  note: string;
}

const text = (value: string | null | undefined): string | null => (value?.trim() ? value.trim() : null);

export const attendeeOf = (submission: Submission): Attendee => {
  const firstName = text(submission.firstName);
  const lastName = text(submission.lastName);
  return {
    found: true,
    firstName,
    lastName,
    fullName: [firstName, lastName].filter(Boolean).join(' ') || null,
    email: text(submission.email),
    note: '',
  };
};

/** No attendee: every field empty, with the reason in words. */
export const noAttendee = (note: string): Attendee => ({
  found: false,
  firstName: null,
  lastName: null,
  fullName: null,
  email: null,
  note,
});

/** What the user reads about the attendee fields, in the help of every order and payment operation. */
export const ATTENDEE_HELP =
  '**Attendee** fields (first name, last name, email) come from the registration the order names. They are read only when a later step uses them, at most once per order. When that registration cannot be found (it was deleted, or the order names none), the Zap still runs: the attendee fields are empty, **Attendee Found** is false and **Attendee Note** says why (a Filter step on **Attendee Found** can stop such runs). If the service cannot be reached at that moment, the step using them stops with an error and can be replayed from the Zap history.';

/** The attendee as the flat fields of an order or payment item. */
export interface AttendeeFields {
  attendeeFound: boolean;
  attendeeFirstName: string | null;
  attendeeLastName: string | null;
  attendeeFullName: string | null;
  attendeeEmail: string | null;
  attendeeNote: string;
}

export const ATTENDEE_FIELD_OF = {
  attendeeFound: 'found',
  attendeeFirstName: 'firstName',
  attendeeLastName: 'lastName',
  attendeeFullName: 'fullName',
  attendeeEmail: 'email',
  attendeeNote: 'note',
} as const satisfies Record<keyof AttendeeFields, keyof Attendee>;

export type AttendeeFieldKey = keyof AttendeeFields;

/** The attendee fields of an order or payment item, in the order they are listed. */
export const ATTENDEE_FIELD_KEYS = Object.keys(ATTENDEE_FIELD_OF) as AttendeeFieldKey[];

export const attendeeFields = (attendee: Attendee): AttendeeFields => ({
  attendeeFound: attendee.found,
  attendeeFirstName: attendee.firstName,
  attendeeLastName: attendee.lastName,
  attendeeFullName: attendee.fullName,
  attendeeEmail: attendee.email,
  attendeeNote: attendee.note,
});

export const attendeeOutputFields: PlainOutputField[] = [
  { key: 'attendeeFirstName', label: 'Attendee First Name', type: 'string' },
  { key: 'attendeeLastName', label: 'Attendee Last Name', type: 'string' },
  { key: 'attendeeFullName', label: 'Attendee Full Name', type: 'string' },
  { key: 'attendeeEmail', label: 'Attendee Email', type: 'string' },
  { key: 'attendeeFound', label: 'Attendee Found', type: 'boolean' },
  { key: 'attendeeNote', label: 'Attendee Note', type: 'string' },
];
