/**
 * The one REST-hook factory. An instant trigger declares only what differs (key, kind, noun, labels, the item
 * rule and where recent data for the editor's test comes from); everything else lives here once:
 *
 * - subscribe with the optional event as `eventId`, keeping the hook id, its secret, the kind and the event;
 *   unsubscribe (a hook that is already gone counts as unsubscribed);
 * - `perform`: verify the HMAC of the raw body before anything is trusted, then parse it, drop deliveries of
 *   another kind or event, map with the noun's mapper, enrich with the event's title and dates (one cached
 *   lookup) and drop repeats of a delivery id already processed (the service retries for up to 72 h);
 * - `performList`: recent real records of exactly the live shape, from the polling endpoints;
 * - the static sample and output fields of the noun.
 *
 * A dropped delivery returns `[]` with a log line that says why (never a secret or the key).
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import type { ZodType } from 'zod';
import {
  type Event,
  Event as EventSchema,
  type Order,
  Order as OrderSchema,
  type Submission,
  Submission as SubmissionSchema,
  WebhookDelivery,
  errorText,
  findSignatureHeader,
  subscribeHook,
  unsubscribeHook,
  verifySignature,
} from './connect';
import { accountCache } from './cache';
import { accountEvents, eventContext } from './events';
import { optionalEventId } from './inputs';
import { eventField, isEventUuid } from './fields';
import {
  type EventChangeItem,
  type EventItem,
  eventChangeOutputFields,
  eventChangeSample,
  eventOutputFields,
  eventSample,
  toEventChangeItem,
  toEventItem,
} from './mappers/event';
import { type OrderItem, SAMPLE_ORDER, orderOutputFields, toOrderItem } from './mappers/order';
import {
  type EventContext,
  NO_EVENT_CONTEXT,
  SAMPLE_SUBMISSION_EVENT,
  type SubmissionItem,
  answerOutputFields,
  submissionOutputFields,
  submissionSample,
  toSubmissionItem,
} from './mappers/submission';
import { recentOrders, recentSubmissions } from './recent';

/** Delivery ids are remembered longer than the service's 72 h retry window. */
export const DELIVERY_MEMORY_SECONDS = 96 * 3600;

type OutputField = { key: string; label: string; type?: string; primary?: boolean };
type DynamicOutputFields = (z: ZObject, bundle: Bundle) => Promise<OutputField[]>;
type InputField = Record<string, unknown> & { key: string; label: string };

/** How the records of one noun become Zap items; shared by every trigger of that noun. */
export interface ItemRule<D, I extends { id: string }> {
  /** The record in a user's words, for log lines and messages: "registration". */
  what: string;
  /** The contract schema of a delivery's `data`. */
  schema: ZodType<D>;
  /** The event a record belongs to, for the chosen-event check. */
  eventIdOf: (record: D) => string | null | undefined;
  /** Records as items (enrichment included); `kind` is the delivery's kind, `null` for recent test data. */
  toItems: (z: ZObject, bundle: Bundle, records: D[], kind: string | null) => Promise<I[]>;
  sample: I;
  outputFields: Array<OutputField | DynamicOutputFields>;
}

/** Recent records for the editor's test, given the chosen event (or `null` for all). */
export type ListSource<D> = (z: ZObject, bundle: Bundle, eventId: string | null) => Promise<D[]>;

export interface InstantTriggerSpec<D, I extends { id: string }> {
  key: string;
  /** The kind subscribed to: one webhook kind, or `EVENT_*` for the event-lifecycle family. */
  kind: string;
  noun: string;
  label: string;
  description: string;
  item: ItemRule<D, I>;
  list: ListSource<D>;
  /** Whether a delivery of `type` runs the Zap; by default only `kind` itself does. */
  accepts?: (type: string, inputData: Record<string, unknown>) => boolean;
  /** Input fields after the event dropdown. */
  inputFields?: InputField[];
}

/** What `performSubscribe` returns; Zapier hands it to `perform` and `performUnsubscribe`. */
export interface HookSubscribeData {
  id: string;
  secret: string | null;
  kind: string;
  eventId: string | null;
}

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

const subscribeDataOf = (bundle: Bundle): Partial<HookSubscribeData> => {
  const data: unknown = bundle.subscribeData;
  return data && typeof data === 'object' ? (data as Partial<HookSubscribeData>) : {};
};

const uniqueById = <I extends { id: string }>(items: I[]): I[] => {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(item.id) && Boolean(seen.add(item.id)));
};

/** The event context of each event id (one cached lookup each); a failed lookup adds no context. */
const eventContexts = async (
  z: ZObject,
  bundle: Bundle,
  eventIds: Array<string | null | undefined>,
): Promise<Map<string, EventContext>> => {
  const contexts = new Map<string, EventContext>();
  for (const eventId of new Set(eventIds)) {
    if (eventId) contexts.set(eventId, await eventContext(z, bundle, eventId));
  }
  return contexts;
};

const contextOf = (contexts: Map<string, EventContext>, eventId: string | null | undefined) =>
  (eventId && contexts.get(eventId)) || NO_EVENT_CONTEXT;

