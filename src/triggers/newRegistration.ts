import { instantTrigger, recentRegistrations } from '../webhooks';
import { registrationItem } from '../items';
import { sibling } from '../siblings';

const definition = instantTrigger({
  key: 'new_registration',
  kind: 'FORM_SUBMISSION',
  noun: 'Registration',
  label: 'New Registration',
  description:
    'Triggers when someone submits a registration form, instantly, with their answers and the event, for every event or one. Pick it over **New Form Submission** (one event, checked every few minutes) for speed and for ticket-release rushes; **Registration Approved** runs later, once the ticket exists.',
  item: registrationItem,
  list: recentRegistrations(),
});

export default sibling('registrations', definition);
