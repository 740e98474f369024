/**
 * The keys of the hidden triggers that feed dropdowns and of the search that finds a registration, for the
 * `dynamic` and `search` references of input fields (the operations themselves are keyed with them too).
 */
export const EVENT_LIST_TRIGGER_KEY = 'event_list';
export const FLOOR_PLAN_LIST_TRIGGER_KEY = 'floor_plan_list';
export const REGISTRATION_LIST_TRIGGER_KEY = 'registration_list';
export const FIND_REGISTRATION_KEY = 'find_registration';
export const FIND_EVENT_KEY = 'find_event';
