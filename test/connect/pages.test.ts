/**
 * A list answered in pages (the dialect's `list.next`, here a nested `result.next` cursor sent back as
 * `cursor`, with snake_case query parameters): read to its end, the cursor sent back on the same request, a
 * page named twice ending the list with a log line, and the list's time the first page's.
 */
import nock from 'nock';
import type { Bundle, ZObject } from 'zapier-platform-core';
import { listOrders, paths } from '../../src/connect';
import { BASE_URL, appTester, authData } from '../support/app';

jest.mock('../../src/connect/dialect', () => {
  const actual = jest.requireActual<typeof import('../../src/connect/dialect')>('../../src/connect/dialect');
  return {
    ...actual,
    DIALECT: {
      ...actual.CONTRACT_DIALECT,
      query: actual.SNAKE_CASE,
      list: { member: 'result.items', next: { member: 'result.next', cursor: 'cursor' }, more: null },
    },
  };
});

const order = (i: number) => ({
  id: `ord_${i}`,
  status: 'paid',
  currency: 'EUR',
  totalAmount: 100 * i,
  createdAt: new Date(Date.UTC(2026, 10, 21, 10, i)).toISOString(),
});
const page = (ids: number[], next: string | null) => ({ result: { items: ids.map(order), next } });

const run = <T>(fn: (z: ZObject, bundle: Bundle) => Promise<T>) => appTester(fn, { authData: authData() });

afterEach(() => nock.cleanAll());

it('reads every page, sending the cursor back under the same query, in snake_case', async () => {
  const asked: string[] = [];
  nock(BASE_URL)
    .get(paths.orders())
    .query(true)
    .times(3)
    .reply(function (uri) {
      asked.push(uri);
      const cursor = new URL(uri, BASE_URL).searchParams.get('cursor');
      if (cursor === null) return [200, page([3, 2], 'c2'), { Date: 'Sat, 21 Nov 2026 12:00:00 GMT' }];
      if (cursor === 'c2') return [200, page([1], 'c3'), { Date: 'Sat, 21 Nov 2026 12:00:05 GMT' }];
      return [200, page([0], null)];
    });
  const orders = await run((z, b) => listOrders(z, b, { companyId: 'cmp_42' }));
  expect(orders.map((o) => o.id)).toEqual(['ord_3', 'ord_2', 'ord_1', 'ord_0']);
  expect(asked.map((uri) => new URL(uri, BASE_URL).searchParams.toString())).toEqual([
    'company_id=cmp_42&limit=100',
    'company_id=cmp_42&limit=100&cursor=c2',
    'company_id=cmp_42&limit=100&cursor=c3',
  ]);
});

it('ends a list whose answer names a page already read, saying so', async () => {
  let calls = 0;
  nock(BASE_URL)
    .get(paths.orders())
    .query(true)
    .times(5)
    .reply(() => {
      calls++;
      return [200, page([calls], 'again')];
    });
  const lines: string[] = [];
  const orders = await run(async (z, b) => {
    const log = z.console.log.bind(z.console);
    z.console.log = (...args: unknown[]) => {
      lines.push(args.map(String).join(' '));
      log(...args);
    };
    return listOrders(z, b, { companyId: 'cmp_42' });
  });
  expect(calls).toBe(2);
  expect(orders.map((o) => o.id)).toEqual(['ord_2', 'ord_1']);
  expect(lines.join('\n')).toMatch(/named a page of the orders of company cmp_42 it had already answered/);
});
