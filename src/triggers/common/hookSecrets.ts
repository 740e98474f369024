/**
 * Which secret verifies a delivery, so that a rotated secret costs nothing, a retired one stays retired and a
 * forgery runs nothing. What is known of a subscription's secrets is kept in one account-cache entry (its
 * `SecretState`); the cache is an optimisation only: losing it costs a read of the subscription, never trust.
 *
 * 1. The subscription's current secret (at first the one it was given when the Zap was turned on, or the
 *    connection's Webhook Signing Secret when it has none) verifies a delivery only while it has been
 *    confirmed as current within the last few minutes (`GET …/hooks/:id`). Without a recent confirmation
 *    the current secret is read first: one read per subscription per few minutes while deliveries flow. If
 *    that read fails, a secret confirmed within the last hour still verifies (with a log line); an older one
 *    makes the delivery an error the user can replay.
 * 2. When that read shows a new secret, the old one is retired. It still vouches for deliveries dated at or
 *    before the rotation (the service retries a delivery with its first signature for 72 h), and for
 *    nothing after it. The rotation is dated by the service's clock (the `Date` of the read that found the
 *    new secret), lowered by every delivery the new secret verifies, never by a delivery only the old secret
 *    verified. When the state had been lost (no earlier confirmation), the date of the rotation is unknown:
 *    the retired secret then vouches for nothing, and a delivery signed only with it is halted, with a
 *    message, rather than run.
 * 3. A delivery that matches no known secret reads the current secret at most once per subscription per
 *    minute (forgeries cannot make the app hammer the service); inside that minute it is halted with a
 *    message, not dropped, since it may be the first delivery of a rotation made in that minute.
 * 4. One read at a time per subscription: a delivery that needs one while another is under way waits for
 *    its result (whether or not a secret was known before), and reads itself only if that result does not
 *    come within `secretTimings.waitMs`. If the cache fails altogether, each delivery reads once.
 *
 * Nothing here ever puts a secret into a message or a log line.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import {
  type RawDelivery,
  deliveryCreatedAt,
  errorText,
  getHook,
  signatureCount,
  verifyDelivery,
} from '../../connect';
import type { AccountCache } from '../../memory';
import { accountCache } from '../../memory';
import { trimmed as text } from '../../mappers/text';

/** A current secret confirmed less than this long ago verifies deliveries without another read. */
export const SECRET_CONFIRM_INTERVAL_SECONDS = 5 * 60;
/**
 * When the subscription cannot be read (the service fails), a secret confirmed less than this long ago still
 * verifies deliveries; an older one does not, and the delivery is an error the user can replay.
 */
export const SECRET_CONFIRM_GRACE_SECONDS = 60 * 60;
/** A delivery that matches no known secret reads the current one at most once per this many seconds. */
export const SECRET_REFRESH_INTERVAL_SECONDS = 60;
/** How long what is known of a subscription's secrets is kept. */
export const SECRET_STATE_TTL_SECONDS = 30 * 24 * 3600;
/** How many retired secrets are remembered per subscription. */
const MAX_RETIRED = 4;

/** How long a delivery waits for a read another delivery is making, and how often it looks. */
export const secretTimings = { waitMs: 10_000, pollMs: 100, lockSeconds: 30 };

export type SecretCheck = { ok: true; refreshed: boolean } | { ok: false; reason: string };

interface RetiredSecret {
  /** `null`: the account-level secret. */
  secret: string | null;
  /** Deliveries signed only with it are genuine when dated at or before this (epoch ms); `null`: none. */
  until: number | null;
}

/** What is known of one subscription's secrets. */
interface SecretState {
  /** `null`: the subscription is signed with the account-level secret. */
  current: string | null;
  /** The service's time (epoch ms) when `current` was last read as current; `null`: never. */
  confirmedAt: number | null;
  /** This app's time (epoch ms) of the last read of the subscription, for freshness. */
  checkedAt: number;
  /** This app's time of the last read made because a delivery matched no known secret. */
  mismatchAt: number;
  /** Newest first. */
  retired: RetiredSecret[];
}

type ReadReason = 'stale' | 'rotating' | 'mismatch';

