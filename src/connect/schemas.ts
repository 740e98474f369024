/**
 * Zod schemas of the Connect wire contract (docs/connect-contract.md §1–5).
 *
 * Every object schema is loose: fields the service adds later are kept and passed through, never rejected.
 * Enumerations the service may extend (statuses, kinds) are plain strings, so a new value never breaks a Zap.
 */
import * as z from 'zod';

/** A contract schema of records of type `T`, for code outside src/connect that names one. */
export type ContractSchema<T> = z.ZodType<T>;

/**
 * A schema built on its first use. Building every schema of the contract costs tens of milliseconds, paid
 * by every cold start (Zapier loads the app to answer for its definition), while an invocation uses a few.
 * The proxy stands for the schema in every way (properties, methods, nesting in other schemas).
 */
const lazy = <T extends object>(build: () => T): T => {
  let built: T | undefined;
  const real = (): T => (built ??= build());
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(real(), key),
    has: (_, key) => Reflect.has(real(), key),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(real(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
    set: (_, key, value) => Reflect.set(real(), key, value),
  });
};

/** ISO 8601 timestamp with a zone, as the contract sends it (`2026-11-22T10:00:00.000Z`). */
const Timestamp = lazy(() => z.iso.datetime({ offset: true }));
const OptionalTimestamp = lazy(() => Timestamp.nullable().optional());
const OptionalText = lazy(() => z.string().nullable().optional());

export const Event = lazy(() =>
  z.looseObject({
    id: z.string().min(1),
    slug: z.string().min(1),
    title: z.string(),
    status: z.string(),
    startsAt: OptionalTimestamp,
    endsAt: OptionalTimestamp,
    timezone: OptionalText,
    venueName: OptionalText,
    url: OptionalText,
    createdAt: Timestamp,
    updatedAt: OptionalTimestamp,
  }),
);
export type Event = z.infer<typeof Event>;

export const AnswerValue = lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.unknown())]),
);
export const Answer = lazy(() =>
  z.looseObject({
    key: z.string().min(1),
    label: OptionalText,
    value: AnswerValue.optional(),
  }),
);
export type Answer = z.infer<typeof Answer>;

export const Submission = lazy(() =>
  z.looseObject({
    submissionId: z.string().min(1),
    eventId: z.string().min(1),
    status: z.string(),
    email: OptionalText,
    firstName: OptionalText,
    lastName: OptionalText,
    answers: z.array(Answer).nullable().optional(),
    ticketType: OptionalText,
    qrCode: OptionalText,
    createdAt: Timestamp,
    approvedAt: OptionalTimestamp,
    checkedInAt: OptionalTimestamp,
  }),
);
export type Submission = z.infer<typeof Submission>;

/**
 * Only what identifies a submission and places it in time: a Zap being turned on needs no more of a day of
 * registrations, and keeping no more of them keeps that poll small. Other fields are dropped, not checked.
 */
export const SubmissionKey = lazy(() =>
  z.object({
    submissionId: Submission.shape.submissionId,
    eventId: Submission.shape.eventId,
    status: Submission.shape.status,
    createdAt: Submission.shape.createdAt,
  }),
);
export type SubmissionKey = z.infer<typeof SubmissionKey>;

/**
 * Who registered, and nothing more: looking up the attendee behind an order keeps only these fields of an
 * event's registrations (answers and the rest are dropped, not checked).
 */
