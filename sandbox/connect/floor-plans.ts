// Published floor plans of an event (venue entitlement): the list and one plan, latest snapshot only.

import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context';
import { ApiError, entitlementRequired } from '../errors';
import { KEYED, params, tenantOf } from '../request';
import { ROUTES } from './routes';

export function registerFloorPlanRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

  app.get(ROUTES.floorPlans.pattern, { config: KEYED }, async (req, reply) => {
    const tenant = tenantOf(req);
    if (!tenant.settings.entitlements.venue) throw entitlementRequired('venue');
    const data = ctx.order(state.publishedPlans(tenant, params(req).eventUuid ?? ''));
    reply.header('Cache-Control', 'private, max-age=300');
    return ctx.deviations.listBody(data);
  });

  app.get(ROUTES.floorPlan.pattern, { config: KEYED }, async (req, reply) => {
    const tenant = tenantOf(req);
    if (!tenant.settings.entitlements.venue) throw entitlementRequired('venue');
    const { eventUuid = '', planId = '' } = params(req);
    const plan = state.plan(tenant, eventUuid, planId);
    const latest = plan.snapshots[plan.snapshots.length - 1];
    if (!latest) throw new ApiError(404, 'NOT_FOUND', 'Floor plan not found (never published)');
    reply.header('Cache-Control', 'private, max-age=300');
    return ctx.deviations.record(latest);
  });
}