type Verdict =
  | { kind: 'run' }
  /** Verified by the current secret, which must be read again first. */
  | { kind: 'read'; why: Exclude<ReadReason, 'mismatch'> }
  /** Matches no known secret; `mayRead`: the current one was not read for a mismatch in the last minute. */
  | { kind: 'unknown'; mayRead: boolean }
  | { kind: 'drop'; reason: string }
  | { kind: 'halt'; message: string };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const iso = (ms: number) => new Date(ms).toISOString();

interface Context {
  z: ZObject;
  hookId: string;
  accountSecret: string;
  raw: RawDelivery | undefined;
  /** The delivery's `createdAt` (epoch ms), as written in its body. */
  createdAt: number | null;
  now: () => number;
}

const secretOf = (ctx: Context, secret: string | null) => text(secret) || ctx.accountSecret;
const verifies = (ctx: Context, secret: string | null) => {
  const value = secretOf(ctx, secret);
  return Boolean(value) && verifyDelivery(ctx.raw, [value]).ok;
};

/** What `state` says of the delivery, without reading anything. */
const judge = (ctx: Context, state: SecretState): Verdict => {
  const age = ctx.now() - state.checkedAt;
  if (verifies(ctx, state.current)) {
    if (age > SECRET_CONFIRM_INTERVAL_SECONDS * 1000) return { kind: 'read', why: 'stale' };
    // Several signatures: a rotation has started, so the new secret is read now (at most once a minute).
    if (signatureCount(ctx.raw) > 1 && age > SECRET_REFRESH_INTERVAL_SECONDS * 1000) {
      return { kind: 'read', why: 'rotating' };
    }
    return { kind: 'run' };
  }
  const retired = state.retired.find((entry) => verifies(ctx, entry.secret));
  if (retired) return retiredVerdict(ctx, retired);
  return { kind: 'unknown', mayRead: ctx.now() - state.mismatchAt > SECRET_REFRESH_INTERVAL_SECONDS * 1000 };
};

const forgedOrJustRotated = (hookId: string) =>
  `This delivery's signature matches neither the signing secret this Zap was given nor subscription ${hookId}'s current secret, which was checked less than ${SECRET_REFRESH_INTERVAL_SECONDS} seconds ago, so nothing ran. If the organizer rotated this subscription's secret in the last minute, the deliveries from now on will run, and what this one carried can be found in the service's dashboard. Otherwise someone is sending forged deliveries to this Zap's address.`;

const retiredVerdict = (ctx: Context, retired: RetiredSecret): Verdict => {
  if (retired.until === null) {
    return {
      kind: 'halt',
      message: `This delivery is signed only with a signing secret that the organizer has since replaced for subscription ${ctx.hookId}, and when it was replaced is not known here any more, so it cannot be told from a delivery forged with the old secret. Nothing ran. If the service sent it before the secret was changed, what it carried can be found in the service's dashboard.`,
    };
  }
  if (ctx.createdAt !== null && ctx.createdAt <= retired.until) return { kind: 'run' };
  return {
    kind: 'drop',
    reason: `it is signed only with a secret the organizer has replaced: subscription ${ctx.hookId} signs everything dated after ${iso(retired.until)} with its new secret, and this delivery is dated ${ctx.createdAt === null ? 'nowhere' : iso(ctx.createdAt)}, so it was not sent by the service`,
  };
};

/** A delivery the current secret verified dates the last rotation: it happened at or before it. */
const lowerRotation = (ctx: Context, state: SecretState): SecretState | null => {
  const last = state.retired[0];
  if (!last || last.until === null || ctx.createdAt === null || ctx.createdAt >= last.until) return null;
  if (!verifies(ctx, state.current)) return null;
  return { ...state, retired: [{ ...last, until: ctx.createdAt }, ...state.retired.slice(1)] };
};

