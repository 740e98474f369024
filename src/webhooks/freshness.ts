/**
 * When a delivery can have been sent by the service, on this app's clock: the service retries a delivery for
 * 72 hours and never dates one in the future; clocks may differ by the skew margin.
 */
const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;

/** How far the service's clock and Zapier's may differ. */
export const CLOCK_SKEW_MARGIN_MS = 15 * MINUTE_MS;
/** How long the service retries a delivery. */
export const RETRY_WINDOW_MS = 72 * HOUR_MS;
/** A delivery older than this is never a genuine retry: it is dropped. */
export const DELIVERY_MAX_AGE_MS = RETRY_WINDOW_MS + CLOCK_SKEW_MARGIN_MS;
/** Delivery ids are remembered longer than any delivery can pass the age check (plus a day's margin). */
export const DELIVERY_MEMORY_SECONDS = (RETRY_WINDOW_MS + 24 * HOUR_MS) / 1000;

/**
 * Why a delivery dated `signedAt` cannot have been sent by the service by `now`, or `null` when it can: not
 * more than the clock-skew margin ahead and not older than the 72 h retry window.
 */
export const freshnessProblem = (signedAt: number, now: number): string | null => {
  if (signedAt - now > CLOCK_SKEW_MARGIN_MS) {
    return `it is dated ${new Date(signedAt).toISOString()}, ahead of now by more than the ${CLOCK_SKEW_MARGIN_MS / MINUTE_MS} minutes a clock can be off: the service never sends a delivery dated in the future`;
  }
  if (now - signedAt > DELIVERY_MAX_AGE_MS) {
    return `it was created at ${new Date(signedAt).toISOString()}, more than 72 hours ago: the service retries for 72 hours only, so this is a replay`;
  }
  return null;
};

/** How long a delivery id is remembered: at least until it could no longer pass the age check. */
export const deliveryMemorySeconds = (signedAt: number, now: number): number =>
  Math.max(DELIVERY_MEMORY_SECONDS, (signedAt + DELIVERY_MAX_AGE_MS - now) / 1000 + 3600);

/**
 * The service's clock as an answer's `Date` header gives it, bounded by this app's: never later than the
 * skew margin ahead (a `Date` in 2100 cannot keep a retired secret open), and `now` when there is none.
 */
export const boundedServiceTime = (serviceTime: number | null, now: number): number =>
  serviceTime === null ? now : Math.min(serviceTime, now + CLOCK_SKEW_MARGIN_MS);
