// Builds the sandbox's Fastify app: JSON parsing with the raw body kept, X-API-KEY auth, fault injection,
// the contract's error body for every failure, redacted logging, and a clean shutdown.

import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { SandboxContext, Sleeper } from './context';
import { DeliveryQueue, type DeliveryLogEntry, type DeliveryOptions } from './delivery';
import { ApiError, validation } from './errors';
import { FaultRegistry, type Fault } from './faults';
import { IdempotencyStore } from './idempotency';
import { CONNECT_ROUTES, registerConnectRoutes } from './routes-connect';
import { registerSandboxRoutes } from './routes-sandbox';
import { seed as seedState } from './seed';
import { SandboxState } from './state';
import { registerWorkbenchRoutes } from './workbench';

export interface SandboxOptions {
  /** Seed data for the seed tenants (default true). With false the seed tenants exist but hold nothing. */
  seed?: boolean;
  /** Submissions of one extra load event, spread over the last 24 h (default 0: no load event). */
  scale?: number;
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
}

export const REDACTED_HEADERS = [
  'req.headers["x-api-key"]',
  'req.headers["x-connect-signature"]',
  'req.headers.authorization',
  'req.headers.cookie',
];

const CONTENT_TYPE = 'application/json; charset=utf-8';

function faultResponse(f: Fault): {
  status: number;
  type: string;
  body: string;
  headers: Record<string, string>;
} {
  switch (f.kind) {
    case '429':
      return {
        status: 429,
        type: CONTENT_TYPE,
        headers: { 'Retry-After': String(f.retryAfter) },
        body: JSON.stringify({
          error: { code: 'RATE_LIMITED', message: 'Too many requests', retryAfter: f.retryAfter },
        }),
      };
    case '500':
      return {
        status: f.status,
        type: CONTENT_TYPE,
        headers: {},
        body: JSON.stringify({ error: { code: 'INTERNAL', message: 'Internal error (injected)' } }),
      };
    default:
      return {
        status: f.status,
        type: 'text/html; charset=utf-8',
        headers: {},
        body: `<html><head><title>${f.status} Internal Server Error</title></head><body><h1>${f.status} Internal Server Error</h1></body></html>`,
      };
  }
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

  const ctx = new SandboxContext(
    state,
    delivery,
    new FaultRegistry(CONNECT_ROUTES),
    new IdempotencyStore(now, Math.max(24 * 60 * 60 * 1000, options.idempotencyTtlMs ?? 0)),
    new Sleeper(),
  );

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
  });
  app.decorate('sandbox', ctx);
  app.decorateRequest('tenant', null);
  app.decorateRequest('rawBody', null);
  app.decorateRequest('faultDelayMs', 0);

  if (options.logger) {
    delivery.onAttemptDone = (entry: DeliveryLogEntry) => {
      app.log.info(
        {
          delivery: {
            id: entry.deliveryId,
            subscriptionId: entry.subscriptionId,
            type: entry.type,
            attempt: entry.attempt,
            state: entry.state,
            statusCode: entry.statusCode,
            error: entry.error,
          },
        },
        'webhook delivery attempt',
      );
    };
  }
  delivery.onGone = (tenant, hook) =>
    app.log.info({ tenant: tenant.id, hook: hook.id }, 'subscription ended by 410');

  // JSON only; the raw text is kept on the request.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body as string;
    req.rawBody = text;
    if (text.length === 0) {
      done(null, undefined);
      return;
    }
    try {
      done(null, JSON.parse(text));
    } catch {
      done(validation('body', 'The body is not valid JSON'), undefined);
    }
  });

  app.addHook('onRequest', async (req, reply) => {
    const config = req.routeOptions.config;
    if (config.auth) {
      const key = req.headers['x-api-key'];
      const tenant = typeof key === 'string' ? state.tenantsByKey.get(key) : undefined;
      if (!tenant) throw new ApiError(401, 'INVALID_API_KEY', 'Missing or unknown X-API-KEY');
      req.tenant = tenant;
    }
    if (config.connect) {
      const path = req.url.split('?')[0] as string;
      const tenantId = config.keyless ? null : (req.tenant?.id ?? null);
      const fault = ctx.faults.take(tenantId, req.method, req.routeOptions.url ?? '', path);
      if (fault) {
        if (fault.kind === 'slow') {
          req.faultDelayMs = fault.delayMs;
          return;
        }
        const r = faultResponse(fault);
        reply.code(r.status).headers(r.headers).type(r.type).send(r.body);
        return reply;
      }
    }
  });

  app.addHook('preHandler', async (req) => {
    if (req.faultDelayMs > 0 && !req.routeOptions.config.delayInHandler)
      await ctx.sleeper.sleep(req.faultDelayMs);
  });

  app.setErrorHandler((err: FastifyError | ApiError, req, reply) => {
    if (err instanceof ApiError) return reply.code(err.statusCode).send(err.toBody());
    const e = err as FastifyError;
    let api: ApiError;
    switch (e.code) {
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        api = validation('Content-Type', 'Content-Type must be application/json');
        break;
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        api = validation('body', 'The body is too large');
        break;
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
        api = validation('body', 'The body is not valid JSON');
        break;
      default:
        if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
          api = validation('request', e.message);
        } else {
          req.log.error({ err }, 'unexpected error');
          api = new ApiError(500, 'INTERNAL', 'Internal error');
        }
    }
    return reply.code(api.statusCode).send(api.toBody());
  });

  app.setNotFoundHandler((req, reply) => {
    reply
      .code(404)
      .send({ error: { code: 'NOT_FOUND', message: `No route ${req.method} ${req.url.split('?')[0]}` } });
  });

  registerConnectRoutes(app, ctx);
  registerSandboxRoutes(app, ctx);
  registerWorkbenchRoutes(app, ctx);

  app.addHook('preClose', async () => {
    ctx.sleeper.wakeAll();
    delivery.close();
  });
  app.addHook('onClose', async () => {
    ctx.sleeper.wakeAll();
    delivery.close();
  });
  return app;
}

/** The sandbox internals behind an app built by buildSandbox (state, delivery queue, faults). */
export function sandboxContext(app: FastifyInstance): SandboxContext {
  return (app as unknown as { sandbox: SandboxContext }).sandbox;
}
