import { HOOK_KINDS } from '../connect';
import { instantTrigger, recentEvents } from '../webhooks';
import { eventChangeItem } from '../items';
import { eventChangeOf } from '../mappers/event';

/** The lifecycle changes the app knows, from its `EVENT_*` kinds: `created`, `updated`, … */
const KNOWN = HOOK_KINDS.filter((kind) => kind.startsWith('EVENT_') && kind !== 'EVENT_*').map(eventChangeOf);

/** The changes a user can pick; "any" also passes EVENT_* kinds the service adds later. */
const CHANGES: Record<string, string> = {
  any: 'Any change (also kinds added later)',
  ...Object.fromEntries(KNOWN.map((change) => [change, change.charAt(0).toUpperCase() + change.slice(1)])),
};

const chosenChanges = (value: unknown): string[] =>
  (Array.isArray(value) ? value : [value])
    .flatMap((v) => (typeof v === 'string' ? v.split(',') : []))
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);

export default instantTrigger({
  key: 'event_changed',
  kind: 'EVENT_*',
  noun: 'Event',
  label: 'Event Changed',
  description: `Triggers when one of your events is ${KNOWN.slice(0, -1).join(', ')} or ${KNOWN.at(-1)}, instantly, with the event and the change. **New Event** covers creation alone (checked every few minutes), **Event Published** publication alone.`,
  item: eventChangeItem,
  list: recentEvents(),
  inputFields: [
    {
      key: 'changes',
      label: 'Which Changes',
      type: 'string',
      list: true,
      required: false,
      default: 'any',
      choices: CHANGES,
      helpText:
        'Pick one or more changes to react to. "Any change" (or leaving it empty) reacts to all of them.',
    },
  ],
  accepts: (type, inputData) => {
    if (!type.startsWith('EVENT_')) return false;
    const chosen = chosenChanges(inputData.changes);
    return chosen.length === 0 || chosen.includes('any') || chosen.includes(eventChangeOf(type));
  },
});
