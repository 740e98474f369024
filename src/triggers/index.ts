import eventList from './eventList';
import floorPlanList from './floorPlanList';
import registrationList from './registrationList';
import attendeeCheckedIn from './attendee_checked_in';
import eventChanged from './event_changed';
import eventPublished from './event_published';
import newRegistration from './new_registration';
import paymentFailed from './payment_failed';
import paymentRefunded from './payment_refunded';
import paymentSucceeded from './payment_succeeded';
import registrationApproved from './registration_approved';
import newEvent from './newEvent';
import newOrder from './newOrder';
import newSubmission from './newSubmission';

/** Every trigger of the app; `index.ts` keys them. */
export const triggers = [
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
