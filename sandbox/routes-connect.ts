// The nine endpoints of the interface document plus the hook subscription endpoints of contract.md §5.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteSpec } from './faults';
import { ApiError, entitlementRequired, validation } from './errors';
import type { SandboxContext } from './context';
import type { CheckInTarget, Tenant } from './state';
import { WEBHOOK_KINDS, type HookEvent, type HookRecord } from './types';
import {
  canonicalJson,
  optionalTimestamp,
  parseIdempotencyKey,
  readLimit,
  readOptionalLimit,
  readPage,
  requireObject,
  requireQueryString,
  requireQueryTimestamp,
  requireString,
  type Query,
} from './validate';

export const CONNECT_ROUTES: RouteSpec[] = [
  { method: 'GET', pattern: '/connect/v1/events/:eventUuid/floor-plans', keyless: false },
  { method: 'GET', pattern: '/connect/v1/events/:eventUuid/floor-plans/:planId', keyless: false },
  { method: 'GET', pattern: '/api/v1/integrations/zapier/events', keyless: false },
  { method: 'GET', pattern: '/api/v1/integrations/zapier/submissions', keyless: false },
  { method: 'GET', pattern: '/api/v1/integrations/zapier/orders', keyless: false },
  { method: 'GET', pattern: '/api/v1/public/events', keyless: true },
  { method: 'GET', pattern: '/widgets/event/:slug', keyless: true },
  { method: 'GET', pattern: '/widgets/event/:slug/agenda', keyless: true },
  { method: 'POST', pattern: '/api/v1/checkin', keyless: false },
  { method: 'POST', pattern: '/api/v1/integrations/zapier/hooks', keyless: false },
  { method: 'DELETE', pattern: '/api/v1/integrations/zapier/hooks/:id', keyless: false },
];

export function tenantOf(req: FastifyRequest): Tenant {
  if (!req.tenant) throw new ApiError(401, 'INVALID_API_KEY', 'Missing or unknown X-API-KEY');
  return req.tenant;
}

const params = (req: FastifyRequest): Record<string, string> => req.params as Record<string, string>;
const query = (req: FastifyRequest): Query => req.query as Query;

/** A check-in body: `code`, or `eventId` + `submissionId`, never both, plus an optional `checkInTime`. */
export function parseCheckInBody(raw: unknown): { target: CheckInTarget; checkInMs: number | undefined } {
  const body = requireObject(raw);
  const present = (k: string): boolean => body[k] !== undefined && body[k] !== null;
  const hasCode = present('code');
  const hasPair = present('eventId') || present('submissionId');
  if (hasCode && hasPair) {
    throw validation('code', 'Send either code, or eventId and submissionId, not both');
  }
  if (!hasCode && !hasPair) throw validation('code', 'code, or eventId and submissionId, is required');
  const checkInMs = optionalTimestamp(body, 'checkInTime');
  if (hasCode) {
    const code = body.code;
    if (typeof code !== 'string') throw validation('code', 'code must be a string');
    if (code.trim() === '') throw validation('code', 'code must not be empty');
    if (code.length > 1000) throw validation('code', 'code must be at most 1000 characters');
    return { target: { code }, checkInMs };
  }
  return {
    target: {
      eventId: requireString(body, 'eventId', 200),
      submissionId: requireString(body, 'submissionId', 200),
    },
    checkInMs,
  };
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

function hookJson(hook: HookRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: hook.id,
    event: hook.event,
    eventId: hook.eventId,
    targetUrl: hook.targetUrl,
  };
  if (hook.secret !== null) out.secret = hook.secret;
  out.createdAt = hook.createdAt;
  return out;
}

const JSON_TYPE = 'application/json; charset=utf-8';

