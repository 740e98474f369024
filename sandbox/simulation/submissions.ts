// Registrations as the forms and the dashboard make them: create (optionally late-visible or backdated),
// read, approve, reject, make one odd; and the door scan of the service's own scanner app.

import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context';
import { parseCheckInBody } from '../connect/checkin';
import { entitlementRequired, validation } from '../errors';
import { params, SIMULATION, tenantOf } from '../request';
import { iso } from '../state';
import type { Answer, AnswerValue, SubmissionRecord, SubmissionStatus } from '../types';
import {
  isEmail,
  optionalEnum,
  optionalString,
  optionalTimestamp,
  requireObject,
  requireString,
  type Body,
} from '../validate';
import { registerOddRoutes } from './odd';

/** The contract lets a submission appear up to two minutes after its createdAt; never later. */
export const MAX_VISIBILITY_LAG_MS = 2 * 60_000;

function readAnswer(a: unknown, i: number): Answer {
  const field = `answers[${i}]`;
  if (typeof a !== 'object' || a === null || Array.isArray(a)) {
    throw validation(field, `${field} must be an object`);
  }
  const o = a as Body;
  const key = requireString(o, 'key', 100);
  const label = optionalString(o, 'label', 300) ?? key;
  const v = o.value;
  const ok =
    v === null ||
    typeof v === 'string' ||
    typeof v === 'boolean' ||
    (typeof v === 'number' && Number.isFinite(v)) ||
    (Array.isArray(v) && v.every((x) => typeof x === 'string'));
  if (!ok) {
    throw validation(`${field}.value`, 'value must be a string, number, boolean, null or a list of strings');
  }
  return { key, label, value: v as AnswerValue };
}

function readAnswers(body: Body): Answer[] | undefined {
  const raw = body.answers;
  if (raw === undefined || raw === null) return undefined;
  if (!Array.isArray(raw) || raw.length > 100) {
    throw validation('answers', 'answers must be a list (at most 100)');
  }
  return raw.map(readAnswer);
}

export function registerSubmissionSimulation(app: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;
  const withVisibleAt = (s: SubmissionRecord) => ({
    ...state.submissionJson(s),
    visibleAt: iso(s.visibleMs),
  });

  app.post('/_sandbox/submissions', { config: SIMULATION }, async (req, reply) => {
    const tenant = tenantOf(req);
    const body = requireObject(req.body);
    const eventId = requireString(body, 'eventId', 200);
    const email = requireString(body, 'email', 320);
    if (!isEmail(email)) throw validation('email', 'email must be an email address');
    const firstName = requireString(body, 'firstName', 200);
    const lastName = requireString(body, 'lastName', 200);
    const answers = readAnswers(body);
    const ticketType = optionalString(body, 'ticketType', 100);
    const status = optionalEnum<SubmissionStatus>(body, 'status', ['pending', 'approved', 'rejected']);
    const created = optionalTimestamp(body, 'createdAt') ?? state.now();
    const visibleMs = optionalTimestamp(body, 'visibleAt');
    if (visibleMs !== undefined && (visibleMs < created || visibleMs - created > MAX_VISIBILITY_LAG_MS)) {
      throw validation('visibleAt', 'visibleAt must be between createdAt and two minutes after it');
    }
    state.event(tenant, eventId);
    const s = state.addSubmission(tenant, {
      eventId,
      email,
      firstName,
      lastName,
      answers,
      ticketType,
      status,
      createdMs: created,
      visibleMs,
      approvedMs: Math.max(created, state.now()),
    });
    return reply.code(201).send(withVisibleAt(s));
  });

  app.get('/_sandbox/submissions/:id', { config: SIMULATION }, async (req) =>
    withVisibleAt(state.submission(tenantOf(req), params(req).id ?? '')),
  );

  app.post('/_sandbox/submissions/:id/approve', { config: SIMULATION }, async (req) => {
    const tenant = tenantOf(req);
    return state.submissionJson(state.approve(tenant, state.submission(tenant, params(req).id ?? '')));
  });

  app.post('/_sandbox/submissions/:id/reject', { config: SIMULATION }, async (req) => {
    const tenant = tenantOf(req);
    return state.submissionJson(state.reject(tenant, state.submission(tenant, params(req).id ?? '')));
  });

  registerOddRoutes(app, {
    path: '/_sandbox/submissions/:id',
    resource: 'submission',
    find: (tenant, id) => state.submission(tenant, id),
    show: withVisibleAt,
  });

  // Door scan by the service's own scanner app: the check-in rules, no idempotency.
  app.post('/_sandbox/scan', { config: SIMULATION }, async (req) => {
    const tenant = tenantOf(req);
    if (!tenant.settings.entitlements.qrScan) throw entitlementRequired('qrScan');
    const { target, checkInMs } = parseCheckInBody(req.body);
    return state.checkIn(tenant, target, checkInMs);
  });
}
