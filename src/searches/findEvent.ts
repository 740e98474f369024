/**
 * Find Event: your events whose title or slug contains the text (case, accents and punctuation do not
 * matter), or the one a slug or public page link names. Your newest events come from the events list; when
 * it may not hold all of them (it answers the newest 100 at most), your older published events are looked
 * for in the public catalog, page by page within the run's search time, each match checked with one small
 * keyed request: another organizer's event is never answered. A search stopped by its time limit says in a
 * log line how far it read. Published events are enriched with their public page's description and cover
 * image. Best match first; nothing found is `[]`.
 */
import { type Bundle, type ZObject, defineSearch } from 'zapier-platform-core';
import { catalogReach, ownEvents, searchDeadline, walkCatalog } from '../account/catalog';
import { type EventInput, eventOf, noRecordWhy, requireAccountEvent } from '../account/events';
import {
  EVENTS_LIMIT_MAX,
  type Event,
  type EventWidget,
  LIST_LIMIT_MAX,
  getEventWidget,
  errorText,
  isAccountEvent,
  isNotFound,
  listEvents,
  STREAM_LIMITS,
  streamLimits,
} from '../connect';
import { accepts } from '../fields/accepts';
import { eventOfLink, isEventUuid } from '../fields/event';
import { textInput } from '../fields/read';
import { mapEach } from '../mappers/each';
import { eventOutputFields, eventSample, toEventItem } from '../mappers/event';
import { slugText } from '../mappers/text';

/** At most this many events are returned (and enriched). */
export const MAX_RESULTS = 10;
/** How long the catalog is searched, as the help text says it (the app's own limit, whatever a run sets). */
const SEARCH_SECONDS = Math.round(STREAM_LIMITS.searchMs / 1000);
/** At most this many catalog matches are asked about (one keyed read each) in one search. */
const MAX_OWNERSHIP_READS = 200;

/** How well an event matches: 0 exact slug, 1 exact title, 2 starts with, 3 contains; `null` no match. */
const matchScore = (event: Pick<Event, 'slug' | 'title'>, needle: string): number | null => {
  const slug = event.slug.toLowerCase();
  const title = slugText(event.title);
  if (slug === needle) return 0;
  if (title === needle) return 1;
  if (slug.startsWith(needle) || title.startsWith(needle)) return 2;
  if (slug.includes(needle) || title.includes(needle)) return 3;
  return null;
};

const ranked = (events: Event[], needle: string): Event[] =>
  events
    .map((event, index) => ({ event, index, score: matchScore(event, needle) }))
    .filter((m): m is { event: Event; index: number; score: number } => m.score !== null)
    .sort((a, b) => a.score - b.score || a.index - b.index)
    .map((m) => m.event);

/**
 * Your older published events that match, from the public catalog: pages read one at a time (only the
 * matches of a page are kept), each match not already found checked with the service, until `wanted` are
 * found, the catalog ends or the deadline comes; a stop before the end is said in a log line.
 */
const searchCatalog = async (
  z: ZObject,
  bundle: Bundle,
  search: { needle: string; text: string; wanted: number; known: Set<string>; deadline: number },
): Promise<Event[]> => {
  const found: Event[] = [];
  let asked = 0;
  const walk = await walkCatalog(z, bundle, {
    deadline: search.deadline,
    visit: async (events) => {
      const matches = events.filter((e) => !search.known.has(e.id) && matchScore(e, search.needle) !== null);
      const checked = matches.slice(0, MAX_OWNERSHIP_READS - asked);
      asked += checked.length;
      const { own } = await ownEvents(z, bundle, checked, search.deadline);
      for (const event of own) search.known.add(event.id);
      found.push(...own);
      return found.length >= search.wanted || asked >= MAX_OWNERSHIP_READS;
    },
  });
  const quoted = `"${search.text.slice(0, 80)}"`;
  if (walk.stopped === 'deadline') {
    const last = walk.total === undefined ? '' : ` of about ${Math.ceil(walk.total / LIST_LIMIT_MAX)}`;
    z.console.log(
      `Find Event searched ${catalogReach(walk)} for ${quoted} (pages 1 to ${walk.lastPage}${last}) and stopped at its time limit: your published events on later pages were not searched. Search by the exact slug or the public page link to reach any of them at once.`,
    );
  } else if (walk.stopped === 'enough' && asked >= MAX_OWNERSHIP_READS && found.length < search.wanted) {
    z.console.log(
      `Find Event asked the service about ${asked} events matching ${quoted} in ${catalogReach(walk)}, most of them other organizers', and stopped there to spare the service: your published events on later pages were not searched. Use more of the title, or the exact slug or the public page link.`,
    );
  }
  return ranked(found, search.needle);
};

/**
 * What a slug, link or ID names: `{ event }` when it names one event, the account's, or `null` with `why`
 * when that event is not one the search can answer (another organizer's, deleted, or one of yours without a
 * record); `null` when it names none (no published event has the slug: the text is then searched for as
 * words). A slug is read from its event page, then one keyed request asks the service whether the event is
 * yours; an ID is looked up as the Event field does. Never an error.
 */
const named = async (
  z: ZObject,
  bundle: Bundle,
  given: EventInput,
  deadline: number,
): Promise<{ event: Event | null; why?: string } | null> => {
  try {
    if ('id' in given) {
      const found = await requireAccountEvent(z, bundle, given, deadline);
      return found.event ? { event: found.event } : { event: null, why: noRecordWhy(found) };
    }
    const page = await getEventWidget(z, bundle, given.slug, Math.max(1_000, deadline - Date.now()));
    if (!page) return null;
    if (await isAccountEvent(z, bundle, page.id)) return { event: eventOf(page) };
    return { event: null, why: "it is another organizer's event" };
  } catch (error) {
    // An ID names one event: nothing else is searched for.
    if ('id' in given) return { event: null, why: errorText(error) };
    // The shortcut never fails the search: the catalog search below still runs.
    if (!isNotFound(error))
      z.console.log(`Find Event could not read "${text(given)}" directly: ${errorText(error)}`);
    return null;
  }
};

