/**
 * Webhook signature verification (contract §5): `X-Connect-Signature: sha256=<hex HMAC-SHA256 of the raw
 * body bytes>`, several comma-separated values during a secret rotation, any one matching is enough; or the
 * other scheme a dialect may name (`dialect.ts`). Never throws: every malformed input is a failed check with
 * a reason that contains no secret.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { DIALECT, type SignatureScheme } from './dialect';

/** The header of a delivery's signature (contract §5; the dialect's, `dialect.ts`). */
export const SIGNATURE_HEADER = DIALECT.signatureHeader;

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

/** One way a service signs a delivery: the header's syntax and what its HMAC-SHA256 covers. */
export interface Scheme {
  /** The header's form, for people (`sha256=<hex>`). */
  readonly form: string;
  /** The header for `rawBody` signed with each of `secrets`, signed at `atSeconds` (Unix time). */
  sign(rawBody: string, secrets: readonly string[], atSeconds: number): string;
  /** The well-formed digests of a header (several while a secret is being rotated). */
  digests(header: string): Buffer[];
  /** The bytes the digests are HMACs of. */
  payload(header: string, rawBody: string): Buffer;
}

const hex = (secret: string, payload: string | Buffer): string =>
  createHmac('sha256', secret).update(payload).digest('hex');

const digestOf = (value: string | undefined): Buffer | undefined =>
  value && /^[0-9a-f]+$/i.test(value) && value.length === DIGEST_BYTES * 2
    ? Buffer.from(value, 'hex')
    : undefined;

const defined = (digests: Array<Buffer | undefined>): Buffer[] =>
  digests.filter((d): d is Buffer => d !== undefined);

/** The members `name=value` of a header, trimmed. */
const members = (header: string): Array<[string, string]> =>
  header.split(',').map((part) => {
    const at = part.indexOf('=');
    return at < 0 ? [part.trim(), ''] : [part.slice(0, at).trim(), part.slice(at + 1).trim()];
  });

/** The timestamp of a `t=…,v1=…` header, when it has exactly one. */
const timestampOf = (header: string): string | undefined => {
  const times = members(header).filter(([name, value]) => name === 't' && /^\d{1,12}$/.test(value));
  return times.length === 1 ? times[0]![1] : undefined;
};

export const SCHEMES: Readonly<Record<SignatureScheme, Scheme>> = {
  sha256: {
    form: 'sha256=<hex HMAC-SHA256 of the body>',
    sign: (rawBody, secrets) => secrets.map((secret) => `sha256=${hex(secret, rawBody)}`).join(','),
    digests: (header) =>
      defined(
        members(header).map(([name, value]) =>
          name.toLowerCase() === 'sha256' ? digestOf(value) : undefined,
        ),
      ),
    payload: (_header, rawBody) => Buffer.from(rawBody, 'utf8'),
  },
  timestamped: {
    form: 't=<Unix time>,v1=<hex HMAC-SHA256 of "<t>.<body>">',
    sign: (rawBody, secrets, atSeconds) =>
      [`t=${atSeconds}`, ...secrets.map((secret) => `v1=${hex(secret, `${atSeconds}.${rawBody}`)}`)].join(
        ',',
      ),
    digests: (header) =>
      timestampOf(header) === undefined
        ? []
        : defined(members(header).map(([name, value]) => (name === 'v1' ? digestOf(value) : undefined))),
    payload: (header, rawBody) => Buffer.from(`${timestampOf(header) ?? ''}.${rawBody}`, 'utf8'),
  },
};

/** How the service signs deliveries (its dialect's scheme). */
export const SCHEME: Scheme = SCHEMES[DIALECT.signature];

/** The header the service sends for `rawBody` signed with `secret` (now, when the scheme is timestamped). */
export const sign = (rawBody: string, secret: string, atSeconds = Math.floor(Date.now() / 1000)): string =>
  SCHEME.sign(rawBody, [secret], atSeconds);

/** The well-formed digests of a signature header (several while a secret is being rotated). */
export const signatureDigests = (header: string): Buffer[] => SCHEME.digests(header);

/** The bytes a header's digests are HMACs of, for `rawBody`. */
export const signedPayload = (header: string, rawBody: string): Buffer => SCHEME.payload(header, rawBody);

/** Whether `secret`'s HMAC of `payload` is one of `digests` (constant-time on equal-length digests). */
export const signedWith = (payload: Buffer, secret: string, digests: ReadonlyArray<Buffer>): boolean => {
  const expected = createHmac('sha256', secret).update(payload).digest();
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
  const body = signedPayload(header!, rawBody!);
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
  if (signatureDigests(header).length === 0)
    return `the signature header has no well-formed value (${SCHEME.form})`;
  return null;
};
