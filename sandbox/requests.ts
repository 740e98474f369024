// How many keyed Connect requests each tenant made, per route and per concrete path, so that a test or a
// script can check how often a client called the service (e.g. how many times it read a subscription's
// current secret). Counted as received, after the key is accepted: an answer made by a fault counts too.

/** Distinct concrete paths counted one by one per tenant; route totals are always exact. */
export const MAX_COUNTED_PATHS = 10_000;

export class RequestCounter {
  private readonly byRoute = new Map<string, Map<string, number>>();
  private readonly byPath = new Map<string, Map<string, number>>();

  /** One request of `tenantId` to `method pattern` (the route) at `path` (without the query). */
  count(tenantId: string, method: string, pattern: string, path: string): void {
    const routes = this.mapOf(this.byRoute, tenantId);
    const route = `${method} ${pattern}`;
    routes.set(route, (routes.get(route) ?? 0) + 1);
    const paths = this.mapOf(this.byPath, tenantId);
    const at = `${method} ${path}`;
    const seen = paths.get(at);
    if (seen !== undefined) paths.set(at, seen + 1);
    else if (paths.size < MAX_COUNTED_PATHS) paths.set(at, 1);
  }

  /** Requests to a route (every path of its pattern). */
  ofRoute(tenantId: string, method: string, pattern: string): number {
    return this.byRoute.get(tenantId)?.get(`${method} ${pattern}`) ?? 0;
  }

  /** Requests to one concrete path; undefined when it was not counted (more than MAX_COUNTED_PATHS paths). */
  ofPath(tenantId: string, method: string, path: string): number | undefined {
    const paths = this.byPath.get(tenantId);
    const count = paths?.get(`${method} ${path}`);
    if (count !== undefined) return count;
    return (paths?.size ?? 0) >= MAX_COUNTED_PATHS ? undefined : 0;
  }

  /** Every route the tenant called, with its count, most called first. */
  routes(tenantId: string): { route: string; count: number }[] {
    return [...(this.byRoute.get(tenantId) ?? new Map<string, number>())]
      .map(([route, count]) => ({ route, count }))
      .sort((a, b) => b.count - a.count || a.route.localeCompare(b.route));
  }

  private mapOf(maps: Map<string, Map<string, number>>, tenantId: string): Map<string, number> {
    let map = maps.get(tenantId);
    if (!map) {
      map = new Map();
      maps.set(tenantId, map);
    }
    return map;
  }
}
