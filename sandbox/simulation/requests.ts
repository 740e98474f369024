// How many keyed Connect requests the tenant made (sandbox/requests.ts): per route, or for one route or
// one concrete path, named like a fault's route.

import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context';
import { ApiError, validation } from '../errors';
import { query, SIMULATION, tenantOf } from '../request';
import { MAX_COUNTED_PATHS } from '../requests';

export function registerRequestSimulation(app: FastifyInstance, ctx: SandboxContext): void {
  app.get('/_sandbox/requests', { config: SIMULATION }, async (req) => {
    const tenant = tenantOf(req);
    const raw = query(req).route;
    if (raw === undefined) return { data: ctx.requests.routes(tenant.id) };
    if (typeof raw !== 'string') throw validation('route', 'route must be given once');
    const { spec, path } = ctx.faults.resolve(raw);
    if (spec.keyless)
      throw validation('route', `${spec.method} ${spec.pattern} takes no key: it is not counted`);
    if (path === null) {
      return {
        route: `${spec.method} ${spec.pattern}`,
        count: ctx.requests.ofRoute(tenant.id, spec.method, spec.pattern),
      };
    }
    const count = ctx.requests.ofPath(tenant.id, spec.method, path);
    if (count === undefined) {
      throw new ApiError(
        409,
        'CONFLICT',
        `More than ${MAX_COUNTED_PATHS} distinct paths were called, so ${path} was not counted on its own: ask for the route ${spec.pattern}`,
      );
    }
    return { route: `${spec.method} ${path}`, count };
  });
}
