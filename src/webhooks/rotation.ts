/**
 * The secret-rotation policy, as pure decisions over what is known of one subscription's secrets (its
 * `SecretState`) and a delivery as it arrived (which secrets signed it, when, whether a rotation is under way):
 *
 * 1. The current secret verifies a delivery only while it has been confirmed as current within the last
 *    few minutes (`confirmSeconds`); else the subscription is read first.
 * 2. A retired secret vouches for deliveries dated at or before the rotation (the service retries a delivery
 *    with its first signature for 72 h), and for nothing after it. The rotation is dated by the service's
 *    word (`secretRotatedAt`), else by the service's clock at the read that found the new secret, lowered by
 *    every delivery the new secret verifies; either way never later than this app's own clock at that read,
 *    and without the service's word never later than `confirmSeconds` after the last read that showed the old
 *    secret as current (the rotation came after it). So a `Date` header ahead, within the skew margin, cannot
 *    keep the retired secret trusted past 5 minutes after the rotation. A delivery dated between that bound
 *    and the service's own date of the rotation (its clock runs ahead) is halted with a message, not run.
 *    Unknown (the state was lost): the retired secret vouches for nothing, and a delivery signed only with
 *    it is halted with a message.
 * 3. A delivery that matches no known secret reads the current secret at most once a minute (`mismatchSeconds`).
 *
 * Nothing here reads, writes or waits: ./secrets.ts does, on the shared memory.
 */
import * as z from 'zod';
import { lazy } from '../lazy';
import type { ArrivedDelivery } from '../connect';
import { boundedServiceTime } from './freshness';

/** How many retired secrets are remembered per subscription. */
const MAX_RETIRED = 4;
const WHOLE_SECOND_MS = 1000;

/** What is known of one subscription's secrets (a typed record of the account's store). */
export const SecretState = lazy(() =>
  z.object({
    /** `null`: the subscription is signed with the account-level secret. */
    current: z.string().nullable(),
    /** The service's time (epoch ms) when `current` was last read as current; `null`: never. */
    confirmedAt: z.number().nullable(),
    /** This app's time (epoch ms) of the last read of the subscription, for freshness. */
    checkedAt: z.number(),
    /** This app's time of the last read made because a delivery matched no known secret. */
    mismatchAt: z.number(),
    /**
     * Newest first. `secret` `null`: the account-level one; `until` `null`: the rotation is not dated.
     * `haltUntil`: deliveries dated after `until` and up to it are halted, not dropped (the service's clock
     * put the rotation later than this app's bound on it).
     */
    retired: z.array(
      z.object({
        secret: z.string().nullable(),
        until: z.number().nullable(),
        haltUntil: z.number().optional(),
      }),
    ),
  }),
);
export type SecretState = z.infer<typeof SecretState>;
type RetiredSecret = SecretState['retired'][number];

export type ReadReason = 'stale' | 'rotating' | 'mismatch';

export type Verdict =
  | { kind: 'run' }
  /** Verified by the current secret, which must be read again first. */
  | { kind: 'read'; why: Exclude<ReadReason, 'mismatch'> }
  /** Matches no known secret; `mayRead`: the current one was not read for a mismatch in the last minute. */
  | { kind: 'unknown'; mayRead: boolean }
  | { kind: 'drop'; reason: string }
  | { kind: 'halt'; message: string };

/** The policy's intervals, in seconds. */
export interface RotationTimings {
  /** A current secret confirmed less than this long ago verifies deliveries without another read. */
  confirmSeconds: number;
  /** A delivery that matches no known secret reads the current one at most once per this many seconds. */
  mismatchSeconds: number;
}

/** One delivery as the policy sees it. */
export interface Judged {
  hookId: string;
  /** The connection's Webhook Signing Secret, for a subscription signed with the account-level one. */
  accountSecret: string;
  delivery: ArrivedDelivery;
  now: number;
}

const iso = (ms: number) => new Date(ms).toISOString();
const secretOf = (d: Judged, secret: string | null) => secret || d.accountSecret;
const signs = (d: Judged, secret: string | null) => d.delivery.signedBy(secretOf(d, secret));

export const initialState = (given: string | null): SecretState => ({
  current: given,
  confirmedAt: null,
  checkedAt: 0,
  mismatchAt: 0,
  retired: [],
});

const retiredVerdict = (d: Judged, retired: RetiredSecret): Verdict => {
  const signedAt = d.delivery.signedAt;
  if (retired.until === null) {
    return {
      kind: 'halt',
      message: `This delivery is signed only with a signing secret that the organizer has since replaced for subscription ${d.hookId}, and when it was replaced is not known here any more, so it cannot be told from a delivery forged with the old secret. Nothing ran. If the service sent it before the secret was changed, what it carried can be found in the service's dashboard.`,
    };
  }
  if (signedAt !== null && signedAt <= retired.until) return { kind: 'run' };
  if (signedAt !== null && retired.haltUntil !== undefined && signedAt <= retired.haltUntil) {
    return {
      kind: 'halt',
      message: `This delivery is signed only with a signing secret that the organizer has since replaced for subscription ${d.hookId}. It is dated ${iso(signedAt)}: after ${iso(retired.until)}, the latest time this app can vouch for the old secret, yet not after the service's own clock put the change (${iso(retired.haltUntil)}), so it cannot be told from a delivery forged with the old secret. Nothing ran. If the service sent it before the secret was changed, what it carried can be found in the service's dashboard.`,
    };
  }
  return {
    kind: 'drop',
    reason: `it is signed only with a secret the organizer has replaced: subscription ${d.hookId} signs everything dated after ${iso(retired.until)} with its new secret, and this delivery is dated ${signedAt === null ? 'nowhere' : iso(signedAt)}, so it was not sent by the service`,
  };
};

