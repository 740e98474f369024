import { instantTrigger, recentPayments } from './common/instant';
import { paymentItem } from './common/items';

export default instantTrigger({
  key: 'payment_failed',
  kind: 'PAYMENT_FAILED',
  noun: 'Payment',
  label: 'Payment Failed',
  description: 'Triggers when a payment fails, with the order, its amounts and the event.',
  item: paymentItem,
  list: recentPayments('failed'),
});