/** Output fields of the event context added to registration and payment items. */
const EVENT_CONTEXT_KEYS: ReadonlyArray<string> = Object.keys(NO_EVENT_CONTEXT);
const eventContextOutputFields = submissionOutputFields.filter((f) => EVENT_CONTEXT_KEYS.includes(f.key));

/** Labelled output fields for the custom answers of recent registrations (best effort). */
const recentAnswerFields: DynamicOutputFields = async (z, bundle) => {
  try {
    const eventId = text(bundle.inputData?.eventId);
    const { submissions } = await recentSubmissions(z, bundle, {
      eventId: isEventUuid(eventId) ? eventId : null,
      limit: 20,
    });
    return answerOutputFields(submissions.flatMap((s) => s.answers ?? []));
  } catch {
    return [];
  }
};

/** Registrations (FORM_SUBMISSION*, ATTENDANT_CHECKED_IN): the polling triggers' mapper, id = submissionId. */
export const registrationItem: ItemRule<Submission, SubmissionItem> = {
  what: 'registration',
  schema: SubmissionSchema,
  eventIdOf: (submission) => submission.eventId,
  toItems: async (z, bundle, records) => {
    const contexts = await eventContexts(
      z,
      bundle,
      records.map((s) => s.eventId),
    );
    return records.map((s) => toSubmissionItem(s, contextOf(contexts, s.eventId)));
  },
  sample: submissionSample,
  outputFields: [...submissionOutputFields, recentAnswerFields],
};

/** A payment's item id: its registration plus the payment (or order), so two payments stay distinct. */
export const paymentItemId = (order: Order): string =>
  [order.submissionId, order.paymentId || order.id].filter(Boolean).join(':');

export type PaymentItem = OrderItem & EventContext;

/** Payments (PAYMENT_*): the order mapper, enriched with the event's title and dates like registrations. */
export const paymentItem: ItemRule<Order, PaymentItem> = {
  what: 'payment',
  schema: OrderSchema,
  eventIdOf: (order) => order.eventId,
  toItems: async (z, bundle, records) => {
    const contexts = await eventContexts(
      z,
      bundle,
      records.map((o) => o.eventId),
    );
    return records.map((o) => ({ ...toOrderItem(o, paymentItemId(o)), ...contextOf(contexts, o.eventId) }));
  },
  sample: { ...toOrderItem(SAMPLE_ORDER, paymentItemId(SAMPLE_ORDER)), ...SAMPLE_SUBMISSION_EVENT },
  outputFields: [...orderOutputFields, ...eventContextOutputFields],
};

/** Events (EVENT_PUBLISHED): the event mapper, id = event id. */
export const eventItem: ItemRule<Event, EventItem> = {
  what: 'event',
  schema: EventSchema,
  eventIdOf: (event) => event.id,
  toItems: async (_z, _bundle, records) => records.map((event) => toEventItem(event)),
  sample: eventSample,
  outputFields: eventOutputFields,
};

/** Events with the change a delivery reports (the EVENT_* family). */
export const eventChangeItem: ItemRule<Event, EventChangeItem> = {
  what: 'event',
  schema: EventSchema,
  eventIdOf: (event) => event.id,
  toItems: async (_z, _bundle, records, kind) => records.map((event) => toEventChangeItem(event, kind)),
  sample: eventChangeSample,
  outputFields: eventChangeOutputFields,
};

/** Recent registrations of the chosen (or latest) event that pass `keep`. */
export const recentRegistrations =
  (keep?: (submission: Submission) => boolean): ListSource<Submission> =>
  async (z, bundle, eventId) =>
    (await recentSubmissions(z, bundle, { eventId, keep })).submissions;

/** Recent orders of the connection's company with `status` (of the chosen event, if any). */
export const recentPayments =
  (status: string): ListSource<Order> =>
  async (z, bundle, eventId) => {
    if (!text(bundle.authData.companyId)) {
      throw new z.errors.Error(
        'Recent payments are read from your company\'s orders, and your connection has no Company ID. Reconnect your account and fill in "Company ID" (dashboard: Settings → Company) to test with real payments. Live payments reach your Zap without it.',
        'CONFIGURATION',
        400,
      );
    }
    return recentOrders(z, bundle, {
      keep: (order) => order.status === status && (!eventId || order.eventId === eventId),
    });
  };

/** The account's newest events (the chosen one only, if any) that pass `keep`. */
export const recentEvents =
  (keep?: (event: Event) => boolean): ListSource<Event> =>
  async (z, bundle, eventId) =>
    (await accountEvents(z, bundle, true))
      .filter((event) => (!eventId || event.id === eventId) && (keep?.(event) ?? true))
      .slice(0, 3);

