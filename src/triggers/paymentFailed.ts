import { instantTrigger, recentPayments } from '../webhooks';
import { ATTENDEE_HELP } from '../mappers/attendee';
import { paymentItem } from '../items';
import { sibling } from '../siblings';

const definition = instantTrigger({
  key: 'payment_failed',
  kind: 'PAYMENT_FAILED',
  noun: 'Payment',
  label: 'Payment Failed',
  description:
    'Triggers when a payment fails, instantly, with the order, its amounts, the attendee and the event. Successful payments are **Payment Succeeded**; **New Order** (checked every few minutes) gives every order as it is placed, whatever its payment.',
  item: paymentItem,
  inputFields: [{ key: 'attendeeHelp', label: 'Attendee Fields', type: 'copy', helpText: ATTENDEE_HELP }],
  list: recentPayments('failed'),
});

export default sibling('payments', definition);
