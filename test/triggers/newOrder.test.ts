import nock from 'nock';
import { paths } from '../../src/connect';
import { SAMPLE_ORDER } from '../../src/mappers/order';
import newOrder from '../../src/triggers/newOrder';
import { BASE_URL, appTester, authData, caught, errorMessage, meta } from '../support/app';
import { MINUTE, T0, iso } from './fixtures';
import { functionOf } from '../../scripts/lib/app';
import { wireList } from '../../sandbox/wire';

type Item = Record<string, unknown> & { id: string };

const poll = (
  options: { inputData?: Record<string, unknown>; meta?: Record<string, unknown>; auth?: object } = {},
) =>
  appTester(functionOf('triggers', newOrder.key), {
    authData: options.auth ?? authData(),
    inputData: options.inputData ?? {},
    meta: meta(options.meta),
  }) as Promise<Item[]>;

const order = (id: string, createdMs: number, status = 'paid') => ({
  ...SAMPLE_ORDER,
  id,
  status,
  createdAt: iso(createdMs),
});

const serveOrders = (query: Record<string, string>, records: unknown[]) =>
  nock(BASE_URL).get(paths.orders()).query(query).reply(200, wireList(records));

afterEach(() => nock.cleanAll());

it("asks for the connection's company, 100 newest, and returns them newest first with id = order id", async () => {
  const scope = serveOrders({ companyId: 'cmp_42', limit: '100' }, [
    order('ord_b', T0 - 5 * MINUTE),
    order('ord_c', T0 - MINUTE),
    order('ord_a', T0 - 9 * MINUTE),
  ]);
  const items = await poll();
  scope.done();
  expect(items.map((item) => item.id)).toEqual(['ord_c', 'ord_b', 'ord_a']);
  expect(items.map((item) => item.orderId)).toEqual(['ord_c', 'ord_b', 'ord_a']);
});

it('exposes line items and amounts in minor units and with currency, in the sample shape', async () => {
  serveOrders({ companyId: 'cmp_42', limit: '100' }, [order('ord_a', T0)]);
  const [item] = await poll();
  expect(Object.keys(item ?? {}).sort()).toEqual(Object.keys(newOrder.operation.sample ?? {}).sort());
  expect(item).toMatchObject({
    totalAmount: 15400,
    totalDecimal: '154.00',
    totalFormatted: '154.00 EUR',
    itemCount: 2,
    items: [
      { name: 'Standard ticket', quantity: 1, unitAmount: 12900, unitFormatted: '129.00 EUR' },
      { name: 'Workshop add-on', quantity: 1, unitAmount: 2500, lineFormatted: '25.00 EUR' },
    ],
  });
  const help = (newOrder.operation.inputFields ?? []).find((field) => field.key === 'amountsHelp');
  expect(help?.helpText).toMatch(/Total in Minor Units.*`12900` is 129\.00 EUR.*Total with Currency/);
});

it('has no Company ID field, and keeps the Company ID an existing step was saved with', async () => {
  expect((newOrder.operation.inputFields ?? []).map((field) => field.key)).not.toContain('companyId');
  const scope = serveOrders({ companyId: 'cmp_agency_7', limit: '100' }, []);
  await expect(poll({ inputData: { companyId: ' cmp_agency_7 ' } })).resolves.toEqual([]);
  scope.done();
});

it('filters by status', async () => {
  serveOrders({ companyId: 'cmp_42', limit: '100' }, [
    order('ord_paid', T0 - MINUTE, 'paid'),
    order('ord_wait', T0, 'pending'),
    order('ord_back', T0 - 2 * MINUTE, 'refunded'),
  ]);
  const items = await poll({ inputData: { status: 'refunded' } });
  expect(items.map((item) => item.id)).toEqual(['ord_back']);
});

it('gives the editor 3 orders (asking for 3 when no status filter applies)', async () => {
  const records = [1, 2, 3].map((n) => order(`ord_${n}`, T0 - n * MINUTE));
  const small = serveOrders({ companyId: 'cmp_42', limit: '3' }, records);
  expect(await poll({ meta: { isLoadingSample: true } })).toHaveLength(3);
  small.done();

  const many = Array.from({ length: 8 }, (_, n) =>
    order(`ord_${n}`, T0 - n * MINUTE, n % 2 ? 'paid' : 'failed'),
  );
  serveOrders({ companyId: 'cmp_42', limit: '100' }, many);
  const items = await poll({ inputData: { status: 'paid' }, meta: { isLoadingSample: true } });
  expect(items.map((item) => item.id)).toEqual(['ord_1', 'ord_3', 'ord_5']);
});

it('answers a Zap being turned on with ids only', async () => {
  serveOrders({ companyId: 'cmp_42', limit: '100' }, [order('ord_a', T0), order('ord_b', T0 - MINUTE)]);
  expect(await poll({ meta: { isPopulatingDedupe: true } })).toEqual([{ id: 'ord_a' }, { id: 'ord_b' }]);
});

it('without any Company ID, says where to set one', async () => {
  const error = await caught(() => poll({ auth: authData({ companyId: '' }) }));
  expect(errorMessage(error)).toMatch(
    /^Your connection has no Company ID, which order and payment steps need\. Reconnect your account/,
  );
});
