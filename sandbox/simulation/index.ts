// The simulation API under /_sandbox/: drives state changes the way the service's dashboard, forms,
// payment provider and door scanner would, plus odd records, secret rotation, fault injection, list
// shuffling, the delivery log and a count of the Connect requests made. Not part of Connect. Same X-API-KEY
// as the tenant's Connect calls.

import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context';
import { registerEventSimulation } from './events';
import { registerFaultSimulation } from './faults';
import { registerFloorPlanSimulation } from './floor-plans';
import { registerHookSimulation } from './hooks';
import { registerOrderSimulation } from './orders';
import { registerRequestSimulation } from './requests';
import { registerSubmissionSimulation } from './submissions';
import { registerTenantSimulation } from './tenants';

export function registerSimulationRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  registerEventSimulation(app, ctx);
  registerSubmissionSimulation(app, ctx);
  registerOrderSimulation(app, ctx);
  registerFloorPlanSimulation(app, ctx);
  registerHookSimulation(app, ctx);
  registerTenantSimulation(app, ctx);
  registerFaultSimulation(app, ctx);
  registerRequestSimulation(app, ctx);
}
