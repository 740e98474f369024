import { instantTrigger, recentEvents } from '../webhooks';
import { eventItem } from '../items';
import { sibling } from '../siblings';

const definition = instantTrigger({
  key: 'event_published',
  kind: 'EVENT_PUBLISHED',
  noun: 'Event',
  label: 'Event Published',
  description:
    'Triggers when an event is published and appears on public pages, instantly, with its title, dates, venue and public page link. **New Event** runs when an event is created (drafts included); **Event Changed** for any change you pick.',
  item: eventItem,
  list: recentEvents((event) => event.status === 'published'),
});

export default sibling('event-changes', definition);