/** What `state` says of the delivery, without reading anything. */
export const judge = (d: Judged, state: SecretState, timings: RotationTimings): Verdict => {
  const age = d.now - state.checkedAt;
  if (signs(d, state.current)) {
    if (age > timings.confirmSeconds * 1000) return { kind: 'read', why: 'stale' };
    // Several signatures: a rotation has started, so the new secret is read now (at most once a minute).
    if (d.delivery.rotating && age > timings.mismatchSeconds * 1000) return { kind: 'read', why: 'rotating' };
    return { kind: 'run' };
  }
  const retired = state.retired.find((entry) => signs(d, entry.secret));
  if (retired) return retiredVerdict(d, retired);
  return { kind: 'unknown', mayRead: d.now - state.mismatchAt > timings.mismatchSeconds * 1000 };
};

/** The read a verdict asks for, if any. */
export const readReason = (verdict: Verdict): ReadReason | null =>
  verdict.kind === 'read' ? verdict.why : verdict.kind === 'unknown' && verdict.mayRead ? 'mismatch' : null;

/** `entry` dated no later than `at`: the rotation happened at or before it. */
const datedBefore = (entry: RetiredSecret, at: number): RetiredSecret => {
  const until = entry.until === null ? null : Math.min(entry.until, at);
  const haltUntil = entry.haltUntil === undefined ? undefined : Math.min(entry.haltUntil, at);
  return until !== null && haltUntil !== undefined && haltUntil > until
    ? { secret: entry.secret, until, haltUntil }
    : { secret: entry.secret, until };
};

/** A delivery the current secret verified dates the last rotation: it happened at or before it. */
export const lowerRotation = (d: Judged, state: SecretState): SecretState | null => {
  const last = state.retired[0];
  const signedAt = d.delivery.signedAt;
  if (!last || last.until === null || signedAt === null) return null;
  if (signedAt >= (last.haltUntil ?? last.until)) return null;
  if (!signs(d, state.current)) return null;
  return { ...state, retired: [datedBefore(last, signedAt), ...state.retired.slice(1)] };
};

/** A read of the subscription: its current secret, the service's clock and its word on the rotation. */
export interface SecretRead {
  secret: string | null;
  /** The answer's `Date` (whole seconds), or `null`. */
  serviceTime: number | null;
  /** `secretRotatedAt`, or `null` when absent or unusable. */
  rotatedAt: number | null;
}

/**
 * When the rotation just found happened, as far as can be told, and up to when the service's clock would put
 * it (`haltUntil`). The service's word counts when it is not later than its own clock at the read (allowing
 * for the `Date` header's whole seconds); else the read itself, when the secret had been confirmed before,
 * and no later than `confirmSeconds` after that confirmation (the rotation came after it); else unknown
 * (`null`). Never later than this app's clock at the read, nor than a delivery the new secret verified.
 */
const rotationDate = (
  d: Judged,
  state: SecretState,
  read: SecretRead,
  serviceTime: number,
  timings: RotationTimings,
): RetiredSecret => {
  const secret = state.current;
  const said =
    read.rotatedAt !== null && read.rotatedAt < serviceTime + WHOLE_SECOND_MS ? read.rotatedAt : null;
  if (said === null && state.confirmedAt === null) return { secret, until: null };
  const signedAt = d.delivery.signedAt;
  const upper = said ?? serviceTime;
  const bound = said === null ? Math.min(d.now, state.checkedAt + timings.confirmSeconds * 1000) : d.now;
  const dated: RetiredSecret = { secret, until: Math.min(upper, bound), haltUntil: upper };
  return signedAt !== null && signs(d, read.secret)
    ? datedBefore(dated, signedAt)
    : datedBefore(dated, upper);
};

/** The state after a read of the subscription that found `read.secret` current. */
export const afterRead = (
  d: Judged,
  state: SecretState,
  read: SecretRead,
  why: ReadReason,
  timings: RotationTimings,
): SecretState => {
  const serviceTime = boundedServiceTime(read.serviceTime, d.now);
  const checked = {
    confirmedAt: serviceTime,
    checkedAt: d.now,
    mismatchAt: why === 'mismatch' ? d.now : state.mismatchAt,
  };
  if (secretOf(d, read.secret) === secretOf(d, state.current))
    return { ...state, current: read.secret, ...checked };
  const retired = rotationDate(d, state, read, serviceTime, timings);
  return { current: read.secret, ...checked, retired: [retired, ...state.retired].slice(0, MAX_RETIRED) };
};

/** Whether `next` holds another current secret than `before` (a rotation was learnt). */
export const rotated = (d: Judged, before: SecretState, next: SecretState): boolean =>
  secretOf(d, next.current) !== secretOf(d, before.current);

export const forgedOrJustRotated = (hookId: string, timings: RotationTimings) =>
  `This delivery's signature matches neither the signing secret this Zap was given nor subscription ${hookId}'s current secret, which was checked less than ${timings.mismatchSeconds} seconds ago, so nothing ran. If the organizer rotated this subscription's secret in the last minute, the deliveries from now on will run, and what this one carried can be found in the service's dashboard. Otherwise someone is sending forged deliveries to this Zap's address.`;

export const mismatchReason = (state: SecretState): string =>
  state.current
    ? "the signature matches neither the secret this Zap was given nor the subscription's current secret"
    : 'the signature does not match the account-level Webhook Signing Secret of the connection (if it was rotated in the dashboard, reconnect the account with the new one)';
