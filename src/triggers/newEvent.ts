/** New Event (polling): the organizer's events, newest first, id = event id. */
import { type Bundle, type ZObject, defineTrigger } from 'zapier-platform-core';
import { type Event, LIST_LIMIT_MAX, listEvents } from '../connect';
import { eventOutputFields, eventSample, toEventItem } from '../mappers/event';
import { withinAnswer } from '../mappers/each';
import { SAMPLE_SIZE, pollKind, present } from './common/polling';
import { sibling } from '../siblings';

const presenter = {
  idOf: (event: Event) => event.id,
  toItem: (event: Event) => toEventItem(event),
  noun: 'event',
};

const perform = async (z: ZObject, bundle: Bundle) => {
  const limit = pollKind(bundle) === 'sample' ? SAMPLE_SIZE : LIST_LIMIT_MAX;
  const log = (line: string) => z.console.log(line);
  return withinAnswer(present(bundle, await listEvents(z, bundle, limit), presenter, log), 'event', log);
};

const definition = defineTrigger({
  key: 'new_event',
  noun: 'Event',
  display: {
    label: 'New Event',
    description:
      'Triggers when an event is created in your account (drafts included), checked every few minutes, with its title, dates, venue and public page link. To act when an event goes public, use **Event Published**; for updates, unpublishing or deletion, **Event Changed** (both instant).',
  },
  operation: {
    perform,
    sample: eventSample,
    outputFields: eventOutputFields,
  },
});

export default sibling('event-changes', definition);
