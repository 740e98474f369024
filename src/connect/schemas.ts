/**
 * Zod schemas of the Connect wire contract (docs/connect-contract.md §1–5).
 *
 * Every object schema is loose: fields the service adds later are kept and passed through, never rejected.
 * Enumerations the service may extend (statuses, kinds) are plain strings, so a new value never breaks a Zap.
 * Each schema is built on its first use (`../lazy.ts`): loading the app builds none.
 */
import * as z from 'zod';
import { DIALECT, besideRecords, memberAt } from './dialect';
import { wired } from './wire';
import { built, lazy } from '../lazy';
import {
  AGENDA_NAMES,
  AGENDA_SESSION_NAMES,
  BOOTH_NAMES,
  CHECK_IN_RESULT_NAMES,
  DELIVERY_NAMES,
  EVENT_NAMES,
  EVENT_WIDGET_NAMES,
  FLOOR_PLAN_NAMES,
  HOOK_NAMES,
  ORDER_NAMES,
  SUBMISSION_NAMES,
} from './wireNames';

/** A contract schema of records of type `T`, for code outside src/connect that names one. */
export type ContractSchema<T> = z.ZodType<T>;

/** ISO 8601 timestamp with a zone, as the contract sends it (`2026-11-22T10:00:00.000Z`). */
const Timestamp = lazy(() => z.iso.datetime({ offset: true }));
const OptionalTimestamp = lazy(() => built(Timestamp).nullable().optional());
const OptionalText = lazy(() => z.string().nullable().optional());

export const Event = wired(
  lazy(() =>
    z.looseObject({
      id: z.string().min(1),
      slug: z.string().min(1),
      title: z.string(),
      status: z.string(),
      startsAt: built(OptionalTimestamp),
      endsAt: built(OptionalTimestamp),
      timezone: built(OptionalText),
      venueName: built(OptionalText),
      url: built(OptionalText),
      createdAt: built(Timestamp),
      updatedAt: built(OptionalTimestamp),
    }),
  ),
  EVENT_NAMES,
);
export type Event = z.infer<typeof Event>;

export const AnswerValue = lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.unknown())]),
);
export const Answer = lazy(() =>
  z.looseObject({
    key: z.string().min(1),
    label: built(OptionalText),
    value: built(AnswerValue).optional(),
  }),
);
export type Answer = z.infer<typeof Answer>;

export const Submission = wired(
  lazy(() =>
    z.looseObject({
      submissionId: z.string().min(1),
      eventId: z.string().min(1),
      status: z.string(),
      email: built(OptionalText),
      firstName: built(OptionalText),
      lastName: built(OptionalText),
      answers: z.array(built(Answer)).nullable().optional(),
      ticketType: built(OptionalText),
      qrCode: built(OptionalText),
      createdAt: built(Timestamp),
      approvedAt: built(OptionalTimestamp),
      checkedInAt: built(OptionalTimestamp),
    }),
  ),
  SUBMISSION_NAMES,
);
export type Submission = z.infer<typeof Submission>;

/**
 * Only what identifies a submission and places it in time: a Zap being turned on needs no more of a day of
 * registrations, and keeping no more of them keeps that poll small. Other fields are dropped, not checked.
 */
export const SubmissionKey = wired(
  lazy(() =>
    z.object({
      submissionId: Submission.shape.submissionId,
      eventId: Submission.shape.eventId,
      status: Submission.shape.status,
      createdAt: Submission.shape.createdAt,
    }),
  ),
  SUBMISSION_NAMES,
);
export type SubmissionKey = z.infer<typeof SubmissionKey>;

/**
 * Who registered, and nothing more: looking up the attendee behind an order keeps only these fields of an
 * event's registrations (answers and the rest are dropped, not checked).
 */
export const SubmissionPerson = wired(
  lazy(() =>
    SubmissionKey.extend({
      email: Submission.shape.email,
      firstName: Submission.shape.firstName,
      lastName: Submission.shape.lastName,
    }),
  ),
  SUBMISSION_NAMES,
);
export type SubmissionPerson = z.infer<typeof SubmissionPerson>;

export const OrderItem = lazy(() =>
  z.looseObject({
    name: z.string(),
    quantity: z.number().int(),
    unitAmount: z.number().int(),
  }),
);
export type OrderItem = z.infer<typeof OrderItem>;

