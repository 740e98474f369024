/**
 * Webhook deliveries (contract §5): the HMAC of the raw body is verified before anything is trusted, then
 * the envelope (`id`, `type`, `data`) is parsed, then `data` against the noun's contract schema. A delivery
 * that fails verification is reported with a reason (the caller drops it); a verified delivery that cannot
 * be read is a Zapier error naming what is missing. No reason or message contains a secret.
 */
import type { ZObject } from 'zapier-platform-core';
import type { ZodType } from 'zod';
import { WebhookDelivery } from './schemas';
import { findSignatureHeader, verifySignature } from './signature';

/** What Zapier hands over of the request that delivered a webhook (`bundle.rawRequest`). */
export interface RawDelivery {
  content?: string;
  headers?: Record<string, unknown>;
}

export type DeliveryReading = { ok: true; delivery: WebhookDelivery } | { ok: false; reason: string };

const unreadable = (z: ZObject, what: string): never => {
  throw new z.errors.Error(
    `A correctly signed delivery from the service ${what}, so it could not be read. Nothing was triggered; contact the service's support with the time of this run.`,
    'INVALID_DELIVERY',
    400,
  );
};

/**
 * Verifies `raw` with any of `secrets`, then parses its envelope. Resolves `{ ok: false, reason }` for a
 * delivery that fails verification; throws for a verified one that is not JSON or has no id, kind or data.
 */
export const readDelivery = (
  z: ZObject,
  raw: RawDelivery | undefined,
  secrets: ReadonlyArray<string>,
): DeliveryReading => {
  const verification = verifySignature(raw?.content, findSignatureHeader(raw?.headers), secrets);
  if (!verification.ok) return verification;

  // Verified: only now is the body trusted and parsed.
  let json: unknown;
  try {
    json = JSON.parse(raw?.content ?? '');
  } catch {
    return unreadable(z, 'was not JSON');
  }
  const envelope = WebhookDelivery.safeParse(json);
  if (!envelope.success) return unreadable(z, 'had no delivery id, kind or data');
  return { ok: true, delivery: envelope.data };
};

/** The delivery's `data` as a `what` ("registration") of `schema`; a mismatch is an error naming the field. */
export const deliveryRecord = <D>(
  z: ZObject,
  delivery: WebhookDelivery,
  schema: ZodType<D>,
  what: string,
): D => {
  const record = schema.safeParse(delivery.data);
  if (record.success) return record.data;
  const issue = record.error.issues[0];
  const where = issue?.path.length ? issue.path.map(String).join('.') : 'data';
  throw new z.errors.Error(
    `Delivery ${delivery.id} (${delivery.type}) did not carry a valid ${what} (${where}: ${issue?.message ?? 'invalid'}), so it could not be turned into Zap data. Contact the service's support with this delivery id.`,
    'INVALID_DELIVERY',
    400,
  );
};
