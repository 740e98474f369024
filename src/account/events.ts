/**
 * Event lookups shared by operations: the Connect interface has no "get one event" endpoint, so the events
 * list is read once and cached for the account (10 minutes); an id missing from the cached list is looked up
 * once more (as far as the service answers, for an account with many events) before it is called unknown. Registrations are enriched from it without a request per item.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import {
  EVENTS_LIMIT_MAX,
  type Event,
  LIST_LIMIT_MAX,
  errorText,
  eventNotFoundError,
  listEvents,
} from '../connect';
import { accountCache } from '../memory';
import { type EventContext, NO_EVENT_CONTEXT, eventContextOf } from '../mappers/submission';
import { eventForLookup } from '../mappers/event';

const EVENTS_TTL_SECONDS = 600;
const EVENTS_KEY = 'events:list';

/**
 * The account's newest events (cached); `fresh` skips the cache. What is cached is bounded: each event's known
 * fields only, each text cut (`eventForLookup`), so no description or added field of any size reaches `z.cache`.
 */
export const accountEvents = (
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  fresh = false,
): Promise<Event[]> =>
  accountCache(z, bundle).remember(
    EVENTS_KEY,
    EVENTS_TTL_SECONDS,
    async () => (await listEvents(z, bundle, LIST_LIMIT_MAX)).map(eventForLookup),
    fresh,
  );

interface EventLookup {
  event: Event | null;
  /** When the event is not found and the list read holds only the account's newest events: how many. */
  newest?: number;
}

/**
 * One event of the account by id: in the cached list, else in a fresh one; an account with more events than
 * one list holds is read as far as the service answers (`EVENTS_LIMIT_MAX`), so an older event is found too.
 */
const lookUpEvent = async (
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  eventId: string,
): Promise<EventLookup> => {
  const byId = (events: Event[]) => events.find((event) => event.id === eventId) ?? null;
  const cached = byId(await accountEvents(z, bundle));
  if (cached) return { event: cached };
  const fresh = await accountEvents(z, bundle, true);
  if (byId(fresh) || fresh.length < LIST_LIMIT_MAX) return { event: byId(fresh) };
  const wide = await listEvents(z, bundle, EVENTS_LIMIT_MAX);
  // The whole account is known only when the service answered more than one list and less than was asked.
  const whole = wide.length > LIST_LIMIT_MAX && wide.length < EVENTS_LIMIT_MAX;
  return { event: byId(wide), ...(whole ? {} : { newest: wide.length }) };
};

/** One event of the account by id, or `null` when the service does not list it. */
export const findEvent = async (
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  eventId: string,
): Promise<Event | null> => (await lookUpEvent(z, bundle, eventId)).event;

/**
 * One event of the account by id; when the account's events do not hold it (deleted, or another account's),
 * the error that says so, the same for every operation that takes an event.
 */
export const requireEvent = async (
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  eventId: string,
): Promise<Event> => {
  const { event, newest } = await lookUpEvent(z, bundle, eventId);
  if (!event) throw eventNotFoundError(z, eventId, { newest });
  return event;
};

/**
 * One page of the Event dropdown (Zapier's "Load more": page 0, 1, …), `LIST_LIMIT_MAX` events each, newest
 * first. The events list has no page parameter, so page `p` reads the newest `(p + 1) × 100` and keeps the
 * last hundred: a service that clamps the limit to 100 answers nothing past the first page, and nothing is
 * asked past `EVENTS_LIMIT_MAX`. An empty page ends the list.
 */
export const eventsPage = async (
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  page: number,
): Promise<Event[]> => {
  const start = Math.max(0, Math.floor(page)) * LIST_LIMIT_MAX;
  const end = start + LIST_LIMIT_MAX;
  if (end > EVENTS_LIMIT_MAX) return [];
  return (await listEvents(z, bundle, end)).slice(start, end);
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
