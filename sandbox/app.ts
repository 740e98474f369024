// Builds the sandbox's Fastify app: the state and its seed, the delivery queue, the HTTP layer (http.ts),
// the Connect routes and the simulation API, redacted logging, and a clean shutdown.

import Fastify, { type FastifyInstance } from 'fastify';
import { SandboxContext, Sleeper } from './context';
import { DeliveryQueue, type DeliveryLogEntry, type DeliveryOptions } from './delivery';
import { type Deviation, DeviationSet } from './deviations';
import { FaultRegistry } from './faults';
import { clientError, frameworkError, installHttp } from './http';
import { IdempotencyStore } from './idempotency';
import { CONNECT_ROUTES, registerConnectRoutes } from './connect';
import { registerSimulationRoutes } from './simulation';
import { seed as seedState } from './seed';
import { seedAgency } from './seed-agency';
import { SandboxState } from './state';
import { registerWorkbenchRoutes } from './workbench';

export interface SandboxOptions {
  /** Seed data for the seed tenants (default true). With false the seed tenants exist but hold nothing. */
  seed?: boolean;
  /** Submissions of one extra load event, spread over the last 24 h (default 0: no load event). */
  scale?: number;
  /** Events of the agency organizer (`sandbox/seed-agency.ts`); 0 (default): no agency organizer. */
  agency?: number;
  /** The sandbox clock (epoch ms). Seed timestamps are relative to its value at build time. */
  now?: () => number;
  /** pino request logging (default false). X-API-KEY and signature headers are redacted. */
  logger?: boolean;
  /** Where log lines go when logger is on (default stdout). */
  logStream?: { write(line: string): void };
  delivery?: DeliveryOptions;
  /** Base of Event.url (default https://front.example). */
  frontUrl?: string;
  /** How long an Idempotency-Key is remembered (default 24 h; never less). */
  idempotencyTtlMs?: number;
  /** Sandbox clock: how long a rotated-out secret still signs beside the new one (default 24 h). */
  rotationOverlapMs?: number;
  /** Deviation switches (`deviations.ts`, default none): answers that depart from the contract on purpose. */
  deviations?: readonly Deviation[];
  /**
   * The most records a page holds with `cursor-paging` or `link-paging` (default `CURSOR_PAGE`): a small one
   * plays a service whose lists run over many pages.
   */
  pageRecords?: number;
}

export const REDACTED_HEADERS = [
  'req.headers["x-api-key"]',
  'req.headers["x-connect-signature"]',
  'req.headers.authorization',
  'req.headers.cookie',
];

const DAY_MS = 24 * 60 * 60 * 1000;

function deliveryLogLine(entry: DeliveryLogEntry): Record<string, unknown> {
  return {
    delivery: {
      id: entry.deliveryId,
      subscriptionId: entry.subscriptionId,
      type: entry.type,
      attempt: entry.attempt,
      state: entry.state,
      statusCode: entry.statusCode,
      error: entry.error,
      givenUp: entry.givenUp,
    },
  };
}

export function buildSandbox(options: SandboxOptions = {}): FastifyInstance {
  const now = options.now ?? Date.now;
  const delivery = new DeliveryQueue(options.delivery);
  const state = new SandboxState({
    now,
    frontUrl: options.frontUrl ?? 'https://front.example',
    emit: (tenant, kind, eventId, data) => delivery.emit(tenant, kind, eventId, data),
  });
  delivery.state = state;
  seedState(state, {
    now: now(),
    data: options.seed !== false,
    scale: Math.max(0, Math.floor(options.scale ?? 0)),
  });
  const agency = Math.max(0, Math.floor(options.agency ?? 0));
  if (agency > 0) seedAgency(state, now(), agency);

  const ctx = new SandboxContext(
    state,
    delivery,
    new FaultRegistry(CONNECT_ROUTES),
    new IdempotencyStore(now, Math.max(DAY_MS, options.idempotencyTtlMs ?? 0)),
    new Sleeper(),
    Math.max(0, options.rotationOverlapMs ?? DAY_MS),
    new DeviationSet(options.deviations, options.pageRecords),
  );
  if (ctx.deviations.has('shuffle')) state.shuffle = true;
  delivery.deviations = ctx.deviations;

  const app = Fastify({
    logger: options.logger
      ? {
          level: 'info',
          redact: { paths: REDACTED_HEADERS, censor: '[redacted]' },
          serializers: {
            req: (req) => ({ method: req.method, url: req.url, headers: req.headers, remoteAddress: req.ip }),
          },
          ...(options.logStream ? { stream: options.logStream } : {}),
        }
      : false,
    bodyLimit: 1024 * 1024,
    forceCloseConnections: true,
    keepAliveTimeout: 60_000,
    frameworkErrors: frameworkError,
    clientErrorHandler: clientError,
  });
  app.decorate('sandbox', ctx);
  app.decorateRequest('tenant', null);
  app.decorateRequest('rawBody', null);
  app.decorateRequest('faultDelayMs', 0);

  if (options.logger) {
    delivery.onAttemptDone = (entry) =>
      app.log.info(
        deliveryLogLine(entry),
        entry.givenUp ? 'webhook delivery given up' : 'webhook delivery attempt',
      );
  }
  delivery.onGone = (tenant, hook) =>
    app.log.info({ tenant: tenant.id, hook: hook.id }, 'subscription ended by 410');

  installHttp(app, ctx);
  registerConnectRoutes(app, ctx);
  registerSimulationRoutes(app, ctx);
  registerWorkbenchRoutes(app, ctx);

  const stop = async (): Promise<void> => {
    ctx.sleeper.wakeAll();
    delivery.close();
  };
  app.addHook('preClose', stop);
  app.addHook('onClose', stop);
  return app;
}

/** The sandbox internals behind an app built by buildSandbox (state, delivery queue, faults). */
export function sandboxContext(app: FastifyInstance): SandboxContext {
  return (app as unknown as { sandbox: SandboxContext }).sandbox;
}
