/**
 * Find Event Agenda: the sessions of a published event as line items plus flat fields, optionally only one
 * day or one track. Answers are cached for 10 minutes for the account (src/account/plansAndAgendas.ts). An event that is not
 * published, or an agenda without matching sessions, is `[]`; an event that is not among the account's events
 * is an error that says so. Any event of the account is reached, past the newest 100 too, by ID, slug or
 * public page link (`requireAccountEvent`).
 */
import { type Bundle, type ZObject, defineSearch } from 'zapier-platform-core';
import { noRecordWhy, requireAccountEvent } from '../account/events';
import { cachedAgenda } from '../account/plansAndAgendas';
import { accepts } from '../fields/accepts';
import { eventField, requiredEventInput } from '../fields/event';
import { readIsoDateTime, textInput } from '../fields/read';
import { agendaOutputFields, agendaSample, agendaTimeZone, localDay, toAgendaItem } from '../mappers/agenda';
import { sibling } from '../siblings';

/**
 * The Day input as `YYYY-MM-DD` in the agenda's time zone, or `null` when empty. Only `YYYY-MM-DD` or an ISO
 * 8601 date and time (a value mapped from an earlier step, read in that zone when it has no offset) are
 * accepted: anything else (`Dec 20`, `20/12`) is refused, since read leniently it would name another year or
 * nothing and the search would find nothing without a word.
 */
const dayFilter = (z: ZObject, raw: string, timeZone: string): string | null => {
  if (!raw) return null;
  const isDay = /^\d{4}-\d{2}-\d{2}$/.test(raw);
  const reading = readIsoDateTime(isDay ? `${raw}T12:00:00Z` : raw, isDay ? 'UTC' : timeZone);
  if ('problem' in reading) {
    const why = isDay ? ` (${reading.problem})` : '';
    throw new z.errors.Error(
      `"${raw.slice(0, 40)}" in Day is not a date${why}. Write the day as YYYY-MM-DD, for example 2026-12-01 (or map a date and time from an earlier step), or leave Day empty for the whole agenda.`,
      'INVALID_INPUT',
      400,
    );
  }
  return isDay ? raw : localDay(new Date(reading.ms).toISOString(), timeZone);
};

const perform = async (z: ZObject, bundle: Bundle) => {
  const given = requiredEventInput(z, bundle);
  // A Day that is not a date is refused before any request (read again below in the agenda's time zone).
  dayFilter(z, textInput(bundle, 'day'), 'UTC');
  const found = await requireAccountEvent(z, bundle, given, undefined, 'publish');
  const event = found.event;
  if (!event) {
    z.console.log(`No agenda was read for event ${found.id}: ${noRecordWhy(found)}.`);
    return [];
  }
  const { value: agenda, fetchedAt } = await cachedAgenda(z, bundle, event.slug);
  if (!agenda) return [];
  const day = dayFilter(z, textInput(bundle, 'day'), agendaTimeZone(agenda, event));
  const item = toAgendaItem(agenda, event, fetchedAt, { day, track: textInput(bundle, 'track') });
  return item.sessionCount > 0 ? [item] : [];
};

const definition = defineSearch({
  key: 'find_agenda',
  noun: 'Agenda',
  display: {
    label: 'Find Event Agenda',
    description:
      "Finds an event's public agenda and returns its sessions (times, rooms, tracks, speakers), optionally of one day or one track. When nothing is found (no public agenda), it returns nothing; a day or track without sessions gives the agenda with none. To show it on a website, use **Generate Embed Code**.",
  },
  operation: {
    perform,
    inputFields: [
      eventField({
        required: true,
        takes: 'reference',
        helpText:
          'The event whose agenda to read: any of your events (its search finds older ones), or its event ID, slug or public page link mapped from an earlier step. Only published events have a public agenda; answers are kept for 10 minutes.',
      }),
      {
        key: 'day',
        label: 'Day',
        type: 'string' as const,
        required: false,
        helpText:
          "Only the sessions of this day, in the event's time zone, written YYYY-MM-DD (for example `2026-12-01`); a date and time mapped from an earlier step is read as its day. Anything else is refused. Empty for every day.",
        meta: accepts({ format: 'date' }),
      },
      {
        key: 'track',
        label: 'Track',
        type: 'string' as const,
        required: false,
        helpText: 'Only the sessions of this track (for example `Main`); case and accents do not matter.',
      },
    ],
    sample: agendaSample,
    outputFields: agendaOutputFields,
  },
});

export default sibling('event-pages', definition);
