// Fault injection: the next N responses of one Connect route go wrong in a chosen way. Faults on keyed
// routes belong to the tenant that set them; faults on keyless routes (catalog, widgets) are global.

import { validation } from './errors';

export const FAULT_KINDS = ['429', '500', 'slow', 'non-json', 'redirect'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** Statuses of the redirect fault (the real API never redirects: docs/connect-contract.md §1). */
export const REDIRECT_STATUSES = [301, 302, 303, 307, 308] as const;
/**
 * Where a redirect fault points: the request's own path and query on the same origin (`same-origin`), on
 * another origin that reaches the same sandbox (`other-origin`: localhost ↔ 127.0.0.1), on plain http
 * (`http`, a downgrade when the sandbox is reached through https), or any absolute http(s) URL or path.
 */
export const REDIRECT_LOCATIONS = ['same-origin', 'other-origin', 'http'] as const;

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
  /** Redirect faults: a REDIRECT_LOCATIONS keyword, an absolute http(s) URL or a path. */
  location: string;
}

/** The request a fault answers, as far as a response needs it. */
export interface FaultRequest {
  /** Path and query, as received. */
  url: string;
  /** The Host header (e.g. 127.0.0.1:4010). */
  host: string;
  /** https when the request came through TLS or a proxy saying so. */
  protocol: 'http' | 'https';
}

export interface FaultResponse {
  status: number;
  type: string;
  body: string;
  headers: Record<string, string>;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const HTML_TYPE = 'text/html; charset=utf-8';

/** Reads the `location` of a redirect fault: a keyword, an absolute http(s) URL or an absolute path. */
export function readRedirectLocation(raw: string | undefined): string {
  if (raw === undefined || raw === '') return 'other-origin';
  if ((REDIRECT_LOCATIONS as readonly string[]).includes(raw)) return raw;
  if (raw.startsWith('/') && !raw.startsWith('//')) return raw;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw validation(
      'location',
      `location must be ${REDIRECT_LOCATIONS.join(', ')}, an absolute http(s) URL or a path starting with /`,
    );
  }
  return url.href;
}

function otherHost(host: string): string {
  const m = /^(localhost|127\.0\.0\.1)(:\d+)?$/i.exec(host);
  if (!m) return `redirect-target.invalid${host.includes(':') ? host.slice(host.lastIndexOf(':')) : ''}`;
  return `${m[1]?.toLowerCase() === 'localhost' ? '127.0.0.1' : 'localhost'}${m[2] ?? ''}`;
}

/** Where a redirect fault sends this request. */
function redirectTarget(location: string, req: FaultRequest): string {
  switch (location) {
    case 'same-origin':
      return `${req.protocol}://${req.host}${req.url}`;
    case 'other-origin':
      return `${req.protocol}://${otherHost(req.host)}${req.url}`;
    case 'http':
      return `http://${req.host}${req.url}`;
    default:
      return location.startsWith('/') ? `${req.protocol}://${req.host}${location}` : location;
  }
}

/** The response of a fault that answers instead of the route (every kind but slow). */
export function faultResponse(f: Fault, req: FaultRequest): FaultResponse {
  switch (f.kind) {
    case '429':
      return {
        status: 429,
        type: JSON_TYPE,
        headers: { 'Retry-After': String(f.retryAfter) },
        body: JSON.stringify({
          error: { code: 'RATE_LIMITED', message: 'Too many requests', retryAfter: f.retryAfter },
        }),
      };
    case '500':
      return {
        status: f.status,
        type: JSON_TYPE,
        headers: {},
        body: JSON.stringify({ error: { code: 'INTERNAL', message: 'Internal error (injected)' } }),
      };
    case 'redirect': {
      const location = redirectTarget(f.location, req);
      return {
        status: f.status,
        type: HTML_TYPE,
        headers: { Location: location },
        body: `<html><body>Moved to <a href="${location.replace(/[&<>"]/g, '')}">another place</a></body></html>`,
      };
    }
    default:
      return {
        status: f.status,
        type: HTML_TYPE,
        headers: {},
        body: `<html><head><title>${f.status} Internal Server Error</title></head><body><h1>${f.status} Internal Server Error</h1></body></html>`,
      };
  }
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
