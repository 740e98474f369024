/**
 * The one mapper of the Agenda noun: an event's sessions as line items plus flat fields (count, first and
 * last session), for the Find Event Agenda search and its sample.
 */
import type { PlainOutputField } from 'zapier-platform-core';
import { type Agenda, type AgendaSession, type Event, cutsOf, withoutCuts } from '../connect';
import { cutFieldsOutputField, cutSummary } from './cuts';
import { folded } from './text';
import { staticSample } from './sample';

export type SessionLine = {
  [extra: string]: unknown;
  id: string;
  title: string;
  startsAt: string;
  endsAt: string | null;
  day: string;
  startTime: string;
  endTime: string | null;
  room: string | null;
  track: string | null;
  speakers: string;
};

export type AgendaItem = {
  id: string;
  eventId: string;
  eventSlug: string | null;
  eventTitle: string | null;
  timezone: string;
  /** Sessions of the whole agenda (without filters), or those that match the filters among the listed ones. */
  sessionCount: number;
  /** Whether the agenda had more sessions than are read (`LONG_LIST_ENTRIES`): only its first ones are listed. */
  sessionsCut: boolean;
  days: string;
  tracks: string;
  rooms: string;
  firstSessionTitle: string | null;
  firstSessionStartsAt: string | null;
  lastSessionTitle: string | null;
  lastSessionStartsAt: string | null;
  lastSessionEndsAt: string | null;
  sessions: SessionLine[];
  dataAsOf: string;
  cutFields: string | null;
};

export type AgendaFilters = {
  /** `YYYY-MM-DD`, a day in the agenda's time zone. */
  day?: string | null;
  /** A track name, compared without case and accents. */
  track?: string | null;
};

const validZone = (zone: string | null | undefined): string => {
  if (!zone) return 'UTC';
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    return zone;
  } catch {
    return 'UTC';
  }
};

/** The time zone of an agenda's local days and times: its own, else the event's, else UTC. */
export const agendaTimeZone = (
  agenda: Pick<Agenda, 'timezone'>,
  event: Pick<Event, 'timezone'> | null,
): string => validZone(agenda.timezone ?? event?.timezone);

/** `2026-12-01`: the calendar day of an instant in a time zone. */
/** One formatter per kind and time zone: making one costs far more than using it, and agendas are long. */
const formatters = new Map<string, Intl.DateTimeFormat>();
const formatter = (kind: 'day' | 'time', timeZone: string): Intl.DateTimeFormat => {
  const key = `${kind} ${timeZone}`;
  let made = formatters.get(key);
  if (!made) {
    made =
      kind === 'day'
        ? new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
        : new Intl.DateTimeFormat('en-GB', {
            timeZone,
            hour: '2-digit',
            minute: '2-digit',
            hourCycle: 'h23',
          });
    formatters.set(key, made);
  }
  return made;
};

export const localDay = (iso: string, timeZone: string): string => {
  const parts = formatter('day', timeZone).formatToParts(new Date(iso));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
};

/** `09:30`: the wall-clock time of an instant in a time zone. */
const localTime = (iso: string, timeZone: string): string =>
  formatter('time', timeZone).format(new Date(iso));

const distinct = (values: Array<string | null | undefined>): string =>
  [...new Set(values.filter((v): v is string => Boolean(v?.trim())))].join(', ');

const toSessionLine = (session: AgendaSession, timeZone: string): SessionLine => ({
  ...withoutCuts(session),
  id: session.id,
  title: session.title,
  startsAt: session.startsAt,
  endsAt: session.endsAt ?? null,
  day: localDay(session.startsAt, timeZone),
  startTime: localTime(session.startsAt, timeZone),
  endTime: session.endsAt ? localTime(session.endsAt, timeZone) : null,
  room: session.room ?? null,
  track: session.track ?? null,
  speakers: (session.speakers ?? []).map((s) => s.name).join(', '),
});

/**
 * An agenda as one item, sessions in start order, keeping only those on `filters.day` and in
 * `filters.track`. `fetchedAt` says when the service gave the agenda (answers are cached for a few minutes).
 */
