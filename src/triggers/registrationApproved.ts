import { instantTrigger, recentRegistrations } from '../webhooks';
import { registrationItem } from '../items';

export default instantTrigger({
  key: 'registration_approved',
  kind: 'FORM_SUBMISSION_APPROVED',
  noun: 'Registration',
  label: 'Registration Approved',
  description: 'Triggers when a registration is approved and its ticket QR code exists.',
  item: registrationItem,
  list: recentRegistrations((submission) => submission.status === 'approved'),
});
