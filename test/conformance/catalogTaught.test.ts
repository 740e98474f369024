/**
 * The catalog's continuation taught to the app (`catalog` in src/connect/dialect.ts): against a service whose
 * catalog continues by a cursor (`catalog-cursor`) the kit finds what the app was taught, reads page 2 by
 * that cursor and finds nothing that differs, and writes the value as it found it; against a service that
 * pages its catalog by number, it says the app was taught otherwise.
 */
import type { Deviation } from '../../sandbox';
import type { Check } from '../../scripts/conformance/index';
import { dialectSource } from '../../scripts/conformance/dialect';
import type { Dialect } from '../../src/connect/dialect';
import { differing, kitChecks } from '../support/kit';

jest.mock('../../src/connect/dialect', () => {
  type Dialects = typeof import('../../src/connect/dialect');
  const actual = jest.requireActual<Dialects>('../../src/connect/dialect');
  const catalog = { member: actual.besideRecords(actual.DIALECT, 'next'), cursor: 'cursor' };
  return { ...actual, DIALECT: { ...actual.DIALECT, catalog } };
});

const run = async (
  deviations: Deviation[],
  agency = 0,
): Promise<{ checks: Map<string, Check>; found?: Dialect }> => {
  let found: Dialect | undefined;
  const checks = await kitChecks({ deviations, agency }, { onDialect: (dialect) => void (found = dialect) });
  return { checks, found };
};

it('holds against a catalog that continues by a cursor, read by it; the value found is the one taught', async () => {
  const { checks, found } = await run(['catalog-cursor']);
  expect(differing(checks)).toEqual([]);
  expect(checks.get('catalog.paging')).toMatchObject({ status: 'holds' });
  expect(checks.get('catalog.paging')?.detail).toMatch(
    /continues by a cursor .* The app was taught it: the page its cursor names holds other events\./,
  );
  expect(found?.catalog).toEqual({ member: expect.stringMatching(/(^|\.)next$/), cursor: 'cursor' });
  expect(dialectSource(found as Dialect, 'http://127.0.0.1')).toMatch(
    /\n {2}catalog: \{"member":"(result\.)?next","cursor":"cursor"\},\n/,
  );
});

it('differs against a catalog paged by number, saying the app was taught otherwise', async () => {
  const { checks, found } = await run([]);
  expect(checks.get('catalog.paging')).toMatchObject({ status: 'differs' });
  expect(checks.get('catalog.paging')?.detail).toMatch(
    /the catalog pages by number, where the app was taught/,
  );
  expect(found?.catalog).toBeNull();
});

it('counts the pages of a catalog of several pages by following its cursor, every event of them', async () => {
  const { checks } = await run(['catalog-cursor'], 300);
  expect(checks.get('catalog.envelope')).toMatchObject({ status: 'holds' });
  expect(checks.get('catalog.pages')?.detail).toMatch(
    /^No total in the envelope; the catalog continues by its cursor: counted 3 page\(s\), 2\d\d events\./,
  );
});
