import eventList from './eventList';

/** Every trigger of the app; `index.ts` keys them. */
export const triggers = [eventList];
