/**
 * Hidden trigger that feeds the event dropdown of every operation, labelled
 * `TechWeek 2026 — 1 Dec 2026 (published)`: the account's 100 newest events first, then, with "Load more"
 * (`canPaginate`), its older published events one page of the public catalog at a time (`eventsPage`); an
 * empty page ends the list. Every Event field is also search-powered by Find Event.
 */
import { type Bundle, type ZObject, defineTrigger } from 'zapier-platform-core';
import { eventsPage } from '../account/events';
import { EVENT_LIST_TRIGGER_KEY } from '../fields/keys';
import { eventLabel, eventOutputFields, eventSample, toEventItem } from '../mappers/event';
import { staticSample } from '../mappers/sample';
import { withinAnswer } from '../mappers/each';

const toDropdownItem = (event: Parameters<typeof toEventItem>[0]) => ({
  ...toEventItem(event),
  label: eventLabel(event),
});

export default defineTrigger({
  key: EVENT_LIST_TRIGGER_KEY,
  noun: 'Event',
  display: {
    label: 'List Events',
    description: 'Triggers when the list of events is loaded for a dropdown.',
    hidden: true,
  },
  operation: {
    perform: async (z: ZObject, bundle: Bundle) =>
      withinAnswer(
        (await eventsPage(z, bundle, Number(bundle.meta?.page) || 0)).map(toDropdownItem),
        'event',
        (line) => z.console.log(line),
      ),
    canPaginate: true,
    sample: staticSample('eventChoice', () => ({ ...eventSample, label: eventLabel(eventSample) })),
    outputFields: [...eventOutputFields, { key: 'label', label: 'Dropdown Label', type: 'string' }],
  },
});
