/**
 * The one REST-hook factory. An instant trigger declares only what differs (key, kind, noun, labels, the item
 * rule and where recent data for the editor's test comes from); everything else lives here once:
 *
 * - subscribe with the optional event as `eventId`, keeping the hook id, its secret, the kind and the event
 *   (an answer that cannot be used is removed again); unsubscribe (a hook already gone counts as done);
 * - `perform`: drop a delivery dated older than the 72 h retry window or ahead of the clock-skew margin
 *   before anything is read; verify the signature with a secret confirmed as current (./hookSecrets.ts),
 *   parse the delivery (own keys only, bounded depth: src/connect/delivery.ts), drop deliveries made for
 *   another subscription (`hookId`), of another kind, or for another event (or none, when the
 *   Zap is limited to one), map with the noun's mapper, enrich with the event's title and dates (one cached
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
  deliveryCreatedAt,
  deliveryRecord,
  droppedKeysLine,
  parseDelivery,
  subscribeHook,
  unsubscribeHook,
} from '../../connect';
import { accountEvents } from '../../account/events';
import { recentOrders, recentSubmissions } from '../../account/recent';
import { accountCache } from '../../memory';
import { companyIdOf } from '../../fields/company';
import { eventField, optionalEventId } from '../../fields/event';
import { trimmed as text } from '../../mappers/text';
import { verifyWithCurrentSecret } from './hookSecrets';
import type { ItemRule } from '../../items';

/** Delivery ids are remembered longer than the service's 72 h retry window. */
export const DELIVERY_MEMORY_SECONDS = 96 * 3600;
/**
 * A delivery older than this is never a genuine retry (the service retries for 72 h): it is dropped. The
 * margin covers a clock skew between the service and Zapier.
 */
export const CLOCK_SKEW_MARGIN_MS = 15 * 60 * 1000;
export const DELIVERY_MAX_AGE_MS = 72 * 3600 * 1000 + CLOCK_SKEW_MARGIN_MS;

/**
 * Why a delivery dated `createdAt` cannot have been sent by the service by `now`, or `null` when it can: not
 * more than the clock-skew margin ahead (the service never dates a delivery in the future)
 * and not older than the 72 h retry window.
 */
export const freshnessProblem = (createdAt: number, now: number): string | null => {
  if (createdAt - now > CLOCK_SKEW_MARGIN_MS) {
    return `it is dated ${new Date(createdAt).toISOString()}, ahead of now by more than the ${CLOCK_SKEW_MARGIN_MS / 60_000} minutes a clock can be off: the service never sends a delivery dated in the future`;
  }
  if (now - createdAt > DELIVERY_MAX_AGE_MS) {
    return `it was created at ${new Date(createdAt).toISOString()}, more than 72 hours ago: the service retries for 72 hours only, so this is a replay`;
  }
  return null;
};

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
    // A subscription the app cannot use is removed again by subscribeHook: a failed turn-on leaves nothing.
    const hook = await subscribeHook(z, bundle, { targetUrl, event: spec.kind, eventId }, (created) => {
      if (!created.secret && !text(bundle.authData.webhookSecret)) {
        throw new z.errors.Error(
          'The service gave this subscription no signing secret of its own, and your connection has no Webhook Signing Secret, so deliveries could not be verified. Reconnect your account and fill in "Webhook Signing Secret" (dashboard: Settings → Integrations → Webhooks), then turn the Zap on again.',
          'NO_SIGNING_SECRET',
          400,
        );
      }
    });
    const secret = hook.secret || null;
    return { id: hook.id, secret, kind: spec.kind, eventId: hook.eventId ?? eventId };
  };

  const performUnsubscribe = async (z: ZObject, bundle: Bundle) => {
    const { id } = subscribeDataOf(bundle);
    if (id) await unsubscribeHook(z, bundle, id);
    return { id: id ?? null, unsubscribed: true };
  };

  const perform = async (z: ZObject, bundle: Bundle): Promise<I[]> => {
    const subscription = subscribeDataOf(bundle);
    if (!text(subscription.secret) && !text(bundle.authData.webhookSecret)) {
      return drop(
        z,
        'no signing secret is available: the subscription has none and the connection has no Webhook Signing Secret (reconnect the account with it)',
      );
    }
    // Dated first (from the body, before trusting it): a delivery the service could not have sent now is
    // dropped without reading anything, so a replay or a delivery from the future costs nothing and opens
    // nothing. One whose date cannot be read is judged once verified and parsed.
    const now = Date.now();
    const dated = deliveryCreatedAt(bundle.rawRequest);
    const undated = dated === null ? null : freshnessProblem(dated, now);
    if (undated) return drop(z, undated);
    const verified = await verifyWithCurrentSecret(z, bundle, subscription, bundle.rawRequest);
    if (!verified.ok) return drop(z, verified.reason);
    // Verified: only now is the body trusted and parsed.
    const reading = parseDelivery(z, bundle.rawRequest);
    if (!reading.ok) return drop(z, reading.reason);
    const { delivery } = reading;
    if (reading.droppedKeys > 0) {
      z.console.log(droppedKeysLine(`${spec.label}: delivery ${delivery.id}`, reading.droppedKeys));
    }
    if (delivery.hookId && subscription.id && delivery.hookId !== subscription.id) {
      return drop(
        z,
        `delivery ${delivery.id} was made for subscription ${delivery.hookId}, not for this Zap's subscription ${subscription.id}`,
      );
    }
    const createdAt = Date.parse(delivery.createdAt ?? '');
    if (!Number.isFinite(createdAt)) {
      return drop(z, `delivery ${delivery.id} has no creation time, so it cannot be told from an old replay`);
    }
    if (!accepts(delivery.type, bundle.inputData ?? {})) {
      return drop(
        z,
        `delivery ${delivery.id} is of kind ${delivery.type}, which this Zap does not listen to`,
      );
    }
    const record = deliveryRecord(z, delivery, item);
    const wanted = text(bundle.inputData?.eventId) || subscription.eventId || null;
    const recordEventId = item.eventIdOf(record) || null;
    if (wanted && recordEventId !== wanted) {
      return drop(
        z,
        recordEventId
          ? `delivery ${delivery.id} is for event ${recordEventId}, not the chosen event ${wanted}`
          : `delivery ${delivery.id} names no event, and this Zap is limited to event ${wanted}`,
      );
    }

    const items = uniqueById(await item.toItems(z, bundle, [record], delivery.type));
    // Remembered at least until the delivery could no longer pass the age check (a clock ahead included).
    const memory = Math.max(DELIVERY_MEMORY_SECONDS, (createdAt + DELIVERY_MAX_AGE_MS - now) / 1000 + 3600);
    const first = await accountCache(z, bundle).claim(
      `hook-delivery:${subscription.id ?? 'none'}:${delivery.id}`,
      memory,
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
