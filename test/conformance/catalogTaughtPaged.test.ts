/**
 * A service whose registrations and orders come in pages named by a `next` cursor (`cursor-paging`) and whose
 * catalog continues by a cursor under the same member name (`catalog-cursor`), both taught to the app: the kit
 * reads the catalog one page a request, by its own continuation (as the app does), never following its `next`
 * as a list's, and finds nothing that differs.
 */
import { differing, kitChecks } from '../support/kit';

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
  const found = await kitChecks({ deviations: ['cursor-paging', 'catalog-cursor'] });
  expect(differing(found)).toEqual([]);
  expect(found.get('catalog.paging')).toMatchObject({ status: 'holds' });
  expect(found.get('catalog.paging')?.detail).toMatch(/the page its cursor names holds other events/);
  expect(found.get('dialect.paging')).toMatchObject({ status: 'holds' });
});