export const SubmissionPerson = lazy(() =>
  SubmissionKey.extend({
    email: Submission.shape.email,
    firstName: Submission.shape.firstName,
    lastName: Submission.shape.lastName,
  }),
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

export const Order = lazy(() =>
  z.looseObject({
    id: z.string().min(1),
    companyId: OptionalText,
    eventId: OptionalText,
    submissionId: OptionalText,
    status: z.string(),
    currency: z.string().min(1),
    totalAmount: z.number().int(),
    items: z.array(OrderItem).nullable().optional(),
    paymentId: OptionalText,
    createdAt: Timestamp,
    updatedAt: OptionalTimestamp,
  }),
);
export type Order = z.infer<typeof Order>;

export const Booth = lazy(() =>
  z.looseObject({
    id: z.string().min(1),
    label: OptionalText,
    status: z.string(),
    x: z.number().optional(),
    y: z.number().optional(),
    w: z.number().optional(),
    h: z.number().optional(),
  }),
);
export type Booth = z.infer<typeof Booth>;

export const FloorPlan = lazy(() =>
  z.looseObject({
    id: z.string().min(1),
    eventId: OptionalText,
    name: z.string(),
    version: z.number().int().nullable().optional(),
    publishedAt: OptionalTimestamp,
    width: z.number().nullable().optional(),
    height: z.number().nullable().optional(),
    booths: z.array(Booth).default([]),
  }),
);
export type FloorPlan = z.infer<typeof FloorPlan>;

export const EventWidget = lazy(() =>
  Event.extend({
    description: OptionalText,
    coverImageUrl: OptionalText,
  }),
);
export type EventWidget = z.infer<typeof EventWidget>;

export const Speaker = lazy(() => z.looseObject({ name: z.string() }));
export const AgendaSession = lazy(() =>
  z.looseObject({
    id: z.string().min(1),
    title: z.string(),
    startsAt: Timestamp,
    endsAt: OptionalTimestamp,
    room: OptionalText,
    track: OptionalText,
    speakers: z.array(Speaker).nullable().optional(),
  }),
);
export type AgendaSession = z.infer<typeof AgendaSession>;

export const Agenda = lazy(() =>
  z.looseObject({
    eventId: z.string().min(1),
    slug: OptionalText,
    timezone: OptionalText,
    sessions: z.array(AgendaSession),
  }),
);
export type Agenda = z.infer<typeof Agenda>;

export const CheckInResult = lazy(() =>
  z.looseObject({
    result: z.string(),
    submissionId: z.string().min(1),
    eventId: z.string().min(1),
    checkInTime: Timestamp,
    attendee: z
      .looseObject({ firstName: OptionalText, lastName: OptionalText, email: OptionalText })
      .nullable()
      .optional(),
  }),
);
export type CheckInResult = z.infer<typeof CheckInResult>;

export const HookSubscription = lazy(() =>
  z.looseObject({
    id: z.string().min(1),
    event: z.string(),
    eventId: z.string().nullable().optional(),
    targetUrl: z.string(),
    secret: z.string().min(1).nullable().optional(),
    /**
     * When the current secret took effect (after a rotation); absent or `null` when never rotated. Read with
     * tolerance by `getHook` (./dates.ts): an odd form is absent, never a reason to refuse the subscription.
     */
    secretRotatedAt: z.unknown().optional(),
    createdAt: OptionalTimestamp,
  }),
);
export type HookSubscription = z.infer<typeof HookSubscription>;

/** What a subscribe answer must carry at least, so that a subscription can always be removed again. */
export const HookCreated = lazy(() => z.looseObject({ id: z.string().min(1) }));

export const WebhookDelivery = lazy(() =>
  z.looseObject({
    id: z.string().min(1),
    type: z.string().min(1),
    createdAt: OptionalTimestamp,
    /** The subscription the delivery was made for (contract §5). */
    hookId: z.string().min(1).nullable().optional(),
    data: z.looseObject({}),
  }),
);
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const ErrorBody = lazy(() =>
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
);
export type ErrorBody = z.infer<typeof ErrorBody>;

/** The paging members of the public catalog's envelope; an odd one is treated as absent. */
export const CatalogPaging = lazy(() => {
  const PageNumber = z.number().int().optional().catch(undefined);
  return z.object({ page: PageNumber, limit: PageNumber, total: PageNumber });
});

/** `{ "data": [...] }`, the envelope of every list. */
export const listOf = <T extends z.ZodType>(item: T) => z.looseObject({ data: z.array(item) });

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

/** Subscription entitlements of the organizer's offer, in the words a no-code user knows them by. */
export const ENTITLEMENT_NAMES: Record<string, string> = {
  venue: 'Venue Floor Plans',
  agenda: 'Agenda',
  qrScan: 'QR Check-in',
};

/** Limits of the list endpoints (contract §1). */
export const LIST_LIMIT_MAX = 100;
