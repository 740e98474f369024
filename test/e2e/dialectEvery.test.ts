import { runJourney } from '../../scripts/journey';
import { EVERY_SWITCH } from '../support/serviceDialect';

jest.mock('../../src/connect/dialect', () =>
  jest.requireActual<typeof import('../support/serviceDialect')>('../support/serviceDialect').taughtEvery(),
);

it('runs the whole journey against a service differing everywhere at once, every step passing', async () => {
  const lines: string[] = [];
  const result = await runJourney({
    out: { line: (text) => lines.push(text), color: false },
    deviations: EVERY_SWITCH,
  });
  const failed = result.rows.filter((row) => !row.ok).map((row) => `${row.step}: ${row.detail}`);
  expect(failed).toEqual([]);
});
