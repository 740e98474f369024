/**
 * Which secret verifies a delivery, applying the rotation policy (./rotation.ts) over the account's shared
 * memory: the subscription's `SecretState` is a typed record (read back through its schema; another version's
 * or a corrupt value reads as missing, which costs a read of the subscription, never trust), and reads of the
 * subscription go one at a time per subscription (`oneAtATime`): a delivery that needs one while another is
 * under way waits a bounded while for its result, and reads itself only after that bound.
 *
 * A read is bounded in time (`readTimeoutMs`), so a waiter's wait plus its own read stay under Zapier's
 * 30 s. A failed read is remembered per subscription for `retrySeconds` (a fixed interval, never growing):
 * meanwhile, deliveries use that failure instead of reading, so an outage of the subscription endpoint costs
 * at most one read per subscription per interval, whatever the number of deliveries, and the first delivery
 * that needs a read once the interval has passed makes one: once the service answers again, deliveries are
 * verified again within one interval. A secret confirmed within `graceSeconds` still verifies during a
 * failure (with a log line); without one the delivery is an error the user can replay
 * (`SECRET_REFRESH_FAILED`).
 *
 * Nothing here ever puts a secret into a message or a log line.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import * as zod from 'zod';
import { lazy } from '../lazy';
import { type ArrivedDelivery, errorText, getHook } from '../connect';
import {
  type AccountCache,
  type Clock,
  type LeaseTimings,
  accountCache,
  cacheRecord,
  oneAtATime,
} from '../memory';
import {
  type Judged,
  type ReadReason,
  type RotationTimings,
  SecretState,
  type Verdict,
  afterRead,
  forgedOrJustRotated,
  initialState,
  judge,
  lowerRotation,
  mismatchReason,
  readReason,
  rotated,
} from './rotation';

export interface SecretTimings extends RotationTimings {
  /** While the subscription cannot be read, a secret confirmed less than this long ago still verifies. */
  graceSeconds: number;
  /** How long what is known of a subscription's secrets is kept. */
  stateTtlSeconds: number;
  /** The longest a read of the subscription may take before it counts as failed. */
  readTimeoutMs: number;
  /**
   * How long no delivery reads after a failed read. Fixed: a back-off that grew would outlive a service that
   * answers again, and every delivery it holds back is an errored run to replay by hand.
   */
  retrySeconds: number;
  /** One read at a time: the lease and the bounded wait of the others. */
  lease: LeaseTimings;
}

/** What a delivery may spend on its secret at most: a wait for another's read, then a read of its own. */
export const SECRET_BUDGET_MS = 22_000;
const READ_TIMEOUT_MS = 10_000;

export const DEFAULT_SECRET_TIMINGS: Readonly<SecretTimings> = Object.freeze({
  confirmSeconds: 5 * 60,
  mismatchSeconds: 60,
  graceSeconds: 60 * 60,
  stateTtlSeconds: 30 * 24 * 3600,
  readTimeoutMs: READ_TIMEOUT_MS,
  retrySeconds: 15,
  lease: Object.freeze({
    // The lease outlives the read it guards; the wait leaves room for a read of the waiter's own.
    leaseSeconds: Math.ceil(READ_TIMEOUT_MS / 1000) + 5,
    waitMs: SECRET_BUDGET_MS - READ_TIMEOUT_MS,
    firstLookMs: 50,
    maxLookMs: 1000,
  }),
});

export type SecretCheck = { ok: true } | { ok: false; reason: string };

/** A failed read of the subscription, remembered for `retrySeconds`. */
const ReadFailure = lazy(() =>
  zod.object({
    at: zod.number(),
    until: zod.number(),
    failures: zod.number(),
    error: zod.string(),
  }),
);
type ReadFailure = zod.infer<typeof ReadFailure>;

/** What a read (this delivery's or another's) came to. */
type ReadOutcome = { state: SecretState } | { failure: ReadFailure } | { gone: true };

