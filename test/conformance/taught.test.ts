/**
 * The kit reads error bodies through the app's own error translation (src/connect/errors.ts), never with a
 * schema of its own: once the app is taught another error body in src/connect/dialect.ts (here the
 * sandbox's `error-type` switch, `{ "error": { "type": "not_found", "message" } }`), the kit reads it as the
 * app does, and nothing differs. A kit that read the wire with the contract's schema would still report a difference.
 */
import { differing, kitChecks } from '../support/kit';

jest.mock('../../src/connect/dialect', () => {
  type Dialects = typeof import('../../src/connect/dialect');
  const actual = jest.requireActual<Dialects>('../../src/connect/dialect');
  // What teaching the app looks like: `type` read as the code, in the contract's spelling.
  const errors = {
    ...actual.CONTRACT_DIALECT.errors,
    codeMember: 'type',
    code: (wire: string) => wire.toUpperCase(),
    wire: (code: string) => code.toLowerCase(),
  };
  return { ...actual, DIALECT: { ...actual.DIALECT, errors } };
});

it('reads an error body the app was taught as the app does: no error check differs', async () => {
  const found = await kitChecks({ deviations: ['error-type'] });
  expect(differing(found)).toEqual([]);
  for (const id of ['hooks.unknown', 'floorPlans.unknown', 'widgets.unknown', 'orders.unknown-company']) {
    expect({ id, status: found.get(id)?.status }).toEqual({ id, status: 'holds' });
  }
  expect(found.get('errors.malformed-since')?.status).toBe('holds');
  expect(found.get('errors.entitlement')?.status).toBe('holds');
});
