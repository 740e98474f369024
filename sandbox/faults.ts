// Fault injection: the next N responses of one Connect route go wrong in a chosen way. Faults on keyed
// routes belong to the tenant that set them; faults on keyless routes (catalog, widgets) are global.

import { validation } from './errors';

export const FAULT_KINDS = ['429', '500', 'slow', 'non-json'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface RouteSpec {
  method: string;
  pattern: string;
  keyless: boolean;
}

export interface Fault {
  route: string;
  method: string;
  pattern: string;
  /** A concrete path (e.g. /widgets/event/techweek) when the fault was set for one; else any path. */
  path: string | null;
  kind: FaultKind;
  remaining: number;
  retryAfter: number;
  delayMs: number;
  status: number;
}

function patternRegex(pattern: string): RegExp {
  const escaped = pattern
    .split('/')
    .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${escaped}$`);
}

export class FaultRegistry {
  private readonly byTenant = new Map<string, Fault[]>();
  private global: Fault[] = [];
  private readonly routes: { spec: RouteSpec; re: RegExp }[];

  constructor(routes: RouteSpec[]) {
    this.routes = routes.map((spec) => ({ spec, re: patternRegex(spec.pattern) }));
  }

  /** Resolves "METHOD /path" (a route pattern or a concrete path) to a Connect route. */
  resolve(route: string): { spec: RouteSpec; path: string | null } {
    const m = /^\s*([A-Za-z]+)\s+(\/\S*)\s*$/.exec(route);
    if (!m) throw validation('route', 'route must look like "GET /api/v1/integrations/zapier/submissions"');
    const method = (m[1] as string).toUpperCase();
    const path = (m[2] as string).split('?')[0] as string;
    for (const { spec, re } of this.routes) {
      if (spec.method !== method) continue;
      if (spec.pattern === path) return { spec, path: null };
      if (re.test(path)) return { spec, path };
    }
    throw validation('route', `route ${method} ${path} is not a Connect route`);
  }

  add(tenantId: string, fault: Fault, keyless: boolean): void {
    if (keyless) {
      this.global.push(fault);
      return;
    }
    const list = this.byTenant.get(tenantId) ?? [];
    list.push(fault);
    this.byTenant.set(tenantId, list);
  }

  /** Consumes one use of the first fault matching this request, if any. */
  take(tenantId: string | null, method: string, pattern: string, path: string): Fault | undefined {
    const list = tenantId === null ? this.global : this.byTenant.get(tenantId);
    if (!list || list.length === 0) return undefined;
    const i = list.findIndex(
      (f) => f.method === method && f.pattern === pattern && (f.path === null || f.path === path),
    );
    if (i < 0) return undefined;
    const f = list[i] as Fault;
    f.remaining--;
    if (f.remaining <= 0) list.splice(i, 1);
    return f;
  }

  list(tenantId: string): Fault[] {
    return [...(this.byTenant.get(tenantId) ?? []), ...this.global];
  }

  /** Clears the tenant's faults and the global ones. */
  clear(tenantId: string): void {
    this.byTenant.delete(tenantId);
    this.global = [];
  }
}
