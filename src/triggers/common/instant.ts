/**
 * The one REST-hook factory. An instant trigger declares only what differs (key, kind, noun, labels, the item
 * rule and where recent data for the editor's test comes from); everything else lives here once:
 *
 * - subscribe with the optional event as `eventId`, keeping the hook id, its secret, the kind and the event;
 *   unsubscribe (a hook that is already gone counts as unsubscribed);
 * - `perform`: verify and parse the delivery (src/connect/delivery.ts), drop deliveries of
 *   another kind or event, map with the noun's mapper, enrich with the event's title and dates (one cached
 *   lookup) and drop repeats of a delivery id already processed (the service retries for up to 72 h);
 * - `performList`: recent real records of exactly the live shape, from the polling endpoints;
 * - the static sample and output fields of the noun.
 *
 * A dropped delivery returns `[]` with a log line that says why (never a secret or the key).
 */
import {
  type Bundle,
  type PlainInputField,
  type ZObject,
  defineInputFields,
  defineTrigger,
} from 'zapier-platform-core';
import {
  type Event,
  type HookKind,
  type Order,
  type Submission,
  deliveryRecord,
  errorText,
  readDelivery,
  subscribeHook,
  unsubscribeHook,
} from '../../connect';
import { accountEvents } from '../../account/events';
import { recentOrders, recentSubmissions } from '../../account/recent';
import { accountCache } from '../../account/store';
import { companyIdOf } from '../../fields/company';
import { eventField, optionalEventId } from '../../fields/event';
import type { ItemRule } from './items';

/** Delivery ids are remembered longer than the service's 72 h retry window. */
export const DELIVERY_MEMORY_SECONDS = 96 * 3600;

/** Recent records for the editor's test, given the chosen event (or `null` for all). */
export type ListSource<D> = (z: ZObject, bundle: Bundle, eventId: string | null) => Promise<D[]>;

export interface InstantTriggerSpec<D, I extends { id: string }> {
  key: string;
  /** The kind subscribed to: one webhook kind, or `EVENT_*` for the event-lifecycle family. */
  kind: HookKind;
  noun: string;
  label: string;
  description: string;
  item: ItemRule<D, I>;
  list: ListSource<D>;
  /** Whether a delivery of `type` runs the Zap; by default only `kind` itself does. */
  accepts?: (type: string, inputData: Record<string, unknown>) => boolean;
  /** Input fields after the event dropdown. */
  inputFields?: PlainInputField[];
}

/** What `performSubscribe` returns; Zapier hands it to `perform` and `performUnsubscribe`. */
export interface HookSubscribeData {
  id: string;
  secret: string | null;
  kind: HookKind;
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
      companyId: companyIdOf(z, bundle),
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
    const reading = readDelivery(z, bundle.rawRequest, [secret]);
    if (!reading.ok) return drop(z, reading.reason);
    const { delivery } = reading;
    if (!accepts(delivery.type, bundle.inputData ?? {})) {
      return drop(
        z,
        `delivery ${delivery.id} is of kind ${delivery.type}, which this Zap does not listen to`,
      );
    }
    const record = deliveryRecord(z, delivery, item.schema, item.what);
    const wanted = text(bundle.inputData?.eventId) || subscription.eventId || null;
    const recordEventId = item.eventIdOf(record);
    if (wanted && recordEventId && recordEventId !== wanted) {
      return drop(z, `delivery ${delivery.id} is for event ${recordEventId}, not the chosen event ${wanted}`);
    }

    const items = uniqueById(await item.toItems(z, bundle, [record], delivery.type));
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

  return defineTrigger({
    key: spec.key,
    noun: spec.noun,
    display: {
      label: spec.label,
      description: spec.description,
    },
    operation: {
      type: 'hook' as const,
      inputFields: defineInputFields([eventField({ required: false }), ...(spec.inputFields ?? [])]),
      performSubscribe,
      performUnsubscribe,
      perform,
      performList,
      sample: item.sample,
      outputFields: item.outputFields,
    },
  });
};
