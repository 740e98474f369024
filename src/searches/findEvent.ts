/**
 * Find Event: your events whose title or slug contains the text (case, accents and punctuation do not
 * matter; as many of your events as the service lists, up to `EVENTS_LIMIT_MAX`), optionally also the public catalog of every organizer (a bounded number of pages). Published
 * events are enriched with their public page's description and cover image. Best match first; nothing found
 * is `[]`.
 */
import { type Bundle, type ZObject, defineSearch } from 'zapier-platform-core';
import {
  EVENTS_LIMIT_MAX,
  type Event,
  type EventWidget,
  LIST_LIMIT_MAX,
  getEventWidget,
  listEvents,
  listPublicEvents,
} from '../connect';
import { booleanInput, textInput } from '../fields/read';
import { mapEach } from '../mappers/each';
import { eventOutputFields, eventSample, toEventItem } from '../mappers/event';
import { slugText } from '../mappers/text';

/** The catalog is read 100 events a page, at most this many pages. */
export const MAX_CATALOG_PAGES = 5;
/** At most this many events are returned (and enriched). */
const MAX_RESULTS = 10;

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

/** Matching events of the public catalog, reading at most `MAX_CATALOG_PAGES` pages. */
const searchCatalog = async (
  z: ZObject,
  bundle: Bundle,
  needle: string,
  wanted: number,
): Promise<Event[]> => {
  const found: Event[] = [];
  for (let page = 1; page <= MAX_CATALOG_PAGES && found.length < wanted; page++) {
    const answer = await listPublicEvents(z, bundle, { page, limit: LIST_LIMIT_MAX });
    found.push(...answer.data.filter((event) => matchScore(event, needle) !== null));
    const limit = answer.limit ?? LIST_LIMIT_MAX;
    if (answer.received < limit || (answer.total !== undefined && page * limit >= answer.total)) break;
  }
  return ranked(found, needle);
};

/** The public page of a published event, or `null` (a missing description never fails the search). */
const widgetOf = (z: ZObject, bundle: Bundle, event: Event): Promise<EventWidget | null> =>
  event.status === 'published'
    ? getEventWidget(z, bundle, event.slug).catch(() => null)
    : Promise.resolve(null);

const perform = async (z: ZObject, bundle: Bundle) => {
  const text = textInput(bundle, 'query');
  const needle = slugText(text);
  if (!needle) {
    throw new z.errors.Error(
      `Type a word of the event's title or slug to search for${text ? ` ("${text.slice(0, 40)}" has no letters or digits)` : ''}.`,
      'INVALID_INPUT',
      400,
    );
  }
  // As many of your events as the service lists: an event past the Event dropdown's pages is found here too.
  const own = ranked(await listEvents(z, bundle, EVENTS_LIMIT_MAX), needle);
  const ownIds = new Set(own.map((event) => event.id));
  const others =
    booleanInput(bundle, 'includeCatalog') && own.length < MAX_RESULTS
      ? (await searchCatalog(z, bundle, needle, MAX_RESULTS - own.length)).filter((e) => !ownIds.has(e.id))
      : [];
  const results = [...own, ...others].slice(0, MAX_RESULTS);
  // One page at a time: a page may carry megabytes of description, and only its bounds are kept.
  const found: Array<{ event: Event; widget: EventWidget | null }> = [];
  for (const event of results) found.push({ event, widget: await widgetOf(z, bundle, event) });
  const log = (line: string) => z.console.log(line);
  return mapEach(
    found,
    { noun: 'event', what: 'the events found', idOf: ({ event }) => event.id, log },
    ({ event, widget }) => ({ ...toEventItem(event, widget), isOwnEvent: ownIds.has(event.id) }),
  );
};

export default defineSearch({
  key: 'find_event',
  noun: 'Event',
  display: {
    label: 'Find Event',
    description:
      'Finds an event by a word of its title or slug, in your events and optionally the public catalog.',
  },
  operation: {
    perform,
    inputFields: [
      {
        key: 'query',
        label: 'Title or Slug',
        type: 'string' as const,
        required: true,
        helpText:
          'Part of the title or slug, for example `techweek paris` or `techweek-paris-2026`. Case, accents and punctuation do not matter; an exact slug or title comes first.',
      },
      {
        key: 'includeCatalog',
        label: 'Also Search the Public Catalog',
        type: 'boolean' as const,
        required: false,
        default: 'false',
        helpText: `Also look among the published events of every organizer, when your own events give fewer than ${MAX_RESULTS} matches. Reads at most the first ${MAX_CATALOG_PAGES * LIST_LIMIT_MAX} catalog events (${MAX_CATALOG_PAGES} pages).`,
      },
    ],
    sample: { ...eventSample, isOwnEvent: true },
    outputFields: [
      ...eventOutputFields,
      { key: 'isOwnEvent', label: 'Is One of Your Events', type: 'boolean' },
    ],
  },
});
