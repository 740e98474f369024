/**
 * New Order (polling): orders of the connected account's company, newest first,
 * id = order id, with line items and amounts both in minor units and as "129.00 EUR".
 */
import { type Bundle, type ZObject, defineTrigger } from 'zapier-platform-core';
import { LIST_LIMIT_MAX, type Order, listOrders } from '../connect';
import { companyIdOf } from '../fields/company';
import { chosenStatus, hasStatus, statusField } from '../fields/status';
import { ATTENDEE_HELP } from '../mappers/attendee';
import { orderItemMaker, orderItemOutputFields, orderItemStaticSample } from '../items';
import { withinAnswer } from '../mappers/each';
import { SAMPLE_SIZE, pollKind, present } from './common/polling';
import { sibling } from '../siblings';

const orderStatusField = statusField({
  label: 'Order Status',
  choices: [
    { value: 'paid', label: 'Paid' },
    { value: 'pending', label: 'Pending payment' },
    { value: 'failed', label: 'Payment failed' },
    { value: 'refunded', label: 'Refunded' },
  ],
  helpText:
    'Only orders with this status. An order that is pending at first starts a Zap filtered on **Paid** once it is paid, as long as it is among your 100 newest orders; for every payment as it happens, use the instant **Payment Succeeded** trigger.',
});

const perform = async (z: ZObject, bundle: Bundle) => {
  const companyId = companyIdOf(z, bundle);
  const status = chosenStatus(z, bundle, orderStatusField);
  const limit = pollKind(bundle) === 'sample' && !status ? SAMPLE_SIZE : LIST_LIMIT_MAX;
  const orders = (await listOrders(z, bundle, { companyId, limit })).filter(hasStatus(status));
  const idOf = (order: Order) => order.id;
  // A poll that only records ids (a Zap being turned on) needs no event titles.
  const toItem =
    pollKind(bundle) === 'dedupe'
      ? (order: Order) => ({ id: idOf(order) })
      : await orderItemMaker(z, bundle, orders);
  const log = (line: string) => z.console.log(line);
  return withinAnswer(present(bundle, orders, { idOf, toItem, noun: 'order' }, log), 'order', log);
};

const definition = defineTrigger({
  key: 'new_order',
  noun: 'Order',
  display: {
    label: 'New Order',
    description:
      'Triggers when an order (tickets and add-ons) is placed with your company, checked every few minutes, with its line items, amounts, attendee and event; filter it by status. For each payment as it happens, use **Payment Succeeded**, **Payment Failed** or **Payment Refunded** (instant).',
  },
  operation: {
    inputFields: [
      orderStatusField,
      {
        key: 'amountsHelp',
        type: 'copy' as const,
        helpText:
          "Each order gives its amounts twice: **Total in Minor Units** is an integer in the currency's smallest unit (`12900` is 129.00 EUR; `500` is 500 JPY), best for calculations and accounting tools; **Total with Currency** is ready to show (`129.00 EUR`), and **Total as Decimal** is `129.00`. **Line Items** lists each ticket or add-on with its quantity and prices in both forms.",
      },
      {
        key: 'attendeeHelp',
        type: 'copy' as const,
        helpText: ATTENDEE_HELP,
      },
    ],
    perform,
    sample: orderItemStaticSample,
    outputFields: orderItemOutputFields,
  },
});

export default sibling('payments', definition);
