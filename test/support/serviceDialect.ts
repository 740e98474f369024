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
    errors: {
      ...actual.CONTRACT_DIALECT.errors,
      codeMember: 'type',
      code: (wire) => wire.toUpperCase(),
      wire: (code) => code.toLowerCase(),
    },
    signature: 'timestamped',
  };
  return { ...actual, DIALECT: service };
};

/**
 * A service that differs from the contract everywhere the dialect can say at once: besides snake_case names,
 * errors that are `{ type: "not_found", message }` bodies (no `error` member around them), answered 403 for a
 * not-found and 422 for a malformed request, and `t=…,v1=…` signatures, its lists are nested (`{ "result": { "items" } }`),
 * registrations and orders come in pages each naming the next in a `Link` header (rel="next"; `cursor-paging`,
 * the same choice made in a member, is played by test/connect/pages.test.ts and the kit's tests), its query parameters
 * are snake_case, its statuses are in capitals and its kinds dotted, it takes each subscription's signing secret
 * from the subscribe request, and it signs under `X-Signature`.
 */
export const EVERY_SWITCH: Deviation[] = [
  'snake-case',
  'nested-envelope',
  'link-paging',
  'snake-query',
  'other-spellings',
  'signature-header',
  'error-type',
  'flat-errors',
  'other-statuses',
  'client-secret',
  'timestamped-signature',
];

/** The dialect of `EVERY_SWITCH`, as a developer writes it in src/connect/dialect.ts. */
export const everyDialect = (actual: typeof Dialects): Dialects.Dialect => ({
  names: actual.SNAKE_CASE,
  query: actual.SNAKE_CASE,
  spellings: {
    status: actual.UPPER_CASE,
    kind: actual.spelledBy({
      FORM_SUBMISSION: 'registration.created',
      FORM_SUBMISSION_APPROVED: 'registration.approved',
      ATTENDANT_CHECKED_IN: 'attendee.checked_in',
      PAYMENT_SUCCESS: 'payment.succeeded',
      PAYMENT_FAILED: 'payment.failed',
      PAYMENT_REFUNDED: 'payment.refunded',
      'EVENT_*': 'event.*',
      EVENT_CREATED: 'event.created',
      EVENT_UPDATED: 'event.updated',
      EVENT_PUBLISHED: 'event.published',
      EVENT_UNPUBLISHED: 'event.unpublished',
      EVENT_DELETED: 'event.deleted',
    }),
  },
  renamed: { submission: { submissionId: 'id' } },
  list: { member: 'result.items', next: { link: 'next' }, more: null },
  errors: {
    at: '',
    codeMember: 'type',
    code: (wire) => wire.toUpperCase(),
    wire: (code) => code.toLowerCase(),
    statuses: { NOT_FOUND: 403, VALIDATION_ERROR: 422 },
  },
  signature: 'timestamped',
  signatureHeader: 'X-Signature',
  secretSource: 'client',
});

/**
 * The environment variable that plays a whole run in the dialect of `EVERY_SWITCH` (`every`): every sandbox
 * with those switches on, the app taught that dialect (test/support/setup.ts).
 */
export const DIALECT_ENV = 'CONNECT_TEST_DIALECT';

/** Whether this run plays every sandbox in the dialect of `EVERY_SWITCH` (`DIALECT_ENV`). */
export const playsEveryDialect = (): boolean => process.env[DIALECT_ENV] === 'every';

/** src/connect/dialect.ts with `DIALECT` the dialect of `EVERY_SWITCH`. */
export const taughtEvery = (): typeof Dialects => {
  const actual = jest.requireActual<typeof Dialects>('../../src/connect/dialect');
  return { ...actual, DIALECT: everyDialect(actual) };
};
