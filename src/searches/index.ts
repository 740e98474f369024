import type { Search } from 'zapier-platform-core';
import findAgenda from './findAgenda';
import findEvent from './findEvent';
import findFloorPlan from './findFloorPlan';
import findOrder from './findOrder';
import findRegistration from './findRegistration';

/** Every search of the app; `index.ts` keys them. */
export const searches: Search[] = [findEvent, findRegistration, findOrder, findAgenda, findFloorPlan];
