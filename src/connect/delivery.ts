/**
 * Webhook deliveries (contract §5) leave here as meanings, never header syntax: `readDelivery` reads a
 * delivery once (which secrets signed it, each checked once; whether a rotation is under way; when it was
 * signed; its envelope `id`, `type`, `createdAt`, `hookId`, `data` parsed once with own keys only and a depth
 * limit, src/connect/json.ts), and `deliveryRecord` checks `data` against the noun's contract schema. What a
 * delivery says is trusted only once a trusted secret signed it (src/webhooks decides). No reason or message
 * contains a secret.
 */
import type { ZObject } from 'zapier-platform-core';
import type { ZodType } from 'zod';
import { MAX_JSON_DEPTH, type SafeJson, parseJsonSafely } from './json';
import { type ObjectSchema, checkRecord, recordLog } from './records';
import { boundRecord, withCuts } from './bounds';
import { WebhookDelivery } from './schemas';
import {
  findSignatureHeader,
  signatureDigests,
  signatureProblem,
  signedPayload,
  signedWith,
} from './signature';
import { readerOf } from './wire';

/** A delivery's envelope under the app's names (its record keeps the wire's until it is checked). */
const readDeliveryNames = readerOf(WebhookDelivery);

/** What Zapier hands over of the request that delivered a webhook (`bundle.rawRequest`). */
export interface RawDelivery {
  content?: string;
  headers?: Record<string, unknown>;
}

/** A delivery's parsed content: its envelope, or why it cannot be read. */
export type DeliveryContent =
  | { ok: true; delivery: WebhookDelivery; droppedKeys: number }
  /** Nested deeper than this app reads: dropped with a log line (never a stack overflow). */
  | { ok: false; tooDeep: true; reason: string }
  /** Not JSON, or without an id, a kind or data: an error naming what is missing. */
  | { ok: false; tooDeep: false; what: string };

/**
 * A delivery as it arrived, read once: its body parsed once, each candidate secret's HMAC computed at most
 * once. What it says (`signedAt`, `content`) is trusted only once `signedBy` names a secret the app trusts.
 */
export interface ArrivedDelivery {
  /** Why its signature cannot be checked whatever the secret (missing or malformed), or `null`. */
  signatureProblem: string | null;
  /** Whether `secret` signed it (each secret is checked once per delivery). */
  signedBy(secret: string | null | undefined): boolean;
  /** It carries several signatures: the service is rotating the subscription's secret. */
  rotating: boolean;
  /** When it was signed, by its own word (`createdAt`, epoch ms), or `null` when it says nothing usable. */
  signedAt: number | null;
  content: DeliveryContent;
}

const contentOf = (json: SafeJson): DeliveryContent => {
  if (!json.ok) {
    return json.problem === 'too-deep'
      ? {
          ok: false,
          tooDeep: true,
          reason: `its body nests data ${json.depth} levels deep, more than the ${MAX_JSON_DEPTH} this app reads (no delivery of the service is shaped like that)`,
        }
      : { ok: false, tooDeep: false, what: 'was not JSON' };
  }
  const envelope = WebhookDelivery.safeParse(readDeliveryNames(json.value));
  if (!envelope.success) return { ok: false, tooDeep: false, what: 'had no delivery id, kind or data' };
  return { ok: true, delivery: envelope.data, droppedKeys: json.droppedKeys };
};

const signedAtOf = (json: SafeJson): number | null => {
  if (!json.ok || typeof json.value !== 'object' || json.value === null) return null;
  const createdAt = (readDeliveryNames(json.value) as { createdAt?: unknown }).createdAt;
  const ms = typeof createdAt === 'string' ? Date.parse(createdAt) : NaN;
  return Number.isFinite(ms) ? ms : null;
};

/**
 * Reads a delivery once (contract §5): the signature header, the body parsed with own keys only and a depth
 * limit, its creation time. Never throws.
 */
export const readDelivery = (raw: RawDelivery | undefined): ArrivedDelivery => {
  const header = findSignatureHeader(raw?.headers);
  const content = raw?.content;
  const problem = signatureProblem(content, header);
  const digests = problem ? [] : signatureDigests(header!);
  const body = problem ? Buffer.alloc(0) : signedPayload(header!, content!);
  const checked = new Map<string, boolean>();
  const json = parseJsonSafely(content ?? '', MAX_JSON_DEPTH);
  return {
    signatureProblem: problem,
    signedBy: (secret) => {
      if (problem || !secret) return false;
      let signed = checked.get(secret);
      if (signed === undefined) {
        signed = signedWith(body, secret, digests);
        checked.set(secret, signed);
      }
      return signed;
    },
    rotating: digests.length > 1,
    signedAt: signedAtOf(json),
    content: contentOf(json),
  };
};

/** The error of a correctly signed delivery that cannot be read (`what` it lacked). */
export const unreadableDelivery = (z: ZObject, what: string): never => {
  throw new z.errors.Error(
    `A correctly signed delivery from the service ${what}, so it could not be read. Nothing was triggered; contact the service's support with the time of this run.`,
    'INVALID_DELIVERY',
    400,
  );
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
  // A delivery of megabytes is cut to the bounds of a record before it is checked (bounds.ts).
  const bounded = boundRecord(delivery.data);
  const checked = checkRecord(
    { noun: rule.what, schema: rule.schema as unknown as ObjectSchema, idKey: rule.idKey },
    bounded.value,
  );
  if (checked.ok) {
    if (checked.dropped.length) {
      const log = recordLog((line) => z.console.log(line), `delivery ${delivery.id}`);
      log.kept(rule.what, String((checked.record as Record<string, unknown>)[rule.idKey]), checked.dropped);
    }
    return withCuts(checked.record as D, bounded.cuts);
  }
  throw new z.errors.Error(
    `Delivery ${delivery.id} (${delivery.type}) did not carry a valid ${rule.what}: ${checked.reason}, so it could not be turned into Zap data. Contact the service's support with this delivery id.`,
    'INVALID_DELIVERY',
    400,
  );
};