const text = (given: EventInput): string => ('id' in given ? given.id : given.slug).slice(0, 120);

/** What the search text names directly: an event ID, a public page link, or a single word as a slug. */
const givenBy = (text: string): EventInput | null =>
  isEventUuid(text)
    ? { id: text.toLowerCase() }
    : (eventOfLink(text) ?? (/^[^\s/?#]+$/.test(text) ? { slug: text } : null));

/** The public page of a published event, or `null` (a missing description never fails the search). */
const widgetOf = (z: ZObject, bundle: Bundle, event: Event): Promise<EventWidget | null> =>
  event.status === 'published'
    ? getEventWidget(z, bundle, event.slug, streamLimits().pageMs).catch(() => null)
    : Promise.resolve(null);

const needleOf = (z: ZObject, text: string): string => {
  const needle = slugText(text);
  if (!needle) {
    throw new z.errors.Error(
      `Type a word of the event's title or slug in Title, Slug or Link to search for${text ? ` ("${text.slice(0, 40)}" has no letters or digits)` : ''}.`,
      'INVALID_INPUT',
      400,
    );
  }
  return needle;
};

/** Your events that match: the newest from the events list, the older ones named or in the catalog. */
const matching = async (z: ZObject, bundle: Bundle, text: string): Promise<Event[]> => {
  const deadline = searchDeadline();
  const link = eventOfLink(text);
  const needle = link ? '' : needleOf(z, text);
  const newest = await listEvents(z, bundle, EVENTS_LIMIT_MAX);
  const linked = (event: Event) => (link && 'id' in link ? event.id === link.id : event.slug === link?.slug);
  const own = link ? newest.filter(linked) : ranked(newest, needle);
  // A list shorter than the newest 100 holds all of your events: nothing older to look for.
  if (own.length > 0 && (link || own.length >= MAX_RESULTS)) return own.slice(0, MAX_RESULTS);
  if (newest.length < LIST_LIMIT_MAX) return own;
  const given = givenBy(text);
  const listed = (event: Event) => event.slug === text || event.id === text.toLowerCase();
  // A slug, link or ID names one event (slugs are unique across the service): among your newest, it is the
  // one meant, best match first, and nothing older is searched for.
  if (given && own.some(listed)) return own.slice(0, MAX_RESULTS);
  const exact = given ? await named(z, bundle, given, deadline) : null;
  if (exact?.event)
    return [exact.event, ...own.filter((e) => e.id !== exact.event?.id)].slice(0, MAX_RESULTS);
  if (exact) {
    z.console.log(
      `Find Event: "${text.slice(0, 80)}" names one event, and ${exact.why ?? 'it has no record'}: the public catalog was not searched for it.`,
    );
    return own;
  }
  if (link) return [];
  const first: Event[] = [];
  const known = new Set([...own, ...first].map((e) => e.id));
  const wanted = MAX_RESULTS - own.length - first.length;
  const older = wanted > 0 ? await searchCatalog(z, bundle, { needle, text, wanted, known, deadline }) : [];
  return [...first, ...own, ...older];
};

const perform = async (z: ZObject, bundle: Bundle) => {
  const text = textInput(bundle, 'query');
  const results = (await matching(z, bundle, text)).slice(0, MAX_RESULTS);
  // The pages at once, each within the run's `pageMs`: together they take one such wait after the search, which
  // Zapier's 30 s leaves room for. Each page is read as a stream and cut while read, so a page of megabytes
  // of description holds only its bounds.
  const widgets = await Promise.all(results.map((event) => widgetOf(z, bundle, event)));
  const found = results.map((event, i) => ({ event, widget: widgets[i] ?? null }));
  const log = (line: string) => z.console.log(line);
  return mapEach(
    found,
    { noun: 'event', what: 'the events found', idOf: ({ event }) => event.id, log },
    ({ event, widget }) => ({ ...toEventItem(event, widget), isOwnEvent: true }),
  );
};

export default defineSearch({
  key: 'find_event',
  noun: 'Event',
  display: {
    label: 'Find Event',
    description:
      'Finds an event of yours by part of its title, its slug or its public page link, past your newest 100 too, and returns it with its dates, venue and public page link, exact matches first. When nothing matches, it returns nothing.',
  },
  operation: {
    perform,
    inputFields: [
      {
        key: 'query',
        label: 'Title, Slug or Link',
        type: 'string' as const,
        required: true,
        helpText: `Part of the title or slug, for example \`techweek paris\` or \`techweek-paris-2026\`, or the event's public page link. Case, accents and punctuation do not matter; an exact slug or title comes first, at most ${MAX_RESULTS} events. Only your own events are found: your newest 100 (drafts included) and, past them, your published events in the public catalog, searched page by page for up to ${SEARCH_SECONDS} seconds (an exact slug or link reaches any of them at once).`,
        // A word: at least one letter or digit (a link has some too).
        meta: accepts({ pattern: '[A-Za-z0-9]' }),
      },
    ],
    sample: { ...eventSample, isOwnEvent: true },
    outputFields: [
      ...eventOutputFields,
      { key: 'isOwnEvent', label: 'Is One of Your Events', type: 'boolean' },
    ],
  },
});
