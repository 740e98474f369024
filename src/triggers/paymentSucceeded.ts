import { instantTrigger, paymentItem, recentPayments } from '../hooks';

export default instantTrigger({
  key: 'payment_succeeded',
  kind: 'PAYMENT_SUCCESS',
  noun: 'Payment',
  label: 'Payment Succeeded',
  description: 'Triggers when a payment succeeds, with the order, its amounts and the event.',
  item: paymentItem,
  list: recentPayments('paid'),
});
