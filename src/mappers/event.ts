/**
 * The one mapper of the Event noun: triggers, searches, dropdowns and samples all produce events through it.
 */
import type { PlainOutputField } from 'zapier-platform-core';
import { type Cut, type Event, type EventWidget, cutText, cutsOf, withCuts } from '../connect';
import { cutFieldsOutputField, cutSummary, extraFields, itemCuts } from './cuts';
import { staticSample } from './sample';

export type EventItem = {
  [extra: string]: unknown;
  id: string;
  eventId: string;
  slug: string;
  title: string;
  status: string;
  isPublished: boolean;
  startsAt: string | null;
  endsAt: string | null;
  timezone: string | null;
  venueName: string | null;
  url: string | null;
  description: string | null;
  /** Whether the description was cut to `TEXT_CHARS` characters (it then ends with `CUT_MARK`). */
  descriptionCut: boolean;
  /** The whole description's length in characters, as the service holds it. */
  descriptionLength: number | null;
  coverImageUrl: string | null;
  createdAt: string;
  updatedAt: string | null;
  /** The fields cut to fit, with their whole size; `null` when nothing was cut. */
  cutFields: string | null;
};

/** The fields of an event item: any other field of the service is kept only within `extraFields`' bounds. */
const EVENT_ITEM_KEYS: ReadonlySet<string> = new Set([
  'id',
  'eventId',
  'slug',
  'title',
  'status',
  'isPublished',
  'startsAt',
  'endsAt',
  'timezone',
  'venueName',
  'url',
  'description',
  'descriptionCut',
  'descriptionLength',
  'coverImageUrl',
  'createdAt',
  'updatedAt',
  'cutFields',
  'change',
  'changeKind',
]);

const textOf = (value: unknown): string | null => (typeof value === 'string' && value ? value : null);

/**
 * A contract Event (or event widget) as a flat Zapier item. Fields the service adds are kept within bounds
 * (`extraFields`): never one copied whole. A description longer than `TEXT_CHARS` characters is cut (the
 * item says so, and how long it was): the event's page (`url`) has it whole.
 */
export const toEventItem = (event: Event | EventWidget, widget?: EventWidget | null): EventItem => {
  const fromWidget = textOf(widget?.description) !== null;
  const description = fromWidget ? textOf(widget?.description) : textOf(event.description);
  const widgetCuts = widget ? cutsOf(widget) : {};
  const descriptionCut = (fromWidget ? widgetCuts : cutsOf(event)).description ?? null;
  const extras = extraFields(event, EVENT_ITEM_KEYS);
  const cuts = {
    ...itemCuts(event, EVENT_ITEM_KEYS, extras),
    ...(descriptionCut ? { description: descriptionCut } : {}),
  };
  if (!descriptionCut) delete cuts.description;
  return {
    ...extras.fields,
    id: event.id,
    eventId: event.id,
    slug: event.slug,
    title: event.title,
    status: event.status,
    isPublished: event.status === 'published',
    startsAt: event.startsAt ?? null,
    endsAt: event.endsAt ?? null,
    timezone: event.timezone ?? null,
    venueName: event.venueName ?? null,
    url: event.url ?? null,
    description,
    descriptionCut: descriptionCut !== null,
    descriptionLength: descriptionCut
      ? descriptionCut.size
      : description === null
        ? null
        : description.length,
    coverImageUrl: textOf(widget?.coverImageUrl) ?? textOf(event.coverImageUrl),
    createdAt: event.createdAt,
    updatedAt: event.updatedAt ?? null,
    cutFields: cutSummary(cuts),
  };
};

/**
 * An event as the account's events list keeps it (cached, and read by every lookup of a title or slug, and
 * by the event triggers' test data): its known fields only, each text at most `LOOKUP_TEXT_CHARS`, with what
 * was cut (and its whole size) in its cuts; no field the service added.
 */
export const eventForLookup = (event: Event): Event => {
  const cuts: Record<string, Cut> = { ...cutsOf(event) };
  const short = <T>(key: string, value: T): T => {
    if (typeof value !== 'string' || value.length <= LOOKUP_TEXT_CHARS) return value;
    cuts[key] ??= { size: value.length, unit: 'characters' };
    return cutText(value, LOOKUP_TEXT_CHARS) as T;
  };
  const known = ['title', 'status', 'timezone', 'venueName', 'url', 'description', 'coverImageUrl'];
  const texts = Object.fromEntries(
    known.filter((key) => Object.hasOwn(event, key)).map((key) => [key, short(key, event[key])]),
  );
  const slim = {
    id: event.id,
    slug: event.slug,
    title: event.title,
    status: event.status,
    ...texts,
    startsAt: event.startsAt,
    endsAt: event.endsAt,
    createdAt: event.createdAt,
    updatedAt: event.updatedAt,
  };
  for (const key of Object.keys(cuts)) if (!known.includes(key)) delete cuts[key];
  return withCuts(slim, Object.keys(cuts).length ? cuts : null);
};

