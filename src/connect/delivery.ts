/**
 * Webhook deliveries (contract §5): the HMAC of the raw body is verified before anything is trusted, then
 * the envelope (`id`, `type`, `createdAt`, `hookId`, `data`) is parsed with own keys only and a depth limit
 * (src/connect/json.ts), then `data` against the noun's contract schema. A delivery
 * that fails verification is reported with a reason (the caller drops it); a verified delivery that cannot
 * be read is a Zapier error naming what is missing. No reason or message contains a secret.
 */
import type { ZObject } from 'zapier-platform-core';
import type { ZodType } from 'zod';
import { MAX_JSON_DEPTH, parseJsonSafely } from './json';
import { type ObjectSchema, checkRecord, recordLog } from './records';
import { WebhookDelivery } from './schemas';
import { type Verification, findSignatureHeader, verifySignature } from './signature';

/** What Zapier hands over of the request that delivered a webhook (`bundle.rawRequest`). */
export interface RawDelivery {
  content?: string;
  headers?: Record<string, unknown>;
}

export type DeliveryReading =
  | { ok: true; delivery: WebhookDelivery; droppedKeys: number }
  | { ok: false; reason: string };

const unreadable = (z: ZObject, what: string): never => {
  throw new z.errors.Error(
    `A correctly signed delivery from the service ${what}, so it could not be read. Nothing was triggered; contact the service's support with the time of this run.`,
    'INVALID_DELIVERY',
    400,
  );
};

/** How many `sha256=` signatures the delivery carries: more than one while its secret is being rotated. */
export const signatureCount = (raw: RawDelivery | undefined): number =>
  (findSignatureHeader(raw?.headers) ?? '').split(',').filter((part) => part.trim().startsWith('sha256='))
    .length;

/**
 * The `createdAt` of a delivery (epoch ms) read from its raw body, or `null` when it has none or cannot be
 * read; for a delivery whose signature has been verified.
 */
export const deliveryCreatedAt = (raw: RawDelivery | undefined): number | null => {
  const json = parseJsonSafely(raw?.content ?? '', MAX_JSON_DEPTH);
  if (!json.ok || typeof json.value !== 'object' || json.value === null) return null;
  const createdAt = (json.value as { createdAt?: unknown }).createdAt;
  const ms = typeof createdAt === 'string' ? Date.parse(createdAt) : NaN;
  return Number.isFinite(ms) ? ms : null;
};

/** Verifies `raw`'s signature with any of `secrets`; never throws. */
export const verifyDelivery = (raw: RawDelivery | undefined, secrets: ReadonlyArray<string>): Verification =>
  verifySignature(raw?.content, findSignatureHeader(raw?.headers), secrets);

/**
 * Parses a verified delivery's envelope. Own keys only (`__proto__` keys are dropped and counted), and a body
 * nested deeper than `MAX_JSON_DEPTH` is refused unparsed (`{ ok: false }`, the caller drops it with a log
 * line) instead of overflowing the stack. A body that is not JSON or has no id, kind or data throws.
 */
export const parseDelivery = (z: ZObject, raw: RawDelivery | undefined): DeliveryReading => {
  const json = parseJsonSafely(raw?.content ?? '', MAX_JSON_DEPTH);
  if (!json.ok) {
    if (json.problem === 'too-deep') {
      return {
        ok: false,
        reason: `its body nests data ${json.depth} levels deep, more than the ${MAX_JSON_DEPTH} this app reads (no delivery of the service is shaped like that)`,
      };
    }
    return unreadable(z, 'was not JSON');
  }
  const envelope = WebhookDelivery.safeParse(json.value);
  if (!envelope.success) return unreadable(z, 'had no delivery id, kind or data');
  return { ok: true, delivery: envelope.data, droppedKeys: json.droppedKeys };
};

/**
 * The delivery's `data` as a `what` ("registration") of `schema`, by the contract's odd-record rule: an
 * optional field outside its documented form is treated as absent, with a log line; a record whose
 * identifier (`idKey`) or another required field is unusable is an error naming the field.
 */
export const deliveryRecord = <D>(
  z: ZObject,
  delivery: WebhookDelivery,
  rule: { schema: ZodType<D>; what: string; idKey: string },
): D => {
  const checked = checkRecord(
    { noun: rule.what, schema: rule.schema as unknown as ObjectSchema, idKey: rule.idKey },
    delivery.data,
  );
  if (checked.ok) {
    if (checked.dropped.length) {
      const log = recordLog((line) => z.console.log(line), `delivery ${delivery.id}`);
      log.kept(rule.what, String((checked.record as Record<string, unknown>)[rule.idKey]), checked.dropped);
    }
    return checked.record as D;
  }
  throw new z.errors.Error(
    `Delivery ${delivery.id} (${delivery.type}) did not carry a valid ${rule.what}: ${checked.reason}, so it could not be turned into Zap data. Contact the service's support with this delivery id.`,
    'INVALID_DELIVERY',
    400,
  );
};
