// The nine endpoints of the interface document plus the hook subscription endpoints of
// docs/connect-contract.md §5, one module per resource.

import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context';
import { registerCheckInRoute } from './checkin';
import { registerEventRoutes } from './events';
import { registerFloorPlanRoutes } from './floor-plans';
import { registerHookRoutes } from './hooks';
import { registerOrderRoutes } from './orders';
import { registerSubmissionRoutes } from './submissions';

export { CONNECT_ROUTES, ROUTES } from './routes';

export function registerConnectRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  registerFloorPlanRoutes(app, ctx);
  registerEventRoutes(app, ctx);
  registerSubmissionRoutes(app, ctx);
  registerOrderRoutes(app, ctx);
  registerCheckInRoute(app, ctx);
  registerHookRoutes(app, ctx);
}
