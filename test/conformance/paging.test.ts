/**
 * The kit over lists that run over many pages: it follows them as the app follows them (src/connect's
 * `followPages`), so a check over a list counts the records of every page, and a check over a list it read
 * only in part never says "holds".
 */
import { type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Deviation, SEED_TENANTS, sandboxContext, startSandbox } from '../../sandbox';
import { type Answer, Probe } from '../../scripts/conformance/http';
import { type Check, runConformance } from '../../scripts/conformance/index';

const NORTHWIND = SEED_TENANTS[0];

/** The kit against a sandbox whose lists answer 3 records a page, and the orders the company holds. */
const run = async (
  deviation: Deviation,
  maxListPages?: number,
): Promise<{ checks: Map<string, Check>; orders: number }> => {
  const sandbox = await startSandbox({ deviations: [deviation], pageRecords: 3 });
  try {
    const tenant = [...sandboxContext(sandbox.app).state.tenants.values()].find(
      (t) => t.settings.companyId === NORTHWIND.companyId,
    );
    const checks = await runConformance({
      baseUrl: sandbox.url,
      apiKey: NORTHWIND.apiKey,
      companyId: NORTHWIND.companyId,
      ...(maxListPages === undefined ? {} : { maxListPages }),
    });
    return { checks: new Map(checks.map((c) => [c.id, c])), orders: tenant?.orders.size ?? 0 };
  } finally {
    await sandbox.close();
  }
};

describe.each<Deviation>(['cursor-paging', 'link-paging'])('lists of 3 records a page (%s)', (deviation) => {
  let checks: Map<string, Check>;
  let orders: number;
  beforeAll(async () => {
    ({ checks, orders } = await run(deviation));
  });

  it('counts the orders of every page, never the first page alone', () => {
    expect(orders).toBeGreaterThan(100);
    const pages = Math.ceil(orders / 3);
    expect(checks.get('orders.envelope')).toMatchObject({ status: 'holds' });
    expect(checks.get('orders.envelope')?.detail).toBe(
      `${orders} records, each in the documented shape. The kit read all ${pages} pages of the list, following them as the app does.`,
    );
    // Every order of the company without `limit`, and with a limit above the clamp: more than a first page
    // or the contract's 20 and 100 hold, so neither check can say "holds".
    expect(checks.get('orders.limit-default')).toMatchObject({ status: 'tolerated' });
    expect(checks.get('orders.limit-default')?.detail).toMatch(
      new RegExp(`^${orders} orders without limit \\(${orders} with limit=100\\)`),
    );
    expect(checks.get('orders.limit-clamp')).toMatchObject({ status: 'tolerated' });
    expect(checks.get('orders.limit-clamp')?.detail).toMatch(
      new RegExp(`^limit=1000 answered ${orders} orders`),
    );
  });

  it('reads the registrations of every page too, and checks since over them', () => {
    expect(checks.get('submissions.envelope')?.detail).toMatch(/The kit read all \d+ pages of the list/);
    expect(checks.get('submissions.filter')).toMatchObject({ status: 'holds' });
  });
});

describe('a list longer than the kit reads', () => {
  let checks: Map<string, Check>;
  beforeAll(async () => {
    ({ checks } = await run('link-paging', 5));
  });

  it('says of every check over it that it could not tell, how far it read and why: none "holds"', () => {
    for (const id of ['orders.envelope', 'orders.order', 'orders.limit-default', 'orders.limit-clamp']) {
      expect({ id, status: checks.get(id)?.status }).toEqual({ id, status: 'unchecked' });
      expect(checks.get(id)?.detail).toMatch(
        /But the kit read only 5 pages of this list \(it reads at most 5 pages of a list, and the last of them named another\), so it cannot tell for the whole list\.$/,
      );
    }
    expect(checks.get('orders.limit-default')?.detail).toMatch(/^15 orders without limit/);
  });

  it('still says "holds" over the lists it read to their end', () => {
    expect(checks.get('submissions.envelope')).toMatchObject({ status: 'holds' });
    expect(checks.get('events.envelope')).toMatchObject({ status: 'holds' });
  });
});

describe('a list whose later page fails, or names a page already read', () => {
  /** A service on 127.0.0.1 whose orders come in pages of one, `c1` after the first; `second` answers c1. */
  const serve = async (second: (res: ServerResponse) => void) => {
    const server = createServer((req, res) => {
      const cursor = new URL(req.url ?? '/', 'http://x').searchParams.get('cursor');
      if (cursor === 'c1') return second(res);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ data: [{ id: 'ord_1' }], next: 'c1' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  };
  const read = async (second: (res: ServerResponse) => void): Promise<Answer> => {
    const { server, url } = await serve(second);
    try {
      const probe = new Probe(url, 'sk_test_key_for_paging_0001');
      probe.pages = {
        next: { member: 'next', cursor: 'cursor' },
        join: (bodies) => ({ data: bodies.flatMap((b) => (b as { data: unknown[] }).data) }),
        isList: (_path, status) => status === 200,
      };
      return await probe.get('/api/v1/integrations/zapier/orders', { limit: 100 });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  };

  it('says which page failed, and keeps what came before it', async () => {
    const answer = await read((res) => {
      res.statusCode = 500;
      res.end('{"error":{"code":"INTERNAL"}}');
    });
    expect(answer.paged).toEqual({ pages: 1, cut: 'page 2 answered HTTP 500' });
    expect(JSON.parse(answer.text)).toEqual({ data: [{ id: 'ord_1' }] });
  });

  it('says a page named one already read', async () => {
    const answer = await read((res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ data: [{ id: 'ord_2' }], next: 'c1' }));
    });
    expect(answer.paged).toEqual({ pages: 2, cut: 'page 2 named a page already read as the next one' });
  });
});
