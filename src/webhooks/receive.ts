/**
 * The one door of a webhook delivery: `receiveDelivery` takes a delivery as Zapier hands it over and a
 * trigger's rule, and answers the items to run or why the delivery was dropped. In order, each once:
 *
 * 1. read the delivery (src/connect: the body parsed once, each candidate secret checked once);
 * 2. drop one dated older than the 72 h retry window or ahead of the clock-skew margin, before anything is
 *    read from the service (a replay or a delivery from the future costs nothing and opens nothing);
 * 3. verify it with a secret the subscription trusts for its date (./secrets.ts, ./rotation.ts);
 * 4. only then trust its content: drop one made for another subscription (`hookId`), of another kind, or for
 *    another event (or none, when the Zap is limited to one); map it with the noun's rule;
 * 5. claim its delivery id, so a repeat (the service retries for up to 72 h) runs nothing.
 *
 * A halt or an error the user can replay is thrown with its message; nothing names a secret or the key.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import {
  type ArrivedDelivery,
  type WebhookDelivery,
  deliveryRecord,
  droppedKeysLine,
  readDelivery,
  unreadableDelivery,
} from '../connect';
import type { ItemRule } from '../items';
import { type Clock, accountCache, systemClock } from '../memory';
import { deliveryMemorySeconds, freshnessProblem } from './freshness';
import { DEFAULT_SECRET_TIMINGS, type SecretTimings, verifyWithCurrentSecret } from './secrets';

/** What a trigger says of the deliveries it runs on. */
export interface DeliveryRule<D, I extends { id: string }> {
  /** The trigger's label, for log lines. */
  label: string;
  /** Whether a delivery of `type` runs the Zap (with the Zap's input). */
  accepts: (type: string, inputData: Record<string, unknown>) => boolean;
  item: ItemRule<D, I>;
}

/** What `performSubscribe` returns; Zapier hands it to `perform` and `performUnsubscribe`. */
export interface HookSubscribeData {
  id: string;
  secret: string | null;
  kind: string;
  eventId: string | null;
}

export type Received<I> = { run: I[] } | { dropped: string };

export interface ReceiveOptions {
  clock: Clock;
  timings: SecretTimings;
}

export const DEFAULT_RECEIVE_OPTIONS: Readonly<ReceiveOptions> = Object.freeze({
  clock: systemClock,
  timings: DEFAULT_SECRET_TIMINGS,
});

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

export const subscribeDataOf = (bundle: Bundle): Partial<HookSubscribeData> => {
  const data: unknown = bundle.subscribeData;
  return data && typeof data === 'object' ? (data as Partial<HookSubscribeData>) : {};
};

const uniqueById = <I extends { id: string }>(items: I[]): I[] => {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(item.id) && Boolean(seen.add(item.id)));
};

/** Steps 1 to 3: the delivery's envelope once it is fresh and verified, or why it was dropped. */
const genuine = async (
  z: ZObject,
  bundle: Bundle,
  arrived: ArrivedDelivery,
  options: ReceiveOptions,
): Promise<{ delivery: WebhookDelivery; signedAt: number } | { dropped: string }> => {
  const subscription = subscribeDataOf(bundle);
  if (!text(subscription.secret) && !text(bundle.authData.webhookSecret)) {
    return {
      dropped:
        'no signing secret is available: the subscription has none and the connection has no Webhook Signing Secret (reconnect the account with it)',
    };
  }
  const stale = arrived.signedAt === null ? null : freshnessProblem(arrived.signedAt, options.clock.now());
  if (stale) return { dropped: stale };
  const verified = await verifyWithCurrentSecret(z, bundle, subscription, arrived, options);
  if (!verified.ok) return { dropped: verified.reason };
  const { content } = arrived;
  if (!content.ok) return content.tooDeep ? { dropped: content.reason } : unreadableDelivery(z, content.what);
  const { delivery } = content;
  if (arrived.signedAt === null) {
    return {
      dropped: `delivery ${delivery.id} has no creation time, so it cannot be told from an old replay`,
    };
  }
  return { delivery, signedAt: arrived.signedAt };
};

/** Step 4's filters: why a verified delivery is not for this Zap, or `null`. */
const notForThisZap = <D, I extends { id: string }>(
  bundle: Bundle,
  rule: DeliveryRule<D, I>,
  delivery: WebhookDelivery,
  record: D | null,
): string | null => {
  const subscription = subscribeDataOf(bundle);
  if (delivery.hookId && subscription.id && delivery.hookId !== subscription.id) {
    return `delivery ${delivery.id} was made for subscription ${delivery.hookId}, not for this Zap's subscription ${subscription.id}`;
  }
  if (!rule.accepts(delivery.type, bundle.inputData ?? {})) {
    return `delivery ${delivery.id} is of kind ${delivery.type}, which this Zap does not listen to`;
  }
  if (record === null) return null;
  const wanted = text(bundle.inputData?.eventId) || subscription.eventId || null;
  const recordEventId = rule.item.eventIdOf(record) || null;
  if (!wanted || recordEventId === wanted) return null;
  return recordEventId
    ? `delivery ${delivery.id} is for event ${recordEventId}, not the chosen event ${wanted}`
    : `delivery ${delivery.id} names no event, and this Zap is limited to event ${wanted}`;
};

/** The items `bundle`'s delivery runs for `rule`, or why it was dropped (see the module comment). */
export const receiveDelivery = async <D, I extends { id: string }>(
  z: ZObject,
  bundle: Bundle,
  rule: DeliveryRule<D, I>,
  options: ReceiveOptions = DEFAULT_RECEIVE_OPTIONS,
): Promise<Received<I>> => {
  const arrived = readDelivery(bundle.rawRequest);
  const checked = await genuine(z, bundle, arrived, options);
  if ('dropped' in checked) return checked;
  const { delivery, signedAt } = checked;
  if (arrived.content.ok && arrived.content.droppedKeys > 0) {
    z.console.log(droppedKeysLine(`${rule.label}: delivery ${delivery.id}`, arrived.content.droppedKeys));
  }
  const unwanted = notForThisZap(bundle, rule, delivery, null);
  if (unwanted) return { dropped: unwanted };
  const record = deliveryRecord(z, delivery, rule.item);
  const otherEvent = notForThisZap(bundle, rule, delivery, record);
  if (otherEvent) return { dropped: otherEvent };
  const items = uniqueById(await rule.item.toItems(z, bundle, [record], delivery.type));
  const now = options.clock.now();
  const key = `hook-delivery:${subscribeDataOf(bundle).id ?? 'none'}:${delivery.id}`;
  const first = await accountCache(z, bundle, () => options.clock.now()).claim(
    key,
    deliveryMemorySeconds(signedAt, now),
  );
  if (!first) return { dropped: `delivery ${delivery.id} was already processed (the service sent it again)` };
  return { run: items };
};
