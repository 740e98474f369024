/**
 * Where the service speaks the app's own dialect (the contract's), reading a record renames nothing: the
 * reader of every noun hands on the parsed object itself, so renaming costs nothing on a whole event's
 * registrations. Under another dialect the same readers rename.
 */
import { CONTRACT_DIALECT, SNAKE_CASE } from '../../src/connect/dialect';
import { renamer } from '../../src/connect/wire';
import { type RecordNoun, wireTables } from '../../src/connect/wireNames';

const record = {
  submissionId: 'sub_1',
  createdAt: '2026-11-21T10:00:00.000Z',
  status: 'approved',
  answers: [{ key: 'company', value: 'Analytical Engines' }],
  lateField: { nestedName: 1 },
};

it('hands on the object itself under the contract’s dialect, for every noun', () => {
  const tables = wireTables(CONTRACT_DIALECT);
  for (const noun of Object.keys(tables) as RecordNoun[]) {
    expect(renamer(tables[noun], 'read', CONTRACT_DIALECT.names)(record)).toBe(record);
  }
});

it('renames under another dialect (the readers above are not trivially the identity)', () => {
  const snake = { ...CONTRACT_DIALECT, names: SNAKE_CASE };
  const read = renamer(wireTables(snake).submission, 'read', SNAKE_CASE);
  const renamed = read({ submission_id: 'sub_1', created_at: 'x', late_field: { nested_name: 1 } });
  expect(renamed).toEqual({ submissionId: 'sub_1', createdAt: 'x', lateField: { nestedName: 1 } });
});
