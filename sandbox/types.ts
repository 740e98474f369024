// Internal records of the sandbox and the wire shapes of the contract (docs/connect-contract.md §3).

import type { OddPatch } from './odd';

export type Entitlement = 'venue' | 'agenda' | 'qrScan';
export type Entitlements = Record<Entitlement, boolean>;

/**
 * The statuses the dashboard puts an event in: the simulation's verb for it (`POST /_sandbox/events/:id/<verb>`,
 * `npm run simulate -- <verb> <event>`) and the kind a change to it sends.
 */
export const EVENT_STATUSES = {
  draft: { verb: 'unpublish', kind: 'EVENT_UNPUBLISHED' },
  published: { verb: 'publish', kind: 'EVENT_PUBLISHED' },
} as const;
export type EventStatus = keyof typeof EVENT_STATUSES;

export const WEBHOOK_KINDS = [
  'FORM_SUBMISSION',
  'FORM_SUBMISSION_APPROVED',
  'PAYMENT_SUCCESS',
  'PAYMENT_FAILED',
  'PAYMENT_REFUNDED',
  'ATTENDANT_CHECKED_IN',
  'EVENT_CREATED',
  'EVENT_UPDATED',
  ...Object.values(EVENT_STATUSES).map((status) => status.kind),
  'EVENT_DELETED',
] as const;
export type WebhookKind = (typeof WEBHOOK_KINDS)[number];
/** What a subscription may ask for: one kind, or the whole event-lifecycle family. */
export type HookEvent = WebhookKind | 'EVENT_*';

export type SubmissionStatus = 'pending' | 'approved' | 'rejected';
export type OrderStatus = 'pending' | 'paid' | 'failed' | 'refunded';
export type BoothStatus = 'available' | 'held' | 'booked';

export interface EventRecord {
  id: string;
  tenantId: string;
  slug: string;
  title: string;
  status: EventStatus;
  startsAt: string;
  endsAt: string;
  timezone: string;
  venueName: string;
  description: string;
  coverImageUrl: string | null;
  createdAt: string;
  updatedAt: string;
  createdMs: number;
  deleted: boolean;
  /** Set by the simulation API: how the Connect representation deviates from the documented form. */
  odd?: OddPatch;
}

export type AnswerValue = string | number | boolean | null | string[];
export interface Answer {
  key: string;
  label: string;
  value: AnswerValue;
}

export interface SubmissionRecord {
  submissionId: string;
  eventId: string;
  tenantId: string;
  status: SubmissionStatus;
  email: string;
  firstName: string;
  lastName: string;
  answers: Answer[];
  ticketType: string;
  qrCode: string | null;
  createdAt: string;
  approvedAt: string | null;
  checkedInAt: string | null;
  createdMs: number;
  /** Not before this instant does the submission appear in the polling list (replication lag, ≤ 2 min). */
  visibleMs: number;
  /** Set by the simulation API: how the Connect representation deviates from the documented form. */
  odd?: OddPatch;
}

export interface LineItem {
  name: string;
  quantity: number;
  unitAmount: number;
}

export interface OrderRecord {
  id: string;
  companyId: string;
  eventId: string;
  submissionId: string;
  status: OrderStatus;
  currency: string;
  totalAmount: number;
  items: LineItem[];
  paymentId: string | null;
  createdAt: string;
  updatedAt: string;
  createdMs: number;
  /** Set by the simulation API: how the Connect representation deviates from the documented form. */
  odd?: OddPatch;
}

export interface Booth {
  id: string;
  label: string;
  status: BoothStatus;
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A floor plan as drawn in the dashboard (the draft) plus its published snapshots. */
export interface FloorPlanRecord {
  id: string;
  eventId: string;
  name: string;
  width: number;
  height: number;
  booths: Booth[];
  snapshots: FloorPlanSnapshot[];
}

export interface FloorPlanSnapshot {
  id: string;
  eventId: string;
  name: string;
  version: number;
  publishedAt: string;
  width: number;
  height: number;
  booths: Booth[];
}

export interface Speaker {
  name: string;
  title?: string;
  company?: string;
}

export interface Session {
  id: string;
  title: string;
  startsAt: string;
  endsAt: string;
  room: string;
  track: string;
  speakers: Speaker[];
}

export interface HookRecord {
  id: string;
  tenantId: string;
  event: HookEvent;
  eventId: string | null;
  targetUrl: string;
  /** null: deliveries are signed with the account-level secret. */
  secret: string | null;
  /** During a rotation: the secret that is still accepted and also signs deliveries. */
  previousSecret: string | null;
  /** Sandbox clock: when previousSecret is retired (it signs nothing from then on). */
  previousSecretExpiresMs: number | null;
  /** When `secret` took effect by a rotation (ISO); null before the first rotation. */
  secretRotatedAt: string | null;
  createdAt: string;
}

export interface TenantSettings {
  id: string;
  name: string;
  apiKey: string;
  companyId: string;
  webhookSecret: string;
  entitlements: Entitlements;
  hookSecrets: boolean;
  currency: string;
}
