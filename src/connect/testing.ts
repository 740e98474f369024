/**
 * The wire side of src/connect, for tests, benchmarks and scripts that check the app against the wire (a
 * forged signature, a record read by its schema, the raw list splitter): never imported by the app itself
 * (test/connect/boundary.test.ts). Tests and scripts that only write wire JSON use sandbox/wire.ts instead.
 */
export { API_KEY_HEADER, buildUrl, headersFor } from './client';
export {
  type ErrorReading,
  appCodeOfWireCode,
  contractCodeOf,
  contractStatusOf,
  statusOfAnswer,
} from './errors';
export { EnvelopeSplitter } from './listSplitter';
export * from './lists';
export * from './json';
export {
  EVENT_RULE,
  FLOOR_PLAN_RULE,
  ORDER_RULE,
  SUBMISSION_KEY_RULE,
  SUBMISSION_PERSON_RULE,
  SUBMISSION_RULE,
  checkRecord,
  keepRecord,
  type ObjectSchema,
  type RecordRule,
} from './records';
export * from './schemas';
export { SIGNATURE_HEADER, findSignatureHeader, sign, verifySignature } from './signature';
export { renamer, type WireNames } from './wire';
export { type RecordNoun, wireTables } from './wireNames';
export * from './dialect';
export { type BodyShape, restater } from './restate';
export { SCHEMES, type Scheme, signatureDigests, signedPayload, signedWith } from './signature';
export * from './wireReading';
export * from './continuation';
