/**
 * Which secret verifies a delivery, so that a rotated secret costs nothing, a retired one opens nothing and a
 * forgery still runs nothing.
 *
 * 1. The secret the subscription was given when the Zap was turned on (`subscribeData.secret`), or the
 *    connection's Webhook Signing Secret when it has none.
 * 2. When well-formed signatures match neither: the subscription's current secret learned by an earlier
 *    fetch, kept in the account cache.
 * 3. Still no match: the current secret is fetched (`GET …/hooks/:id`) at most once per subscription per
 *    minute (a rate-limit entry in the account cache), kept, and the delivery verified again. A delivery that
 *    arrives while another one is fetching waits a few seconds for that result. One that still matches
 *    nothing within the minute after a fetch is halted with a message, not dropped: it may be the first
 *    delivery of a rotation made in that minute, and a forgery sent just before it must not make it vanish.
 *    If the cache fails altogether, each delivery may fetch once: at most one request per delivery.
 * 4. Once a newer secret is known, the given one is retired for everything dated after the rotation: the
 *    service signs every newer delivery with the new secret (during the overlap, with both), and a retry
 *    keeps the signature of its first attempt (contract §5), so a delivery signed only with the old secret
 *    is accepted when it is dated at or before the rotation (`rotatedBy`: the date of the first delivery
 *    seen signed with the new secret) and dropped otherwise. A delivery that carries several signatures (a
 *    rotation in progress) makes the app learn the new secret at once (same rate limit), so the old secret
 *    stops opening the Zap when a rotation starts, not only when the old secret stops being used.
 *
 * Nothing here ever puts a secret into a message or a log line.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import {
  type HookSubscription,
  type RawDelivery,
  deliveryCreatedAt,
  errorText,
  getHook,
  signatureCount,
  verifyDelivery,
} from '../../connect';
import type { AccountCache } from '../../account/store';
import { accountCache } from '../../account/store';

/** At most one fetch of a subscription's current secret per this many seconds. */
export const SECRET_REFRESH_INTERVAL_SECONDS = 60;
/** How long a fetched secret is kept (a later rotation is fetched again when it stops verifying). */
export const CURRENT_SECRET_TTL_SECONDS = 30 * 24 * 3600;
/** How long a delivery waits for a fetch another delivery started. */
export const REFRESH_WAIT_MS = 5000;
const REFRESH_POLL_MS = 200;

export type SecretCheck = { ok: true; refreshed: boolean } | { ok: false; reason: string };

interface CurrentSecret {
  /** `null`: the subscription is signed with the account-level secret. */
  secret: string | null;
  /**
   * The service's time (epoch ms) by which the subscription was signing with `secret`: the `createdAt` of the
   * first delivery seen signed with it (and not with the given one). `null` when not known.
   */
  rotatedBy?: number | null;
}

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const halted = (z: ZObject, hookId: string): never => {
  throw new z.errors.HaltedError(
    `This delivery's signature matches neither the signing secret this Zap was given nor subscription ${hookId}'s current secret, which was checked less than ${SECRET_REFRESH_INTERVAL_SECONDS} seconds ago, so nothing ran. If the organizer rotated this subscription's secret in the last minute, the deliveries from now on will run, and what this one carried can be found in the service's dashboard. Otherwise someone is sending forged deliveries to this Zap's address.`,
  );
};

const earliest = (a: number | null | undefined, b: number | null): number | null =>
  a === null || a === undefined ? b : b === null ? a : Math.min(a, b);

