/** Endpoint 5, a company's orders: envelope and records, order, `limit`, and an unknown company. */
import { paths } from '../../../src/connect/paths';
import { ORDER_RULE } from '../../../src/connect/records';
import { LIST_LIMIT_MAX } from '../../../src/connect/schemas';
import { checkError, readList } from '../evaluate';
import type { Run } from '../run';
import { type Check, checkMaker, unchecked } from '../types';
import { LIST_ASSUMPTIONS, limitChecks, needsRecords, noted, orderCheck, unreadable } from './lists';

const check = checkMaker('Orders (GET /api/v1/integrations/zapier/orders)', 'orders');

export const OPERATIONS =
  'New Order, Find Order and the samples of Payment Succeeded, Payment Failed and Payment Refunded';

const ASSUMPTIONS = {
  envelope: 'The list answers { "data": [Order, …] } with the documented Order records.',
  ...LIST_ASSUMPTIONS('orders'),
  'unknown-company': 'A company the key does not know answers 404 NOT_FOUND.',
} as const;

export const orderChecks = async (run: Run): Promise<Check[]> => {
  const companyId = run.options.companyId;
  const all = (why: string) =>
    Object.entries(ASSUMPTIONS).map(([name, assumption]) => check(name, assumption, unchecked(why)));
  if (!companyId) {
    return all('No --company given: orders are read per company (dashboard: Settings → Company).');
  }
  const path = paths.orders();
  const answer = await run.probe.get(path, { companyId, limit: LIST_LIMIT_MAX });
  if (answer.status === 404)
    return all(`The service knows no company "${companyId}" for this key (HTTP 404): check --company.`);
  const list = readList(answer, ORDER_RULE, OPERATIONS);
  const checks = [check('envelope', ASSUMPTIONS.envelope, list.outcome)];
  const why = needsRecords(list, 'orders.envelope');
  if (why) {
    checks.push(
      ...unreadable(LIST_ASSUMPTIONS('orders'), why).map((l) => check(l.name, l.assumption, l.outcome)),
    );
  } else {
    const order = noted(orderCheck(list.records, 'orders'), list);
    checks.push(check('order', LIST_ASSUMPTIONS('orders').order as string, order));
    const limits = await limitChecks(run, path, { companyId }, list, ORDER_RULE, 'New Order');
    checks.push(...limits.map((l) => check(l.name, l.assumption, l.outcome)));
  }
  const unknown = await run.probe.get(path, { companyId: `cmp_conformance_unknown_${Date.now()}`, limit: 1 });
  const outcome = checkError(unknown, {
    status: 404,
    meaning: 'not_found',
    what: 'the orders of this company',
    wrongStatus:
      'A wrong Company ID in a connection would not be reported: New Order would silently never trigger',
    noCode:
      'a wrong Company ID would be reported as a general "could not find" error, not as the Company ID to fix',
  });
  return [...checks, check('unknown-company', ASSUMPTIONS['unknown-company'], outcome)];
};