export function registerConnectRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;
  const keyed = { auth: true, connect: true };
  const keyless = { connect: true, keyless: true };

  // 1. Published floor plans of an event (venue entitlement).
  app.get('/connect/v1/events/:eventUuid/floor-plans', { config: keyed }, async (req, reply) => {
    const tenant = tenantOf(req);
    if (!tenant.settings.entitlements.venue) throw entitlementRequired('venue');
    const data = ctx.order(state.publishedPlans(tenant, params(req).eventUuid ?? ''));
    reply.header('Cache-Control', 'private, max-age=300');
    return { data };
  });

  // 2. One published floor plan (its latest snapshot).
  app.get('/connect/v1/events/:eventUuid/floor-plans/:planId', { config: keyed }, async (req, reply) => {
    const tenant = tenantOf(req);
    if (!tenant.settings.entitlements.venue) throw entitlementRequired('venue');
    const { eventUuid = '', planId = '' } = params(req);
    const plan = state.plan(tenant, eventUuid, planId);
    const latest = plan.snapshots[plan.snapshots.length - 1];
    if (!latest) throw new ApiError(404, 'NOT_FOUND', 'Floor plan not found (never published)');
    reply.header('Cache-Control', 'private, max-age=300');
    return latest;
  });

  // 3. The tenant's events, newest kept when limit cuts.
  app.get('/api/v1/integrations/zapier/events', { config: keyed }, async (req) => {
    const tenant = tenantOf(req);
    const limit = readLimit(query(req));
    const events = [...tenant.events.values()]
      .filter((e) => !e.deleted)
      .sort((a, b) => b.createdMs - a.createdMs || (a.id < b.id ? -1 : 1))
      .slice(0, limit);
    return { data: ctx.order(events.map((e) => state.eventJson(e))) };
  });

  // 4. Submissions of one event with createdAt >= since (visible ones only).
  app.get('/api/v1/integrations/zapier/submissions', { config: keyed }, async (req) => {
    const tenant = tenantOf(req);
    const q = query(req);
    const eventId = requireQueryString(q, 'eventId');
    const since = requireQueryTimestamp(q, 'since');
    const limit = readOptionalLimit(q);
    state.event(tenant, eventId);
    let list = state.submissionsSince(tenant, eventId, since);
    if (limit !== undefined && list.length > limit) list = list.slice(list.length - limit);
    const data = new Array<ReturnType<typeof state.submissionJson>>(list.length);
    for (let i = 0; i < list.length; i++) data[i] = state.submissionJson(list[list.length - 1 - i]!);
    return { data: ctx.order(data) };
  });

  // 5. The company's orders, newest first.
  app.get('/api/v1/integrations/zapier/orders', { config: keyed }, async (req) => {
    const tenant = tenantOf(req);
    const q = query(req);
    const companyId = requireQueryString(q, 'companyId');
    const limit = readLimit(q);
    if (companyId !== tenant.settings.companyId) throw new ApiError(404, 'NOT_FOUND', 'Company not found');
    const orders = [...tenant.orders.values()]
      .sort((a, b) => b.createdMs - a.createdMs || (a.id < b.id ? 1 : -1))
      .slice(0, limit);
    return { data: ctx.order(orders.map((o) => state.orderJson(o))) };
  });

  // 6. Public catalog: published events of every organizer, paged (soonest first; shuffle shuffles a page).
  app.get('/api/v1/public/events', { config: keyless }, async (req) => {
    const q = query(req);
    const page = readPage(q);
    const limit = readLimit(q);
    const all = [...state.eventsBySlug.values()]
      .filter((e) => e.status === 'published' && !e.deleted)
      .sort((a, b) => (a.startsAt < b.startsAt ? -1 : a.startsAt > b.startsAt ? 1 : a.id < b.id ? -1 : 1));
    const slice = all.slice((page - 1) * limit, page * limit).map((e) => state.eventJson(e));
    return { data: ctx.order(slice), page, limit, total: all.length };
  });

  // 7. Event widget JSON.
  app.get('/widgets/event/:slug', { config: keyless }, async (req) => {
    const e = state.publicEventBySlug(params(req).slug ?? '');
    return { ...state.eventJson(e), description: e.description, coverImageUrl: e.coverImageUrl };
  });

  // 8. Agenda widget JSON (agenda entitlement of the owning organizer).
  app.get('/widgets/event/:slug/agenda', { config: keyless }, async (req, reply) => {
    const e = state.publicEventBySlug(params(req).slug ?? '');
    const owner = state.tenants.get(e.tenantId);
    if (!owner?.settings.entitlements.agenda) throw entitlementRequired('agenda');
    const sessions = [...(owner.agendas.get(e.id) ?? [])].sort((a, b) =>
      a.startsAt < b.startsAt ? -1 : a.startsAt > b.startsAt ? 1 : 0,
    );
    reply.header('Cache-Control', 'public, max-age=300');
    return { eventId: e.id, slug: e.slug, timezone: e.timezone, sessions };
  });

  // 9. Check-in (qrScan entitlement), with Idempotency-Key semantics of contract.md §4.
  app.post(
    '/api/v1/checkin',
    { config: { ...keyed, delayInHandler: true } },
    async (req: FastifyRequest, reply: FastifyReply) => {
      const tenant = tenantOf(req);
      if (!tenant.settings.entitlements.qrScan) throw entitlementRequired('qrScan');
      const key = parseIdempotencyKey(req.headers['idempotency-key']);
      const { target, checkInMs } = parseCheckInBody(req.body);
      if (key === undefined) {
        await ctx.sleeper.sleep(req.faultDelayMs);
        return state.checkIn(tenant, target, checkInMs);
      }
      const apiKey = tenant.settings.apiKey;
      const found = ctx.idempotency.begin(apiKey, key, canonicalJson(req.body));
      if (found.kind === 'reused') {
        throw new ApiError(
          422,
          'IDEMPOTENCY_KEY_REUSED',
          'This Idempotency-Key was used with a different body',
        );
      }
      if (found.kind === 'in_flight') {
        throw new ApiError(
          409,
          'IDEMPOTENCY_KEY_IN_USE',
          'A request with this Idempotency-Key is in progress',
        );
      }
      if (found.kind === 'replay') {
        return reply
          .code(found.response.statusCode)
          .header('Idempotent-Replayed', 'true')
          .type(JSON_TYPE)
          .send(found.response.body);
      }
      try {
        await ctx.sleeper.sleep(req.faultDelayMs);
        let statusCode = 200;
        let body: string;
        try {
          body = JSON.stringify(state.checkIn(tenant, target, checkInMs));
        } catch (err) {
          if (!(err instanceof ApiError) || err.statusCode >= 500) throw err;
          statusCode = err.statusCode;
          body = JSON.stringify(err.toBody());
        }
        ctx.idempotency.complete(apiKey, key, { statusCode, body });
        return reply.code(statusCode).type(JSON_TYPE).send(body);
      } catch (err) {
        ctx.idempotency.abandon(apiKey, key);
        throw err;
      }
    },
  );

  // Hook subscriptions (contract.md §5).
  app.post('/api/v1/integrations/zapier/hooks', { config: keyed }, async (req, reply) => {
    const tenant = tenantOf(req);
    const body = requireObject(req.body);
    const targetUrl = requireString(body, 'targetUrl', 2048);
    let url: URL;
    try {
      url = new URL(targetUrl);
    } catch {
      throw validation('targetUrl', 'targetUrl must be an absolute URL');
    }
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.test(url.hostname))) {
      throw validation('targetUrl', 'targetUrl must be https (http is accepted for loopback hosts only)');
    }
    const event = requireString(body, 'event', 100);
    if (event !== 'EVENT_*' && !(WEBHOOK_KINDS as readonly string[]).includes(event)) {
      throw validation('event', `event must be one of ${WEBHOOK_KINDS.join(', ')} or EVENT_*`);
    }
    let eventId: string | null = null;
    if (body.eventId !== undefined && body.eventId !== null) {
      if (typeof body.eventId !== 'string' || body.eventId === '') {
        throw validation('eventId', 'eventId must be an event id or null');
      }
      const e = tenant.events.get(body.eventId);
      if (!e || e.deleted) throw new ApiError(404, 'NOT_FOUND', 'Event not found', { field: 'eventId' });
      eventId = e.id;
    }
    const hook = state.addHook(tenant, { targetUrl, event: event as HookEvent, eventId });
    return reply.code(201).send(hookJson(hook));
  });

  app.delete('/api/v1/integrations/zapier/hooks/:id', { config: keyed }, async (req, reply) => {
    const tenant = tenantOf(req);
    const id = params(req).id ?? '';
    if (!tenant.hooks.has(id)) throw new ApiError(404, 'NOT_FOUND', 'Subscription not found');
    tenant.hooks.delete(id);
    ctx.delivery.cancelHook(id);
    return reply.code(204).send();
  });
}

export { hookJson };
