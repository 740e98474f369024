/**
 * Input fields shared by operations. Every operation that takes an event uses `eventField`: a dynamic
 * dropdown fed by the hidden `event_list` trigger, so nobody pastes an event UUID.
 */
export const EVENT_LIST_TRIGGER_KEY = 'event_list';

export const eventField = (options: {
  required: boolean;
  helpText?: string;
  altersDynamicFields?: boolean;
}) => ({
  key: 'eventId',
  label: 'Event',
  type: 'string' as const,
  required: options.required,
  dynamic: `${EVENT_LIST_TRIGGER_KEY}.id.label`,
  altersDynamicFields: options.altersDynamicFields ?? false,
  helpText:
    options.helpText ??
    (options.required
      ? 'Choose one of your events. The list shows your 100 newest events, drafts included.'
      : 'Leave empty for all of your events, or choose one to limit this step to it.'),
});

/** Whether a text looks like an event UUID (custom values typed into the dropdown are checked with it). */
export const isEventUuid = (value: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value.trim());
