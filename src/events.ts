/**
 * Event lookups shared by operations: the Connect interface has no "get one event" endpoint, so the events
 * list is read once and cached for the account (10 minutes); an id missing from the cached list is looked up
 * once more before it is called unknown. Registrations are enriched from it without a request per item.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { type Event, LIST_LIMIT_MAX, listEvents } from './connect';
import { accountCache } from './cache';

const EVENTS_TTL_SECONDS = 600;
const EVENTS_KEY = 'events:list';

/** The account's newest events (cached); `fresh` skips the cache. */
export const accountEvents = (
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  fresh = false,
): Promise<Event[]> =>
  accountCache(z, bundle).remember(
    EVENTS_KEY,
    EVENTS_TTL_SECONDS,
    () => listEvents(z, bundle, LIST_LIMIT_MAX),
    fresh,
  );

/** One event of the account by id, or `null` when the service does not list it. */
export const findEvent = async (
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  eventId: string,
): Promise<Event | null> => {
  const cached = await accountEvents(z, bundle);
  const hit = cached.find((event) => event.id === eventId);
  if (hit) return hit;
  const fresh = await accountEvents(z, bundle, true);
  return fresh.find((event) => event.id === eventId) ?? null;
};

/** The account's most recently created event, preferring published ones (for samples). */
export const latestEvent = async (z: ZObject, bundle: Pick<Bundle, 'authData'>): Promise<Event | null> => {
  const events = await accountEvents(z, bundle);
  return events.find((event) => event.status === 'published') ?? events[0] ?? null;
};