export const Order = wired(
  lazy(() =>
    z.looseObject({
      id: z.string().min(1),
      companyId: built(OptionalText),
      eventId: built(OptionalText),
      submissionId: built(OptionalText),
      status: z.string(),
      currency: z.string().min(1),
      totalAmount: z.number().int(),
      items: z.array(built(OrderItem)).nullable().optional(),
      paymentId: built(OptionalText),
      createdAt: built(Timestamp),
      updatedAt: built(OptionalTimestamp),
    }),
  ),
  ORDER_NAMES,
);
export type Order = z.infer<typeof Order>;

export const Booth = wired(
  lazy(() =>
    z.looseObject({
      id: z.string().min(1),
      label: built(OptionalText),
      status: z.string(),
      x: z.number().optional(),
      y: z.number().optional(),
      w: z.number().optional(),
      h: z.number().optional(),
    }),
  ),
  BOOTH_NAMES,
);
export type Booth = z.infer<typeof Booth>;

export const FloorPlan = wired(
  lazy(() =>
    z.looseObject({
      id: z.string().min(1),
      eventId: built(OptionalText),
      name: z.string(),
      version: z.number().int().nullable().optional(),
      publishedAt: built(OptionalTimestamp),
      width: z.number().nullable().optional(),
      height: z.number().nullable().optional(),
      booths: z.array(built(Booth)).default([]),
    }),
  ),
  FLOOR_PLAN_NAMES,
);
export type FloorPlan = z.infer<typeof FloorPlan>;

export const EventWidget = wired(
  lazy(() =>
    Event.extend({
      description: built(OptionalText),
      coverImageUrl: built(OptionalText),
    }),
  ),
  EVENT_WIDGET_NAMES,
);
export type EventWidget = z.infer<typeof EventWidget>;

export const Speaker = lazy(() => z.looseObject({ name: z.string() }));
export const AgendaSession = wired(
  lazy(() =>
    z.looseObject({
      id: z.string().min(1),
      title: z.string(),
      startsAt: built(Timestamp),
      endsAt: built(OptionalTimestamp),
      room: built(OptionalText),
      track: built(OptionalText),
      speakers: z.array(built(Speaker)).nullable().optional(),
    }),
  ),
  AGENDA_SESSION_NAMES,
);
export type AgendaSession = z.infer<typeof AgendaSession>;

export const Agenda = wired(
  lazy(() =>
    z.looseObject({
      eventId: z.string().min(1),
      slug: built(OptionalText),
      timezone: built(OptionalText),
      sessions: z.array(built(AgendaSession)),
    }),
  ),
  AGENDA_NAMES,
);
export type Agenda = z.infer<typeof Agenda>;

export const CheckInResult = wired(
  lazy(() =>
    z.looseObject({
      result: z.string(),
      submissionId: z.string().min(1),
      eventId: z.string().min(1),
      checkInTime: built(Timestamp),
      attendee: z
        .looseObject({
          firstName: built(OptionalText),
          lastName: built(OptionalText),
          email: built(OptionalText),
        })
        .nullable()
        .optional(),
    }),
  ),
  CHECK_IN_RESULT_NAMES,
);
export type CheckInResult = z.infer<typeof CheckInResult>;

export const HookSubscription = wired(
  lazy(() =>
    z.looseObject({
      id: z.string().min(1),
      event: z.string(),
      eventId: z.string().nullable().optional(),
      targetUrl: z.string(),
      secret: z.string().min(1).nullable().optional(),
      /** When the current secret took effect (after a rotation); absent or `null` when never rotated. */
      /**
       * Read with tolerance by `getHook` (./dates.ts): an odd form is absent, never a reason to refuse the
       * subscription.
       */
      secretRotatedAt: z.unknown().optional(),
      createdAt: built(OptionalTimestamp),
    }),
  ),
  HOOK_NAMES,
);
export type HookSubscription = z.infer<typeof HookSubscription>;

/** What a subscribe answer must carry at least, so that a subscription can always be removed again. */
export const HookCreated = wired(
  lazy(() => z.looseObject({ id: z.string().min(1) })),
  HOOK_NAMES,
);

export const WebhookDelivery = wired(
  lazy(() =>
    z.looseObject({
      id: z.string().min(1),
      type: z.string().min(1),
      createdAt: built(OptionalTimestamp),
      /** The subscription the delivery was made for (contract §5). */
      hookId: z.string().min(1).nullable().optional(),
      data: z.looseObject({}),
    }),
  ),
  DELIVERY_NAMES,
);
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

/**
 * An error body as `{ error: { code, … } }` with its code in the contract's spelling, wherever the dialect's
 * error bodies hold their error object and code (`dialect.ts`); a body without one is left as it is.
 */
