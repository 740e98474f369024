import { instantTrigger, recentRegistrations } from '../webhooks';
import { registrationItem } from '../items';
import { sibling } from '../siblings';

const definition = instantTrigger({
  key: 'registration_approved',
  kind: 'FORM_SUBMISSION_APPROVED',
  noun: 'Registration',
  label: 'Registration Approved',
  description:
    'Triggers when a registration is approved and its ticket QR code exists, instantly, with the registration, its QR code, its answers and the event. For every form sent, approved or not, use **New Registration**.',
  item: registrationItem,
  list: recentRegistrations((submission) => submission.status === 'approved'),
});

export default sibling('registrations', definition);
