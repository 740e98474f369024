/**
 * One typed function per Connect endpoint. Operations call these and never build URLs themselves.
 * Lists come back newest first with one item per id (the contract guarantees neither): `newestFirst` is the
 * one place where records are sorted and de-duplicated, and every later step reads that order.
 */
import { readTimestamp } from './dates';
import type { Bundle, ZObject } from 'zapier-platform-core';
import type * as zod from 'zod';
import type { ZodError } from 'zod';
import { connectList, connectRequest, connectRequestFull } from './client';
import { collect } from './lists';
import { paths } from './paths';
import {
  BOOTH_RULE,
  EVENT_RULE,
  EVENT_WIDGET_RULE,
  FLOOR_PLAN_RULE,
  SESSION_RULE,
  ORDER_RULE,
  SUBMISSION_KEY_RULE,
  SUBMISSION_PERSON_RULE,
  SUBMISSION_RULE,
  type ObjectSchema,
  type RecordRule,
} from './records';
import {
  Agenda,
  catalogPagingOf,
  CheckInResult,
  EVENTS_LIMIT_MAX,
  type Event,
  EventWidget,
  FloorPlan,
  type HookKind,
  HookCreated,
  HookSubscription,
  LIST_LIMIT_MAX,
  type Order,
  type Booth,
  type Submission,
  type SubmissionKey,
  type SubmissionPerson,
} from './schemas';
import { TURN_ON_ATTEMPT_MS, turnOnKey, turnOnSecret, turnOnWithRetry } from './turnOn';
import { DIALECT } from './dialect';
import { readerOf, renamer, wireNameOf, wireNamesOf } from './wire';
import { READ_LIST_ENTRIES, TEXT_CHARS, boundRecord, listCut, withCuts } from './bounds';
import { throwBadShape } from './errors';
import { CHECK_IN_REQUEST_NAMES, HOOK_NAMES } from './wireNames';
import { redactError, redactor } from './secrets';
import {
  type RetryHint,
  appErrorCode,
  errorMeaning,
  errorText,
  eventNotFoundError,
  isNotFound,
} from './errors';

type B = Pick<Bundle, 'authData'>;

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

/**
 * The most characters of text one event of the events list keeps in all: its description cut to
 * `TEXT_CHARS` and as much again for its other texts. A list of `EVENTS_LIMIT_MAX` events stays tens of MB.
 */
export const EVENT_TEXT_CHARS = 2 * TEXT_CHARS;

const readEvents = async (z: ZObject, bundle: B, limit: number, retry?: RetryHint): Promise<Event[]> => {
  const { items, visit } = collect<Event>();
  await connectList(
    z,
    bundle,
    {
      path: paths.events(),
      query: { limit },
      rule: EVENT_RULE,
      what: 'the list of your events',
      retry,
      // Read record by record: an event may carry megabytes of description, and only its bounds are kept.
      stream: true,
      reading: { bounds: { recordText: EVENT_TEXT_CHARS } },
    },
    visit,
  );
  return newestFirst(items, (event) => event.id);
};

/**
 * 3. The organizer's newest events, newest first: at most `limit` (up to `EVENTS_LIMIT_MAX`), and fewer
 * when the service answers fewer. Above `LIST_LIMIT_MAX` a service may clamp the limit (the contract) or
 * refuse it (400 VALIDATION_ERROR): a refusal is read as a clamp, and the newest `LIST_LIMIT_MAX` are asked.
 */
export const listEvents = async (
  z: ZObject,
  bundle: B,
  limit?: number,
  retry?: RetryHint,
): Promise<Event[]> => {
  const asked = Math.min(EVENTS_LIMIT_MAX, Math.max(1, Math.floor(limit ?? LIST_LIMIT_MAX)));
  if (asked <= LIST_LIMIT_MAX) return readEvents(z, bundle, asked, retry);
  try {
    return await readEvents(z, bundle, asked, retry);
  } catch (error) {
    if (errorMeaning(error) !== 'rejected') throw error;
    z.console.log(
      `The service refused limit=${asked} on the list of your events; its newest ${LIST_LIMIT_MAX} were read instead.`,
    );
    return readEvents(z, bundle, LIST_LIMIT_MAX, retry);
  }
};

const serverTimeOf = (headers: { get(name: string): string | null }): number | null => {
  const ms = Date.parse(headers.get('date') ?? '');
  return Number.isFinite(ms) ? ms : null;
};

