/**
 * Turning a Zap on (contract §5, `POST …/hooks`) so that a lost answer leaves nothing behind: the request
 * carries an `Idempotency-Key` derived from what is subscribed (the Zap's target URL, the kind, the event),
 * so sending it again, in the same turn-on or when the Zap builder turns the Zap on again, answers the
 * subscription the service already made instead of making a second one that no Zap would own.
 *
 * One turn-on sends the request at most twice, each bounded in time, within Zapier's 30 s: again only after
 * a failure that may pass (no answer, a 5xx, the first request with the key still in flight). When
 * both fail, the message tells the Zap builder to turn the Zap on again, and nothing about polls.
 */
import { createHash, createHmac } from 'node:crypto';
import type { ZObject } from 'zapier-platform-core';
import { APP_ERROR_CODES, appErrorCode, errorText } from './errors';

/** The longest one attempt may take: two attempts and the pause between them fit in Zapier's 30 s. */
export const TURN_ON_ATTEMPT_MS = 12_000;
/** The pause before the second attempt when the first is still being processed by the service. */
const IN_FLIGHT_PAUSE_MS = 2_000;

/**
 * The `Idempotency-Key` of a turn-on: the same for every turn-on of the same Zap with the same kind and
 * event (a retry, or the Zap builder turning it on again), different for anything else. A digest, so the
 * target URL itself never travels in a header.
 */
export const turnOnKey = (params: { targetUrl: string; event: string; eventId: string | null }): string =>
  `zap-hook-${createHash('sha256')
    .update(JSON.stringify([params.targetUrl, params.event, params.eventId]))
    .digest('hex')
    .slice(0, 48)}`;

/**
 * The signing secret the app makes for a subscription when the service takes it from the subscribe request
 * (`secretSource: 'client'` of `dialect.ts`): derived from the API key and the turn-on's key, so a turn-on
 * sent again with the same `Idempotency-Key` carries the same body, and nobody without the key can compute it.
 */
export const turnOnSecret = (
  apiKey: string,
  params: { targetUrl: string; event: string; eventId: string | null },
): string => `whsec_${createHmac('sha256', apiKey).update(turnOnKey(params)).digest('hex')}`;

/** The first request with this key is still being processed (409 with the key in use). */
const isInFlight = (error: unknown): boolean => error instanceof Error && error.name === 'ThrottledError';

/**
 * A failure that may pass when the same request is sent again at once. Not a 429: the service asked for a
 * pause longer than a turn-on has, and the message says how long to wait before turning the Zap on again.
 */
const mayPassAgain = (error: unknown): boolean => {
  if (isInFlight(error)) return true;
  const code = appErrorCode(error);
  return code === 'NETWORK' || code === APP_ERROR_CODES.service_failed;
};

/** The error a failed turn-on ends with: what happened, then what the Zap builder does next. */
const turnOnFailed = (z: ZObject, error: unknown): Error => {
  if (!isInFlight(error)) return error instanceof Error ? error : new Error(String(error));
  return new z.errors.Error(
    'The service was still creating the subscription for this Zap when the time to turn it on ran out, so the Zap was not turned on. Turn the Zap on again in a minute: the subscription the service made is then taken over, not made twice.',
    'TURN_ON_INCOMPLETE',
    503,
  );
};

/**
 * `send` (one `POST …/hooks` with the turn-on's key), sent again once after a failure that may pass. The
 * second attempt's failure is the one shown, worded for turning the Zap on again.
 */
export const turnOnWithRetry = async <T>(
  z: ZObject,
  send: () => Promise<T>,
  pause: (ms: number) => Promise<void> = (ms) => new Promise((done) => setTimeout(done, ms)),
): Promise<T> => {
  try {
    return await send();
  } catch (first) {
    if (!mayPassAgain(first)) throw first;
    z.console.log(
      `Turning the Zap on: the service's answer did not come (${errorText(first).split('. ')[0]}); the request is sent once more with the same Idempotency-Key, so a subscription already made is answered again, not made twice.`,
    );
    if (isInFlight(first)) await pause(IN_FLIGHT_PAUSE_MS);
    try {
      return await send();
    } catch (second) {
      throw turnOnFailed(z, second);
    }
  }
};
