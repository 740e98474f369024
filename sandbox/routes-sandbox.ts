// The simulation API under /_sandbox/: drives state changes the way the service's dashboard, forms,
// payment provider and door scanner would, plus fault injection, list shuffling and the delivery log.
// Not part of Connect. Same X-API-KEY as the tenant's Connect calls.

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, entitlementRequired, validation } from './errors';
import type { SandboxContext } from './context';
import { FAULT_KINDS, type Fault, type FaultKind } from './faults';
import { hookJson, parseCheckInBody, tenantOf } from './routes-connect';
import { iso, type Tenant } from './state';
import type {
  Answer,
  AnswerValue,
  Entitlement,
  EventStatus,
  HookRecord,
  LineItem,
  OrderStatus,
  SubmissionStatus,
} from './types';
import {
  isEmail,
  isValidTimezone,
  optionalBoolean,
  optionalEnum,
  optionalInteger,
  optionalString,
  optionalTimestamp,
  requireObject,
  requireString,
  type Body,
  type Query,
} from './validate';

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
/** The contract lets a submission appear up to two minutes after its createdAt; never later. */
export const MAX_VISIBILITY_LAG_MS = 2 * MIN;

const params = (req: FastifyRequest): Record<string, string> => req.params as Record<string, string>;
const SLUG_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

function readAnswers(body: Body): Answer[] | undefined {
  const raw = body.answers;
  if (raw === undefined || raw === null) return undefined;
  if (!Array.isArray(raw) || raw.length > 100)
    throw validation('answers', 'answers must be a list (at most 100)');
  return raw.map((a: unknown, i): Answer => {
    const field = `answers[${i}]`;
    if (typeof a !== 'object' || a === null || Array.isArray(a))
      throw validation(field, `${field} must be an object`);
    const o = a as Body;
    const key = requireString(o, 'key', 100);
    const label = optionalString(o, 'label', 300) ?? key;
    const v = o.value;
    const ok =
      v === null ||
      typeof v === 'string' ||
      typeof v === 'boolean' ||
      (typeof v === 'number' && Number.isFinite(v)) ||
      (Array.isArray(v) && v.every((x) => typeof x === 'string'));
    if (!ok)
      throw validation(
        `${field}.value`,
        'value must be a string, number, boolean, null or a list of strings',
      );
    return { key, label, value: v as AnswerValue };
  });
}

function readItems(body: Body): LineItem[] | undefined {
  const raw = body.items;
  if (raw === undefined || raw === null) return undefined;
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > 50) {
    throw validation('items', 'items must be a non-empty list (at most 50)');
  }
  return raw.map((it: unknown, i): LineItem => {
    if (typeof it !== 'object' || it === null || Array.isArray(it)) {
      throw validation(`items[${i}]`, 'each item must be an object');
    }
    const o = it as Body;
    const name = requireString(o, 'name', 200);
    const quantity = optionalInteger(o, 'quantity', 1, 10_000) ?? 1;
    const unitAmount = optionalInteger(o, 'unitAmount', 0, 100_000_000);
    if (unitAmount === undefined)
      throw validation(`items[${i}].unitAmount`, 'unitAmount (minor units) is required');
    return { name, quantity, unitAmount };
  });
}

interface EventFields {
  title?: string;
  slug?: string;
  startsAt?: string;
  endsAt?: string;
  timezone?: string;
  venueName?: string;
  description?: string;
  coverImageUrl?: string | null;
}

function readEventFields(body: Body, current?: { startsAt: string; endsAt: string }): EventFields {
  const out: EventFields = {};
  const title = optionalString(body, 'title', 200);
  if (title !== undefined) {
    if (title.trim() === '') throw validation('title', 'title must not be empty');
    out.title = title;
  }
  const slug = optionalString(body, 'slug', 80);
  if (slug !== undefined) {
    if (!SLUG_RE.test(slug)) throw validation('slug', 'slug must be lowercase letters, digits and dashes');
    out.slug = slug;
  }
  const startsMs = optionalTimestamp(body, 'startsAt');
  const endsMs = optionalTimestamp(body, 'endsAt');
  if (startsMs !== undefined) out.startsAt = iso(startsMs);
  if (endsMs !== undefined) out.endsAt = iso(endsMs);
  const tz = optionalString(body, 'timezone', 64);
  if (tz !== undefined) {
    if (!isValidTimezone(tz))
      throw validation('timezone', 'timezone must be an IANA time zone such as Europe/Paris');
    out.timezone = tz;
  }
  const venue = optionalString(body, 'venueName', 200);
  if (venue !== undefined) out.venueName = venue;
  const description = optionalString(body, 'description', 5000);
  if (description !== undefined) out.description = description;
  if (body.coverImageUrl === null) out.coverImageUrl = null;
  else {
    const cover = optionalString(body, 'coverImageUrl', 2048);
    if (cover !== undefined) out.coverImageUrl = cover;
  }
  const starts = out.startsAt ?? current?.startsAt;
  const ends = out.endsAt ?? current?.endsAt;
  if (starts !== undefined && ends !== undefined && ends < starts) {
    throw validation('endsAt', 'endsAt must not be before startsAt');
  }
  return out;
}

