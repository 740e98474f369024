import checkIn from './checkIn';
import embedCode from './embedCode';

/** Every create (action) of the app; `index.ts` keys them. */
export const creates: Array<{ key: string }> = [checkIn, embedCode];
