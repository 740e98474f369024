/**
 * A service whose registrations and orders come in pages named by a `next` cursor (`cursor-paging`) and whose
 * catalog continues by a cursor under the same member name (`catalog-cursor`), both taught to the app: the kit
 * reads the catalog one page a request, by its own continuation (as the app does), never following its `next`
 * as a list's, and finds nothing that differs.
 */
import { SEED_TENANTS, startSandbox } from '../../sandbox';
import { runConformance } from '../../scripts/conformance/index';

jest.mock('../../src/connect/dialect', () => {
  type Dialects = typeof import('../../src/connect/dialect');
  const actual = jest.requireActual<Dialects>('../../src/connect/dialect');
  const next = { member: actual.besideRecords(actual.DIALECT, 'next'), cursor: 'cursor' };
  return {
    ...actual,
    DIALECT: { ...actual.DIALECT, list: { ...actual.DIALECT.list, next }, catalog: next },
  };
});

it('reads the catalog by its own cursor, one page a request, where lists continue by a cursor of the same name', async () => {
  const sandbox = await startSandbox({ deviations: ['cursor-paging', 'catalog-cursor'] });
  try {
    const checks = await runConformance({
      baseUrl: sandbox.url,
      apiKey: SEED_TENANTS[0].apiKey,
      companyId: SEED_TENANTS[0].companyId,
    });
    const found = new Map(checks.map((c) => [c.id, c]));
    expect(checks.filter((c) => c.status === 'differs')).toEqual([]);
    expect(found.get('catalog.paging')).toMatchObject({ status: 'holds' });
    expect(found.get('catalog.paging')?.detail).toMatch(/the page its cursor names holds other events/);
    expect(found.get('dialect.paging')).toMatchObject({ status: 'holds' });
  } finally {
    await sandbox.close();
  }
});
