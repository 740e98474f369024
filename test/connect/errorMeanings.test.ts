/**
 * Errors leave src/connect as meanings the app acts on, each with the app's own code: the service's codes
 * (contract §2) are read in one table, and no code the service sends reaches a step's error as it is.
 */
import nock from 'nock';
import type { Bundle, ZObject } from 'zapier-platform-core';
import {
  APP_ERROR_CODES,
  appErrorCode,
  errorMeaning,
  isNotFound,
  isTicketNotFound,
  connectRequest,
  paths,
} from '../../src/connect';
import { z as zod } from 'zod';
import { wireError, wireList } from '../../sandbox/wire';
import { BASE_URL, appTester, authData, caught } from '../support/app';

const run = <T>(fn: (z: ZObject, bundle: Bundle) => Promise<T>) => appTester(fn, { authData: authData() });
/**
 * The error of a read of one record answered `status` and `body`. The events list answers (a 404 without
 * the contract's body makes the app ask it whether a Connect API answers there at all): the error is the
 * record's own.
 */
const failWith = async (status: number, body: unknown) => {
  nock(BASE_URL)
    .get(paths.floorPlan('evt_1', 'plan_1'))
    .reply(status, body as object);
  nock(BASE_URL).get(paths.events()).query(true).reply(200, wireList([]));
  const read = (z: ZObject, b: Bundle) =>
    connectRequest(z, b, {
      path: paths.floorPlan('evt_1', 'plan_1'),
      schema: zod.object({}),
      what: 'this floor plan',
    });
  return caught(() => run(read));
};

afterEach(() => nock.cleanAll());

it.each([
  [404, 'NOT_FOUND', 'not_found'],
  [404, 'TICKET_NOT_FOUND', 'ticket_not_found'],
  [403, 'ENTITLEMENT_REQUIRED', 'entitlement_missing'],
  [422, 'SUBMISSION_NOT_APPROVED', 'not_approved'],
  [422, 'IDEMPOTENCY_KEY_REUSED', 'scan_reference_reused'],
  [400, 'VALIDATION_ERROR', 'rejected'],
  [500, 'INTERNAL', 'service_failed'],
] as const)('%i %s means %s, with the app’s code for it', async (status, code, meaning) => {
  const error = await failWith(status, wireError(code, 'words', { entitlement: 'venue' }));
  expect(errorMeaning(error)).toBe(meaning);
  expect(appErrorCode(error)).toBe(APP_ERROR_CODES[meaning]);
});

it.each([
  [404, 'not_found'],
  [403, 'refused'],
  [409, 'rejected'],
  [422, 'rejected'],
  [503, 'service_failed'],
] as const)(
  'a code the contract does not name (%i) never reaches the step as it is',
  async (status, meaning) => {
    const error = await failWith(status, wireError('SOMETHING_NEW_FROM_THE_SERVICE', 'words'));
    expect(errorMeaning(error)).toBe(meaning);
    expect(appErrorCode(error)).toBe(APP_ERROR_CODES[meaning]);
    expect(appErrorCode(error)).not.toBe('SOMETHING_NEW_FROM_THE_SERVICE');
  },
);

it('a 404 without the contract’s body means no Connect API answers there', async () => {
  const error = await failWith(404, '<html>nothing here</html>');
  expect(errorMeaning(error)).toBe('endpoint_missing');
  expect(isNotFound(error)).toBe(false);
});

it('the predicates read meanings', async () => {
  expect(isNotFound(await failWith(404, wireError('NOT_FOUND')))).toBe(true);
  expect(isTicketNotFound(await failWith(404, wireError('TICKET_NOT_FOUND')))).toBe(true);
  expect(errorMeaning(new Error('plain'))).toBeNull();
  expect(errorMeaning('not an error')).toBeNull();
});

it('every meaning has its own app code', () => {
  const codes = Object.values(APP_ERROR_CODES);
  expect(new Set(codes).size).toBe(codes.length);
});
