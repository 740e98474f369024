// Every Connect route of the sandbox, once: the route modules register these patterns, and fault injection
// (`POST /_sandbox/faults`) names them.

import type { RouteSpec } from '../faults';

export const ROUTES = {
  floorPlans: { method: 'GET', pattern: '/connect/v1/events/:eventUuid/floor-plans', keyless: false },
  floorPlan: { method: 'GET', pattern: '/connect/v1/events/:eventUuid/floor-plans/:planId', keyless: false },
  events: { method: 'GET', pattern: '/api/v1/integrations/zapier/events', keyless: false },
  submissions: { method: 'GET', pattern: '/api/v1/integrations/zapier/submissions', keyless: false },
  orders: { method: 'GET', pattern: '/api/v1/integrations/zapier/orders', keyless: false },
  catalog: { method: 'GET', pattern: '/api/v1/public/events', keyless: true },
  eventWidget: { method: 'GET', pattern: '/widgets/event/:slug', keyless: true },
  agendaWidget: { method: 'GET', pattern: '/widgets/event/:slug/agenda', keyless: true },
  checkIn: { method: 'POST', pattern: '/api/v1/checkin', keyless: false },
  subscribe: { method: 'POST', pattern: '/api/v1/integrations/zapier/hooks', keyless: false },
  hook: { method: 'GET', pattern: '/api/v1/integrations/zapier/hooks/:id', keyless: false },
  unsubscribe: { method: 'DELETE', pattern: '/api/v1/integrations/zapier/hooks/:id', keyless: false },
} as const satisfies Record<string, RouteSpec>;

/** Every Connect route, for fault injection. */
export const CONNECT_ROUTES: RouteSpec[] = Object.values(ROUTES);
