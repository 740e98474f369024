// The sandbox's in-memory state and every state change. HTTP-free: the routes validate input and call in
// here; every change that the contract names a webhook kind for goes out through `emit`.

import { hash } from 'node:crypto';
import { ApiError, notFound } from './errors';
import { applyOdd } from './odd';
import { Prng, timePrefix } from './prng';
import type {
  Booth,
  BoothStatus,
  EventRecord,
  EventStatus,
  FloorPlanRecord,
  FloorPlanSnapshot,
  HookEvent,
  HookRecord,
  LineItem,
  OrderRecord,
  OrderStatus,
  Session,
  SubmissionRecord,
  SubmissionStatus,
  TenantSettings,
  WebhookKind,
  Answer,
} from './types';
import { EVENT_STATUSES } from './types';

export const iso = (ms: number): string => new Date(ms).toISOString();

// ---- wire shapes (docs/connect-contract.md §3) ------------------------------------------------------

export interface EventJson {
  id: string;
  slug: string;
  title: string;
  status: EventStatus;
  startsAt: string;
  endsAt: string;
  timezone: string;
  venueName: string;
  url: string;
  createdAt: string;
  updatedAt: string;
}

/** A submission as the Connect API shows it: the record without the sandbox's own bookkeeping. */
export type SubmissionJson = Omit<SubmissionRecord, 'tenantId' | 'createdMs' | 'visibleMs' | 'odd'>;

export type OrderJson = Omit<OrderRecord, 'createdMs' | 'odd'>;

export interface CheckInResult {
  result: 'checked_in' | 'already_checked_in';
  submissionId: string;
  eventId: string;
  checkInTime: string;
  attendee: { firstName: string; lastName: string; email: string };
}

export type CheckInTarget = { code: string } | { eventId: string; submissionId: string };

export type Emit = (tenant: Tenant, kind: WebhookKind, eventId: string, data: unknown) => void;

export class Tenant {
  readonly events = new Map<string, EventRecord>();
  readonly submissions = new Map<string, SubmissionRecord>();
  /** Per event, sorted by createdMs ascending (binary search for `since`). */
  readonly submissionsByEvent = new Map<string, SubmissionRecord[]>();
  /** Every QR code ever issued, so a code of a submission rejected later is still recognised. */
  readonly qrIndex = new Map<string, SubmissionRecord>();
  readonly orders = new Map<string, OrderRecord>();
  readonly floorPlans = new Map<string, Map<string, FloorPlanRecord>>();
  readonly agendas = new Map<string, Session[]>();
  readonly hooks = new Map<string, HookRecord>();
  previousWebhookSecret: string | null = null;
  /** Sandbox clock: when previousWebhookSecret is retired. */
  previousWebhookSecretExpiresMs: number | null = null;

  constructor(readonly settings: TenantSettings) {}

  get id(): string {
    return this.settings.id;
  }
}

export interface StateOptions {
  now: () => number;
  frontUrl: string;
  emit: Emit;
  /** Seed of the runtime id generator. */
  idSeed?: number;
}

export class SandboxState {
  readonly tenants = new Map<string, Tenant>();
  readonly tenantsByKey = new Map<string, Tenant>();
  readonly eventsBySlug = new Map<string, EventRecord>();
  shuffle = false;
  readonly now: () => number;
  readonly frontUrl: string;
  private readonly emit: Emit;
  readonly ids: Prng;
  private readonly usedIds = new Set<string>();

  constructor(options: StateOptions) {
    this.now = options.now;
    this.frontUrl = options.frontUrl.replace(/\/+$/, '');
    this.emit = options.emit;
    this.ids = new Prng(options.idSeed ?? 0x5eed1d5);
  }

  // ---- ids --------------------------------------------------------------------------------------------

  /** prefix + 10 time characters + `random` random characters; unique within this sandbox. */
  newId(prefix: string, ms: number, random = 6, rng: Prng = this.ids): string {
    for (;;) {
      const id = `${prefix}${timePrefix(ms)}${rng.base32(random)}`;
      if (!this.usedIds.has(id)) {
        this.usedIds.add(id);
        return id;
      }
    }
  }