interface Room {
  z: ZObject;
  bundle: Bundle;
  d: Judged;
  clock: Clock;
  timings: SecretTimings;
  cache: AccountCache;
  state: ReturnType<typeof stateRecord>;
  failure: ReturnType<typeof failureRecord>;
}

const stateRecord = (cache: AccountCache, hookId: string, timings: SecretTimings) =>
  cacheRecord(cache, `hook-secrets:${hookId}`, SecretState, timings.stateTtlSeconds);
const failureRecord = (cache: AccountCache, hookId: string, timings: SecretTimings) =>
  cacheRecord(cache, `hook-secrets-failed:${hookId}`, ReadFailure, timings.graceSeconds);

/** `work`, or a failure once `ms` have passed on `clock` (whatever the request's own timeout does). */
const bounded = async <T>(work: Promise<T>, clock: Clock, ms: number): Promise<T> => {
  const stop = new AbortController();
  work.catch(() => undefined);
  const late = clock.sleep(ms, stop.signal).then((): never | undefined => {
    if (stop.signal.aborted) return undefined;
    throw new Error(`the service did not answer within ${Math.round(ms / 1000)} seconds`);
  });
  try {
    return (await Promise.race([work, late])) as T;
  } finally {
    stop.abort();
  }
};

/** Reads the subscription once (bounded in time) and records what it found, or its failure. */
const readSubscription = async (room: Room, base: SecretState, why: ReadReason): Promise<ReadOutcome> => {
  const { d, timings, clock } = room;
  let read;
  try {
    read = await bounded(
      getHook(room.z, room.bundle, d.hookId, timings.readTimeoutMs),
      clock,
      timings.readTimeoutMs,
    );
  } catch (error) {
    const before = await room.failure.read();
    const failures = (before?.failures ?? 0) + 1;
    const at = clock.now();
    const failure = { at, until: at + timings.retrySeconds * 1000, failures, error: errorText(error) };
    await room.failure.write(failure);
    return { failure };
  }
  if (!read.hook) return { gone: true };
  const next = afterRead(
    { ...d, now: clock.now() },
    base,
    { secret: read.hook.secret || null, ...read },
    why,
    timings,
  );
  await room.state.write(next);
  await room.failure.clear();
  if (rotated(d, base, next)) {
    room.z.console.log(
      `Subscription ${d.hookId}: its signing secret was rotated; the current one was read, and the one before it now vouches only for deliveries dated before the rotation.`,
    );
  }
  return { state: next };
};

/** The result of a read, made by one delivery at a time per subscription; a failure within its interval is reused. */
const readOnce = async (room: Room, base: SecretState, why: ReadReason): Promise<ReadOutcome> => {
  const { clock } = room;
  const recent = await room.failure.read();
  if (recent && recent.until > clock.now()) return { failure: recent };
  const seen = base.checkedAt;
  const started = clock.now();
  const outcome = await oneAtATime<ReadOutcome>(
    room.cache,
    `hook-secrets-read:${room.d.hookId}`,
    room.timings.lease,
    clock,
    {
      ready: async () => {
        const state = await room.state.read();
        if (state && state.checkedAt > seen) return { state };
        const failure = await room.failure.read();
        return failure && failure.at >= started ? { failure } : undefined;
      },
      work: () => readSubscription(room, base, why),
    },
  );
  // The bound passed while another delivery still reads: this one reads itself (bounded too).
  return outcome.by === 'waited' ? readSubscription(room, base, why) : outcome.value;
};