function tenantJson(ctx: SandboxContext, tenant: Tenant): Record<string, unknown> {
  const s = tenant.settings;
  let events = 0;
  for (const e of tenant.events.values()) if (!e.deleted) events++;
  return {
    id: s.id,
    name: s.name,
    companyId: s.companyId,
    entitlements: { ...s.entitlements },
    hookSecrets: s.hookSecrets,
    currency: s.currency,
    webhookSecret: s.webhookSecret,
    previousWebhookSecret: tenant.previousWebhookSecret,
    counts: {
      events,
      submissions: tenant.submissions.size,
      orders: tenant.orders.size,
      hooks: tenant.hooks.size,
      deliveries: ctx.delivery.log(s.id).length,
    },
  };
}

function readEntitlements(body: Body, base: Record<Entitlement, boolean>): Record<Entitlement, boolean> {
  const raw = body.entitlements;
  if (raw === undefined || raw === null) return base;
  if (typeof raw !== 'object' || Array.isArray(raw))
    throw validation('entitlements', 'entitlements must be an object');
  const o = raw as Body;
  const out = { ...base };
  for (const k of Object.keys(o)) {
    if (k !== 'venue' && k !== 'agenda' && k !== 'qrScan') {
      throw validation(`entitlements.${k}`, 'entitlements are venue, agenda and qrScan');
    }
    const v = optionalBoolean(o, k);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

export function registerSandboxRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { state, delivery } = ctx;
  const auth = { auth: true };

  // ---- events ----------------------------------------------------------------------------------------

  app.post('/_sandbox/events', { config: auth }, async (req, reply) => {
    const tenant = tenantOf(req);
    const body = requireObject(req.body);
    requireString(body, 'title', 200);
    const fields = readEventFields(body);
    const status = optionalEnum<EventStatus>(body, 'status', ['draft', 'published']);
    const now = state.now();
    const startsMs = Math.floor((now + 30 * DAY) / DAY) * DAY + 8 * 60 * MIN;
    const startsAt = fields.startsAt ?? iso(startsMs);
    const endsAt = fields.endsAt ?? iso(Date.parse(startsAt) + 8 * 60 * MIN);
    if (endsAt < startsAt) throw validation('endsAt', 'endsAt must not be before startsAt');
    const e = state.createEvent(tenant, {
      title: fields.title as string,
      slug: fields.slug,
      startsAt,
      endsAt,
      timezone: fields.timezone ?? 'Europe/Paris',
      venueName: fields.venueName ?? 'To be announced',
      status,
      description: fields.description,
      coverImageUrl: fields.coverImageUrl,
    });
    return reply.code(201).send(state.eventJson(e));
  });

  app.patch('/_sandbox/events/:id', { config: auth }, async (req) => {
    const tenant = tenantOf(req);
    const current = state.event(tenant, params(req).id ?? '');
    const body = requireObject(req.body);
    const fields = readEventFields(body, current);
    if (Object.keys(fields).length === 0) throw validation('body', 'Nothing to update');
    return state.eventJson(state.updateEvent(tenant, current.id, fields));
  });

  app.post('/_sandbox/events/:id/publish', { config: auth }, async (req) => {
    const tenant = tenantOf(req);
    return state.eventJson(state.setEventStatus(tenant, params(req).id ?? '', 'published'));
  });

  app.post('/_sandbox/events/:id/unpublish', { config: auth }, async (req) => {
    const tenant = tenantOf(req);
    return state.eventJson(state.setEventStatus(tenant, params(req).id ?? '', 'draft'));
  });

  app.delete('/_sandbox/events/:id', { config: auth }, async (req) => {
    const tenant = tenantOf(req);
    return state.eventJson(state.deleteEvent(tenant, params(req).id ?? ''));
  });

  // ---- submissions -----------------------------------------------------------------------------------

  app.post('/_sandbox/submissions', { config: auth }, async (req, reply) => {
    const tenant = tenantOf(req);
    const body = requireObject(req.body);
    const eventId = requireString(body, 'eventId', 200);
    const email = requireString(body, 'email', 320);
    if (!isEmail(email)) throw validation('email', 'email must be an email address');
    const firstName = requireString(body, 'firstName', 200);
    const lastName = requireString(body, 'lastName', 200);
    const answers = readAnswers(body);
    const ticketType = optionalString(body, 'ticketType', 100);
    const status = optionalEnum<SubmissionStatus>(body, 'status', ['pending', 'approved', 'rejected']);
    const createdMs = optionalTimestamp(body, 'createdAt');
    const visibleMs = optionalTimestamp(body, 'visibleAt');
    const created = createdMs ?? state.now();
    if (visibleMs !== undefined && (visibleMs < created || visibleMs - created > MAX_VISIBILITY_LAG_MS)) {
      throw validation('visibleAt', 'visibleAt must be between createdAt and two minutes after it');
    }
    state.event(tenant, eventId);
    const s = state.addSubmission(tenant, {
      eventId,
      email,
      firstName,
      lastName,
      answers,
      ticketType,
      status,
      createdMs: created,
      visibleMs,
      approvedMs: Math.max(created, state.now()),
    });
    return reply.code(201).send({ ...state.submissionJson(s), visibleAt: iso(s.visibleMs) });
  });

  app.get('/_sandbox/submissions/:id', { config: auth }, async (req) => {
    const tenant = tenantOf(req);
    const s = state.submission(tenant, params(req).id ?? '');
    return { ...state.submissionJson(s), visibleAt: iso(s.visibleMs) };
  });

  app.post('/_sandbox/submissions/:id/approve', { config: auth }, async (req) => {
    const tenant = tenantOf(req);
    const s = state.approve(tenant, state.submission(tenant, params(req).id ?? ''));
    return state.submissionJson(s);
  });

  app.post('/_sandbox/submissions/:id/reject', { config: auth }, async (req) => {
    const tenant = tenantOf(req);
    const s = state.reject(tenant, state.submission(tenant, params(req).id ?? ''));
    return state.submissionJson(s);
  });

  // ---- orders ----------------------------------------------------------------------------------------

  app.post('/_sandbox/orders', { config: auth }, async (req, reply) => {
    const tenant = tenantOf(req);
    const body = requireObject(req.body);
    const submissionId = requireString(body, 'submissionId', 200);
    const outcome = optionalEnum<'paid' | 'failed' | 'pending'>(body, 'outcome', [
      'paid',
      'failed',
      'pending',
    ]);
    if (outcome === undefined)
      throw validation('outcome', 'outcome is required: paid or failed (or pending)');
    const items = readItems(body);
    const currency = optionalString(body, 'currency', 3) ?? tenant.settings.currency;
    if (!/^[A-Z]{3}$/.test(currency))
      throw validation('currency', 'currency must be an ISO 4217 code such as EUR');
    const sub = state.submission(tenant, submissionId);
    const status: OrderStatus = outcome;
    const o = state.addOrder(tenant, {
      submissionId,
      items: items ?? [{ name: `${sub.ticketType} ticket`, quantity: 1, unitAmount: 12900 }],
      currency,
      status,
    });
    return reply.code(201).send(state.orderJson(o));
  });

  app.post('/_sandbox/orders/:id/refund', { config: auth }, async (req) => {
    const tenant = tenantOf(req);
    return state.orderJson(state.refund(tenant, params(req).id ?? ''));
  });

  // ---- door scan by the service's own scanner app ----------------------------------------------------

  app.post('/_sandbox/scan', { config: auth }, async (req) => {
    const tenant = tenantOf(req);
    if (!tenant.settings.entitlements.qrScan) throw entitlementRequired('qrScan');
    const { target, checkInMs } = parseCheckInBody(req.body);
    return state.checkIn(tenant, target, checkInMs);
  });

  // ---- floor plans -----------------------------------------------------------------------------------

  app.get('/_sandbox/events/:id/floor-plans/:planId', { config: auth }, async (req) => {
    const tenant = tenantOf(req);
    const p = state.plan(tenant, params(req).id ?? '', params(req).planId ?? '');
    return {
      id: p.id,
      eventId: p.eventId,
      name: p.name,
      width: p.width,
      height: p.height,
      booths: p.booths,
      publishedVersions: p.snapshots.length,
    };
  });

  app.post('/_sandbox/events/:id/floor-plans/:planId/publish', { config: auth }, async (req, reply) => {
    const tenant = tenantOf(req);
    return reply.code(201).send(state.publishPlan(tenant, params(req).id ?? '', params(req).planId ?? ''));
  });

  app.post('/_sandbox/events/:id/floor-plans/:planId/booths/:boothId', { config: auth }, async (req) => {
    const tenant = tenantOf(req);
    const body = requireObject(req.body);
    const status = optionalEnum(body, 'status', ['available', 'held', 'booked'] as const);
    if (status === undefined) throw validation('status', 'status is required: available, held or booked');
    const { id = '', planId = '', boothId = '' } = params(req);
    const booth = state.setBoothStatus(tenant, id, planId, boothId, status);
    return { ...booth, published: false };
  });

  // ---- hooks, secrets, deliveries -------------------------------------------------------------------

  app.get('/_sandbox/hooks', { config: auth }, async (req) => {
    const tenant = tenantOf(req);
    return {
      data: [...tenant.hooks.values()].map((h) => ({ ...hookJson(h), previousSecret: h.previousSecret })),
    };
  });

  const rotateTarget = (tenant: Tenant, body: Body): { hook: HookRecord | null } => {
    const hookId = optionalString(body, 'hookId', 100);
    if (hookId === undefined) return { hook: null };
    const hook = tenant.hooks.get(hookId);
    if (!hook) throw new ApiError(404, 'NOT_FOUND', 'Subscription not found', { field: 'hookId' });
    if (hook.secret === null) {
      throw validation(
        'hookId',
        'This subscription is signed with the account-level secret: rotate that one',
      );
    }
    return { hook };
  };

  app.post('/_sandbox/secrets/rotate', { config: auth }, async (req) => {
    const tenant = tenantOf(req);
    const { hook } = rotateTarget(tenant, req.body === undefined ? {} : requireObject(req.body));
    if (hook) {
      hook.previousSecret = hook.secret;
      hook.secret = state.newSecret();
      return { hookId: hook.id, secret: hook.secret, previousSecret: hook.previousSecret };
    }
    tenant.previousWebhookSecret = tenant.settings.webhookSecret;
    tenant.settings.webhookSecret = state.newSecret();
    return {
      hookId: null,
      secret: tenant.settings.webhookSecret,
      previousSecret: tenant.previousWebhookSecret,
    };
  });

  app.post('/_sandbox/secrets/expire-previous', { config: auth }, async (req) => {
    const tenant = tenantOf(req);
    const { hook } = rotateTarget(tenant, req.body === undefined ? {} : requireObject(req.body));
    if (hook) {
      hook.previousSecret = null;
      return { hookId: hook.id, secret: hook.secret, previousSecret: null };
    }
    tenant.previousWebhookSecret = null;
    return { hookId: null, secret: tenant.settings.webhookSecret, previousSecret: null };
  });

  app.get('/_sandbox/deliveries', { config: auth }, async (req) => {
    const tenant = tenantOf(req);
    const q = req.query as Query;
    const pick = (k: string): string | undefined => (typeof q[k] === 'string' ? (q[k] as string) : undefined);
    const subscriptionId = pick('subscriptionId');
    const type = pick('type');
    const deliveryId = pick('deliveryId');
    const data = delivery
      .log(tenant.id)
      .filter(
        (e) =>
          (subscriptionId === undefined || e.subscriptionId === subscriptionId) &&
          (type === undefined || e.type === type) &&
          (deliveryId === undefined || e.deliveryId === deliveryId),
      );
    return { data, pending: delivery.pendingFor(tenant.id) };
  });

  // ---- tenant ----------------------------------------------------------------------------------------

  app.get('/_sandbox/tenant', { config: auth }, async (req) => tenantJson(ctx, tenantOf(req)));

  app.patch('/_sandbox/tenant', { config: auth }, async (req) => {
    const tenant = tenantOf(req);
    const body = requireObject(req.body);
    tenant.settings.entitlements = readEntitlements(body, tenant.settings.entitlements);
    const hookSecrets = optionalBoolean(body, 'hookSecrets');
    if (hookSecrets !== undefined) tenant.settings.hookSecrets = hookSecrets;
    const name = optionalString(body, 'name', 200);
    if (name !== undefined && name.trim() !== '') tenant.settings.name = name;
    return tenantJson(ctx, tenant);
  });

  /** Keyless: a fresh, empty organizer. The response is the only place its API key is shown. */
  app.post('/_sandbox/tenants', async (req, reply) => {
    const body = req.body === undefined ? {} : requireObject(req.body);
    const name = optionalString(body, 'name', 200) ?? 'Sandbox Organizer';
    const currency = optionalString(body, 'currency', 3) ?? 'EUR';
    if (!/^[A-Z]{3}$/.test(currency))
      throw validation('currency', 'currency must be an ISO 4217 code such as EUR');
    const entitlements = readEntitlements(body, { venue: true, agenda: true, qrScan: true });
    const hookSecrets = optionalBoolean(body, 'hookSecrets') ?? true;
    const suffix = state.ids.hex(12);
    const tenant = state.addTenant({
      id: `ten_${suffix}`,
      name,
      apiKey: `sk_sandbox_${suffix}${state.ids.hex(8)}`,
      companyId: `cmp_${suffix}`,
      webhookSecret: state.newSecret(),
      entitlements,
      hookSecrets,
      currency,
    });
    return reply.code(201).send({ ...tenantJson(ctx, tenant), apiKey: tenant.settings.apiKey });
  });

  // ---- faults and config -----------------------------------------------------------------------------

  const faultJson = (f: Fault): Record<string, unknown> => ({
    route: f.route,
    kind: f.kind,
    remaining: f.remaining,
    retryAfter: f.kind === '429' ? f.retryAfter : undefined,
    delayMs: f.kind === 'slow' ? f.delayMs : undefined,
    status: f.kind === '500' || f.kind === 'non-json' ? f.status : undefined,
  });

  app.post('/_sandbox/faults', { config: auth }, async (req, reply) => {
    const tenant = tenantOf(req);
    const body = requireObject(req.body);
    const route = requireString(body, 'route', 300);
    const { spec, path } = ctx.faults.resolve(route);
    const kind = optionalEnum<FaultKind>(body, 'kind', FAULT_KINDS);
    if (kind === undefined) throw validation('kind', `kind is required: ${FAULT_KINDS.join(', ')}`);
    const count = optionalInteger(body, 'count', 1, 1_000_000) ?? 1;
    const retryAfter = optionalInteger(body, 'retryAfter', 0, 86_400) ?? 1;
    const delayMs = optionalInteger(body, 'delayMs', 0, 120_000) ?? 2_000;
    const status = optionalInteger(body, 'status', 500, 599) ?? 500;
    const fault: Fault = {
      route: `${spec.method} ${path ?? spec.pattern}`,
      method: spec.method,
      pattern: spec.pattern,
      path,
      kind,
      remaining: count,
      retryAfter,
      delayMs,
      status,
    };
    ctx.faults.add(tenant.id, fault, spec.keyless);
    return reply.code(201).send({ ...faultJson(fault), scope: spec.keyless ? 'global' : 'tenant' });
  });

  app.get('/_sandbox/faults', { config: auth }, async (req) => ({
    data: ctx.faults.list(tenantOf(req).id).map(faultJson),
  }));

  app.delete('/_sandbox/faults', { config: auth }, async (req, reply) => {
    ctx.faults.clear(tenantOf(req).id);
    return reply.code(204).send();
  });

  app.get('/_sandbox/config', { config: auth }, async (req) => {
    tenantOf(req);
    return { shuffle: state.shuffle };
  });

  app.post('/_sandbox/config', { config: auth }, async (req) => {
    tenantOf(req);
    const body = requireObject(req.body);
    const shuffle = optionalBoolean(body, 'shuffle');
    if (shuffle !== undefined) state.shuffle = shuffle;
    return { shuffle: state.shuffle };
  });
}
