import { instantTrigger, recentRegistrations } from '../webhooks';
import { registrationItem } from '../items';

export default instantTrigger({
  key: 'new_registration',
  kind: 'FORM_SUBMISSION',
  noun: 'Registration',
  label: 'New Registration',
  description:
    'Triggers when someone submits a registration form, instantly, with their answers and the event.',
  item: registrationItem,
  list: recentRegistrations(),
});
