/**
 * The webhook room: one door for a delivery (`receiveDelivery`: verify, date, parse once, filter, dedupe),
 * the secret-rotation policy beside it, and the instant trigger factory built on it.
 */
export * from './freshness';
export {
  type DeliveryRule,
  type HookSubscribeData,
  type Received,
  type ReceiveOptions,
  DEFAULT_RECEIVE_OPTIONS,
  receiveDelivery,
} from './receive';
export { type SecretTimings, DEFAULT_SECRET_TIMINGS, SECRET_BUDGET_MS } from './secrets';
export { type ListSource, recentEvents, recentPayments, recentRegistrations } from './sources';
export { type InstantTriggerSpec, instantKindOf, instantTrigger } from './trigger';
