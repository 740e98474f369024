import type { Create } from 'zapier-platform-core';
import checkIn from './checkIn';
import embedCode from './embedCode';

/** Every create (action) of the app; `index.ts` keys them. */
export const creates: Create[] = [checkIn, embedCode];
