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
export const taught = (): typeof Dialects => taughtSwitches(SERVICE_SWITCHES);

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

/** The spelling of kinds under `other-spellings`, as a developer writes it in src/connect/dialect.ts. */
const DOTTED_KINDS = {
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
} as const;

type Teaching = (dialect: Dialects.Dialect, actual: typeof Dialects) => Dialects.Dialect;

/**
 * Each switch of the sandbox that `src/connect/dialect.ts` can express, and what it changes of a dialect: the
 * value a developer writes there for a service that answers as the switch does (docs/connect-contract.md §8).
 * Switches not named here (`plain-errors`, `since-ignored`…) are faults or differences the
 * dialect cannot say.
 */
const TEACHINGS = {
  'snake-case': (d, a) => ({ ...d, names: a.SNAKE_CASE, renamed: { submission: { submissionId: 'id' } } }),
  'snake-query': (d, a) => ({ ...d, query: a.SNAKE_CASE }),
  'bare-arrays': (d) => ({ ...d, list: { ...d.list, member: '' } }),
  // `{ items, next }`: `next` is the cursor of the next page (always null from the sandbox, which answers one page).
  'items-envelope': (d) => ({
    ...d,
    list: { ...d.list, member: 'items', next: { member: 'next', cursor: 'cursor' } },
  }),
  'has-more': (d) => ({ ...d, list: { ...d.list, member: 'items', more: 'has_more' } }),
  'nested-envelope': (d) => ({ ...d, list: { ...d.list, member: 'result.items' } }),
  // The cursor beside the records, wherever the envelope holds them (applied after the envelope's switch).
  'cursor-paging': (d, a) => ({
    ...d,
    list: { ...d.list, next: { member: a.besideRecords(d, 'next'), cursor: 'cursor' } },
  }),
  'link-paging': (d) => ({ ...d, list: { ...d.list, next: { link: 'next' } } }),
  // The catalog's cursor beside its events, wherever the envelope holds them (applied after the envelope's switch).
  'catalog-cursor': (d, a) => ({ ...d, catalog: { member: a.besideRecords(d, 'next'), cursor: 'cursor' } }),
  'other-spellings': (d, a) => ({
    ...d,
    spellings: { status: a.UPPER_CASE, kind: a.spelledBy(DOTTED_KINDS) },
  }),
  'error-type': (d) => ({
    ...d,
    errors: {
      ...d.errors,
      codeMember: 'type',
      code: (wire) => wire.toUpperCase(),
      wire: (code) => code.toLowerCase(),
    },
  }),
  'flat-errors': (d) => ({ ...d, errors: { ...d.errors, at: '' } }),
  'other-statuses': (d) => ({
    ...d,
    errors: { ...d.errors, statuses: { NOT_FOUND: 403, VALIDATION_ERROR: 422 } },
  }),
  'timestamped-signature': (d) => ({ ...d, signature: 'timestamped' }),
  'signature-header': (d) => ({ ...d, signatureHeader: 'X-Signature' }),
  'client-secret': (d) => ({ ...d, secretSource: 'client' }),
} satisfies Partial<Record<Deviation, Teaching>>;

/** The switches `src/connect/dialect.ts` can express, in the order their values are applied. */
export const TAUGHT_SWITCHES = Object.keys(TEACHINGS) as Array<keyof typeof TEACHINGS>;

/** The dialect of a service that answers as the sandbox with `switches` on, as taught in src/connect/dialect.ts. */
export const dialectOf = (actual: typeof Dialects, switches: readonly Deviation[]): Dialects.Dialect =>
  TAUGHT_SWITCHES.filter((name) => switches.includes(name)).reduce<Dialects.Dialect>(
    (dialect, name) => (TEACHINGS[name] as Teaching)(dialect, actual),
    actual.CONTRACT_DIALECT,
  );

/** The dialect of `EVERY_SWITCH`, as a developer writes it in src/connect/dialect.ts. */
export const everyDialect = (actual: typeof Dialects): Dialects.Dialect => dialectOf(actual, EVERY_SWITCH);

/**
 * The environment variable that plays a whole run in another dialect: `every` (the dialect of `EVERY_SWITCH`), or
 * switches of `TAUGHT_SWITCHES` separated by commas (`snake-query`, `nested-envelope,link-paging`). Every sandbox
 * of the run has those switches on, the app is taught their dialect, and the nock unit tests speak it
 * (test/support/setup.ts, test/support/wireDialect.ts).
 */
export const DIALECT_ENV = 'CONNECT_TEST_DIALECT';

/** The switches this run plays (`DIALECT_ENV`): none when it plays the contract's own dialect. */
export const playedSwitches = (value = process.env[DIALECT_ENV] ?? ''): Deviation[] => {
  if (value.trim() === 'every') return [...EVERY_SWITCH];
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !(TAUGHT_SWITCHES as string[]).includes(name));
  if (unknown.length > 0) {
    throw new Error(
      `${DIALECT_ENV}: ${unknown.join(', ')} is no switch the dialect can express (known: every, ${TAUGHT_SWITCHES.join(', ')})`,
    );
  }
  return names as Deviation[];
};

/** Whether this run plays every sandbox in the dialect of `EVERY_SWITCH` (`DIALECT_ENV`). */
export const playsEveryDialect = (): boolean => process.env[DIALECT_ENV] === 'every';

/** Whether this run plays a dialect other than the contract's (`every`, or some switches). */
export const playsAnotherDialect = (): boolean => playedSwitches().length > 0;

/** src/connect/dialect.ts with `DIALECT` the dialect of `EVERY_SWITCH`. */
export const taughtEvery = (): typeof Dialects => taughtSwitches(EVERY_SWITCH);

/** src/connect/dialect.ts with `DIALECT` the dialect of the switches this run plays (`DIALECT_ENV`). */
export const taughtByRun = (): typeof Dialects => taughtSwitches(playedSwitches());

/** src/connect/dialect.ts with `DIALECT` the dialect of `switches`. */
export const taughtSwitches = (switches: readonly Deviation[]): typeof Dialects => {
  const actual = jest.requireActual<typeof Dialects>('../../src/connect/dialect');
  return { ...actual, DIALECT: dialectOf(actual, switches) };
};
