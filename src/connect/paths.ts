/**
 * Every Connect path, in one place: the 9 endpoints of the interface document and the 2 hook-subscription
 * endpoints of the contract. Path parameters are always percent-encoded here.
 */
const seg = (value: string): string => encodeURIComponent(value);

export const paths = {
  /** 1. GET, key: the event's published floor plans. */
  floorPlans: (eventUuid: string) => `/connect/v1/events/${seg(eventUuid)}/floor-plans`,
  /** 2. GET, key: one published floor plan. */
  floorPlan: (eventUuid: string, planId: string) =>
    `/connect/v1/events/${seg(eventUuid)}/floor-plans/${seg(planId)}`,
  /** 3. GET, key: the organizer's events (query `limit`). */
  events: () => '/api/v1/integrations/zapier/events',
  /** 4. GET, key: submissions of one event since a timestamp (query `eventId`, `since`). */
  submissions: () => '/api/v1/integrations/zapier/submissions',
  /** 5. GET, key: company orders (query `companyId`, `limit`). */
  orders: () => '/api/v1/integrations/zapier/orders',
  /** 6. GET, no key: the public catalog (query `page`, `limit`). */
  publicEvents: () => '/api/v1/public/events',
  /** 7. GET, no key: the event widget. */
  eventWidget: (slug: string) => `/widgets/event/${seg(slug)}`,
  /** 8. GET, no key: the agenda widget. */
  agendaWidget: (slug: string) => `/widgets/event/${seg(slug)}/agenda`,
  /** 9. POST, key: check-in. */
  checkIn: () => '/api/v1/checkin',
  /** Contract §5: POST, key: subscribe a REST hook. */
  hooks: () => '/api/v1/integrations/zapier/hooks',
  /** Contract §5: GET (its current secret) and DELETE (unsubscribe), key: one REST hook. */
  hook: (hookId: string) => `/api/v1/integrations/zapier/hooks/${seg(hookId)}`,
} as const;
