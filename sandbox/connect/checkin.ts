// Check-in (qrScan entitlement), with the Idempotency-Key semantics of docs/connect-contract.md §4.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context';
import { ApiError, entitlementRequired, validation } from '../errors';
import { KEYED, tenantOf } from '../request';
import type { CheckInTarget, Tenant } from '../state';
import {
  canonicalJson,
  optionalTimestamp,
  parseIdempotencyKey,
  requireObject,
  requireString,
} from '../validate';
import { ROUTES } from './routes';

const JSON_TYPE = 'application/json; charset=utf-8';

/** A check-in body: `code`, or `eventId` + `submissionId`, never both, plus an optional `checkInTime`. */
export function parseCheckInBody(raw: unknown): { target: CheckInTarget; checkInMs: number | undefined } {
  const body = requireObject(raw);
  const present = (k: string): boolean => body[k] !== undefined && body[k] !== null;
  const hasCode = present('code');
  const hasPair = present('eventId') || present('submissionId');
  if (hasCode && hasPair) {
    throw validation('code', 'Send either code, or eventId and submissionId, not both');
  }
  if (!hasCode && !hasPair) throw validation('code', 'code, or eventId and submissionId, is required');
  const checkInMs = optionalTimestamp(body, 'checkInTime');
  if (hasCode) {
    const code = body.code;
    if (typeof code !== 'string') throw validation('code', 'code must be a string');
    if (code.trim() === '') throw validation('code', 'code must not be empty');
    if (code.length > 1000) throw validation('code', 'code must be at most 1000 characters');
    return { target: { code }, checkInMs };
  }
  return {
    target: {
      eventId: requireString(body, 'eventId', 200),
      submissionId: requireString(body, 'submissionId', 200),
    },
    checkInMs,
  };
}

/** The first request with a key: checks in, stores the outcome (404 and 422 too), releases the key on a crash. */
async function checkInOnce(
  ctx: SandboxContext,
  req: FastifyRequest,
  reply: FastifyReply,
  tenant: Tenant,
  key: string,
  parsed: ReturnType<typeof parseCheckInBody>,
): Promise<FastifyReply> {
  const apiKey = tenant.settings.apiKey;
  try {
    await ctx.sleeper.sleep(req.faultDelayMs);
    let statusCode = 200;
    let body: string;
    try {
      body = JSON.stringify(
        ctx.deviations.answer(ctx.state.checkIn(tenant, parsed.target, parsed.checkInMs)),
      );
    } catch (err) {
      if (!(err instanceof ApiError) || err.statusCode >= 500) throw err;
      statusCode = ctx.deviations.errorStatus(err);
      body = JSON.stringify(ctx.deviations.errorBody(err));
    }
    ctx.idempotency.complete(apiKey, key, { statusCode, body });
    return reply.code(statusCode).type(JSON_TYPE).send(body);
  } catch (err) {
    ctx.idempotency.abandon(apiKey, key);
    throw err;
  }
}

export function registerCheckInRoute(app: FastifyInstance, ctx: SandboxContext): void {
  app.post(ROUTES.checkIn.pattern, { config: { ...KEYED, delayInHandler: true } }, async (req, reply) => {
    const tenant = tenantOf(req);
    if (!tenant.settings.entitlements.qrScan) throw entitlementRequired('qrScan');
    const key = parseIdempotencyKey(req.headers['idempotency-key']);
    const parsed = parseCheckInBody(req.body);
    if (key === undefined) {
      await ctx.sleeper.sleep(req.faultDelayMs);
      return ctx.deviations.answer(ctx.state.checkIn(tenant, parsed.target, parsed.checkInMs));
    }
    const found = ctx.idempotency.begin(tenant.settings.apiKey, key, canonicalJson(req.body));
    switch (found.kind) {
      case 'reused':
        throw new ApiError(
          422,
          'IDEMPOTENCY_KEY_REUSED',
          'This Idempotency-Key was used with a different body',
        );
      case 'in_flight':
        throw new ApiError(
          409,
          'IDEMPOTENCY_KEY_IN_USE',
          'A request with this Idempotency-Key is in progress',
        );
      case 'replay':
        return reply
          .code(found.response.statusCode)
          .header('Idempotent-Replayed', 'true')
          .type(JSON_TYPE)
          .send(found.response.body);
      default:
        return checkInOnce(ctx, req, reply, tenant, key, parsed);
    }
  });
}
