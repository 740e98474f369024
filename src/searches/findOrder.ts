/**
 * Find Order: among the company's most recent orders, by order (or payment) ID, registration ID or the
 * attendee's email. Orders carry no email, so an email is matched through the registrations of the events
 * those orders belong to. Nothing found is `[]`, never an error.
 */
import { type Bundle, type ZObject, defineSearch } from 'zapier-platform-core';
import { LIST_LIMIT_MAX, type Order, isNotFound, listOrders } from '../connect';
import { registrationIdsWithEmail } from '../account/registrations';
import { companyIdOf } from '../fields/company';
import { NO_SPACES_PATTERN, accepts } from '../fields/accepts';
import { EMAIL_PATTERN, emailInput, idInput } from '../fields/read';
import { ATTENDEE_HELP } from '../mappers/attendee';
import { mapEach } from '../mappers/each';
import { orderItemMaker, orderItemOutputFields, orderItemStaticSample } from '../items';
import { sibling } from '../siblings';

/** At most this many events' registrations are read to match an email (the newest orders' events). */
const MAX_EMAIL_EVENTS = 10;

/**
 * Registration IDs with this email in the events of `orders`. Each event is read as a stream and only the
 * matching IDs are kept.
 */
const registrationsWithEmail = async (
  z: ZObject,
  bundle: Bundle,
  orders: Order[],
  email: string,
): Promise<Set<string>> => {
  const eventIds = [...new Set(orders.map((o) => o.eventId).filter((id): id is string => Boolean(id)))];
  const sets = await Promise.all(
    eventIds.slice(0, MAX_EMAIL_EVENTS).map((eventId) =>
      registrationIdsWithEmail(z, bundle, eventId, email).catch((error: unknown) => {
        if (isNotFound(error)) return new Set<string>();
        throw error;
      }),
    ),
  );
  return new Set(sets.flatMap((ids) => [...ids]));
};

// The three ways to name an order; the message for none of them names them by these labels.
const orderIdField = {
  key: 'orderIdText',
  label: 'Order ID',
  type: 'string' as const,
  required: false,
  helpText: 'An order ID such as `ord_01JD3KB0Z1`, or the payment ID of a payment trigger (`pay_…`).',
  meta: accepts({ pattern: NO_SPACES_PATTERN, fillOneOf: 'order' }),
};
const submissionIdField = {
  key: 'submissionIdText',
  label: 'Registration ID',
  type: 'string' as const,
  required: false,
  helpText:
    'The registration the order paid for (for example `sub_01JD3K9V8Q2W`), mapped from a registration trigger or search.',
  meta: accepts({ pattern: NO_SPACES_PATTERN, fillOneOf: 'order' }),
};
const emailField = {
  key: 'email',
  label: 'Attendee Email',
  type: 'string' as const,
  required: false,
  helpText: `The email of the person who registered, for example \`ada@example.com\`; case does not matter. Matched through the registrations of the events of your newest orders (up to ${MAX_EMAIL_EVENTS} events).`,
  meta: accepts({ pattern: EMAIL_PATTERN, fillOneOf: 'order' }),
};

const perform = async (z: ZObject, bundle: Bundle) => {
  const orderId = idInput(z, bundle, orderIdField.key, orderIdField.label, 'ord_01JD3KB0Z1');
  const submissionId = idInput(z, bundle, submissionIdField.key, submissionIdField.label, 'sub_01JD3K9V8Q2W');
  const email = emailInput(z, bundle, emailField.key, emailField.label);
  if (!orderId && !submissionId && !email) {
    throw new z.errors.Error(
      `Fill in ${orderIdField.label}, ${submissionIdField.label} or ${emailField.label} to say which order to find.`,
      'INVALID_INPUT',
      400,
    );
  }
  const orders = await listOrders(z, bundle, { companyId: companyIdOf(z, bundle), limit: LIST_LIMIT_MAX });
  let matches = orders.filter(
    (o) =>
      (!orderId || o.id === orderId || o.paymentId === orderId) &&
      (!submissionId || o.submissionId === submissionId),
  );
  if (email && matches.length > 0) {
    const ids = await registrationsWithEmail(z, bundle, matches, email);
    matches = matches.filter((o) => o.submissionId && ids.has(o.submissionId));
  }
  const toItem = await orderItemMaker(z, bundle, matches);
  const log = (line: string) => z.console.log(line);
  return mapEach(matches, { noun: 'order', what: 'the orders found', idOf: (o: Order) => o.id, log }, toItem);
};

const definition = defineSearch({
  key: 'find_order',
  noun: 'Order',
  display: {
    label: 'Find Order',
    description:
      "Finds an order among your company's 100 most recent orders by order or payment ID, registration ID or the attendee's email, and returns it with its line items, amounts and attendee. When nothing matches, it returns nothing. For the registration itself (answers, QR code), use **Find Registration**.",
  },
  operation: {
    perform,
    inputFields: [
      orderIdField,
      submissionIdField,
      emailField,
      {
        key: 'attendeeHelp',
        type: 'copy' as const,
        helpText: ATTENDEE_HELP,
      },
    ],
    sample: orderItemStaticSample,
    outputFields: orderItemOutputFields,
  },
});

export default sibling('registration-or-order', definition);
