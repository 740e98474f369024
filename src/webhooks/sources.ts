/**
 * Where an instant trigger's recent data for the editor's test comes from (`performList`): recent real
 * records of exactly the live shape, from the polling endpoints.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import type { Event, Order, Submission } from '../connect';
import { accountEvents } from '../account/events';
import { recentOrders, recentSubmissions } from '../account/recent';
import { companyIdOf } from '../fields/company';
import { trimmed as text } from '../mappers/text';

/** Recent records for the editor's test, given the chosen event (or `null` for all). */
export type ListSource<D> = (z: ZObject, bundle: Bundle, eventId: string | null) => Promise<D[]>;

/** Recent registrations of the chosen (or latest) event that pass `keep`. */
export const recentRegistrations =
  (keep?: (submission: Submission) => boolean): ListSource<Submission> =>
  async (z, bundle, eventId) =>
    (await recentSubmissions(z, bundle, { eventId, keep })).submissions;

/** Recent orders of the connection's company with `status` (of the chosen event, if any). */
export const recentPayments =
  (status: string): ListSource<Order> =>
  async (z, bundle, eventId) => {
    if (!text(bundle.authData.companyId)) {
      throw new z.errors.Error(
        'Recent payments are read from your company\'s orders, and your connection has no Company ID. Reconnect your account and fill in "Company ID" (dashboard: Settings → Company) to test with real payments. Live payments reach your Zap without it.',
        'CONFIGURATION',
        400,
      );
    }
    return recentOrders(z, bundle, {
      companyId: companyIdOf(z, bundle),
      keep: (order) => order.status === status && (!eventId || order.eventId === eventId),
    });
  };

/** The account's newest events (the chosen one only, if any) that pass `keep`. */
export const recentEvents =
  (keep?: (event: Event) => boolean): ListSource<Event> =>
  async (z, bundle, eventId) =>
    (await accountEvents(z, bundle, true))
      .filter((event) => (!eventId || event.id === eventId) && (keep?.(event) ?? true))
      .slice(0, 3);