/** The state after a read of the subscription that found `secret` current at the service's `serviceTime`. */
const afterRead = (
  ctx: Context,
  state: SecretState,
  read: { secret: string | null; serviceTime: number; rotatedAt: number | null },
  why: ReadReason,
): SecretState => {
  const { secret, serviceTime } = read;
  const checkedAt = ctx.now();
  const mismatchAt = why === 'mismatch' ? checkedAt : state.mismatchAt;
  if (secretOf(ctx, secret) === secretOf(ctx, state.current)) {
    return { ...state, current: secret, confirmedAt: serviceTime, checkedAt, mismatchAt };
  }
  // Rotated: when the service says so (`secretRotatedAt`); else since the last confirmation, at or before this
  // read and at or before any delivery the new secret verifies. Without a confirmation (the state was lost)
  // and without the service's word, the rotation cannot be dated.
  let until: number | null =
    read.rotatedAt !== null && read.rotatedAt <= serviceTime
      ? read.rotatedAt
      : state.confirmedAt === null
        ? null
        : serviceTime;
  const next: SecretState = { current: secret, confirmedAt: serviceTime, checkedAt, mismatchAt, retired: [] };
  if (until !== null && ctx.createdAt !== null && verifies(ctx, secret))
    until = Math.min(until, ctx.createdAt);
  next.retired = [{ secret: state.current, until }, ...state.retired].slice(0, MAX_RETIRED);
  return next;
};

const stateKey = (hookId: string) => `hook-secrets:${hookId}`;
const lockKey = (hookId: string) => `hook-secrets-read:${hookId}`;

const initialState = (given: string | null): SecretState => ({
  current: given,
  confirmedAt: null,
  checkedAt: 0,
  mismatchAt: 0,
  retired: [],
});

/**
 * Waits for a read that another delivery has under way to land in the cache: resolves its state, or
 * `undefined` when none landed within `secretTimings.waitMs` (the caller then reads itself).
 */
const awaitOtherRead = async (
  cache: AccountCache,
  hookId: string,
  seen: number,
): Promise<SecretState | undefined> => {
  for (let waited = 0; waited < secretTimings.waitMs; waited += secretTimings.pollMs) {
    await sleep(secretTimings.pollMs);
    const state = await cache.get<SecretState>(stateKey(hookId));
    if (state && state.checkedAt > seen) return state;
  }
  return undefined;
};

/** Reads the subscription's current secret and records it; `null` when the service no longer has it. */
const readCurrent = async (
  ctx: Context,
  bundle: Bundle,
  cache: AccountCache,
  state: SecretState,
  why: ReadReason,
): Promise<SecretState | null> => {
  let read;
  try {
    read = await getHook(ctx.z, bundle, ctx.hookId);
  } catch (error) {
    if (why === 'rotating') {
      // The delivery was verified by a secret confirmed a minute or more ago: it runs; the next one retries.
      ctx.z.console.log(
        `Subscription ${ctx.hookId}: its secret is being rotated, and the new one could not be read yet (${errorText(error)}); this delivery was verified with the current one.`,
      );
      return state;
    }
    if (
      why === 'stale' &&
      state.checkedAt > 0 &&
      ctx.now() - state.checkedAt <= SECRET_CONFIRM_GRACE_SECONDS * 1000
    ) {
      // The service's subscription endpoint fails for a while: a secret confirmed within the grace period
      // still verifies (the next delivery asks again), rather than every delivery failing meanwhile.
      ctx.z.console.log(
        `Subscription ${ctx.hookId}: its current secret could not be confirmed (${errorText(error)}); this delivery was verified with the secret confirmed ${Math.round((ctx.now() - state.checkedAt) / 60_000)} minutes ago.`,
      );
      return state;
    }
    // Not silently lost: the run errors and says why, so it can be replayed once the service answers.
    throw new ctx.z.errors.Error(
      `This delivery could not be checked against the subscription's current signing secret, which could not be read: ${errorText(error)}. Nothing ran; replay this run once the service answers again.`,
      'SECRET_REFRESH_FAILED',
      502,
    );
  }
  if (!read.hook) return null;
  const rotatedAt = Date.parse(read.hook.secretRotatedAt ?? '');
  const next = afterRead(
    ctx,
    state,
    {
      secret: text(read.hook.secret) || null,
      serviceTime: read.serviceTime ?? ctx.now(),
      rotatedAt: Number.isFinite(rotatedAt) ? rotatedAt : null,
    },
    why,
  );
  await cache.set(stateKey(ctx.hookId), next, SECRET_STATE_TTL_SECONDS);
  if (secretOf(ctx, next.current) !== secretOf(ctx, state.current)) {
    ctx.z.console.log(
      `Subscription ${ctx.hookId}: its signing secret was rotated; the current one was read, and the one before it now vouches only for deliveries dated before the rotation.`,
    );
  }
  return next;
};

