/**
 * Event lookups shared by operations: the Connect interface has no "get one event" endpoint, so the events
 * list is read once and cached for the account (10 minutes); an id missing from the cached list is looked up
 * once more before it is called unknown. Registrations are enriched from it without a request per item.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { type Event, LIST_LIMIT_MAX, errorText, listEvents } from '../connect';
import { accountCache } from '../memory';
import { type EventContext, NO_EVENT_CONTEXT, eventContextOf } from '../mappers/submission';

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

/**
 * How long the title and dates added to registrations are reused. Long on purpose: a poll that needed the
 * events list every 10 minutes would double its requests; a renamed event shows its new title within 6 hours.
 */
const EVENT_CONTEXT_TTL_SECONDS = 6 * 3600;

/**
 * The title and dates added to every registration (polled, delivered or found): one cached lookup per
 * account and event. An event the service does not list gets empty context (remembered too); a failed lookup
 * adds no context this time, is not remembered, and never fails the operation.
 */
export const eventContext = async (
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  eventId: string,
): Promise<EventContext> => {
  const cache = accountCache(z, bundle);
  const key = `event-context:${eventId}`;
  const cached = await cache.get<EventContext>(key);
  if (cached) return cached;
  try {
    const context = eventContextOf(await findEvent(z, bundle, eventId));
    await cache.set(key, context, EVENT_CONTEXT_TTL_SECONDS);
    return context;
  } catch (error) {
    z.console.log(`The title and dates of event ${eventId} could not be added: ${errorText(error)}`);
    return NO_EVENT_CONTEXT;
  }
};