export interface SubmissionRead {
  /** Items in the answer, usable or not. */
  items: number;
  /** Items handed to the visitor (the odd-record rule skipped the others, with a log line). */
  kept: number;
  /** Bytes received, for transfer accounting. */
  bytes: number;
  /** The service's clock when it answered (its `Date` header, to the second), when it sent one. */
  serverTime: number | null;
  /** False when `stopWhen` stopped the read before the end of the answer (the rest was not downloaded). */
  complete: boolean;
}

export interface SubmissionQuery {
  eventId: string;
  /** ISO 8601; the service answers the submissions created at or after it (no order, no limit). */
  since: string;
  /** Milliseconds for the whole answer: a poll gives up inside Zapier's 30 s, so its failure is seen. */
  timeoutMs?: number;
  /**
   * Asked as the answer arrives (after each piece of it, once its records are visited): true stops the
   * read and cancels the request, so a lookup that found what it looks for reads no further.
   */
  stopWhen?: () => boolean;
  /** What the read is for, in a message's words (default: the registrations of this event). */
  what?: string;
  /**
   * Values every registration the visitor can use holds somewhere (a lookup's email, trimmed), ASCII case
   * aside: a registration that cannot hold them is read past unchecked, never visited (`mentions.ts`).
   */
  mentions?: readonly string[];
}

const submissionCall = (params: SubmissionQuery) => ({
  path: paths.submissions(),
  query: { eventId: params.eventId, since: params.since },
  what: params.what ?? 'the registrations of this event',
  timeoutMs: params.timeoutMs,
  stream: true,
  stopWhen: params.stopWhen,
  ...(params.mentions ? { reading: { mentions: params.mentions } } : {}),
});

/**
 * A reader of the submissions endpoint that checks each record against `rule` (the odd-record rule) and
 * hands each usable one to `visit` as it arrives (in the answer's order, which the contract does not
 * define). The answer is read as a stream, so memory holds only what `visit` keeps: keep the least each
 * operation needs. When the read fails (any error answer, or one that is cut, not JSON or not a list) it
 * throws after `visit` may have seen some records: drop what was gathered.
 */
const submissionReader =
  <S extends ObjectSchema>(rule: RecordRule<S>) =>
  async (
    z: ZObject,
    bundle: B,
    params: SubmissionQuery,
    visit: (record: zod.infer<S>, position: number) => void,
  ): Promise<SubmissionRead> => {
    let read;
    try {
      read = await connectList(z, bundle, { ...submissionCall(params), rule }, visit);
    } catch (error) {
      // The event is the only thing this read names: "not found" is the event.
      throw isNotFound(error) ? eventNotFoundError(z, params.eventId) : error;
    }
    return {
      items: read.items,
      kept: read.kept,
      bytes: read.bytes,
      serverTime: serverTimeOf(read.headers),
      complete: read.complete,
    };
  };

/** 4. The submissions of one event created at or after `since`, record by record. */
export const readSubmissions = submissionReader<typeof Submission>(SUBMISSION_RULE);

/** 4, keys only: with only `SubmissionKey`'s fields read (other fields are not checked). */
export const readSubmissionKeys = submissionReader<typeof SubmissionKey>(SUBMISSION_KEY_RULE);

/** 4, people only: with only `SubmissionPerson`'s fields read (the attendee behind an order). */
export const readSubmissionPeople = submissionReader<typeof SubmissionPerson>(SUBMISSION_PERSON_RULE);

/** 5. Orders of a company, newest first. */
export const listOrders = async (
  z: ZObject,
  bundle: B,
  params: { companyId: string; limit?: number; retry?: RetryHint },
): Promise<Order[]> => {
  const { items, visit } = collect<Order>();
  try {
    await connectList(
      z,
      bundle,
      {
        path: paths.orders(),
        query: { companyId: params.companyId, limit: clampLimit(params.limit) },
        rule: ORDER_RULE,
        what: `the orders of company ${params.companyId}`,
        retry: params.retry,
        // Read record by record: an order may carry thousands of lines, and only the first ones are kept.
        stream: true,
      },
      visit,
    );
  } catch (error) {
    if (!isNotFound(error)) throw error;
    throw new z.errors.Error(
      `The service knows no company "${params.companyId.slice(0, 80)}" for this API key, so its orders could not be read. Reconnect your account with the Company ID shown in the dashboard under Settings → Company (for example cmp_42).`,
      'UNKNOWN_COMPANY',
      404,
    );
  }
  return newestFirst(items, (order) => order.id);
};

