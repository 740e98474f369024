import type { Trigger } from 'zapier-platform-core';
import eventList from './eventList';
import floorPlanList from './floorPlanList';
import registrationList from './registrationList';
import attendeeCheckedIn from './attendeeCheckedIn';
import eventChanged from './eventChanged';
import eventPublished from './eventPublished';
import newRegistration from './newRegistration';
import paymentFailed from './paymentFailed';
import paymentRefunded from './paymentRefunded';
import paymentSucceeded from './paymentSucceeded';
import registrationApproved from './registrationApproved';
import newEvent from './newEvent';
import newOrder from './newOrder';
import newSubmission from './newSubmission';

/** Every trigger of the app; `index.ts` keys them. */
export const triggers: Trigger[] = [
  eventList,
  registrationList,
  floorPlanList,
  // Polling triggers
  newSubmission,
  newOrder,
  newEvent,
  // Instant (REST hook) triggers
  newRegistration,
  registrationApproved,
  paymentSucceeded,
  paymentFailed,
  paymentRefunded,
  attendeeCheckedIn,
  eventPublished,
  eventChanged,
];
