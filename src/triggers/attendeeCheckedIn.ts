import { instantTrigger, recentRegistrations } from '../webhooks';
import { registrationItem } from '../items';
import { sibling } from '../siblings';

const definition = instantTrigger({
  key: 'attendee_checked_in',
  kind: 'ATTENDANT_CHECKED_IN',
  noun: 'Attendee',
  label: 'Attendee Checked In',
  description:
    "Triggers when an attendee is checked in at the door, instantly, with the registration, its check-in time and the event. Scans and the **Check In Attendee** action both start it, a ticket's first check-in only.",
  item: registrationItem,
  list: recentRegistrations((submission) => Boolean(submission.checkedInAt)),
});

export default sibling('check-in', definition);
