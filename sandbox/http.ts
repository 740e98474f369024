// The HTTP layer every route shares: JSON bodies (raw text kept, depth bounded), X-API-KEY auth, fault
// injection, and the contract's error body `{ "error": { "code", "message" } }` for every failure, Fastify's
// own (bad percent-encoding, bad JSON, body too large, malformed requests) included.

import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxContext } from './context';
import { DeviationSet } from './deviations';
import { ApiError, validation } from './errors';
import { faultResponse } from './faults';
import { jsonDepthExceeds } from './validate';

/** Request bodies nest at most this deep; the contract's bodies need 3 levels. */
export const MAX_BODY_DEPTH = 64;

/** Fastify's own errors in the contract's words. */
function apiErrorOf(err: FastifyError | ApiError): ApiError | null {
  if (err instanceof ApiError) return err;
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return validation('Content-Type', 'Content-Type must be application/json');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return validation('body', 'The body is too large');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return validation('body', 'The body is not valid JSON');
    case 'FST_ERR_BAD_URL':
      return validation('url', 'The URL is not valid: a percent-encoded sequence does not decode');
    default:
      if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
        return validation('request', err.message);
      }
      return null;
  }
}

/** Reason phrases of the plain-text errors of the `plain-errors` deviation. */
const PLAIN_REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
};

/**
 * An error answer in the contract's body and status, or as the deviation switches write it (`plain-errors`,
 * `error-type`, `flat-errors`, `other-statuses`).
 */
const sendError = (
  reply: FastifyReply,
  api: ApiError,
  deviations: DeviationSet = new DeviationSet(),
): FastifyReply => {
  const status = deviations.errorStatus(api);
  if (deviations.errorStyle() === 'plain') {
    return reply
      .code(status)
      .type('text/plain; charset=utf-8')
      .send(`${status} ${PLAIN_REASONS[status] ?? 'Error'}`);
  }
  return reply.code(status).send(deviations.errorBody(api));
};

/** Fastify's `frameworkErrors` option: errors raised before routing (bad percent-encoding in the path). */
export function frameworkError(err: FastifyError, _req: FastifyRequest, reply: FastifyReply): void {
  sendError(reply, apiErrorOf(err) ?? new ApiError(500, 'INTERNAL', 'Internal error'));
}

/** Fastify's `clientErrorHandler` option: requests so malformed that no route sees them. */
export function clientError(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? 431 : 400;
  const body = JSON.stringify({
    error: {
      code: 'VALIDATION_ERROR',
      message: tooLarge ? 'The request headers are too large' : 'The request is not valid HTTP',
      field: tooLarge ? 'headers' : 'request',
    },
  });
  socket.end(
    `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Connection: close\r\n\r\n${body}`,
  );
}

export function installHttp(app: FastifyInstance, ctx: SandboxContext): void {
  // JSON only; the raw text is kept on the request.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body as string;
    req.rawBody = text;
    if (text.length === 0) {
      done(null, undefined);
      return;
    }
    if (jsonDepthExceeds(text, MAX_BODY_DEPTH)) {
      done(validation('body', `The body nests deeper than ${MAX_BODY_DEPTH} levels`), undefined);
      return;
    }
    try {
      done(null, JSON.parse(text));
    } catch {
      done(validation('body', 'The body is not valid JSON'), undefined);
    }
  });

  app.addHook('onRequest', async (req, reply) => {
    // The service's clock in every answer, so a client reading the Date header sees the sandbox clock.
    const date = ctx.deviations.dateHeader(ctx.state.now());
    if (date === null) reply.raw.sendDate = false;
    else reply.header('date', date);
    const config = req.routeOptions.config;
    if (config.auth) {
      const key = req.headers['x-api-key'];
      const tenant = typeof key === 'string' ? ctx.state.tenantsByKey.get(key) : undefined;
      if (!tenant) throw new ApiError(401, 'INVALID_API_KEY', 'Missing or unknown X-API-KEY');
      req.tenant = tenant;
    }
    if (config.connect) {
      const path = req.url.split('?')[0] as string;
      const tenantId = config.keyless ? null : (req.tenant?.id ?? null);
      if (tenantId !== null) ctx.requests.count(tenantId, req.method, req.routeOptions.url ?? '', path);
      const fault = ctx.faults.take(tenantId, req.method, req.routeOptions.url ?? '', path);
      if (fault) {
        if (fault.kind === 'slow') {
          req.faultDelayMs = fault.delayMs;
          return;
        }
        const r = faultResponse(fault, {
          url: req.url,
          host: req.headers.host ?? req.hostname,
          protocol: req.protocol === 'https' ? 'https' : 'http',
        });
        reply.code(r.status).headers(r.headers).type(r.type).send(r.body);
        return reply;
      }
    }
  });

  // A request body in the dialect's names is read in the contract's (`snake-case`).
  app.addHook('preValidation', async (req) => {
    if (req.routeOptions.config.connect && req.body !== undefined)
      req.body = ctx.deviations.requestBody(req.body);
  });

  app.addHook('preHandler', async (req) => {
    if (req.faultDelayMs > 0 && !req.routeOptions.config.delayInHandler)
      await ctx.sleeper.sleep(req.faultDelayMs);
  });

  app.setErrorHandler((err: FastifyError | ApiError, req, reply) => {
    const api = apiErrorOf(err);
    if (api) return sendError(reply, api, ctx.deviations);
    req.log.error({ err }, 'unexpected error');
    return sendError(reply, new ApiError(500, 'INTERNAL', 'Internal error'), ctx.deviations);
  });

  app.setNotFoundHandler((req, reply) => {
    const notFound = new ApiError(404, 'NOT_FOUND', `No route ${req.method} ${req.url.split('?')[0]}`);
    sendError(reply, notFound, ctx.deviations);
  });
}