export const verifyWithCurrentSecret = async (
  z: ZObject,
  bundle: Bundle,
  subscription: { id?: string; secret?: string | null },
  raw: RawDelivery | undefined,
): Promise<SecretCheck> => {
  const accountSecret = text(bundle.authData.webhookSecret);
  const given = text(subscription.secret) || accountSecret;
  const hookId = text(subscription.id);
  const secretOf = (current: CurrentSecret) => text(current.secret) || accountSecret;
  const verifies = (secret: string) => Boolean(secret) && verifyDelivery(raw, [secret]).ok;

  const first = verifyDelivery(raw, given ? [given] : []);
  // Only signatures that were checked and did not match can be fixed by another secret.
  if (!first.ok && (!first.mismatch || !hookId)) return { ok: false, reason: first.reason };
  if (!hookId) return { ok: true, refreshed: false };

  const cache = accountCache(z, bundle);
  const key = `hook-secret:${hookId}`;
  const known = await cache.get<CurrentSecret>(key);
  // A newer secret than the given one, learned earlier.
  const newer = known && secretOf(known) !== given ? known : null;
  const remember = (current: CurrentSecret) => cache.set(key, current, CURRENT_SECRET_TTL_SECONDS);

  if (newer && verifies(secretOf(newer))) {
    // Signed with the new secret: the rotation had happened by this delivery's date. Once that date is
    // known, later deliveries are not parsed again for it (the body is parsed once, after verification).
    if (newer.rotatedBy === null || newer.rotatedBy === undefined) {
      const rotatedBy = deliveryCreatedAt(raw);
      if (rotatedBy !== null) await remember({ ...newer, rotatedBy });
    }
    return { ok: true, refreshed: false };
  }
  if (first.ok) {
    if (newer) return retiredCheck(hookId, newer, raw);
    if (signatureCount(raw) > 1) await learnDuringRotation(z, bundle, cache, hookId, given, raw, remember);
    return { ok: true, refreshed: false };
  }

  const mayFetch = await cache.claim(refreshKey(hookId), SECRET_REFRESH_INTERVAL_SECONDS);
  if (!mayFetch) {
    // Fetched less than a minute ago. If that result is still on its way (another delivery is fetching
    // right now), wait for it; if it is known and does not verify, halt (see the module comment).
    if (!known) {
      for (let waited = 0; waited < REFRESH_WAIT_MS; waited += REFRESH_POLL_MS) {
        await sleep(REFRESH_POLL_MS);
        const fetched = await cache.get<CurrentSecret>(key);
        if (fetched) {
          if (verifies(secretOf(fetched))) return { ok: true, refreshed: false };
          break;
        }
      }
    }
    return halted(z, hookId);
  }

  let hook;
  try {
    hook = await getHook(z, bundle, hookId);
  } catch (error) {
    // Not silently lost: the run errors and says why, so it can be replayed once the service answers.
    throw new z.errors.Error(
      `A delivery did not match the signing secret this Zap was given, and the subscription's current secret could not be fetched to check it again: ${errorText(error)}`,
      'SECRET_REFRESH_FAILED',
      502,
    );
  }
  if (!hook) {
    return {
      ok: false,
      reason: `the signature does not match, and subscription ${hookId} no longer exists in the service (turn the Zap off and on again)`,
    };
  }
  const current: CurrentSecret = { secret: text(hook.secret) || null, rotatedBy: null };
  const currentSecret = secretOf(current);
  if (verifies(currentSecret)) {
    // The given secret stopped vouching at the first rotation seen, whichever secret came after it.
    await remember({ ...current, rotatedBy: earliest(newer?.rotatedBy, deliveryCreatedAt(raw)) });
    z.console.log(
      `Subscription ${hookId}: its signing secret was rotated; the current one was fetched and verified this delivery.`,
    );
    return { ok: true, refreshed: true };
  }
  await remember(current);
  return {
    ok: false,
    reason: current.secret
      ? "the signature matches neither the secret this Zap was given nor the subscription's current secret"
      : 'the signature does not match the account-level Webhook Signing Secret of the connection (if it was rotated in the dashboard, reconnect the account with the new one)',
  };
};

const refreshKey = (hookId: string) => `hook-secret-refresh:${hookId}`;

/** A delivery signed only with the given secret, once a newer one is known: genuine only if dated before. */
const retiredCheck = (hookId: string, newer: CurrentSecret, raw: RawDelivery | undefined): SecretCheck => {
  const rotatedBy = newer.rotatedBy ?? null;
  if (rotatedBy === null) return { ok: true, refreshed: false };
  const createdAt = deliveryCreatedAt(raw);
  if (createdAt !== null && createdAt <= rotatedBy) return { ok: true, refreshed: false };
  return {
    ok: false,
    reason: `it is signed only with the secret this Zap was given, which the organizer has rotated: subscription ${hookId} signs everything dated after ${new Date(rotatedBy).toISOString()} with its new secret, and this delivery is dated ${createdAt === null ? 'nowhere' : new Date(createdAt).toISOString()}, so it was not sent by the service`,
  };
};

/**
 * A delivery with several signatures, verified by the given secret: a rotation is in progress, so the new
 * secret is fetched now (rate-limited like any fetch). A failed fetch changes nothing for this delivery.
 */
const learnDuringRotation = async (
  z: ZObject,
  bundle: Bundle,
  cache: AccountCache,
  hookId: string,
  given: string,
  raw: RawDelivery | undefined,
  remember: (current: CurrentSecret) => Promise<unknown>,
): Promise<void> => {
  if (!(await cache.claim(refreshKey(hookId), SECRET_REFRESH_INTERVAL_SECONDS))) return;
  let hook: HookSubscription | null;
  try {
    hook = await getHook(z, bundle, hookId);
  } catch (error) {
    z.console.log(
      `Subscription ${hookId}: its secret is being rotated, and the new one could not be fetched yet (${errorText(error)}); this delivery was verified with the current one.`,
    );
    return;
  }
  const secret = text(hook?.secret);
  if (!hook || !secret || secret === given) return;
  await remember({ secret, rotatedBy: deliveryCreatedAt(raw) });
  z.console.log(
    `Subscription ${hookId}: its signing secret is being rotated; the new one was fetched, and the one this Zap was given now verifies only deliveries dated before the rotation.`,
  );
};
