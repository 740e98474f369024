/**
 * A service that means what the contract means and says it otherwise in every shape: snake_case names (a
 * registration's own id as `id`), `{ items, has_more }` lists, `{ error: { type: "not_found" } }` errors and
 * `t=…,v1=…` signatures. The sandbox plays it with `SERVICE_SWITCHES`; a test teaches it to the app with
 * `jest.mock('../../src/connect/dialect', () => jest.requireActual('../support/serviceDialect').taught())`.
 */
import type { Deviation } from '../../sandbox';
import type * as Dialects from '../../src/connect/dialect';

export const SERVICE_SWITCHES: Deviation[] = [
  'snake-case',
  'has-more',
  'error-type',
  'timestamped-signature',
];

/** src/connect/dialect.ts with `DIALECT` the service's. */
export const taught = (): typeof Dialects => {
  const actual = jest.requireActual<typeof Dialects>('../../src/connect/dialect');
  const service: Dialects.Dialect = {
    ...actual.CONTRACT_DIALECT,
    names: actual.SNAKE_CASE,
    renamed: { submission: { submissionId: 'id' } },
    list: { member: 'items', next: null, more: 'has_more' },
    errors: { codeMember: 'type', code: (wire) => wire.toUpperCase(), wire: (code) => code.toLowerCase() },
    signature: 'timestamped',
  };
  return { ...actual, DIALECT: service };
};
