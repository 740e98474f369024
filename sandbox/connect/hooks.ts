// Hook subscriptions (docs/connect-contract.md §5): create, read (with the current secret), delete.

import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context';
import { ApiError, validation } from '../errors';
import { KEYED, params, tenantOf } from '../request';
import type { Tenant } from '../state';
import { WEBHOOK_KINDS, type HookEvent, type HookRecord } from '../types';
import { requireObject, requireString, type Body } from '../validate';
import { ROUTES } from './routes';

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/**
 * A subscription as Connect shows it. `secret` is its current secret; a subscription signed with the
 * account-level secret has none: left out on creation, null when read back.
 */
export function hookJson(hook: HookRecord, options: { nullSecret?: boolean } = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: hook.id,
    event: hook.event,
    eventId: hook.eventId,
    targetUrl: hook.targetUrl,
  };
  if (hook.secret !== null || options.nullSecret) out.secret = hook.secret;
  if (hook.secretRotatedAt !== null) out.secretRotatedAt = hook.secretRotatedAt;
  out.createdAt = hook.createdAt;
  return out;
}

function readTargetUrl(body: Body): string {
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
  return targetUrl;
}

function readEventFilter(tenant: Tenant, body: Body): string | null {
  if (body.eventId === undefined || body.eventId === null) return null;
  if (typeof body.eventId !== 'string' || body.eventId === '') {
    throw validation('eventId', 'eventId must be an event id or null');
  }
  const e = tenant.events.get(body.eventId);
  if (!e || e.deleted) throw new ApiError(404, 'NOT_FOUND', 'Event not found', { field: 'eventId' });
  return e.id;
}

export function registerHookRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

  app.post(ROUTES.subscribe.pattern, { config: KEYED }, async (req, reply) => {
    const tenant = tenantOf(req);
    const body = requireObject(req.body);
    const targetUrl = readTargetUrl(body);
    const event = requireString(body, 'event', 100);
    if (event !== 'EVENT_*' && !(WEBHOOK_KINDS as readonly string[]).includes(event)) {
      throw validation('event', `event must be one of ${WEBHOOK_KINDS.join(', ')} or EVENT_*`);
    }
    const eventId = readEventFilter(tenant, body);
    const hook = state.addHook(tenant, { targetUrl, event: event as HookEvent, eventId });
    return reply.code(201).send(hookJson(hook));
  });

  // The subscription with its current secret (null: signed with the account-level secret).
  app.get(ROUTES.hook.pattern, { config: KEYED }, async (req) => {
    const hook = tenantOf(req).hooks.get(params(req).id ?? '');
    if (!hook) throw new ApiError(404, 'NOT_FOUND', 'Subscription not found');
    return hookJson(hook, { nullSecret: true });
  });

  app.delete(ROUTES.unsubscribe.pattern, { config: KEYED }, async (req, reply) => {
    const tenant = tenantOf(req);
    const id = params(req).id ?? '';
    if (!tenant.hooks.has(id)) throw new ApiError(404, 'NOT_FOUND', 'Subscription not found');
    tenant.hooks.delete(id);
    ctx.delivery.cancelHook(id);
    return reply.code(204).send();
  });
}