/** What a failed read means for this delivery: verified all the same, or an error to replay. */
const afterFailure = (room: Room, base: SecretState, failure: ReadFailure, why: ReadReason): SecretCheck => {
  const { d, z } = room;
  if (why === 'rotating') {
    // Verified by a secret confirmed a minute or more ago: it runs; the next delivery tries again.
    z.console.log(
      `Subscription ${d.hookId}: its secret is being rotated, and the new one could not be read yet (${failure.error}); this delivery was verified with the current one.`,
    );
    return { ok: true };
  }
  const age = d.now - base.checkedAt;
  if (why === 'stale' && base.checkedAt > 0 && age <= room.timings.graceSeconds * 1000) {
    z.console.log(
      `Subscription ${d.hookId}: its current secret could not be confirmed (${failure.error}); this delivery was verified with the secret confirmed ${Math.round(age / 60_000)} minutes ago.`,
    );
    return { ok: true };
  }
  throw new z.errors.Error(
    `This delivery could not be checked against the subscription's current signing secret, which could not be read: ${failure.error.replace(/\.+$/, '')}. Nothing ran; replay this run from the Zap history once the service answers again.`,
    'SECRET_REFRESH_FAILED',
    502,
  );
};

/** Turns a verdict into the check's answer; `justRead`: the state was just read for this delivery. */
const conclude = async (
  room: Room,
  state: SecretState,
  verdict: Verdict,
  justRead: boolean,
): Promise<SecretCheck> => {
  switch (verdict.kind) {
    case 'run': {
      const lowered = lowerRotation(room.d, state);
      if (lowered) await room.state.write(lowered);
      return { ok: true };
    }
    case 'drop':
      return { ok: false, reason: verdict.reason };
    case 'halt':
      throw new room.z.errors.HaltedError(verdict.message);
    default:
      // Matches nothing, just read (a forgery, or a rotated account-level secret), or read less than a
      // minute ago (halted: it may be the first delivery of a rotation made in that minute).
      if (justRead || verdict.kind === 'read') return { ok: false, reason: mismatchReason(state) };
      throw new room.z.errors.HaltedError(forgedOrJustRotated(room.d.hookId, room.timings));
  }
};

export interface SecretOptions {
  clock: Clock;
  timings: SecretTimings;
}

/**
 * Whether `delivery` is signed with a secret this subscription trusts for its date (reading the current
 * secret when the policy asks for it). A halt or an error to replay is thrown with its message.
 */
export const verifyWithCurrentSecret = async (
  z: ZObject,
  bundle: Bundle,
  subscription: { id?: string; secret?: string | null },
  delivery: ArrivedDelivery,
  { clock, timings }: SecretOptions,
): Promise<SecretCheck> => {
  const accountSecret =
    (typeof bundle.authData.webhookSecret === 'string' && bundle.authData.webhookSecret.trim()) || '';
  const given = subscription.secret?.trim() || null;
  const hookId = subscription.id?.trim() ?? '';
  if (delivery.signatureProblem) return { ok: false, reason: delivery.signatureProblem };
  if (!hookId) {
    return delivery.signedBy(given ?? accountSecret)
      ? { ok: true }
      : { ok: false, reason: 'the signature does not match the body' };
  }
  const cache = accountCache(z, bundle, () => clock.now());
  const d: Judged = { hookId, accountSecret, delivery, now: clock.now() };
  const room: Room = {
    z,
    bundle,
    d,
    clock,
    timings,
    cache,
    state: stateRecord(cache, hookId, timings),
    failure: failureRecord(cache, hookId, timings),
  };
  const state = (await room.state.read()) ?? initialState(given);
  const verdict = judge(d, state, timings);
  const why = readReason(verdict);
  if (!why) return conclude(room, state, verdict, false);
  const outcome = await readOnce(room, state, why);
  if ('gone' in outcome) {
    return {
      ok: false,
      reason: `the signature could not be checked: subscription ${hookId} no longer exists in the service (turn the Zap off and on again)`,
    };
  }
  if ('failure' in outcome) return afterFailure(room, state, outcome.failure, why);
  const next = outcome.state;
  const then = judge({ ...d, now: clock.now() }, next, timings);
  // Read by another delivery: if that read still leaves a question for this one, it is the policy's to
  // answer from what was read (at most one read per delivery).
  return conclude(room, next, then.kind === 'read' ? { kind: 'run' } : then, true);
};