  newSecret(rng: Prng = this.ids): string {
    return `whsec_${rng.hex(32)}`;
  }

  // ---- tenants ----------------------------------------------------------------------------------------

  addTenant(settings: TenantSettings): Tenant {
    if (this.tenantsByKey.has(settings.apiKey)) throw new Error(`duplicate API key for ${settings.name}`);
    const tenant = new Tenant(settings);
    this.tenants.set(settings.id, tenant);
    this.tenantsByKey.set(settings.apiKey, tenant);
    return tenant;
  }

  // ---- serialisation ----------------------------------------------------------------------------------

  eventJson(e: EventRecord): EventJson {
    const json: EventJson = {
      id: e.id,
      slug: e.slug,
      title: e.title,
      status: e.status,
      startsAt: e.startsAt,
      endsAt: e.endsAt,
      timezone: e.timezone,
      venueName: e.venueName,
      url: `${this.frontUrl}/e/${e.slug}`,
      createdAt: e.createdAt,
      updatedAt: e.updatedAt,
    };
    return applyOdd(json, e.odd);
  }

  submissionJson(s: SubmissionRecord): SubmissionJson {
    const json: SubmissionJson = {
      submissionId: s.submissionId,
      eventId: s.eventId,
      status: s.status,
      email: s.email,
      firstName: s.firstName,
      lastName: s.lastName,
      answers: s.answers,
      ticketType: s.ticketType,
      qrCode: s.qrCode,
      createdAt: s.createdAt,
      approvedAt: s.approvedAt,
      checkedInAt: s.checkedInAt,
    };
    return s.odd === undefined ? json : applyOdd(json, s.odd);
  }

  orderJson(o: OrderRecord): OrderJson {
    const json: OrderJson = {
      id: o.id,
      companyId: o.companyId,
      eventId: o.eventId,
      submissionId: o.submissionId,
      status: o.status,
      currency: o.currency,
      totalAmount: o.totalAmount,
      items: o.items,
      paymentId: o.paymentId,
      createdAt: o.createdAt,
      updatedAt: o.updatedAt,
    };
    return applyOdd(json, o.odd);
  }

  // ---- events -----------------------------------------------------------------------------------------

  /** This tenant's live event, or 404 (also for another tenant's event: never 403). */
  event(tenant: Tenant, id: string): EventRecord {
    const e = tenant.events.get(id);
    if (!e || e.deleted) throw notFound('Event');
    return e;
  }

  slugTaken(slug: string, exceptId?: string): boolean {
    const e = this.eventsBySlug.get(slug);
    return e !== undefined && e.id !== exceptId;
  }

