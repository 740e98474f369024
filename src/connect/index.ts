/**
 * What the app knows of the Connect API: the app's own record types, the operations that read and write
 * them, and the meanings of their errors. No wire shape leaves this folder: no schema, no field-name table,
 * no raw error code, no signature or header syntax (tests and scripts that must write the wire use
 * `./testing`, or the sandbox's `sandbox/wire.ts`).
 */
export * from './api';
export {
  CUT_MARK,
  type Cut,
  type Cuts,
  LIST_ENTRIES,
  RECORD_TEXT_CHARS,
  TEXT_CHARS,
  cutText,
  cutsOf,
  withCuts,
  withoutCuts,
} from './bounds';
export {
  type ConnectCall,
  type ConnectResult,
  type StreamLimits,
  STREAM_LIMITS,
  connectRequest,
  connectRequestFull,
  connectRequestOrNull,
  STREAM_LIMITS_ENV,
  streamLimits,
} from './client';
export * from './config';
export * from './dates';
export * from './delivery';
export {
  APP_ERROR_CODES,
  type ConnectMeaning,
  type RetryHint,
  SAFE_RETRY_SECONDS,
  appErrorCode,
  errorMeaning,
  errorText,
  isNotFound,
  isOutdatedReplay,
  isReplayedAnswer,
  isTicketNotFound,
  EVENT_NOT_FOUND,
  checkInFailureOf,
  type CheckInFailure,
  eventNotFoundError,
  type EventRefusal,
  eventRefusedError,
  notConnectApiError,
  networkError,
  notConnectApiReason,
  registrationNotInEventError,
  retryAfterSeconds,
} from './errors';
export { MAX_JSON_DEPTH, droppedKeysLine } from './json';
export { type Visit, collect } from './lists';
export * from './paths';
export {
  type LogLine,
  type OddField,
  type RecordLog,
  type RecordReading,
  eventReading,
  isSystemic,
  orderReading,
  recordFailures,
  recordLog,
  registrationReading,
} from './records';
export type {
  Agenda,
  AgendaSession,
  Answer,
  Booth,
  CheckInResult,
  Event,
  EventWidget,
  FloorPlan,
  HookKind,
  HookSubscription,
  Order,
  OrderItem,
  Submission,
  SubmissionKey,
  SubmissionPerson,
  WebhookDelivery,
} from './schemas';
export { ENTITLEMENT_NAMES, EVENTS_LIMIT_MAX, HOOK_KINDS, LIST_LIMIT_MAX } from './schemas';
export * from './secrets';
export * from './surfaces';
