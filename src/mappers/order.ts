/**
 * The one mapper of the Order (payment) noun. Amounts are kept in minor units and also given as a decimal
 * string with the currency, using the currency's own number of decimals (EUR 2, JPY 0, KWD 3).
 */
import type { PlainOutputField } from 'zapier-platform-core';
import type { Order } from '../connect';
import { cutFieldsOutputField, cutSummary, extraFields, itemCuts } from './cuts';
import { staticSample } from './sample';

export type LineItem = {
  [extra: string]: unknown;
  name: string;
  quantity: number;
  unitAmount: number;
  unitFormatted: string;
  lineAmount: number;
  lineFormatted: string;
};

export type OrderItem = {
  [extra: string]: unknown;
  id: string;
  orderId: string;
  companyId: string | null;
  eventId: string | null;
  submissionId: string | null;
  paymentId: string | null;
  status: string;
  currency: string;
  totalAmount: number;
  totalDecimal: string;
  totalFormatted: string;
  items: LineItem[];
  /** Tickets and items of all lines; `null` when the lines were cut (only the first ones are listed). */
  itemCount: number | null;
  /** Lines of the whole order, listed or not. */
  lineCount: number;
  /** Whether `items` lists only the first lines of the order. */
  linesCut: boolean;
  cutFields: string | null;
  createdAt: string;
  updatedAt: string | null;
};

/** Decimal places of an ISO 4217 currency (2 when the runtime does not know it). */
const currencyDigits = (currency: string): number => {
  try {
    return (
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ??
      2
    );
  } catch {
    return 2;
  }
};

/** Minor units as a plain decimal string: 12900 EUR → "129.00", -500 JPY → "-500". */
const decimalAmount = (minor: number, currency: string): string => {
  const digits = currencyDigits(currency);
  const negative = minor < 0;
  const abs = Math.abs(Math.trunc(minor))
    .toString()
    .padStart(digits + 1, '0');
  const whole = digits ? abs.slice(0, -digits) : abs;
  const fraction = digits ? `.${abs.slice(-digits)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
};

/** "129.00 EUR" */
const formatAmount = (minor: number, currency: string): string =>
  `${decimalAmount(minor, currency)} ${currency.toUpperCase()}`;

/**
 * The fields of an order item (the contract's, and the app's own): any other field of the service is kept
 * only within `extraFields`' bounds, as for every record kind.
 */
const ORDER_ITEM_KEYS: ReadonlySet<string> = new Set([
  'id',
  'orderId',
  'companyId',
  'eventId',
  'submissionId',
  'paymentId',
  'status',
  'currency',
  'totalAmount',
  'totalDecimal',
  'totalFormatted',
  'items',
  'itemCount',
  'lineCount',
  'linesCut',
  'cutFields',
  'createdAt',
  'updatedAt',
]);

export const toOrderItem = (order: Order, id: string = order.id): OrderItem => {
  const currency = order.currency.toUpperCase();
  const items = (order.items ?? []).map((line) => ({
    ...line,
    name: line.name,
    quantity: line.quantity,
    unitAmount: line.unitAmount,
    unitFormatted: formatAmount(line.unitAmount, currency),
    lineAmount: line.unitAmount * line.quantity,
    lineFormatted: formatAmount(line.unitAmount * line.quantity, currency),
  }));
  const extras = extraFields(order, ORDER_ITEM_KEYS);
  const cuts = itemCuts(order, ORDER_ITEM_KEYS, extras);
  const linesCut = cuts.items !== undefined;
  return {
    ...extras.fields,
    id,
    orderId: order.id,
    companyId: order.companyId ?? null,
    eventId: order.eventId ?? null,
    submissionId: order.submissionId ?? null,
    paymentId: order.paymentId ?? null,
    status: order.status,
    currency,
    totalAmount: order.totalAmount,
    totalDecimal: decimalAmount(order.totalAmount, currency),
    totalFormatted: formatAmount(order.totalAmount, currency),
    items,
    itemCount: linesCut ? null : items.reduce((sum, line) => sum + line.quantity, 0),
    lineCount: cuts.items?.size ?? items.length,
    linesCut,
    cutFields: cutSummary(cuts),
    createdAt: order.createdAt,
    updatedAt: order.updatedAt ?? null,
  };
};

export const SAMPLE_ORDER: Order = {
  id: 'ord_01JD3KB0Z1',
  companyId: 'cmp_42',
  eventId: '7d0c6f1e-2f6a-4a7e-9a51-3f0e1b2c4d5e',
  submissionId: 'sub_01JD3K9V8Q2W',
  status: 'paid',
  currency: 'EUR',
  totalAmount: 15400,
  items: [
    { name: 'Standard ticket', quantity: 1, unitAmount: 12900 },
    { name: 'Workshop add-on', quantity: 1, unitAmount: 2500 },
  ],
  paymentId: 'pay_01JD3KB4',
  createdAt: '2026-11-21T14:07:30.000Z',
  updatedAt: '2026-11-21T14:07:31.000Z',
};

export const orderSample: OrderItem = staticSample('order', () => toOrderItem(SAMPLE_ORDER));

export const orderOutputFields: PlainOutputField[] = [
  { key: 'id', label: 'ID', type: 'string', primary: true },
  { key: 'orderId', label: 'Order ID', type: 'string' },
  { key: 'paymentId', label: 'Payment ID', type: 'string' },
  { key: 'companyId', label: 'Company ID', type: 'string' },
  { key: 'eventId', label: 'Event ID', type: 'string' },
  { key: 'submissionId', label: 'Registration ID', type: 'string' },
  { key: 'status', label: 'Order Status', type: 'string' },
  { key: 'currency', label: 'Currency', type: 'string' },
  { key: 'totalAmount', label: 'Total in Minor Units', type: 'integer' },
  { key: 'totalDecimal', label: 'Total as Decimal', type: 'string' },
  { key: 'totalFormatted', label: 'Total with Currency', type: 'string' },
  { key: 'itemCount', label: 'Number of Tickets and Items', type: 'integer' },
  { key: 'lineCount', label: 'Number of Lines', type: 'integer' },
  { key: 'linesCut', label: 'Only the First Lines Are Listed', type: 'boolean' },
  { key: 'items[]name', label: 'Line Items: Name', type: 'string' },
  { key: 'items[]quantity', label: 'Line Items: Quantity', type: 'integer' },
  { key: 'items[]unitAmount', label: 'Line Items: Unit Price in Minor Units', type: 'integer' },
  { key: 'items[]unitFormatted', label: 'Line Items: Unit Price with Currency', type: 'string' },
  { key: 'items[]lineAmount', label: 'Line Items: Line Total in Minor Units', type: 'integer' },
  { key: 'items[]lineFormatted', label: 'Line Items: Line Total with Currency', type: 'string' },
  { key: 'createdAt', label: 'Created At', type: 'datetime' },
  { key: 'updatedAt', label: 'Updated At', type: 'datetime' },
  cutFieldsOutputField,
];
