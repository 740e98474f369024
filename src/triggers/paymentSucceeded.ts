import { instantTrigger, recentPayments } from '../webhooks';
import { ATTENDEE_HELP } from '../mappers/attendee';
import { paymentItem } from '../items';
import { sibling } from '../siblings';

const definition = instantTrigger({
  key: 'payment_succeeded',
  kind: 'PAYMENT_SUCCESS',
  noun: 'Payment',
  label: 'Payment Succeeded',
  description:
    'Triggers when a payment succeeds, instantly, with the order, its amounts, the attendee and the event. **Payment Failed** and **Payment Refunded** cover the other outcomes; **New Order** (checked every few minutes) gives every order as it is placed, paid or not.',
  item: paymentItem,
  inputFields: [{ key: 'attendeeHelp', label: 'Attendee Fields', type: 'copy', helpText: ATTENDEE_HELP }],
  list: recentPayments('paid'),
});

export default sibling('payments', definition);
