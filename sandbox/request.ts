// What every route reads from a request: its tenant, path parameters and query; and the route configs.

import type { FastifyRequest } from 'fastify';
import { ApiError } from './errors';
import type { Tenant } from './state';
import type { Query } from './validate';
import type { DeviationSet } from './deviations';

/** A keyed Connect route: X-API-KEY, faults belong to the tenant. */
export const KEYED = { auth: true, connect: true } as const;
/** A keyless Connect route (catalog, widgets): its faults are global. */
export const KEYLESS = { connect: true, keyless: true } as const;
/** A simulation route: the tenant's X-API-KEY, no faults. */
export const SIMULATION = { auth: true } as const;

export function tenantOf(req: FastifyRequest): Tenant {
  if (!req.tenant) throw new ApiError(401, 'INVALID_API_KEY', 'Missing or unknown X-API-KEY');
  return req.tenant;
}

export const params = (req: FastifyRequest): Record<string, string | undefined> =>
  req.params as Record<string, string | undefined>;

/** The request's query, in the contract's names whatever the sandbox's dialect names them (`deviations.ts`). */
export const query = (req: FastifyRequest): Query => {
  const deviations = (req.server as unknown as { sandbox?: { deviations: DeviationSet } }).sandbox
    ?.deviations;
  return deviations ? deviations.query(req.query as Query) : (req.query as Query);
};

/** The address a request was sent to, as the client wrote it (for a `Link` to the next page). */
export const addressOf = (req: FastifyRequest): URL => new URL(`${req.protocol}://${req.host}${req.url}`);
