/**
 * Webhook signature verification (contract §5): `X-Connect-Signature: sha256=<hex HMAC-SHA256 of the raw
 * body bytes>`, several comma-separated values during a secret rotation, any one matching is enough.
 * Never throws: every malformed input is a failed check with a reason that contains no secret.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header of a delivery's signature (contract §5). */
export const SIGNATURE_HEADER = 'X-Connect-Signature';

/**
 * `mismatch` is set when well-formed signatures were checked and none matched: a rotated secret, or a
 * forgery (the only failure that fetching the current secret can resolve).
 */
export type Verification = { ok: true } | { ok: false; reason: string; mismatch?: boolean };

const DIGEST_BYTES = 32;

/**
 * The signature header among request headers, whatever its case, with or without Zapier's `Http-` prefix
 * (`X-Connect-Signature` arrives in `rawRequest.headers` as `Http-X-Connect-Signature`).
 */
export const findSignatureHeader = (
  headers: Record<string, unknown> | undefined | null,
): string | undefined => {
  if (!headers || typeof headers !== 'object') return undefined;
  const wanted = SIGNATURE_HEADER.toLowerCase();
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (lower === wanted || lower === `http-${wanted}`) {
      if (typeof value === 'string') return value;
      if (Array.isArray(value)) return value.filter((v) => typeof v === 'string').join(',');
    }
  }
  return undefined;
};

/** The HMAC-SHA256 of `rawBody`'s UTF-8 bytes, as the service sends it: `sha256=<lowercase hex>`. */
export const sign = (rawBody: string | Buffer, secret: string): string =>
  `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;

const decodeCandidate = (value: string): Buffer | undefined => {
  const match = /^sha256=([0-9a-f]+)$/i.exec(value.trim());
  const hex = match?.[1];
  if (!hex || hex.length !== DIGEST_BYTES * 2) return undefined;
  return Buffer.from(hex, 'hex');
};

/** The well-formed `sha256=` digests of a signature header (several while a secret is being rotated). */
export const signatureDigests = (header: string): Buffer[] =>
  header
    .split(',')
    .map(decodeCandidate)
    .filter((c): c is Buffer => c !== undefined);

/** Whether `secret`'s HMAC of `body` is one of `digests` (constant-time on equal-length digests). */
export const signedWith = (body: Buffer, secret: string, digests: ReadonlyArray<Buffer>): boolean => {
  const expected = createHmac('sha256', secret).update(body).digest();
  return digests.some((digest) => digest.length === expected.length && timingSafeEqual(digest, expected));
};

/**
 * Verifies `rawBody` (the raw string Zapier hands over, never a re-serialised object) against the header with
 * each secret. Comparison is constant-time on equal-length digests.
 */
export const verifySignature = (
  rawBody: string | undefined | null,
  header: string | undefined | null,
  secrets: ReadonlyArray<string | undefined | null>,
): Verification => {
  const keys = secrets.filter((s): s is string => typeof s === 'string' && s.length > 0);
  if (keys.length === 0) return { ok: false, reason: 'no signing secret is available for this subscription' };
  const problem = signatureProblem(rawBody, header);
  if (problem) return { ok: false, reason: problem };
  const body = Buffer.from(rawBody!, 'utf8');
  const digests = signatureDigests(header!);
  if (keys.some((key) => signedWith(body, key, digests))) return { ok: true };
  return { ok: false, reason: 'the signature does not match the body', mismatch: true };
};

/** Why a delivery's signature cannot be checked at all, whatever the secret; `null` when it can. */
export const signatureProblem = (
  rawBody: string | undefined | null,
  header: string | undefined | null,
): string | null => {
  if (typeof header !== 'string' || !header.trim()) return 'the signature header is missing';
  if (typeof rawBody !== 'string') return 'the raw request body is missing';
  if (signatureDigests(header).length === 0) return 'the signature header has no well-formed sha256 value';
  return null;
};
