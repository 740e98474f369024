import { instantTrigger, paymentItem, recentPayments } from '../hooks';

export default instantTrigger({
  key: 'payment_failed',
  kind: 'PAYMENT_FAILED',
  noun: 'Payment',
  label: 'Payment Failed',
  description: 'Triggers when a payment fails, with the order, its amounts and the event.',
  item: paymentItem,
  list: recentPayments('failed'),
});
