/**
 * How the attendee lookup fails: with the app's own codes (never the service's), and a failed pass shared
 * briefly with the orders that waited for it, each rethrowing it of the same kind (a throttled one stays
 * throttled so Zapier runs it again later; an expired key still asks to reconnect).
 */
import type { ZObject } from 'zapier-platform-core';
import * as zod from 'zod';
import { errorText } from '../connect';
import { lazy } from '../lazy';

/** The app's codes for a lookup that could not answer. */
export const LOOKUP_FAILED = 'ATTENDEE_LOOKUP_FAILED';
export const LOOKUP_BUSY = 'ATTENDEE_LOOKUP_BUSY';

/** The order a failure is told about. */
interface OrderNamed {
  orderId: string;
  submissionId: string;
}

export const SharedFailure = lazy(() =>
  zod.discriminatedUnion('kind', [
    zod.object({ kind: zod.literal('error'), reason: zod.string() }),
    zod.object({ kind: zod.literal('throttled'), message: zod.string(), delay: zod.number().nullable() }),
    zod.object({ kind: zod.literal('expired'), message: zod.string() }),
  ]),
);
export type SharedFailure = zod.infer<typeof SharedFailure>;

const failureText = (lookup: OrderNamed, reason: string) =>
  `The attendee of order ${lookup.orderId} (registration ${lookup.submissionId}) could not be read: ${reason} Replay this Zap run from the Zap history once the service answers again.`;

/** The failure as it is shared: its kind and its words (never the service's raw code). */
export const sharedFailureOf = (error: unknown): SharedFailure => {
  if (error instanceof Error && error.name === 'ThrottledError') {
    try {
      const { message, delay } = JSON.parse(error.message) as { message?: unknown; delay?: unknown };
      if (typeof message === 'string') {
        return { kind: 'throttled', message, delay: typeof delay === 'number' ? delay : null };
      }
    } catch {
      // not core's JSON form: shared as an ordinary failure
    }
  }
  if (error instanceof Error && error.name === 'ExpiredAuthError') {
    return { kind: 'expired', message: error.message };
  }
  return { kind: 'error', reason: errorText(error) };
};

/** The error a hydration throws for `failure` (its own, or one shared by the pass it waited for). */
export const failureError = (z: ZObject, lookup: OrderNamed, failure: SharedFailure): Error => {
  if (failure.kind === 'throttled')
    return new z.errors.ThrottledError(failure.message, failure.delay ?? undefined);
  if (failure.kind === 'expired') return new z.errors.ExpiredAuthError(failure.message);
  return new z.errors.Error(failureText(lookup, failure.reason), LOOKUP_FAILED, 502);
};

/** The error a hydration throws for its own pass's failure. */
export const rethrown = (z: ZObject, lookup: OrderNamed, error: unknown): Error => {
  if (error instanceof Error && ['ThrottledError', 'ExpiredAuthError'].includes(error.name)) return error;
  return failureError(z, lookup, sharedFailureOf(error));
};

/** Another run's pass of the event outlasted this hydration's wait, and too little time is left to read. */
export const busyError = (z: ZObject, lookup: OrderNamed): Error =>
  new z.errors.Error(
    failureText(lookup, 'another lookup of the same event took too long.'),
    LOOKUP_BUSY,
    503,
  );