export const verifyWithCurrentSecret = async (
  z: ZObject,
  bundle: Bundle,
  subscription: { id?: string; secret?: string | null },
  raw: RawDelivery | undefined,
  now: () => number = Date.now,
): Promise<SecretCheck> => {
  const accountSecret = text(bundle.authData.webhookSecret);
  const given = text(subscription.secret) || null;
  const hookId = text(subscription.id);
  const probe = verifyDelivery(raw, [given ?? accountSecret].filter(Boolean));
  // A missing or malformed signature is refused at once; only a well-formed mismatch may be a rotation.
  if (!probe.ok && !probe.mismatch) return { ok: false, reason: probe.reason };
  if (!hookId) return probe.ok ? { ok: true, refreshed: false } : { ok: false, reason: probe.reason };

  const ctx: Context = { z, hookId, accountSecret, raw, createdAt: deliveryCreatedAt(raw), now };
  const cache = accountCache(z, bundle, now);
  const state = (await cache.get<SecretState>(stateKey(hookId))) ?? initialState(given);
  const verdict = judge(ctx, state);
  const why = readReason(verdict);
  if (!why) return conclude(ctx, cache, state, verdict, false);

  // One read at a time per subscription: wait for one under way, whether or not a secret was known.
  const mine = await cache.claim(lockKey(hookId), secretTimings.lockSeconds);
  const other = mine ? undefined : await awaitOtherRead(cache, hookId, state.checkedAt);
  if (other) {
    const then = judge(ctx, other);
    const again = readReason(then);
    if (!again) return conclude(ctx, cache, other, then, false);
  }
  const base = other ?? state;
  let next: SecretState | null;
  try {
    next = await readCurrent(ctx, bundle, cache, base, why);
  } finally {
    if (mine) await cache.delete(lockKey(hookId));
  }
  if (!next) {
    return {
      ok: false,
      reason: `the signature could not be checked: subscription ${hookId} no longer exists in the service (turn the Zap off and on again)`,
    };
  }
  // A read that failed while a rotation starts leaves the state as it was: the delivery runs (see readCurrent).
  if (next === base) return { ok: true, refreshed: false };
  return conclude(ctx, cache, next, judge(ctx, next), true);
};

/** The read a verdict asks for, if any. */
const readReason = (verdict: Verdict): ReadReason | null =>
  verdict.kind === 'read' ? verdict.why : verdict.kind === 'unknown' && verdict.mayRead ? 'mismatch' : null;

/** Turns a verdict into the check's answer; `afterRead`: the state was just read by this delivery. */
const conclude = async (
  ctx: Context,
  cache: AccountCache,
  state: SecretState,
  verdict: Verdict,
  afterRead: boolean,
): Promise<SecretCheck> => {
  switch (verdict.kind) {
    case 'run': {
      const lowered = lowerRotation(ctx, state);
      if (lowered) await cache.set(stateKey(ctx.hookId), lowered, SECRET_STATE_TTL_SECONDS);
      return { ok: true, refreshed: afterRead };
    }
    case 'drop':
      return { ok: false, reason: verdict.reason };
    case 'halt':
      throw new ctx.z.errors.HaltedError(verdict.message);
    default:
      // Matches nothing, just read (a forgery, or a rotated account-level secret), or read by another
      // delivery less than a minute ago (halted: it may be the first delivery of a rotation in that minute).
      if (afterRead || verdict.kind === 'read') return { ok: false, reason: mismatchReason(state) };
      throw new ctx.z.errors.HaltedError(forgedOrJustRotated(ctx.hookId));
  }
};

const mismatchReason = (state: SecretState): string =>
  state.current
    ? "the signature matches neither the secret this Zap was given nor the subscription's current secret"
    : 'the signature does not match the account-level Webhook Signing Secret of the connection (if it was rotated in the dashboard, reconnect the account with the new one)';