  uniqueSlug(base: string): string {
    const root =
      base
        .normalize('NFKD')
        .replace(/[\u0300-\u036f]/g, '')
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, 60) || 'event';
    let slug = root;
    for (let i = 2; this.slugTaken(slug); i++) slug = `${root}-${i}`;
    return slug;
  }

  createEvent(
    tenant: Tenant,
    input: {
      id?: string;
      title: string;
      slug?: string;
      startsAt: string;
      endsAt: string;
      timezone: string;
      venueName: string;
      status?: EventStatus;
      description?: string;
      coverImageUrl?: string | null;
      createdMs?: number;
    },
    options: { emit?: boolean } = {},
  ): EventRecord {
    const createdMs = input.createdMs ?? this.now();
    const slug = input.slug ?? this.uniqueSlug(input.title);
    if (this.slugTaken(slug))
      throw new ApiError(400, 'VALIDATION_ERROR', 'slug is already taken', { field: 'slug' });
    const e: EventRecord = {
      id: input.id ?? this.ids.uuid(),
      tenantId: tenant.id,
      slug,
      title: input.title,
      status: 'draft',
      startsAt: input.startsAt,
      endsAt: input.endsAt,
      timezone: input.timezone,
      venueName: input.venueName,
      description: input.description ?? '',
      coverImageUrl: input.coverImageUrl ?? null,
      createdAt: iso(createdMs),
      updatedAt: iso(createdMs),
      createdMs,
      deleted: false,
    };
    tenant.events.set(e.id, e);
    tenant.submissionsByEvent.set(e.id, []);
    this.eventsBySlug.set(slug, e);
    if (options.emit !== false) this.emit(tenant, 'EVENT_CREATED', e.id, this.eventJson(e));
    if (input.status === 'published') {
      e.status = 'published';
      if (options.emit !== false) this.emit(tenant, 'EVENT_PUBLISHED', e.id, this.eventJson(e));
    }
    return e;
  }

  updateEvent(
    tenant: Tenant,
    id: string,
    patch: Partial<
      Pick<
        EventRecord,
        'title' | 'slug' | 'startsAt' | 'endsAt' | 'timezone' | 'venueName' | 'description' | 'coverImageUrl'
      >
    >,
  ): EventRecord {
    const e = this.event(tenant, id);
    if (patch.slug !== undefined && patch.slug !== e.slug) {
      if (this.slugTaken(patch.slug, e.id)) {
        throw new ApiError(400, 'VALIDATION_ERROR', 'slug is already taken', { field: 'slug' });
      }
      this.eventsBySlug.delete(e.slug);
      this.eventsBySlug.set(patch.slug, e);
    }
    Object.assign(e, patch);
    e.updatedAt = iso(this.now());
    this.emit(tenant, 'EVENT_UPDATED', e.id, this.eventJson(e));
    return e;
  }

  setEventStatus(tenant: Tenant, id: string, status: EventStatus): EventRecord {
    const e = this.event(tenant, id);
    if (e.status === status) return e; // no change, no webhook
    e.status = status;
    e.updatedAt = iso(this.now());
    this.emit(tenant, EVENT_STATUSES[status].kind, e.id, this.eventJson(e));
    return e;
  }

  /** The event disappears from every surface; its submissions can no longer be listed or checked in. */
  deleteEvent(tenant: Tenant, id: string): EventRecord {
    const e = this.event(tenant, id);
    e.deleted = true;
    e.updatedAt = iso(this.now());
    this.eventsBySlug.delete(e.slug);
    this.emit(tenant, 'EVENT_DELETED', e.id, this.eventJson(e));
    return e;
  }

  /** Published, live event by slug, across all tenants (public surfaces). */
  publicEventBySlug(slug: string): EventRecord {
    const e = this.eventsBySlug.get(slug);
    if (!e || e.deleted || e.status !== 'published') throw notFound('Event');
    return e;
  }

  // ---- submissions -----------------------------------------------------------------------------------

  qrFor(tenant: Tenant, eventId: string, submissionId: string): string {
    const check = hash('sha256', `${tenant.id}:${submissionId}`, 'hex').slice(0, 4);
    return `EVT1:${eventId.slice(0, 8)}:${submissionId}:${check}`;
  }

  addSubmission(
    tenant: Tenant,
    input: {
      eventId: string;
      email: string;
      firstName: string;
      lastName: string;
      answers?: Answer[];
      ticketType?: string;
      status?: SubmissionStatus;
      createdMs?: number;
      visibleMs?: number;
      approvedMs?: number;
      checkedInMs?: number;
      id?: string;
    },
    options: { emit?: boolean } = {},
  ): SubmissionRecord {
    const event = this.event(tenant, input.eventId);
    const createdMs = input.createdMs ?? this.now();
    const s: SubmissionRecord = {
      submissionId: input.id ?? this.newId('sub_', createdMs),
      eventId: event.id,
      tenantId: tenant.id,
      status: 'pending',
      email: input.email,
      firstName: input.firstName,
      lastName: input.lastName,
      answers: input.answers ?? [],
      ticketType: input.ticketType ?? 'Standard',
      qrCode: null,
      createdAt: iso(createdMs),
      approvedAt: null,
      checkedInAt: null,
      createdMs,
      visibleMs: input.visibleMs ?? createdMs,
    };
    tenant.submissions.set(s.submissionId, s);
    insertSorted(tenant.submissionsByEvent.get(event.id) ?? [], s, tenant.submissionsByEvent, event.id);
    const emit = options.emit !== false;
    if (emit) this.emit(tenant, 'FORM_SUBMISSION', s.eventId, this.submissionJson(s));
    if (input.status === 'approved') {
      this.approve(tenant, s, input.approvedMs ?? createdMs, emit);
      if (input.checkedInMs !== undefined) s.checkedInAt = iso(input.checkedInMs);
    } else if (input.status === 'rejected') {
      s.status = 'rejected';
    }
    return s;
  }

  submission(tenant: Tenant, id: string): SubmissionRecord {
    const s = tenant.submissions.get(id);
    if (!s || this.eventDeleted(tenant, s.eventId)) throw notFound('Submission');
    return s;
  }

  private eventDeleted(tenant: Tenant, eventId: string): boolean {
    const e = tenant.events.get(eventId);
    return !e || e.deleted;
  }

  approve(tenant: Tenant, s: SubmissionRecord, atMs = this.now(), emit = true): SubmissionRecord {
    if (s.status === 'approved') return s;
    s.status = 'approved';
    s.approvedAt = iso(atMs);
    s.qrCode = this.qrFor(tenant, s.eventId, s.submissionId);
    tenant.qrIndex.set(s.qrCode, s);
    if (emit) this.emit(tenant, 'FORM_SUBMISSION_APPROVED', s.eventId, this.submissionJson(s));
    return s;
  }

  /** A rejected submission loses its QR code (the code is still recognised, and refused as not approved). */
  reject(_tenant: Tenant, s: SubmissionRecord): SubmissionRecord {
    s.status = 'rejected';
    s.qrCode = null;
    s.approvedAt = null;
    return s;
  }

  /** Visible submissions of one event with createdAt >= sinceMs. */
  submissionsSince(tenant: Tenant, eventId: string, sinceMs: number): SubmissionRecord[] {
    const list = tenant.submissionsByEvent.get(eventId) ?? [];
    const now = this.now();
    const out: SubmissionRecord[] = [];
    for (let i = lowerBound(list, sinceMs); i < list.length; i++) {
      const s = list[i] as SubmissionRecord;
      if (s.visibleMs <= now) out.push(s);
    }
    return out;
  }

  // ---- check-in --------------------------------------------------------------------------------------

  private findTicket(tenant: Tenant, target: CheckInTarget): SubmissionRecord {
    let s: SubmissionRecord | undefined;
    if ('code' in target) {
      s = tenant.qrIndex.get(target.code);
      if (!s) {
        // A well-formed code that names a known submission which was never approved: it has no valid QR.
        const parts = target.code.split(':');
        const candidate =
          parts.length === 4 && parts[0] === 'EVT1' ? tenant.submissions.get(parts[2] ?? '') : undefined;
        if (candidate && candidate.status !== 'approved' && candidate.eventId.startsWith(parts[1] ?? '\0')) {
          s = candidate;
        }
      }
    } else {
      s = tenant.submissions.get(target.submissionId);
      if (s && s.eventId !== target.eventId) s = undefined;
    }
    if (!s || this.eventDeleted(tenant, s.eventId)) {
      throw new ApiError(404, 'TICKET_NOT_FOUND', 'No ticket matches this code or submission');
    }
    if (s.status !== 'approved') {
      throw new ApiError(
        422,
        'SUBMISSION_NOT_APPROVED',
        'The submission is not approved, so it has no valid QR',
        {
          submissionId: s.submissionId,
          status: s.status,
        },
      );
    }
    return s;
  }

  /** Check-in for the API and for a door scan: the first check-in wins and emits the only webhook. */
  checkIn(tenant: Tenant, target: CheckInTarget, checkInMs?: number): CheckInResult {
    const s = this.findTicket(tenant, target);
    const first = s.checkedInAt === null;
    if (first) {
      s.checkedInAt = iso(checkInMs ?? this.now());
      this.emit(tenant, 'ATTENDANT_CHECKED_IN', s.eventId, this.submissionJson(s));
    }
    return {
      result: first ? 'checked_in' : 'already_checked_in',
      submissionId: s.submissionId,
      eventId: s.eventId,
      checkInTime: s.checkedInAt as string,
      attendee: { firstName: s.firstName, lastName: s.lastName, email: s.email },
    };
  }

  // ---- orders ----------------------------------------------------------------------------------------

  addOrder(
    tenant: Tenant,
    input: {
      submissionId: string;
      items: LineItem[];
      currency: string;
      status: OrderStatus;
      createdMs?: number;
      updatedMs?: number;
    },
    options: { emit?: boolean; rng?: Prng } = {},
  ): OrderRecord {
    const s = this.submission(tenant, input.submissionId);
    const createdMs = input.createdMs ?? this.now();
    const rng = options.rng ?? this.ids;
    const o: OrderRecord = {
      id: this.newId('ord_', createdMs, 4, rng),
      companyId: tenant.settings.companyId,
      eventId: s.eventId,
      submissionId: s.submissionId,
      status: input.status,
      currency: input.currency,
      totalAmount: input.items.reduce((sum, i) => sum + i.quantity * i.unitAmount, 0),
      items: input.items,
      paymentId: input.status === 'pending' ? null : this.newId('pay_', createdMs, 4, rng),
      createdAt: iso(createdMs),
      updatedAt: iso(input.updatedMs ?? createdMs),
      createdMs,
    };
    tenant.orders.set(o.id, o);
    if (options.emit !== false) {
      if (o.status === 'paid') this.emit(tenant, 'PAYMENT_SUCCESS', o.eventId, this.orderJson(o));
      if (o.status === 'failed') this.emit(tenant, 'PAYMENT_FAILED', o.eventId, this.orderJson(o));
    }
    return o;
  }

  refund(tenant: Tenant, id: string): OrderRecord {
    const o = tenant.orders.get(id);
    if (!o) throw notFound('Order');
    if (o.status !== 'paid') {
      throw new ApiError(409, 'CONFLICT', `Only a paid order can be refunded (this one is ${o.status})`);
    }
    o.status = 'refunded';
    o.updatedAt = iso(this.now());
    this.emit(tenant, 'PAYMENT_REFUNDED', o.eventId, this.orderJson(o));
    return o;
  }

  // ---- floor plans -----------------------------------------------------------------------------------

  plan(tenant: Tenant, eventId: string, planId: string): FloorPlanRecord {
    this.event(tenant, eventId);
    const p = tenant.floorPlans.get(eventId)?.get(planId);
    if (!p) throw notFound('Floor plan');
    return p;
  }

  /** Latest published snapshot of each plan that has one. */
  publishedPlans(tenant: Tenant, eventId: string): FloorPlanSnapshot[] {
    this.event(tenant, eventId);
    const out: FloorPlanSnapshot[] = [];
    for (const p of tenant.floorPlans.get(eventId)?.values() ?? []) {
      const latest = p.snapshots[p.snapshots.length - 1];
      if (latest) out.push(latest);
    }
    return out;
  }

  publishPlan(tenant: Tenant, eventId: string, planId: string, atMs = this.now()): FloorPlanSnapshot {
    const p = this.plan(tenant, eventId, planId);
    const snapshot: FloorPlanSnapshot = {
      id: p.id,
      eventId: p.eventId,
      name: p.name,
      version: p.snapshots.length + 1,
      publishedAt: iso(atMs),
      width: p.width,
      height: p.height,
      booths: p.booths.map((b) => ({ ...b })),
    };
    p.snapshots.push(snapshot);
    return snapshot;
  }

  /** Changes the drawn (draft) plan only; the change is served after the next publish. */
  setBoothStatus(
    tenant: Tenant,
    eventId: string,
    planId: string,
    boothId: string,
    status: BoothStatus,
  ): Booth {
    const p = this.plan(tenant, eventId, planId);
    const booth = p.booths.find((b) => b.id === boothId);
    if (!booth) throw notFound('Booth');
    booth.status = status;
    return booth;
  }

  // ---- hooks -----------------------------------------------------------------------------------------

  addHook(
    tenant: Tenant,
    input: { targetUrl: string; event: HookEvent; eventId: string | null; secret?: string },
  ): HookRecord {
    const ms = this.now();
    const hook: HookRecord = {
      id: this.newId('hook_', ms),
      tenantId: tenant.id,
      event: input.event,
      eventId: input.eventId,
      targetUrl: input.targetUrl,
      secret: input.secret ?? (tenant.settings.hookSecrets ? this.newSecret() : null),
      previousSecret: null,
      previousSecretExpiresMs: null,
      secretRotatedAt: null,
      createdAt: iso(ms),
    };
    tenant.hooks.set(hook.id, hook);
    return hook;
  }

  /**
   * A new secret for the subscription (or, with hook null, the tenant's account-level secret). The old one
   * still signs deliveries, beside the new one, for overlapMs of the sandbox clock; then it is retired.
   */
  rotateSecret(tenant: Tenant, hook: HookRecord | null, overlapMs: number): SecretState {
    const expiresMs = overlapMs > 0 ? this.now() + overlapMs : null;
    const secret = this.newSecret();
    if (hook) {
      hook.previousSecret = expiresMs === null ? null : hook.secret;
      hook.previousSecretExpiresMs = expiresMs;
      hook.secret = secret;
      hook.secretRotatedAt = iso(this.now());
    } else {
      tenant.previousWebhookSecret = expiresMs === null ? null : tenant.settings.webhookSecret;
      tenant.previousWebhookSecretExpiresMs = expiresMs;
      tenant.settings.webhookSecret = secret;
    }
    return this.secretState(tenant, hook);
  }

  /** Ends the overlap now: only the current secret signs from here on. */
  retirePreviousSecret(tenant: Tenant, hook: HookRecord | null): SecretState {
    if (hook) {
      hook.previousSecret = null;
      hook.previousSecretExpiresMs = null;
    } else {
      tenant.previousWebhookSecret = null;
      tenant.previousWebhookSecretExpiresMs = null;
    }
    return this.secretState(tenant, hook);
  }

  /** The current and, during an overlap, the previous secret of a subscription or of the account. */
  secretState(tenant: Tenant, hook: HookRecord | null): SecretState {
    this.expirePrevious(tenant, hook);
    const expires = hook ? hook.previousSecretExpiresMs : tenant.previousWebhookSecretExpiresMs;
    return {
      hookId: hook ? hook.id : null,
      secret: hook ? hook.secret : tenant.settings.webhookSecret,
      previousSecret: hook ? hook.previousSecret : tenant.previousWebhookSecret,
      previousSecretExpiresAt: expires === null ? null : iso(expires),
    };
  }

  private expirePrevious(tenant: Tenant, hook: HookRecord | null): void {
    const now = this.now();
    if (hook && hook.previousSecretExpiresMs !== null && hook.previousSecretExpiresMs <= now) {
      this.retirePreviousSecret(tenant, hook);
    }
    const accountExpires = tenant.previousWebhookSecretExpiresMs;
    if (accountExpires !== null && accountExpires <= now) this.retirePreviousSecret(tenant, null);
  }

  /** Secrets that sign a delivery for this hook, newest first (two during a rotation's overlap). */
  signingSecrets(tenant: Tenant, hook: HookRecord): string[] {
    this.expirePrevious(tenant, hook);
    const current = hook.secret ?? tenant.settings.webhookSecret;
    const previous = hook.secret !== null ? hook.previousSecret : tenant.previousWebhookSecret;
    return previous ? [current, previous] : [current];
  }
}

export interface SecretState {
  hookId: string | null;
  /** For a subscription signed with the account-level secret: null (the account secret signs). */
  secret: string | null;
  previousSecret: string | null;
  previousSecretExpiresAt: string | null;
}

function lowerBound(list: SubmissionRecord[], ms: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((list[mid] as SubmissionRecord).createdMs < ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function insertSorted(
  list: SubmissionRecord[],
  s: SubmissionRecord,
  index: Map<string, SubmissionRecord[]>,
  eventId: string,
): void {
  if (!index.has(eventId)) index.set(eventId, list);
  const last = list[list.length - 1];
  if (!last || last.createdMs <= s.createdMs) {
    list.push(s);
    return;
  }
  // Backdated: insert after every item with the same or an earlier createdAt.
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((list[mid] as SubmissionRecord).createdMs <= s.createdMs) lo = mid + 1;
    else hi = mid;
  }
  list.splice(lo, 0, s);
}
