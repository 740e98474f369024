import { instantTrigger, recentPayments } from '../webhooks';
import { ATTENDEE_HELP } from '../mappers/attendee';
import { paymentItem } from '../items';

export default instantTrigger({
  key: 'payment_succeeded',
  kind: 'PAYMENT_SUCCESS',
  noun: 'Payment',
  label: 'Payment Succeeded',
  description: 'Triggers when a payment succeeds, with the order, its amounts and the event.',
  item: paymentItem,
  inputFields: [{ key: 'attendeeHelp', label: 'Attendee Fields', type: 'copy', helpText: ATTENDEE_HELP }],
  list: recentPayments('paid'),
});
