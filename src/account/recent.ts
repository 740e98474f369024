/**
 * Recent real records for samples (`performList` of instant triggers, and the editor's "test" of polling
 * triggers): small, bounded reads of the polling endpoints, mapped by the same mappers as live items.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { type Order, type Submission, listOrders, readSubmissions } from '../connect';
import { latestEvent } from './events';
import { FirstN, newestFirstOrder } from './selection';

/** Widening look-back windows: a busy event answers from the first, a quiet one from a later one. */
const LOOKBACK_HOURS = [1, 24, 24 * 30, 24 * 365];

export interface RecentSubmissions {
  submissions: Submission[];
}

/**
 * Up to `limit` recent submissions of `eventId` (or of the latest event) that pass `keep`, newest first.
 */
export const recentSubmissions = async (
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  options: {
    eventId?: string | null;
    keep?: (submission: Submission) => boolean;
    limit?: number;
    now?: number;
  },
): Promise<RecentSubmissions> => {
  const limit = options.limit ?? 3;
  const keep = options.keep ?? (() => true);
  // The items' event title and dates are added by the caller (`eventContext`): only the event's ID is needed.
  const eventId = options.eventId || (await latestEvent(z, bundle))?.id;
  if (!eventId) return { submissions: [] };
  const now = options.now ?? Date.now();
  let found: Submission[] = [];
  for (const hours of LOOKBACK_HOURS) {
    const since = new Date(now - hours * 3_600_000).toISOString();
    // Only the newest `limit` are kept as the window streams by (a busy event's year is large).
    const newest = new FirstN<{ ms: number; id: string; submission: Submission }>(limit, newestFirstOrder);
    await readSubmissions(z, bundle, { eventId, since }, (submission) => {
      if (!keep(submission)) return;
      newest.offer({ ms: Date.parse(submission.createdAt), id: submission.submissionId, submission });
    });
    found = newest.sorted().map((entry) => entry.submission);
    if (found.length >= limit) break;
  }
  return { submissions: found };
};

/** Up to `limit` recent orders of `companyId` that pass `keep`, newest first. */
export const recentOrders = async (
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  options: { companyId: string; keep?: (order: Order) => boolean; limit?: number },
): Promise<Order[]> => {
  const orders = await listOrders(z, bundle, { companyId: options.companyId, limit: 100 });
  return orders.filter(options.keep ?? (() => true)).slice(0, options.limit ?? 3);
};
