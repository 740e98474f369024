// The nine endpoints of the interface document plus the hook subscription endpoints of
// docs/connect-contract.md §5, one module per resource.

import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context';
import type { RouteSpec } from '../faults';
import { registerCheckInRoute } from './checkin';
import { registerEventRoutes } from './events';
import { registerFloorPlanRoutes } from './floor-plans';
import { registerHookRoutes } from './hooks';
import { registerOrderRoutes } from './orders';
import { registerSubmissionRoutes } from './submissions';

/** Every Connect route, for fault injection (`POST /_sandbox/faults` names one of these). */
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
  { method: 'GET', pattern: '/api/v1/integrations/zapier/hooks/:id', keyless: false },
  { method: 'DELETE', pattern: '/api/v1/integrations/zapier/hooks/:id', keyless: false },
];

export function registerConnectRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  registerFloorPlanRoutes(app, ctx);
  registerEventRoutes(app, ctx);
  registerSubmissionRoutes(app, ctx);
  registerOrderRoutes(app, ctx);
  registerCheckInRoute(app, ctx);
  registerHookRoutes(app, ctx);
}