export interface CatalogPage {
  data: Event[];
  page?: number;
  limit?: number;
  total?: number;
  /** Items in the answer, usable or not: a page is full when this reaches `limit`. */
  received: number;
  /** Whether this is the catalog's last page: it was not full, or its paging says the pages so far hold all. */
  last: boolean;
  /**
   * With a catalog that continues by a cursor or link (the dialect's `catalog`): the continuation to the next
   * page, opaque (give it back as `after`), or null on the last page. Undefined for a catalog paged by number.
   */
  after?: string | null;
}

/**
 * Whether the public catalog is reached page after page from its first (it continues by a cursor or link,
 * the dialect's `catalog`), rather than at any page by its number (the contract).
 */
export const catalogFollowsPages = (): boolean => (DIALECT.catalog ?? null) !== null;

/**
 * 6. One page of the public catalog (no key). Read as a stream, each event cut to the events list's bounds
 * while it is read: a page is 100 events of any organizer, each of which may carry megabytes. A catalog paged
 * by number (the contract) is asked for page `page`; one that continues by a cursor or link (the dialect's
 * `catalog`) is asked for its first page, or the page `after` names (the previous page's `after`).
 */
export const listPublicEvents = async (
  z: ZObject,
  bundle: B,
  params: { page: number; after?: string; limit?: number; timeoutMs?: number },
): Promise<CatalogPage> => {
  const { items, visit } = collect<Event>();
  const continues = DIALECT.catalog ?? null;
  const page = Math.max(1, Math.floor(params.page));
  const read = await connectList(
    z,
    bundle,
    {
      path: paths.publicEvents(),
      query:
        continues === null ? { page, limit: clampLimit(params.limit) } : { limit: clampLimit(params.limit) },
      ...(continues !== null && params.after ? { at: params.after } : {}),
      continues,
      onePage: true,
      rule: EVENT_RULE,
      public: true,
      what: 'the public event catalog',
      timeoutMs: params.timeoutMs,
      stream: true,
      reading: { bounds: { recordText: EVENT_TEXT_CHARS } },
    },
    visit,
  );
  const paging = catalogPagingOf(read.fields);
  if (continues !== null) {
    const after = read.after ?? null;
    return { data: items, ...paging, received: read.items, last: after === null, after };
  }
  const limit = paging.limit ?? clampLimit(params.limit);
  const last = read.items < limit || (paging.total !== undefined && page * limit >= paging.total);
  return { data: items, ...paging, received: read.items, last };
};

/**
 * Whether the connected account holds the event: one small keyed read (its registrations since a moment
 * after now, so none are sent) that the service answers for the account's own events only, and with
 * not-found for an event that is another organizer's or no longer exists (contract §2). `false` is that
 * answer; any other failure throws.
 */
export const isAccountEvent = async (
  z: ZObject,
  bundle: B,
  eventId: string,
  timeoutMs?: number,
): Promise<boolean> => {
  try {
    await readSubmissionKeys(
      z,
      bundle,
      {
        eventId,
        since: new Date(Date.now() + 86_400_000).toISOString(),
        timeoutMs,
        stopWhen: () => true,
        what: `the answer to whether event ${eventId.slice(0, 80)} is one of your events`,
      },
      () => undefined,
    );
    return true;
  } catch (error) {
    if (isNotFound(error)) return false;
    throw error;
  }
};

/**
 * 7. The event widget of a published event (no key); `null` when unknown, not published or unusable. Read as
 * a stream, its description cut while it is read: a page may carry megabytes of HTML.
 */
