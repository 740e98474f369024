import { instantTrigger, recentPayments } from './common/instant';
import { paymentItem } from './common/items';

export default instantTrigger({
  key: 'payment_refunded',
  kind: 'PAYMENT_REFUNDED',
  noun: 'Payment',
  label: 'Payment Refunded',
  description: 'Triggers when a payment is refunded, with the order, its amounts and the event.',
  item: paymentItem,
  list: recentPayments('refunded'),
});