const errorInContractTerms = (body: unknown): unknown => {
  const error = memberAt(body, DIALECT.errors.at);
  if (typeof error !== 'object' || error === null || Array.isArray(error)) return body;
  const wire = (error as Record<string, unknown>)[DIALECT.errors.codeMember];
  return { error: typeof wire === 'string' ? { ...error, code: DIALECT.errors.code(wire) } : error };
};

export const ErrorBody = lazy(() =>
  z.preprocess(
    errorInContractTerms,
    z.looseObject({
      error: z.looseObject({
        code: z.string(),
        message: z.string().optional(),
        field: z.string().optional(),
        entitlement: z.string().optional(),
        /** SUBMISSION_NOT_APPROVED: the registration's status; anything but text is ignored. */
        status: z.string().optional().catch(undefined),
      }),
    }),
  ),
);
export type ErrorBody = z.infer<typeof ErrorBody>;

/** The paging members of the public catalog's envelope; an odd one is treated as absent. */
export const CatalogPaging = lazy(() => {
  const PageNumber = z.number().int().optional().catch(undefined);
  return z.object({ page: PageNumber, limit: PageNumber, total: PageNumber });
});

/**
 * The catalog's paging members read from a list's kept members (`fields`): beside its events where the
 * dialect nests the list (`result.page`), else at the top of the answer.
 */
export const catalogPagingOf = (fields: Readonly<Record<string, unknown>>) =>
  CatalogPaging.parse(
    Object.fromEntries(
      ['page', 'limit', 'total'].map((name) => [name, fields[besideRecords(DIALECT, name)] ?? fields[name]]),
    ),
  );

/**
 * `{ "data": [...] }`, the envelope of every list, read as `{ data }` whatever member the dialect's lists hold
 * their records in (`dialect.ts`).
 */
export const listOf = <T extends z.ZodType>(item: T) =>
  z.preprocess(
    (value) =>
      typeof value === 'object' && value !== null && (DIALECT.list.member === '' || !Array.isArray(value))
        ? { ...(Array.isArray(value) ? {} : value), data: memberAt(value, DIALECT.list.member) }
        : value,
    z.looseObject({ data: z.array(item) }),
  );

/** A list envelope whose items are not read (is there a Connect list at this address at all?). */
export const AnyList = lazy(() => listOf(z.unknown()));

/** Webhook kinds named by the interface document, and the event-lifecycle family of the contract. */
export const HOOK_KINDS = [
  'FORM_SUBMISSION',
  'FORM_SUBMISSION_APPROVED',
  'PAYMENT_SUCCESS',
  'PAYMENT_FAILED',
  'PAYMENT_REFUNDED',
  'ATTENDANT_CHECKED_IN',
  'EVENT_*',
  'EVENT_CREATED',
  'EVENT_UPDATED',
  'EVENT_PUBLISHED',
  'EVENT_UNPUBLISHED',
  'EVENT_DELETED',
] as const;
export type HookKind = (typeof HOOK_KINDS)[number];

/**
 * What a delivery of each kind carries, by the noun of its record (`wireNames.ts`): the one place that says
 * so. A kind the service adds later carries an event.
 */
export const KIND_RECORDS: Readonly<Record<HookKind, 'submission' | 'order' | 'event'>> = {
  FORM_SUBMISSION: 'submission',
  FORM_SUBMISSION_APPROVED: 'submission',
  ATTENDANT_CHECKED_IN: 'submission',
  PAYMENT_SUCCESS: 'order',
  PAYMENT_FAILED: 'order',
  PAYMENT_REFUNDED: 'order',
  'EVENT_*': 'event',
  EVENT_CREATED: 'event',
  EVENT_UPDATED: 'event',
  EVENT_PUBLISHED: 'event',
  EVENT_UNPUBLISHED: 'event',
  EVENT_DELETED: 'event',
};

/** Subscription entitlements of the organizer's offer, in the words a no-code user knows them by. */
export const ENTITLEMENT_NAMES: Record<string, string> = {
  venue: 'Venue Floor Plans',
  agenda: 'Agenda',
  qrScan: 'QR Check-in',
};

/** Limits of the list endpoints (contract §1). */
export const LIST_LIMIT_MAX = 100;

/**
 * The most events one read of the events list asks for. The events list has no page parameter: a larger
 * `limit` is the only way past the newest 100, and the contract expects a service to clamp it to
 * `LIST_LIMIT_MAX`; a service that honours more lets the Event dropdown's "Load more" and the lookup of an
 * older event reach this far (10 dropdown pages).
 */
export const EVENT_PAGES_MAX = 10;
export const EVENTS_LIMIT_MAX = EVENT_PAGES_MAX * LIST_LIMIT_MAX;
