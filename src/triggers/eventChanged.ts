import type { Bundle, ZObject } from 'zapier-platform-core';
import { HOOK_KINDS } from '../connect';
import { instantTrigger, recentEvents } from '../webhooks';
import { eventChangeItem } from '../items';
import { eventChangeOf } from '../mappers/event';
import { sibling } from '../siblings';

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

const changesField = {
  key: 'changes',
  label: 'Which Changes',
  type: 'string' as const,
  list: true,
  required: false,
  default: 'any',
  choices: CHANGES,
  helpText: 'Pick one or more changes to react to. "Any change" (or leaving it empty) reacts to all of them.',
};

/** A change typed or mapped by hand must be a choice's value (in any case): another would never come. */
const checkChanges = (z: ZObject, bundle: Pick<Bundle, 'inputData'>): void => {
  const known = Object.keys(CHANGES);
  const unknown = chosenChanges(bundle.inputData?.[changesField.key]).find((c) => !known.includes(c));
  if (unknown === undefined) return;
  throw new z.errors.Error(
    `"${unknown.slice(0, 40)}" is not one of the choices of ${changesField.label}, so no change would ever match it. Choose them in the ${changesField.label} dropdown: ${Object.keys(CHANGES).join(', ')}.`,
    'INVALID_INPUT',
    400,
  );
};

const definition = instantTrigger({
  key: 'event_changed',
  kind: 'EVENT_*',
  noun: 'Event',
  label: 'Event Changed',
  description: `Triggers when one of your events is ${KNOWN.slice(0, -1).join(', ')} or ${KNOWN.at(-1)}, instantly, with the event and the change. **New Event** covers creation alone (checked every few minutes), **Event Published** publication alone.`,
  item: eventChangeItem,
  list: recentEvents(),
  inputFields: [changesField],
  checkInput: checkChanges,
  accepts: (type, inputData) => {
    if (!type.startsWith('EVENT_')) return false;
    const chosen = chosenChanges(inputData.changes);
    return chosen.length === 0 || chosen.includes('any') || chosen.includes(eventChangeOf(type));
  },
});

export default sibling('event-changes', definition);