export const toAgendaItem = (
  agenda: Agenda,
  event: Pick<Event, 'title' | 'slug' | 'timezone'> | null,
  fetchedAt: string,
  filters: AgendaFilters = {},
): AgendaItem => {
  const timezone = agendaTimeZone(agenda, event);
  const track = filters.track?.trim() ? folded(filters.track) : null;
  const sessions = [...agenda.sessions]
    .sort((a, b) => Date.parse(a.startsAt) - Date.parse(b.startsAt) || (a.id < b.id ? -1 : 1))
    .map((session) => toSessionLine(session, timezone))
    .filter((line) => !filters.day || line.day === filters.day)
    .filter((line) => track === null || folded(line.track ?? '') === track);
  const cuts = cutsOf(agenda);
  const whole = cuts.sessions?.size;
  const filtered = Boolean(filters.day || track !== null);
  const first = sessions[0];
  const last = sessions[sessions.length - 1];
  return {
    id: agenda.eventId,
    eventId: agenda.eventId,
    eventSlug: agenda.slug ?? event?.slug ?? null,
    eventTitle: event?.title ?? null,
    timezone,
    sessionCount: whole !== undefined && !filtered ? whole : sessions.length,
    sessionsCut: whole !== undefined,
    days: distinct(sessions.map((s) => s.day)),
    tracks: distinct(sessions.map((s) => s.track)),
    rooms: distinct(sessions.map((s) => s.room)),
    firstSessionTitle: first?.title ?? null,
    firstSessionStartsAt: first?.startsAt ?? null,
    lastSessionTitle: last?.title ?? null,
    lastSessionStartsAt: last?.startsAt ?? null,
    lastSessionEndsAt: last?.endsAt ?? null,
    sessions,
    dataAsOf: fetchedAt,
    cutFields: cutSummary(cuts),
  };
};

export const SAMPLE_AGENDA: Agenda = {
  eventId: '7d0c6f1e-2f6a-4a7e-9a51-3f0e1b2c4d5e',
  slug: 'techweek-2026',
  timezone: 'Europe/Paris',
  sessions: [
    {
      id: 'ses_1',
      title: 'Opening keynote',
      startsAt: '2026-12-01T08:30:00.000Z',
      endsAt: '2026-12-01T09:15:00.000Z',
      room: 'Main hall',
      track: 'Main',
      speakers: [{ name: 'Grace Hopper' }],
    },
    {
      id: 'ses_2',
      title: 'Designing for failure',
      startsAt: '2026-12-01T09:30:00.000Z',
      endsAt: '2026-12-01T10:15:00.000Z',
      room: 'Room B',
      track: 'Cloud',
      speakers: [{ name: 'Margaret Hamilton' }, { name: 'Barbara Liskov' }],
    },
  ],
};

export const agendaSample: AgendaItem = staticSample('agenda', () =>
  toAgendaItem(
    SAMPLE_AGENDA,
    { title: 'TechWeek 2026', slug: 'techweek-2026', timezone: 'Europe/Paris' },
    '2026-11-30T10:00:00.000Z',
  ),
);

export const agendaOutputFields: PlainOutputField[] = [
  { key: 'id', label: 'ID', type: 'string', primary: true },
  { key: 'eventId', label: 'Event ID', type: 'string' },
  { key: 'eventSlug', label: 'Event Slug', type: 'string' },
  { key: 'eventTitle', label: 'Event Title', type: 'string' },
  { key: 'timezone', label: 'Time Zone of the Agenda', type: 'string' },
  { key: 'sessionCount', label: 'Number of Sessions', type: 'integer' },
  { key: 'sessionsCut', label: 'Only the First Sessions Are Listed', type: 'boolean' },
  { key: 'days', label: 'Days', type: 'string' },
  { key: 'tracks', label: 'Tracks', type: 'string' },
  { key: 'rooms', label: 'Rooms', type: 'string' },
  { key: 'firstSessionTitle', label: 'First Session Title', type: 'string' },
  { key: 'firstSessionStartsAt', label: 'First Session Starts At', type: 'datetime' },
  { key: 'lastSessionTitle', label: 'Last Session Title', type: 'string' },
  { key: 'lastSessionStartsAt', label: 'Last Session Starts At', type: 'datetime' },
  { key: 'lastSessionEndsAt', label: 'Last Session Ends At', type: 'datetime' },
  { key: 'sessions[]id', label: 'Sessions: ID', type: 'string' },
  { key: 'sessions[]title', label: 'Sessions: Title', type: 'string' },
  { key: 'sessions[]startsAt', label: 'Sessions: Starts At', type: 'datetime' },
  { key: 'sessions[]endsAt', label: 'Sessions: Ends At', type: 'datetime' },
  { key: 'sessions[]day', label: 'Sessions: Local Day', type: 'string' },
  { key: 'sessions[]startTime', label: 'Sessions: Local Start Time', type: 'string' },
  { key: 'sessions[]endTime', label: 'Sessions: Local End Time', type: 'string' },
  { key: 'sessions[]room', label: 'Sessions: Room', type: 'string' },
  { key: 'sessions[]track', label: 'Sessions: Track', type: 'string' },
  { key: 'sessions[]speakers', label: 'Sessions: Speakers', type: 'string' },
  { key: 'dataAsOf', label: 'Data Read At', type: 'datetime' },
  cutFieldsOutputField,
];
