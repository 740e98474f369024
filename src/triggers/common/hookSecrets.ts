/**
 * Which secret verifies a delivery, so that a rotated secret costs nothing and a forgery still runs nothing.
 *
 * 1. The secret the subscription was given when the Zap was turned on (`subscribeData.secret`), or the
 *    connection's Webhook Signing Secret when it has none.
 * 2. When well-formed signatures match neither: the subscription's current secret learned by an earlier
 *    refresh, kept in the account cache.
 * 3. Still no match: the current secret is fetched (`GET …/hooks/:id`) at most once per subscription per
 *    minute (a rate-limit entry in the account cache), kept, and the delivery verified again. A delivery that
 *    arrives while another one is fetching waits a few seconds for that result instead of being dropped.
 *    If the cache fails altogether, each delivery may fetch once: at most one request per delivery.
 *
 * Only then is a delivery dropped. Nothing here ever puts a secret into a message or a log line.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { type RawDelivery, errorText, getHook, verifyDelivery } from '../../connect';
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
}

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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

  const first = verifyDelivery(raw, given ? [given] : []);
  if (first.ok) return { ok: true, refreshed: false };
  // Only signatures that were checked and did not match can be fixed by another secret.
  if (!first.mismatch || !hookId) return { ok: false, reason: first.reason };

  const cache = accountCache(z, bundle);
  const key = `hook-secret:${hookId}`;
  const known = await cache.get<CurrentSecret>(key);
  if (known && secretOf(known) !== given && verifyDelivery(raw, [secretOf(known)]).ok) {
    return { ok: true, refreshed: false };
  }

  const mayFetch = await cache.claim(`hook-secret-refresh:${hookId}`, SECRET_REFRESH_INTERVAL_SECONDS);
  if (!mayFetch) {
    // Fetched less than a minute ago. If that result is already known and did not verify, this is no
    // rotation: drop. If it is still on its way (another delivery is fetching right now), wait for it.
    if (!known) {
      for (let waited = 0; waited < REFRESH_WAIT_MS; waited += REFRESH_POLL_MS) {
        await sleep(REFRESH_POLL_MS);
        const fetched = await cache.get<CurrentSecret>(key);
        if (fetched) {
          if (verifyDelivery(raw, [secretOf(fetched)]).ok) return { ok: true, refreshed: false };
          break;
        }
      }
    }
    return {
      ok: false,
      reason: `the signature matches neither the secret this Zap was given nor the subscription's current secret (fetched less than ${SECRET_REFRESH_INTERVAL_SECONDS} seconds ago)`,
    };
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
  const current: CurrentSecret = { secret: text(hook.secret) || null };
  await cache.set(key, current, CURRENT_SECRET_TTL_SECONDS);
  const currentSecret = secretOf(current);
  if (currentSecret && verifyDelivery(raw, [currentSecret]).ok) {
    z.console.log(
      `Subscription ${hookId}: its signing secret was rotated; the current one was fetched and verified this delivery.`,
    );
    return { ok: true, refreshed: true };
  }
  return {
    ok: false,
    reason: current.secret
      ? "the signature matches neither the secret this Zap was given nor the subscription's current secret"
      : 'the signature does not match the account-level Webhook Signing Secret of the connection (if it was rotated in the dashboard, reconnect the account with the new one)',
  };
};
