// Floor plans as drawn in the dashboard: read the draft, publish it as a new version, change a booth.

import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context';
import { validation } from '../errors';
import { params, SIMULATION, tenantOf } from '../request';
import { optionalEnum, requireObject } from '../validate';

export function registerFloorPlanSimulation(app: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;
  const base = '/_sandbox/events/:id/floor-plans/:planId';

  app.get(base, { config: SIMULATION }, async (req) => {
    const { id = '', planId = '' } = params(req);
    const p = state.plan(tenantOf(req), id, planId);
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

  app.post(`${base}/publish`, { config: SIMULATION }, async (req, reply) => {
    const { id = '', planId = '' } = params(req);
    return reply.code(201).send(state.publishPlan(tenantOf(req), id, planId));
  });

  app.post(`${base}/booths/:boothId`, { config: SIMULATION }, async (req) => {
    const tenant = tenantOf(req);
    const status = optionalEnum(requireObject(req.body), 'status', ['available', 'held', 'booked'] as const);
    if (status === undefined) throw validation('status', 'status is required: available, held or booked');
    const { id = '', planId = '', boothId = '' } = params(req);
    return { ...state.setBoothStatus(tenant, id, planId, boothId, status), published: false };
  });
}
