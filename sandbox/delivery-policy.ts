// The delivery policy: the contract's retry schedule (backoff for up to 72 h, docs/connect-contract.md §5),
// compressed by a time scale so that tests and the journey stay fast, and the bounds that keep a dead
// receiver from growing the sandbox without limit. Pure: the queue in delivery.ts applies it.

const MIN = 60_000;
const HOUR = 60 * MIN;

/** The contract: a failed delivery is retried with backoff for up to 72 h after it was made. */
export const CONTRACT_RETRY_WINDOW_MS = 72 * HOUR;
/** The service's backoff: 1 min before the first retry, doubling, at most 12 h between two attempts. */
const CONTRACT_FIRST_RETRY_MS = MIN;
const CONTRACT_MAX_RETRY_DELAY_MS = 12 * HOUR;
/** Default compression: 72 h of the service's schedule pass in 7.2 s of sandbox time. */
export const DEFAULT_TIME_SCALE = 36_000;

export interface DeliveryOptions {
  /**
   * Service time per sandbox millisecond (default 36,000: the 72 h window lasts 7.2 s). 1 replays the
   * contract's schedule in real time. Scales the retry window and the default backoff, not `timeoutMs`.
   */
  timeScale?: number;
  /** The retry window in service time (default 72 h). No retry starts later than this after the first attempt. */
  retryWindowMs?: number;
  /** Sandbox milliseconds before the first retry; doubles on every further retry. Default 1 min / timeScale. */
  baseDelayMs?: number;
  /** Upper bound of one backoff delay, in sandbox milliseconds. Default 12 h / timeScale. */
  maxDelayMs?: number;
  /** Attempts in all, the first included. Default: no count limit, the retry window ends the retries. */
  maxAttempts?: number;
  /** A receiver that has not answered within this is a failure. Default 10,000 ms (never scaled). */
  timeoutMs?: number;
  /** Deliveries not yet finished per subscription; beyond it the oldest waiting one is given up. Default 1,000. */
  maxPendingPerHook?: number;
  /** Deliveries not yet finished in the whole sandbox; beyond it the oldest waiting one is given up. Default 20,000. */
  maxPending?: number;
  /** Attempts in flight at once per subscription; the others wait their turn. Default 32. */
  maxInFlightPerHook?: number;
  /** Log entries kept per tenant (oldest dropped first, in chunks of an eighth). Default 10,000. */
  logLimit?: number;
}

export type DeliveryPolicy = Required<DeliveryOptions> & {
  /** The retry window in sandbox milliseconds (retryWindowMs / timeScale). */
  windowMs: number;
};

const positive = (value: number | undefined, fallback: number): number =>
  value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;

export function deliveryPolicy(options: DeliveryOptions = {}): DeliveryPolicy {
  const timeScale = positive(options.timeScale, DEFAULT_TIME_SCALE);
  const retryWindowMs = positive(options.retryWindowMs, CONTRACT_RETRY_WINDOW_MS);
  return {
    timeScale,
    retryWindowMs,
    windowMs: retryWindowMs / timeScale,
    baseDelayMs: options.baseDelayMs ?? CONTRACT_FIRST_RETRY_MS / timeScale,
    maxDelayMs: options.maxDelayMs ?? CONTRACT_MAX_RETRY_DELAY_MS / timeScale,
    maxAttempts: Math.max(1, Math.floor(options.maxAttempts ?? Number.POSITIVE_INFINITY)),
    timeoutMs: options.timeoutMs ?? 10_000,
    maxPendingPerHook: Math.max(1, Math.floor(options.maxPendingPerHook ?? 1_000)),
    maxPending: Math.max(1, Math.floor(options.maxPending ?? 20_000)),
    maxInFlightPerHook: Math.max(1, Math.floor(options.maxInFlightPerHook ?? 32)),
    logLimit: options.logLimit ?? 10_000,
  };
}

/** "72 h", "90 min", "45 s": a service duration for log lines. */
function serviceDuration(ms: number): string {
  if (ms >= 2 * HOUR) return `${Math.round(ms / HOUR)} h`;
  if (ms >= 2 * MIN) return `${Math.round(ms / MIN)} min`;
  return `${Math.round(ms / 1000)} s`;
}

/**
 * After attempt `attempt` failed, `elapsedMs` (sandbox time) after the first one started: the delay before
 * the next attempt, or why the delivery is given up.
 */
export function nextRetry(
  policy: DeliveryPolicy,
  attempt: number,
  elapsedMs: number,
): { delayMs: number } | { givenUp: string } {
  if (attempt >= policy.maxAttempts) {
    return { givenUp: `given up after ${attempt} attempts (maxAttempts ${policy.maxAttempts})` };
  }
  const delayMs = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  if (elapsedMs + delayMs > policy.windowMs) {
    const compressed = policy.timeScale === 1 ? '' : `, compressed ${policy.timeScale}× here`;
    return {
      givenUp:
        `given up after ${attempt} attempts: the next retry would fall outside the ` +
        `${serviceDuration(policy.retryWindowMs)} retry window${compressed}`,
    };
  }
  return { delayMs };
}
