// Hook subscriptions (docs/connect-contract.md §5): create (with an optional Idempotency-Key), read (with the
// current secret), delete.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context';
import { ApiError, validation } from '../errors';
import { KEYED, params, tenantOf } from '../request';
import type { Tenant } from '../state';
import { WEBHOOK_KINDS, type HookEvent, type HookRecord } from '../types';
import { canonicalJson, parseIdempotencyKey, requireObject, requireString, type Body } from '../validate';
import { ROUTES } from './routes';

/** Keys of `POST …/hooks` live beside check-in's in one store, in a namespace of their own. */
const keyOf = (key: string): string => `POST hooks\u0000${key}`;

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

  /**
   * A new subscription. With an Idempotency-Key (read before the body: a malformed one is refused first),
   * the same key and body answer the subscription it made while that one exists (201, Idempotent-Replayed),
   * another body is 422, a request still in flight 409; once that subscription is deleted, the key makes a
   * new one. A "slow" fault holds the answer after the subscription is made: the answer comes late, the
   * subscription exists already (a lost answer).
   */
  const subscribe = async (req: FastifyRequest, reply: FastifyReply) => {
    const tenant = tenantOf(req);
    const key = ctx.deviations.has('hook-key-unread')
      ? undefined
      : parseIdempotencyKey(req.headers['idempotency-key']);
    const body = requireObject(req.body);
    const targetUrl = readTargetUrl(body);
    // `client-secret`: the client makes the subscription's secret and sends it.
    const secret = ctx.deviations.has('client-secret') ? requireString(body, 'secret', 200) : undefined;
    const event = requireString(body, 'event', 100);
    if (event !== 'EVENT_*' && !(WEBHOOK_KINDS as readonly string[]).includes(event)) {
      throw validation('event', `event must be one of ${WEBHOOK_KINDS.join(', ')} or EVENT_*`);
    }
    const eventId = readEventFilter(tenant, body);
    const apiKey = tenant.settings.apiKey;
    const create = () => state.addHook(tenant, { targetUrl, event: event as HookEvent, eventId, secret });
    if (key === undefined) {
      const hook = create();
      await ctx.sleeper.sleep(req.faultDelayMs);
      return reply.code(201).send(ctx.deviations.answer(hookJson(hook)));
    }
    let found = ctx.idempotency.begin(apiKey, keyOf(key), canonicalJson(body));
    if (found.kind === 'replay') {
      const made = tenant.hooks.get(String((JSON.parse(found.response.body) as { id?: unknown }).id));
      if (made)
        return reply
          .code(201)
          .header('Idempotent-Replayed', 'true')
          .send(ctx.deviations.answer(hookJson(made)));
      // The subscription this key made was deleted since: the key makes a new one.
      ctx.idempotency.abandon(apiKey, keyOf(key));
      found = ctx.idempotency.begin(apiKey, keyOf(key), canonicalJson(body));
    }
    if (found.kind === 'reused') {
      throw new ApiError(
        422,
        'IDEMPOTENCY_KEY_REUSED',
        'This Idempotency-Key was used with a different body',
      );
    }
    if (found.kind === 'in_flight') {
      throw new ApiError(409, 'IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is in progress');
    }
    const hook = create();
    ctx.idempotency.complete(apiKey, keyOf(key), { statusCode: 201, body: JSON.stringify({ id: hook.id }) });
    await ctx.sleeper.sleep(req.faultDelayMs);
    return reply.code(201).send(ctx.deviations.answer(hookJson(hook)));
  };

  app.post(ROUTES.subscribe.pattern, { config: { ...KEYED, delayInHandler: true } }, subscribe);

  // The subscription with its current secret (null: signed with the account-level secret).
  app.get(ROUTES.hook.pattern, { config: KEYED }, async (req) => {
    const hook = tenantOf(req).hooks.get(params(req).id ?? '');
    if (!hook) throw new ApiError(404, 'NOT_FOUND', 'Subscription not found');
    return ctx.deviations.answer(hookJson(hook, { nullSecret: true }));
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
