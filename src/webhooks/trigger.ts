/**
 * The instant (REST hook) trigger factory: a trigger declares what differs (key, kind, noun, labels, the item
 * rule, where recent data comes from); subscribing, unsubscribing and receiving live here once:
 *
 * - subscribe with the optional event as `eventId`, keeping the hook id, its secret, the kind and the event
 *   (an answer that cannot be used is removed again); unsubscribe (a hook already gone counts as done);
 * - `perform`: the webhook room's one door (./receive.ts); a dropped delivery returns `[]` with a log line
 *   that says why (never a secret or the key);
 * - `performList`: recent real records (./sources.ts); the static sample and output fields of the noun.
 */
import {
  type Bundle,
  type PlainInputField,
  type ZObject,
  defineInputFields,
  defineTrigger,
} from 'zapier-platform-core';
import { type HookKind, subscribeHook, unsubscribeHook } from '../connect';
import { eventField, optionalEventId } from '../fields/event';
import type { ItemRule } from '../items';
import { trimmed as text } from '../mappers/text';
import {
  DEFAULT_RECEIVE_OPTIONS,
  type HookSubscribeData,
  type ReceiveOptions,
  receiveDelivery,
  subscribeDataOf,
} from './receive';
import type { ListSource } from './sources';

export interface InstantTriggerSpec<D, I extends { id: string }> {
  /** The trigger's key: it can never change once the app is published. */
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
  /** Refuses, before any request, an input of those fields the trigger could never match. */
  checkInput?: (z: ZObject, bundle: Pick<Bundle, 'inputData'>) => void;
}

const subscriber =
  (kind: HookKind, checkInput: InstantTriggerSpec<unknown, { id: string }>['checkInput']) =>
  async (z: ZObject, bundle: Bundle): Promise<HookSubscribeData> => {
    const eventId = optionalEventId(z, bundle);
    checkInput?.(z, bundle);
    const targetUrl = text(bundle.targetUrl);
    if (!targetUrl) {
      throw new z.errors.Error(
        'Zapier gave no address to send deliveries to. Turn the Zap off and on again.',
        'NO_TARGET_URL',
        400,
      );
    }
    // A subscription the app cannot use is removed again by subscribeHook: a failed turn-on leaves nothing.
    const hook = await subscribeHook(z, bundle, { targetUrl, event: kind, eventId }, (created) => {
      if (!created.secret && !text(bundle.authData.webhookSecret)) {
        throw new z.errors.Error(
          'The service gave this subscription no signing secret of its own, and your connection has no Webhook Signing Secret, so deliveries could not be verified. Reconnect your account and fill in "Webhook Signing Secret" (dashboard: Settings → Integrations → Webhooks), then turn the Zap on again.',
          'NO_SIGNING_SECRET',
          400,
        );
      }
    });
    return { id: hook.id, secret: hook.secret || null, kind, eventId: hook.eventId ?? eventId };
  };

/**
 * The kind each declared instant trigger subscribes to, by key: written once per declaration (a trigger's key
 * and kind never change), read by the scripts and tests that drive every instant trigger.
 */
const declaredKinds = new Map<string, HookKind>();

/** The webhook kind the instant trigger `key` subscribes to, or `undefined` when it is not one. */
export const instantKindOf = (key: string): HookKind | undefined => declaredKinds.get(key);

const unsubscribe = async (z: ZObject, bundle: Bundle) => {
  const { id } = subscribeDataOf(bundle);
  if (id) await unsubscribeHook(z, bundle, id);
  return { id: id ?? null, unsubscribed: true };
};

/** An instant trigger from its declaration; `options` (a clock, the secret timings) for tests only. */
export const instantTrigger = <D, I extends { id: string }>(
  spec: InstantTriggerSpec<D, I>,
  options: ReceiveOptions = DEFAULT_RECEIVE_OPTIONS,
) => {
  const { item, label } = spec;
  declaredKinds.set(spec.key, spec.kind);
  const rule = { label, item, accepts: spec.accepts ?? ((type: string) => type === spec.kind) };
  const perform = async (z: ZObject, bundle: Bundle): Promise<I[]> => {
    const received = await receiveDelivery(z, bundle, rule, options);
    if ('run' in received) return received.run;
    z.console.log(`${label}: delivery dropped because ${received.dropped}.`);
    return [];
  };
  const performList = async (z: ZObject, bundle: Bundle): Promise<I[]> => {
    spec.checkInput?.(z, bundle);
    const records = await spec.list(z, bundle, optionalEventId(z, bundle));
    const items = await item.toItems(z, bundle, records, null);
    return items.filter((one, index) => items.findIndex((other) => other.id === one.id) === index);
  };
  return defineTrigger({
    key: spec.key,
    noun: spec.noun,
    display: { label, description: spec.description },
    operation: {
      type: 'hook' as const,
      inputFields: defineInputFields([eventField({ required: false }), ...(spec.inputFields ?? [])]),
      performSubscribe: subscriber(spec.kind, spec.checkInput),
      performUnsubscribe: unsubscribe,
      perform,
      performList,
      sample: item.sample,
      outputFields: item.outputFields,
    },
  });
};
