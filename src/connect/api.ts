/**
 * One typed function per Connect endpoint. Operations call these and never build URLs themselves.
 * Lists come back newest first with one item per id (the contract guarantees neither): `newestFirst` is the
 * one place where records are sorted and de-duplicated, and every later step reads that order.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import type { ZodError, ZodType } from 'zod';
import { connectRequest, connectRequestFull, connectRequestOrNull } from './client';
import { paths } from './paths';
import {
  Agenda,
  CheckInResult,
  Event,
  EventWidget,
  FloorPlan,
  type HookKind,
  HookCreated,
  HookSubscription,
  LIST_LIMIT_MAX,
  Order,
  Submission,
  type SubmissionKey,
  SubmissionKeyList,
  type SubmissionPerson,
  SubmissionPersonList,
  listOf,
  pageOf,
} from './schemas';
import { type RetryHint, connectErrorCode, errorText, isNotFound } from './errors';

type B = Pick<Bundle, 'authData'>;

const EventList = listOf(Event);
const SubmissionList = listOf(Submission);
const OrderList = listOf(Order);
const FloorPlanList = listOf(FloorPlan);
const Catalog = pageOf(Event);

const clampLimit = (limit: number | undefined): number =>
  Math.min(LIST_LIMIT_MAX, Math.max(1, Math.floor(limit ?? LIST_LIMIT_MAX)));

/**
 * Newest first by `createdAt`, ties broken by a stable id (descending), so order is deterministic; an id
 * sent twice is kept once, at its newest. Each timestamp is parsed once (a day of registrations is tens of
 * thousands of items).
 */
