// Subscriptions as the dashboard shows them, secret rotation, and the delivery log.

import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context';
import { hookJson } from '../connect/hooks';
import { ApiError, validation } from '../errors';
import { query, SIMULATION, tenantOf } from '../request';
import type { Tenant } from '../state';
import type { HookRecord } from '../types';
import { optionalInteger, optionalString, requireObject, type Body } from '../validate';

const MAX_OVERLAP_MS = 30 * 24 * 60 * 60 * 1000;

/** `hookId` names a subscription with its own secret; without it, the account-level secret is meant. */
function rotationTarget(tenant: Tenant, body: Body): HookRecord | null {
  const hookId = optionalString(body, 'hookId', 100);
  if (hookId === undefined) return null;
  const hook = tenant.hooks.get(hookId);
  if (!hook) throw new ApiError(404, 'NOT_FOUND', 'Subscription not found', { field: 'hookId' });
  if (hook.secret === null) {
    throw validation('hookId', 'This subscription is signed with the account-level secret: rotate that one');
  }
  return hook;
}

const optionalBody = (raw: unknown): Body => (raw === undefined ? {} : requireObject(raw));

export function registerHookSimulation(app: FastifyInstance, ctx: SandboxContext): void {
  const { state, delivery } = ctx;

  app.get('/_sandbox/hooks', { config: SIMULATION }, async (req) => {
    const tenant = tenantOf(req);
    return {
      data: [...tenant.hooks.values()].map((h) => {
        const secrets = state.secretState(tenant, h);
        return {
          ...hookJson(h),
          previousSecret: secrets.previousSecret,
          previousSecretExpiresAt: secrets.previousSecretExpiresAt,
        };
      }),
    };
  });

  // A new secret; the old one still signs beside it for overlapMs (sandbox clock), then it is retired.
  app.post('/_sandbox/secrets/rotate', { config: SIMULATION }, async (req) => {
    const tenant = tenantOf(req);
    const body = optionalBody(req.body);
    const hook = rotationTarget(tenant, body);
    const overlapMs = optionalInteger(body, 'overlapMs', 0, MAX_OVERLAP_MS) ?? ctx.rotationOverlapMs;
    return state.rotateSecret(tenant, hook, overlapMs);
  });

  // Ends the overlap now: only the new secret signs.
  app.post('/_sandbox/secrets/expire-previous', { config: SIMULATION }, async (req) => {
    const tenant = tenantOf(req);
    return state.retirePreviousSecret(tenant, rotationTarget(tenant, optionalBody(req.body)));
  });

  app.get('/_sandbox/deliveries', { config: SIMULATION }, async (req) => {
    const tenant = tenantOf(req);
    const q = query(req);
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
}