export const getEventWidget = async (
  z: ZObject,
  bundle: B,
  slug: string,
  timeoutMs?: number,
): Promise<EventWidget | null> => {
  const { items, visit } = collect<EventWidget>();
  try {
    await connectList(
      z,
      bundle,
      {
        path: paths.eventWidget(slug),
        rule: EVENT_WIDGET_RULE,
        public: true,
        what: `the event page "${slug}"`,
        stream: true,
        reading: { single: true, bounds: { recordText: EVENT_TEXT_CHARS } },
        timeoutMs,
      },
      visit,
    );
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
  return items[0] ?? null;
};

/**
 * The most entries of the long list of one object kept in a read (the booths of a floor plan, the sessions of
 * an agenda); the others are counted (the object's cuts give the whole count), never held.
 */
export const LONG_LIST_ENTRIES = READ_LIST_ENTRIES;

interface LongObjectCall<S extends ObjectSchema, T> {
  path: string;
  what: string;
  public?: boolean;
  /** The object's schema, and the app's name of its long list. */
  schema: zod.ZodType<T>;
  listKey: string;
  /** How each entry of the list is checked. */
  rule: RecordRule<S>;
  /** Sees each usable entry, kept or not (a tally of the whole list). */
  onEntry?: (entry: zod.infer<S>) => void;
}

/**
 * One object with a long list, read as a stream: the list entry by entry (the odd-record rule for each, the
 * first `LONG_LIST_ENTRIES` kept, the rest only counted and handed to `onEntry`), its other fields up to
 * 64 KB each. `null` when the service does not have it. Neither the answer nor the whole list is ever held.
 */
const readLongObject = async <S extends ObjectSchema, T>(
  z: ZObject,
  bundle: B,
  call: LongObjectCall<S, T>,
): Promise<T | null> => {
  const kept: Array<zod.infer<S>> = [];
  let total = 0;
  const wireKey = wireNameOf(wireNamesOf(call.schema) ?? {}, call.listKey);
  let read;
  try {
    read = await connectList(
      z,
      bundle,
      {
        path: call.path,
        what: call.what,
        public: call.public,
        rule: call.rule,
        stream: true,
        reading: { listKey: wireKey, members: 'small' },
      },
      (entry) => {
        total++;
        call.onEntry?.(entry);
        if (kept.length < LONG_LIST_ENTRIES) kept.push(entry);
      },
    );
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
  const { [wireKey]: _list, ...fields } = read.fields;
  const bounded = boundRecord(readerOf(call.schema)(fields));
  const parsed = call.schema.safeParse({ ...(bounded.value as object), [call.listKey]: kept });
  if (!parsed.success) return throwBadShape(z, read.status, parsed.error, call.what);
  const cuts = total > kept.length ? { ...bounded.cuts, [call.listKey]: listCut(total) } : bounded.cuts;
  return withCuts(parsed.data, cuts);
};

/** 8. The agenda widget of a published event (no key); `null` when unknown or not published. */
export const getAgenda = (z: ZObject, bundle: B, slug: string): Promise<Agenda | null> =>
  readLongObject(z, bundle, {
    path: paths.agendaWidget(slug),
    schema: Agenda,
    listKey: 'sessions',
    rule: SESSION_RULE,
    public: true,
    what: `the agenda of "${slug}"`,
  });

/** 1. The event's published floor plans. */
export const listFloorPlans = async (z: ZObject, bundle: B, eventId: string): Promise<FloorPlan[]> => {
  const { items, visit } = collect<FloorPlan>();
  try {
    await connectList(
      z,
      bundle,
      {
        path: paths.floorPlans(eventId),
        rule: FLOOR_PLAN_RULE,
        what: 'the floor plans of this event',
        stream: true,
        reading: { bounds: { lists: { booths: LONG_LIST_ENTRIES } } },
      },
      visit,
    );
  } catch (error) {
    throw isNotFound(error) ? eventNotFoundError(z, eventId) : error;
  }
  return items;
};

/** The booths of a whole floor plan by status, however many it has (its kept booths are the first ones). */
export interface BoothTally {
  total: number;
  byStatus: Record<string, number>;
  /** The labels of its available booths, the first `LONG_LIST_ENTRIES` of them. */
  availableLabels: string[];
}

/** The most characters of one booth label in the tally (a label is a short name). */
const LABEL_CHARS = 200;

/** A floor plan read on its own: with the tally of all of its booths. */
export type FloorPlanRead = FloorPlan & { boothTally?: BoothTally };

/** 2. One published floor plan, its booths tallied as they are read; `null` when unknown or not published. */
export const getFloorPlan = async (
  z: ZObject,
  bundle: B,
  eventId: string,
  planId: string,
): Promise<FloorPlanRead | null> => {
  // No prototype: a status is the service's text, and `__proto__` is a text like any other.
  const tally: BoothTally = {
    total: 0,
    byStatus: Object.create(null) as Record<string, number>,
    availableLabels: [],
  };
  const plan = await readLongObject(z, bundle, {
    path: paths.floorPlan(eventId, planId),
    schema: FloorPlan,
    listKey: 'booths',
    rule: BOOTH_RULE,
    what: 'this floor plan',
    onEntry: (booth: Booth) => {
      tally.total++;
      tally.byStatus[booth.status] = (tally.byStatus[booth.status] ?? 0) + 1;
      if (booth.status === 'available' && tally.availableLabels.length < LONG_LIST_ENTRIES) {
        tally.availableLabels.push((booth.label || booth.id).slice(0, LABEL_CHARS));
      }
    },
  });
  return plan && { ...plan, boothTally: tally };
};

/** What to check in (contract §4): a scanned QR code, or an event and one of its registrations. */
export type CheckInRequest =
  | { code: string; checkInTime?: string }
  | { eventId: string; submissionId: string; checkInTime?: string };
/** The former name of `CheckInRequest`. */
export type CheckInBody = CheckInRequest;

const checkInWireBody = renamer(CHECK_IN_REQUEST_NAMES, 'write');
const hookWireBody = renamer(HOOK_NAMES, 'write');

/** The body of the check-in request, in the wire's names: the one place it is built. */
export const checkInRequestBody = (request: CheckInRequest): unknown => checkInWireBody({ ...request });

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
    body: checkInRequestBody(body),
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
 * a valid answer the same way (no secret usable for this connection). An answer that never comes is covered
 * by the turn-on's `Idempotency-Key` (./turnOn.ts): sent again, now or at the next turn-on, the request is
 * answered with the subscription already made.
 */
export const subscribeHook = async (
  z: ZObject,
  bundle: B,
  params: { targetUrl: string; event: HookKind; eventId: string | null },
  check?: (hook: HookSubscription) => void,
): Promise<HookSubscription> => {
  let created;
  // A service that takes the secret from the request is sent one of the app's (`secretSource`, dialect.ts).
  const sent =
    DIALECT.secretSource === 'client' ? turnOnSecret(String(bundle.authData.apiKey ?? ''), params) : null;
  try {
    const answer = await turnOnWithRetry(z, () =>
      connectRequestFull(z, bundle, {
        method: 'POST',
        path: paths.hooks(),
        body: hookWireBody(sent === null ? { ...params } : { ...params, secret: sent }),
        headers: { 'Idempotency-Key': turnOnKey(params) },
        schema: HookCreated,
        what: 'the webhook subscription',
        timeoutMs: TURN_ON_ATTEMPT_MS,
        retry: 'turn-on',
      }),
    );
    created = answer.data;
    if (answer.headers.get('idempotent-replayed') === 'true') {
      z.console.log(
        `Subscription ${created.id} had already been made for this Zap by an earlier turn-on whose answer was lost; it is taken over, not made twice.`,
      );
    }
  } catch (error) {
    // A service that echoes the secret the app sent in its refusal does not put it in the Zap's error.
    if (sent !== null) redactError(error, redactor([sent]));
    // A 404 for a chosen event means the event is gone, not that a subscription is missing.
    if (!params.eventId || !isNotFound(error)) throw error;
    throw eventNotFoundError(z, params.eventId, {
      next: 'or leave the field empty to listen to all of your events; then turn the Zap on again',
    });
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
    // The secret the app sent is the subscription's, whether or not the service answers it back.
    const made = sent === null || hook.data.secret ? hook.data : { ...hook.data, secret: sent };
    check?.(made);
    return made;
  } catch (error) {
    try {
      await unsubscribeHook(z, bundle, created.id);
    } catch (removal) {
      throw new z.errors.Error(
        `${errorText(error)} Removing subscription ${created.id} failed too (${errorText(removal)}): delete it in the dashboard (Settings → Integrations → Webhooks) so that it sends nothing.`,
        appErrorCode(error) ?? 'INVALID_SUBSCRIPTION',
        400,
      );
    }
    throw error;
  }
};

/** The subscription (§5) with its current secret, and the service's clock when it answered. */
export interface HookRead {
  /** `null` when the service no longer has the subscription. */
  hook: HookSubscription | null;
  /** The answer's `Date` header (epoch ms, whole seconds), or `null` when it has none that can be read. */
  serviceTime: number | null;
  /** When the current secret took effect (`secretRotatedAt`, epoch ms), or `null` if unknown or odd. */
  rotatedAt: number | null;
}

/** §5: a subscription with its current secret; the `Date` of the answer dates what it says. */
export const getHook = async (
  z: ZObject,
  bundle: B,
  hookId: string,
  timeoutMs?: number,
): Promise<HookRead> => {
  try {
    const answer = await connectRequestFull(z, bundle, {
      path: paths.hook(hookId),
      timeoutMs,
      schema: HookSubscription,
      what: 'the webhook subscription',
      // A delivery's own message says what to do next (replay the run): no advice for polls or steps here.
      retry: 'caller',
    });
    const date = Date.parse(answer.headers.get('date') ?? '');
    return {
      hook: answer.data,
      serviceTime: Number.isFinite(date) ? date : null,
      rotatedAt: readTimestamp(answer.data.secretRotatedAt),
    };
  } catch (error) {
    if (isNotFound(error)) return { hook: null, serviceTime: null, rotatedAt: null };
    throw error;
  }
};
