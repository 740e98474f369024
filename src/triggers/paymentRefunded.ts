import { instantTrigger, recentPayments } from '../webhooks';
import { ATTENDEE_HELP } from '../mappers/attendee';
import { paymentItem } from '../items';
import { sibling } from '../siblings';

const definition = instantTrigger({
  key: 'payment_refunded',
  kind: 'PAYMENT_REFUNDED',
  noun: 'Payment',
  label: 'Payment Refunded',
  description:
    'Triggers when a payment is refunded, instantly, with the order, its amounts, the attendee and the event. Payments as they succeed are **Payment Succeeded**; **New Order** (checked every few minutes) gives every order as it is placed.',
  item: paymentItem,
  inputFields: [{ key: 'attendeeHelp', label: 'Attendee Fields', type: 'copy', helpText: ATTENDEE_HELP }],
  list: recentPayments('refunded'),
});

export default sibling('payments', definition);