/** The most characters of a text of an event the account's cached list keeps. */
export const LOOKUP_TEXT_CHARS = 1024;

/** `1 Dec 2026`: a short day in the event's own time zone (UTC when unknown). */
const shortDate = (iso: string | null | undefined, timeZone?: string | null): string | null => {
  if (!iso) return null;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  const format = (zone: string) =>
    new Intl.DateTimeFormat('en-GB', {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      timeZone: zone,
    }).format(date);
  try {
    return format(timeZone || 'UTC');
  } catch {
    return format('UTC');
  }
};

/** The label of an event in dropdowns: `TechWeek 2026 — 1 Dec 2026 (published)`. */
export const eventLabel = (event: Pick<Event, 'title' | 'status' | 'startsAt' | 'timezone'>): string => {
  const day = shortDate(event.startsAt, event.timezone);
  return `${event.title || 'Untitled event'}${day ? ` — ${day}` : ''} (${event.status})`;
};

export const SAMPLE_EVENT: EventWidget = {
  id: '7d0c6f1e-2f6a-4a7e-9a51-3f0e1b2c4d5e',
  slug: 'techweek-2026',
  title: 'TechWeek 2026',
  status: 'published',
  startsAt: '2026-12-01T08:00:00.000Z',
  endsAt: '2026-12-03T18:00:00.000Z',
  timezone: 'Europe/Paris',
  venueName: 'Palais des Congrès',
  url: 'https://front.example.com/e/techweek-2026',
  description: 'Three days of talks, workshops and an expo floor.',
  coverImageUrl: 'https://front.example.com/media/techweek-2026/cover.jpg',
  createdAt: '2026-10-01T09:12:44.512Z',
  updatedAt: '2026-11-20T16:03:10.004Z',
};

export const eventSample: EventItem = staticSample('event', () => toEventItem(SAMPLE_EVENT));

export const eventOutputFields: PlainOutputField[] = [
  { key: 'id', label: 'Event ID', type: 'string', primary: true },
  { key: 'eventId', label: 'Copy of Event ID', type: 'string' },
  { key: 'slug', label: 'Event Slug', type: 'string' },
  { key: 'title', label: 'Event Title', type: 'string' },
  { key: 'status', label: 'Status', type: 'string' },
  { key: 'isPublished', label: 'Is Published', type: 'boolean' },
  { key: 'startsAt', label: 'Starts At', type: 'datetime' },
  { key: 'endsAt', label: 'Ends At', type: 'datetime' },
  { key: 'timezone', label: 'Time Zone', type: 'string' },
  { key: 'venueName', label: 'Venue Name', type: 'string' },
  { key: 'url', label: 'Public Event Page URL', type: 'string' },
  { key: 'description', label: 'Description', type: 'string' },
  { key: 'descriptionCut', label: 'Description Was Cut to Fit', type: 'boolean' },
  { key: 'descriptionLength', label: 'Whole Description Length in Characters', type: 'integer' },
  { key: 'coverImageUrl', label: 'Cover Image URL', type: 'string' },
  { key: 'createdAt', label: 'Created At', type: 'datetime' },
  { key: 'updatedAt', label: 'Updated At', type: 'datetime' },
  cutFieldsOutputField,
];

/** The lifecycle change of an `EVENT_*` kind, as a word: `EVENT_PUBLISHED` → `published`. */
export const eventChangeOf = (kind: string): string => kind.replace(/^EVENT_/i, '').toLowerCase();

export type EventChangeItem = EventItem & {
  change: string;
  changeKind: string;
};

/** The change of an event that no longer exists: its item's status says so. */
const DELETED = eventChangeOf('EVENT_DELETED');

/**
 * An event with the change a delivery reports (`EVENT_UPDATED` …; kinds added later keep their own word).
 * Without a kind (recent events shown as test data) the change is read from the event's own dates. A deleted
 * event's data is the event as it was: its item says deleted in every field that carries a status (`status`
 * is `deleted`, it is not published, and it has no public page).
 */
export const toEventChangeItem = (event: Event | EventWidget, kind?: string | null): EventChangeItem => {
  const changeKind =
    kind ?? (event.updatedAt && event.updatedAt !== event.createdAt ? 'EVENT_UPDATED' : 'EVENT_CREATED');
  const change = eventChangeOf(changeKind);
  const item = toEventItem(event);
  const gone = change === DELETED ? { status: DELETED, isPublished: false, url: null } : {};
  return { ...item, ...gone, change, changeKind };
};

export const eventChangeSample: EventChangeItem = staticSample('eventChange', () =>
  toEventChangeItem(SAMPLE_EVENT, 'EVENT_PUBLISHED'),
);

export const eventChangeOutputFields: PlainOutputField[] = [
  ...eventOutputFields,
  { key: 'change', label: 'Change', type: 'string' },
  { key: 'changeKind', label: 'Change Kind as Sent by the Service', type: 'string' },
];
