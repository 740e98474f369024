// Wire JSON for tests and scripts, written the way the sandbox itself writes it: the list envelope, the
// error body, the delivery envelope and its signature header (docs/connect-contract.md §1, §2, §5). Tests and
// scripts build their answers and deliveries here instead of writing the wire's shapes by hand, so a change
// of the contract is a change of the sandbox (this file, its serialisers in state.ts, its signer in
// delivery.ts) and of src/connect/, not of every test.

import { ApiError, type ErrorCode } from './errors';
import { sign } from './delivery';

/** The header a delivery's signature travels in (contract §5). */
export const SIGNATURE_HEADER = 'X-Connect-Signature';

/** A list answer: `{ "data": [...] }`, with the catalog's paging members when given. */
export const wireList = <T>(
  records: readonly T[],
  paging?: { page: number; limit: number; total: number },
): { data: T[] } & Partial<{ page: number; limit: number; total: number }> => ({
  data: [...records],
  ...paging,
});

/** An error answer's body, as the sandbox answers it: `{ "error": { "code", "message", … } }`. */
export const wireError = (
  code: ErrorCode | (string & {}),
  message = 'error',
  extra: Record<string, unknown> = {},
): { error: Record<string, unknown> } => new ApiError(0, code as ErrorCode, message, extra).toBody();

export interface WireDelivery {
  id: string;
  type: string;
  /** ISO 8601; left out of the body when `null`. */
  createdAt: string | null;
  hookId?: string | null;
  data: unknown;
}

/** A delivery's raw body, in the order the sandbox writes its members. */
export const wireDeliveryBody = (delivery: WireDelivery): string =>
  JSON.stringify({
    id: delivery.id,
    type: delivery.type,
    ...(delivery.createdAt === null ? {} : { createdAt: delivery.createdAt }),
    ...(delivery.hookId === undefined ? {} : { hookId: delivery.hookId }),
    data: delivery.data,
  });

/** The value of the signature header for `body`, signed with each of `secrets` (several during a rotation). */
export const signatureOf = (body: string, secrets: string | readonly string[]): string =>
  sign(body, typeof secrets === 'string' ? [secrets] : secrets);

/** The headers of a delivery of `body`, as the sandbox sends them. */
export const deliveryHeaders = (
  body: string,
  secrets: string | readonly string[],
): Record<string, string> => ({
  'content-type': 'application/json',
  [SIGNATURE_HEADER.toLowerCase()]: signatureOf(body, secrets),
});
