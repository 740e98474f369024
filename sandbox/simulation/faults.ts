// Fault injection (faults.ts) and sandbox-wide settings (list shuffling).

import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context';
import { validation } from '../errors';
import { FAULT_KINDS, readRedirectLocation, REDIRECT_STATUSES, type Fault, type FaultKind } from '../faults';
import { SIMULATION, tenantOf } from '../request';
import {
  optionalBoolean,
  optionalEnum,
  optionalInteger,
  optionalString,
  requireObject,
  requireString,
  type Body,
} from '../validate';

const faultJson = (f: Fault): Record<string, unknown> => ({
  route: f.route,
  kind: f.kind,
  remaining: f.remaining,
  retryAfter: f.kind === '429' ? f.retryAfter : undefined,
  delayMs: f.kind === 'slow' ? f.delayMs : undefined,
  status: f.kind === '500' || f.kind === 'non-json' || f.kind === 'redirect' ? f.status : undefined,
  location: f.kind === 'redirect' ? f.location : undefined,
});

/** `status`: 500–599 for 500 and non-json, one of REDIRECT_STATUSES for redirect (default 302). */
function readStatus(body: Body, kind: FaultKind): number {
  if (kind !== 'redirect') return optionalInteger(body, 'status', 500, 599) ?? 500;
  const status = optionalInteger(body, 'status', 300, 399) ?? 302;
  if (!(REDIRECT_STATUSES as readonly number[]).includes(status)) {
    throw validation('status', `status of a redirect must be one of ${REDIRECT_STATUSES.join(', ')}`);
  }
  return status;
}

export function registerFaultSimulation(app: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

  app.post('/_sandbox/faults', { config: SIMULATION }, async (req, reply) => {
    const tenant = tenantOf(req);
    const body = requireObject(req.body);
    const { spec, path } = ctx.faults.resolve(requireString(body, 'route', 300));
    const kind = optionalEnum<FaultKind>(body, 'kind', FAULT_KINDS);
    if (kind === undefined) throw validation('kind', `kind is required: ${FAULT_KINDS.join(', ')}`);
    const fault: Fault = {
      route: `${spec.method} ${path ?? spec.pattern}`,
      method: spec.method,
      pattern: spec.pattern,
      path,
      kind,
      remaining: optionalInteger(body, 'count', 1, 1_000_000) ?? 1,
      retryAfter: optionalInteger(body, 'retryAfter', 0, 86_400) ?? 1,
      delayMs: optionalInteger(body, 'delayMs', 0, 120_000) ?? 2_000,
      status: readStatus(body, kind),
      location: kind === 'redirect' ? readRedirectLocation(optionalString(body, 'location', 2048)) : '',
    };
    ctx.faults.add(tenant.id, fault, spec.keyless);
    return reply.code(201).send({ ...faultJson(fault), scope: spec.keyless ? 'global' : 'tenant' });
  });

  app.get('/_sandbox/faults', { config: SIMULATION }, async (req) => ({
    data: ctx.faults.list(tenantOf(req).id).map(faultJson),
  }));

  app.delete('/_sandbox/faults', { config: SIMULATION }, async (req, reply) => {
    ctx.faults.clear(tenantOf(req).id);
    return reply.code(204).send();
  });

  app.get('/_sandbox/config', { config: SIMULATION }, async (req) => {
    tenantOf(req);
    return { shuffle: state.shuffle };
  });

  app.post('/_sandbox/config', { config: SIMULATION }, async (req) => {
    tenantOf(req);
    const shuffle = optionalBoolean(requireObject(req.body), 'shuffle');
    if (shuffle !== undefined) state.shuffle = shuffle;
    return { shuffle: state.shuffle };
  });
}
