/**
 * Every Connect path, in one place: the 9 endpoints of the interface document and the 2 hook-subscription
 * endpoints of the contract. Path parameters are always validated and percent-encoded here (`pathSegment`).
 */

/**
 * Why `value` cannot be one path segment, in words, or `null` when it can. Percent-encoding alone is not
 * enough: `encodeURIComponent` leaves `.` and `..` as they are, and URL parsing then walks up the path
 * (`/floor-plans/..` is the event itself, `/map/..` another page). Slashes, backslashes, `?` and `#` would be
 * encoded, but some servers decode them before routing, so they are refused too.
 */
export const pathSegmentProblem = (value: string): string | null => {
  if (value === '') return 'it is empty';
  if (value === '.' || value === '..') return `"${value}" would point to another address`;
  const odd = /[/\\?#]/.exec(value)?.[0];
  if (odd) return `it contains "${odd}"`;
  if (/[\u0000-\u001f\u007f]/.test(value)) return 'it contains a control character';
  return null;
};

/** A request or page path segment that refuses to leave its place in the path. */
export class PathSegmentError extends Error {
  constructor(value: string, problem: string) {
    super(
      `"${value.slice(0, 60)}" cannot be used as an identifier in an address (${problem}). Choose the item again from its dropdown, or map an ID from an earlier step.`,
    );
    this.name = 'PathSegmentError';
  }
}

/** One path segment: validated (never `.`, `..`, a slash…), then percent-encoded. */
export const pathSegment = (value: string): string => {
  const problem = pathSegmentProblem(value);
  if (problem) throw new PathSegmentError(value, problem);
  return encodeURIComponent(value);
};

const seg = pathSegment;

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
