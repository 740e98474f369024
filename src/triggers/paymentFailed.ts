import { instantTrigger, recentPayments } from '../webhooks';
import { ATTENDEE_HELP } from '../mappers/attendee';
import { paymentItem } from '../items';

export default instantTrigger({
  key: 'payment_failed',
  kind: 'PAYMENT_FAILED',
  noun: 'Payment',
  label: 'Payment Failed',
  description: 'Triggers when a payment fails, with the order, its amounts and the event.',
  item: paymentItem,
  inputFields: [{ key: 'attendeeHelp', label: 'Attendee Fields', type: 'copy', helpText: ATTENDEE_HELP }],
  list: recentPayments('failed'),
});
