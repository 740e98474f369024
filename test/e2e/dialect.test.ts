/**
 * A service that differs from the contract in every shape at once (snake_case names, `{ items, has_more }`
 * lists, `{ error: { type } }` errors, `t=…,v1=…` signatures), played by the sandbox's switches: the app,
 * taught that dialect in src/connect/dialect.ts alone, runs the whole journey against it.
 */
import { runJourney } from '../../scripts/journey';
import type { Dialect } from '../../src/connect/dialect';

const SERVICE_DEVIATIONS = ['snake-case', 'has-more', 'error-type', 'timestamped-signature'] as const;

jest.mock('../../src/connect/dialect', () => {
  const actual = jest.requireActual<typeof import('../../src/connect/dialect')>('../../src/connect/dialect');
  const service: Dialect = {
    names: actual.SNAKE_CASE,
    renamed: { submission: { submissionId: 'id' } },
    list: { member: 'items', more: 'has_more' },
    errors: { codeMember: 'type', code: (wire) => wire.toUpperCase(), wire: (code) => code.toLowerCase() },
    signature: 'timestamped',
  };
  return { ...actual, DIALECT: service };
});

it('runs the whole journey against a service speaking another dialect, every step passing', async () => {
  const lines: string[] = [];
  const result = await runJourney({
    out: { line: (text) => lines.push(text), color: false },
    deviations: SERVICE_DEVIATIONS,
  });
  const failed = result.rows.filter((row) => !row.ok).map((row) => `${row.step}: ${row.detail}`);
  expect(failed).toEqual([]);
});