export const newestFirst = <T extends { createdAt: string }>(items: T[], idOf: (item: T) => string): T[] => {
  const seen = new Set<string>();
  return items
    .map((item) => ({ item, ms: Date.parse(item.createdAt), id: idOf(item) }))
    .sort((a, b) => b.ms - a.ms || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    .filter(({ id }) => !seen.has(id) && Boolean(seen.add(id)))
    .map(({ item }) => item);
};

/** 3. The organizer's events, newest first. */
export const listEvents = async (
  z: ZObject,
  bundle: B,
  limit?: number,
  retry?: RetryHint,
): Promise<Event[]> => {
  const body = await connectRequest(z, bundle, {
    path: paths.events(),
    query: { limit: clampLimit(limit) },
    schema: EventList,
    what: 'the list of your events',
    retry,
  });
  return newestFirst(body.data, (event) => event.id);
};

export interface SubmissionPage<S = Submission> {
  submissions: S[];
  /** Bytes received, for transfer accounting. */
  bytes: number;
  /** The service's clock when it answered (its `Date` header, to the second), when it sent one. */
  serverTime: number | null;
}

const serverTimeOf = (headers: { get(name: string): string | null }): number | null => {
  const ms = Date.parse(headers.get('date') ?? '');
  return Number.isFinite(ms) ? ms : null;
};

const submissionsSince = async <S extends { submissionId: string; createdAt: string }>(
  z: ZObject,
  bundle: B,
  params: { eventId: string; since: string; timeoutMs?: number; maxBytes?: number },
  schema: ZodType<{ data: S[] }>,
): Promise<SubmissionPage<S>> => {
  const result = await connectRequestFull(z, bundle, {
    path: paths.submissions(),
    query: { eventId: params.eventId, since: params.since },
    schema,
    what: 'the registrations of this event',
    timeoutMs: params.timeoutMs,
    maxBytes: params.maxBytes,
    large: true,
  });
  return {
    submissions: newestFirst(result.data.data, (s) => s.submissionId),
    bytes: result.bytes,
    serverTime: serverTimeOf(result.headers),
  };
};

/**
 * 4. Submissions of one event whose `createdAt` is at or after `since`, newest first, one per id. `timeoutMs` lets a poll
 * give up inside Zapier's 30 s budget, so that the failure is seen (and remembered) by the caller.
 */
export const listSubmissions = (
  z: ZObject,
  bundle: B,
  params: { eventId: string; since: string; timeoutMs?: number },
): Promise<SubmissionPage> => submissionsSince(z, bundle, params, SubmissionList);

/** 4, keys only: the same list with only `SubmissionKey`'s fields kept (for a Zap being turned on). */
export const listSubmissionKeys = (
  z: ZObject,
  bundle: B,
  params: { eventId: string; since: string; timeoutMs?: number },
): Promise<SubmissionPage<SubmissionKey>> => submissionsSince(z, bundle, params, SubmissionKeyList);

/**
 * 4, people only: the same list with only `SubmissionPerson`'s fields kept (the attendee behind an order),
 * refused as `TOO_LARGE` beyond `maxBytes`.
 */
export const listSubmissionPeople = (
  z: ZObject,
  bundle: B,
  params: { eventId: string; since: string; timeoutMs?: number; maxBytes?: number },
): Promise<SubmissionPage<SubmissionPerson>> => submissionsSince(z, bundle, params, SubmissionPersonList);

/** 5. Orders of a company, newest first. */
export const listOrders = async (
  z: ZObject,
  bundle: B,
  params: { companyId: string; limit?: number; retry?: RetryHint },
): Promise<Order[]> => {
  let body;
  try {
    body = await connectRequest(z, bundle, {
      path: paths.orders(),
      query: { companyId: params.companyId, limit: clampLimit(params.limit) },
      schema: OrderList,
      what: `the orders of company ${params.companyId}`,
      retry: params.retry,
    });
  } catch (error) {
    if (!isNotFound(error)) throw error;
    throw new z.errors.Error(
      `The service knows no company "${params.companyId.slice(0, 80)}" for this API key, so its orders could not be read. Reconnect your account with the Company ID shown in the dashboard under Settings → Company (for example cmp_42).`,
      'UNKNOWN_COMPANY',
      404,
    );
  }
  return newestFirst(body.data, (order) => order.id);
};

/** 6. One page of the public catalog (no key). */
export const listPublicEvents = async (z: ZObject, bundle: B, params: { page: number; limit?: number }) =>
  connectRequest(z, bundle, {
    path: paths.publicEvents(),
    query: { page: Math.max(1, Math.floor(params.page)), limit: clampLimit(params.limit) },
    schema: Catalog,
    public: true,
    what: 'the public event catalog',
  });

/** 7. The event widget of a published event (no key); `null` when unknown or not published. */
export const getEventWidget = (z: ZObject, bundle: B, slug: string): Promise<EventWidget | null> =>
  connectRequestOrNull(z, bundle, {
    path: paths.eventWidget(slug),
    schema: EventWidget,
    public: true,
    what: `the event page "${slug}"`,
  });

/** 8. The agenda widget of a published event (no key); `null` when unknown or not published. */
export const getAgenda = (z: ZObject, bundle: B, slug: string): Promise<Agenda | null> =>
  connectRequestOrNull(z, bundle, {
    path: paths.agendaWidget(slug),
    schema: Agenda,
    public: true,
    what: `the agenda of "${slug}"`,
  });

/** 1. The event's published floor plans. */
export const listFloorPlans = async (z: ZObject, bundle: B, eventId: string): Promise<FloorPlan[]> =>
  (
    await connectRequest(z, bundle, {
      path: paths.floorPlans(eventId),
      schema: FloorPlanList,
      what: 'the floor plans of this event',
    })
  ).data;

/** 2. One published floor plan; `null` when unknown or not published. */
export const getFloorPlan = (z: ZObject, bundle: B, eventId: string, planId: string) =>
  connectRequestOrNull(z, bundle, {
    path: paths.floorPlan(eventId, planId),
    schema: FloorPlan,
    what: 'this floor plan',
  });

export type CheckInBody =
  | { code: string; checkInTime?: string }
  | { eventId: string; submissionId: string; checkInTime?: string };

/** What a check-in is about, in messages: `QR code "EVT1:…"` or `registration sub_…`. */
export const checkInSubject = (body: CheckInBody): string => {
  if ('code' in body) {
    const code = body.code.length > 48 ? `${body.code.slice(0, 48)}…` : body.code;
    return `QR code "${code}"`;
  }
  return `registration ${body.submissionId.slice(0, 80)}`;
};

/**
 * 9. Check-in, with an `Idempotency-Key` identifying this one scan: sending it again cannot check anyone in
 * twice, so a temporary failure is retried by Zapier (`retry: 'safe'`).
 */
export const checkIn = async (z: ZObject, bundle: B, body: CheckInBody, idempotencyKey: string) => {
  const result = await connectRequestFull(z, bundle, {
    method: 'POST',
    path: paths.checkIn(),
    body,
    headers: { 'Idempotency-Key': idempotencyKey },
    schema: CheckInResult,
    what: checkInSubject(body),
    retry: 'safe',
  });
  return { ...result.data, replayed: result.headers.get('idempotent-replayed') === 'true' };
};

/** Contract §5: unsubscribe; a hook that is already gone (404) counts as unsubscribed. */
export const unsubscribeHook = async (z: ZObject, bundle: B, hookId: string): Promise<void> => {
  try {
    await connectRequest(z, bundle, {
      method: 'DELETE',
      path: paths.hook(hookId),
      schema: null,
      what: 'the webhook subscription',
    });
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
};

/** What is wrong with a subscribe answer, in words (no value is quoted: one of them is a secret). */
const subscriptionProblem = (error: ZodError): string =>
  error.issues
    .slice(0, 3)
    .map((issue) => {
      const field = issue.path.map(String).join('.') || 'the answer';
      return field === 'secret'
        ? 'its secret is empty or not text'
        : `${field} is not valid (${issue.message})`;
    })
    .join('; ');

/**
 * Contract §5: subscribe a REST hook. `eventId` null means every event. An answer the app cannot use (an empty
 * secret, a date that is not one) would leave a subscription in the service that no Zap owns: it is removed
 * again before the error is thrown, so a failed turn-on leaves nothing behind. `check` lets the caller refuse
 * a valid answer the same way (no secret usable for this connection).
 */
export const subscribeHook = async (
  z: ZObject,
  bundle: B,
  params: { targetUrl: string; event: HookKind; eventId: string | null },
  check?: (hook: HookSubscription) => void,
): Promise<HookSubscription> => {
  let created;
  try {
    created = await connectRequest(z, bundle, {
      method: 'POST',
      path: paths.hooks(),
      body: params,
      schema: HookCreated,
      what: 'the webhook subscription',
    });
  } catch (error) {
    // A 404 for a chosen event means the event is gone, not that a subscription is missing.
    if (!params.eventId || !isNotFound(error)) throw error;
    throw new z.errors.Error(
      `The event chosen in the Event field (ID ${params.eventId.slice(0, 80)}) no longer exists in the connected account: the service found no such event (it may have been deleted). Choose another event in the Event field, or leave it empty to listen to all of your events, then turn the Zap on again.`,
      'EVENT_NOT_FOUND',
      404,
    );
  }
  try {
    const hook = HookSubscription.safeParse(created);
    if (!hook.success) {
      throw new z.errors.Error(
        `The service's answer when this Zap was turned on could not be used (${subscriptionProblem(hook.error)}), so the Zap was not turned on. The subscription it had created (${created.id}) was removed again. Try turning the Zap on again; if this persists, contact the service's support with this message.`,
        'INVALID_SUBSCRIPTION',
        502,
      );
    }
    check?.(hook.data);
    return hook.data;
  } catch (error) {
    try {
      await unsubscribeHook(z, bundle, created.id);
    } catch (removal) {
      throw new z.errors.Error(
        `${errorText(error)} Removing subscription ${created.id} failed too (${errorText(removal)}): delete it in the dashboard (Settings → Integrations → Webhooks) so that it sends nothing.`,
        connectErrorCode(error) ?? 'INVALID_SUBSCRIPTION',
        400,
      );
    }
    throw error;
  }
};

/**
 * Contract §5: one subscription with its current secret (`null`: signed with the account-level secret);
 * `null` when the service no longer has it.
 */
export const getHook = (z: ZObject, bundle: B, hookId: string): Promise<HookSubscription | null> =>
  connectRequestOrNull(z, bundle, {
    path: paths.hook(hookId),
    schema: HookSubscription,
    what: 'the webhook subscription',
  });
