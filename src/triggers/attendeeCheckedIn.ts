import { instantTrigger, recentRegistrations } from '../webhooks';
import { registrationItem } from '../items';

export default instantTrigger({
  key: 'attendee_checked_in',
  kind: 'ATTENDANT_CHECKED_IN',
  noun: 'Attendee',
  label: 'Attendee Checked In',
  description: 'Triggers when an attendee is checked in at the door, by a scan or a check-in step.',
  item: registrationItem,
  list: recentRegistrations((submission) => Boolean(submission.checkedInAt)),
});