export const instantTrigger = <D, I extends { id: string }>(spec: InstantTriggerSpec<D, I>) => {
  const { item } = spec;
  const accepts = spec.accepts ?? ((type: string) => type === spec.kind);

  const drop = (z: ZObject, reason: string): [] => {
    z.console.log(`${spec.label}: delivery dropped because ${reason}.`);
    return [];
  };

  const performSubscribe = async (z: ZObject, bundle: Bundle): Promise<HookSubscribeData> => {
    const eventId = optionalEventId(z, bundle);
    const targetUrl = text(bundle.targetUrl);
    if (!targetUrl) {
      throw new z.errors.Error(
        'Zapier gave no address to send deliveries to. Turn the Zap off and on again.',
        'NO_TARGET_URL',
        400,
      );
    }
    const hook = await subscribeHook(z, bundle, { targetUrl, event: spec.kind, eventId });
    const secret = hook.secret || null;
    if (!secret && !text(bundle.authData.webhookSecret)) {
      await unsubscribeHook(z, bundle, hook.id).catch((error: unknown) =>
        z.console.log(`Subscription ${hook.id} could not be removed again: ${errorText(error)}`),
      );
      throw new z.errors.Error(
        'The service gave this subscription no signing secret of its own, and your connection has no Webhook Signing Secret, so deliveries could not be verified. Reconnect your account and fill in "Webhook Signing Secret" (dashboard: Settings → Integrations → Webhooks), then turn the Zap on again.',
        'NO_SIGNING_SECRET',
        400,
      );
    }
    return { id: hook.id, secret, kind: spec.kind, eventId: hook.eventId ?? eventId };
  };

  const performUnsubscribe = async (z: ZObject, bundle: Bundle) => {
    const { id } = subscribeDataOf(bundle);
    if (id) await unsubscribeHook(z, bundle, id);
    return { id: id ?? null, unsubscribed: true };
  };

  const perform = async (z: ZObject, bundle: Bundle): Promise<I[]> => {
    const subscription = subscribeDataOf(bundle);
    const secret = text(subscription.secret) || text(bundle.authData.webhookSecret);
    if (!secret) {
      return drop(
        z,
        'no signing secret is available: the subscription has none and the connection has no Webhook Signing Secret (reconnect the account with it)',
      );
    }
    const raw = bundle.rawRequest;
    const verification = verifySignature(raw?.content, findSignatureHeader(raw?.headers), [secret]);
    if (!verification.ok) return drop(z, verification.reason);

    // Verified: only now is the body trusted and parsed.
    let json: unknown;
    try {
      json = JSON.parse(raw?.content ?? '');
    } catch {
      throw new z.errors.Error(
        "A correctly signed delivery from the service was not JSON, so it could not be read. Nothing was triggered; contact the service's support with the time of this run.",
        'INVALID_DELIVERY',
        400,
      );
    }
    const envelope = WebhookDelivery.safeParse(json);
    if (!envelope.success) {
      throw new z.errors.Error(
        "A correctly signed delivery from the service had no delivery id, kind or data, so it could not be read. Nothing was triggered; contact the service's support with the time of this run.",
        'INVALID_DELIVERY',
        400,
      );
    }
    const delivery = envelope.data;
    if (!accepts(delivery.type, bundle.inputData ?? {})) {
      return drop(
        z,
        `delivery ${delivery.id} is of kind ${delivery.type}, which this Zap does not listen to`,
      );
    }
    const record = item.schema.safeParse(delivery.data);
    if (!record.success) {
      const issue = record.error.issues[0];
      const where = issue?.path.length ? issue.path.map(String).join('.') : 'data';
      throw new z.errors.Error(
        `Delivery ${delivery.id} (${delivery.type}) did not carry a valid ${item.what} (${where}: ${issue?.message ?? 'invalid'}), so it could not be turned into Zap data. Contact the service's support with this delivery id.`,
        'INVALID_DELIVERY',
        400,
      );
    }
    const wanted = text(bundle.inputData?.eventId) || subscription.eventId || null;
    const recordEventId = item.eventIdOf(record.data);
    if (wanted && recordEventId && recordEventId !== wanted) {
      return drop(z, `delivery ${delivery.id} is for event ${recordEventId}, not the chosen event ${wanted}`);
    }

    const items = uniqueById(await item.toItems(z, bundle, [record.data], delivery.type));
    const first = await accountCache(z, bundle).claim(
      `hook-delivery:${subscription.id ?? 'none'}:${delivery.id}`,
      DELIVERY_MEMORY_SECONDS,
    );
    if (!first) return drop(z, `delivery ${delivery.id} was already processed (the service sent it again)`);
    return items;
  };

  const performList = async (z: ZObject, bundle: Bundle): Promise<I[]> => {
    const records = await spec.list(z, bundle, optionalEventId(z, bundle));
    return uniqueById(await item.toItems(z, bundle, records, null));
  };

  return {
    key: spec.key,
    noun: spec.noun,
    display: {
      label: spec.label,
      description: spec.description,
    },
    operation: {
      type: 'hook' as const,
      inputFields: [eventField({ required: false }), ...(spec.inputFields ?? [])],
      performSubscribe,
      performUnsubscribe,
      perform,
      performList,
      sample: item.sample,
      outputFields: item.outputFields,
    },
  };
};
