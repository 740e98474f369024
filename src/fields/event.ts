/**
 * Input fields shared by operations. Every operation that takes an event uses `eventField`: a dynamic
 * dropdown fed by the hidden `event_list` trigger, so nobody pastes an event UUID; floor plans likewise come
 * from `floorPlanField`, fed by `floor_plan_list`.
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

export const FLOOR_PLAN_LIST_TRIGGER_KEY = 'floor_plan_list';

/** The Floor Plan dropdown: the published plans of the event chosen in the Event field. */
export const floorPlanField = (helpText: string) => ({
  key: 'planId',
  label: 'Floor Plan',
  type: 'string' as const,
  required: false,
  dynamic: `${FLOOR_PLAN_LIST_TRIGGER_KEY}.id.label`,
  dependsOn: ['eventId'],
  helpText,
});

/** Whether a text looks like an event UUID (custom values typed into the dropdown are checked with it). */
export const isEventUuid = (value: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value.trim());
