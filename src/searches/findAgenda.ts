/**
 * Find Event Agenda: the sessions of a published event as line items plus flat fields, optionally only one
 * day or one track. Answers are cached for 10 minutes for the account (src/account/plansAndAgendas.ts). An event that is not
 * published, or an agenda without matching sessions, is `[]`.
 */
import { type Bundle, type ZObject, defineSearch } from 'zapier-platform-core';
import { findEvent } from '../account/events';
import { cachedAgenda } from '../account/plansAndAgendas';
import { eventField, requiredEventId } from '../fields/event';
import { textInput } from '../fields/read';
import { agendaOutputFields, agendaSample, agendaTimeZone, localDay, toAgendaItem } from '../mappers/agenda';

/** The Day input as `YYYY-MM-DD` in the agenda's time zone (a mapped date-time is read in that zone). */
const dayFilter = (z: ZObject, raw: string, timeZone: string): string | null => {
  if (!raw) return null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(raw)) return raw;
  const ms = Date.parse(raw);
  if (Number.isNaN(ms)) {
    throw new z.errors.Error(
      `"${raw.slice(0, 40)}" in Day is not a date. Use the form 2026-12-01, or leave Day empty for the whole agenda.`,
      'INVALID_INPUT',
      400,
    );
  }
  return localDay(new Date(ms).toISOString(), timeZone);
};

const perform = async (z: ZObject, bundle: Bundle) => {
  const eventId = requiredEventId(z, bundle);
  const event = await findEvent(z, bundle, eventId);
  if (!event) return [];
  const { value: agenda, fetchedAt } = await cachedAgenda(z, bundle, event.slug);
  if (!agenda) return [];
  const day = dayFilter(z, textInput(bundle, 'day'), agendaTimeZone(agenda, event));
  const item = toAgendaItem(agenda, event, fetchedAt, { day, track: textInput(bundle, 'track') });
  return item.sessionCount > 0 ? [item] : [];
};

export default defineSearch({
  key: 'find_agenda',
  noun: 'Agenda',
  display: {
    label: 'Find Event Agenda',
    description: 'Finds an event agenda: its sessions, optionally of one day or one track.',
  },
  operation: {
    perform,
    inputFields: [
      eventField({
        required: true,
        helpText:
          'The event whose agenda to read. Only published events have a public agenda; answers are kept for 10 minutes.',
      }),
      {
        key: 'day',
        label: 'Day',
        type: 'string' as const,
        required: false,
        helpText:
          "Only the sessions of this day, in the event's time zone, written like `2026-12-01`. Empty for every day.",
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
