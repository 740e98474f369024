/**
 * The dialect's values for errors, pages named by a `Link` header and a secret the app makes, read by the app
 * as it reads the contract's: an error object that is the body itself (`errors.at` ""), a not-found answered
 * 403 and a malformed request 422 (`errors.statuses`), a list whose next page is the target of its `Link`
 * header's rel="next" (`list.next.link`), and a subscription whose secret the app sends (`secretSource`).
 */
import nock from 'nock';
import type { Bundle, ZObject } from 'zapier-platform-core';
import { appErrorCode, getHook, listOrders, paths, subscribeHook } from '../../src/connect';
import { statusOfAnswer } from '../../src/connect/errors';
import { turnOnKey, turnOnSecret } from '../../src/connect/turnOn';
import { linkTarget } from '../../src/connect/dialect';
import { BASE_URL, appTester, authData, caught } from '../support/app';

jest.mock('../../src/connect/dialect', () => {
  const actual = jest.requireActual<typeof import('../../src/connect/dialect')>('../../src/connect/dialect');
  return {
    ...actual,
    DIALECT: {
      ...actual.CONTRACT_DIALECT,
      list: { member: 'data', next: { link: 'next' }, more: null },
      errors: {
        ...actual.CONTRACT_DIALECT.errors,
        at: '',
        statuses: { NOT_FOUND: 403, VALIDATION_ERROR: 422 },
      },
      secretSource: 'client',
    },
  };
});

const run = <T>(fn: (z: ZObject, bundle: Bundle) => Promise<T>) => appTester(fn, { authData: authData() });

const order = (i: number) => ({
  id: `ord_${i}`,
  status: 'paid',
  currency: 'EUR',
  totalAmount: 100 * i,
  createdAt: new Date(Date.UTC(2026, 10, 21, 10, i)).toISOString(),
});

afterEach(() => nock.cleanAll());

describe('a Link header (rel="next")', () => {
  it('reads its target among other relations, in either quoting, and nothing without rel="next"', () => {
    const header = '<https://a.test/o?cursor=2>; rel="next", <https://a.test/o>; rel="first"';
    expect(linkTarget(header, 'next')).toBe('https://a.test/o?cursor=2');
    expect(linkTarget('<https://a.test/o>; rel=prev, </o?page=3>; rel="last next"', 'next')).toBe(
      '/o?page=3',
    );
    expect(linkTarget('<https://a.test/o>; rel="prev"', 'next')).toBeNull();
    expect(linkTarget(null, 'next')).toBeNull();
  });

  it('is followed page after page, absolute or relative, to the page that names none', async () => {
    const asked: string[] = [];
    nock(BASE_URL)
      .get(paths.orders())
      .query(true)
      .times(3)
      .reply(function (uri) {
        asked.push(uri);
        const page = new URL(uri, BASE_URL).searchParams.get('page_token');
        if (page === null)
          return [
            200,
            { data: [order(3), order(2)] },
            { Link: `<${BASE_URL}${uri}&page_token=p2>; rel="next"` },
          ];
        if (page === 'p2')
          return [
            200,
            { data: [order(1)] },
            { Link: `<${paths.orders()}?companyId=cmp_42&page_token=p3>; rel="next"` },
          ];
        return [200, { data: [order(0)] }, { Link: `<${BASE_URL}${paths.orders()}>; rel="first"` }];
      });
    const orders = await run((z, b) => listOrders(z, b, { companyId: 'cmp_42' }));
    expect(orders.map((o) => o.id)).toEqual(['ord_3', 'ord_2', 'ord_1', 'ord_0']);
    expect(asked).toHaveLength(3);
  });

  it('ends a list whose Link names a page already read', async () => {
    let calls = 0;
    nock(BASE_URL)
      .get(paths.orders())
      .query(true)
      .times(2)
      .reply(() => {
        calls += 1;
        return [
          200,
          { data: [order(calls)] },
          { Link: `<${paths.orders()}?companyId=cmp_42&p=2>; rel="next"` },
        ];
      });
    const orders = await run((z, b) => listOrders(z, b, { companyId: 'cmp_42' }));
    expect(orders).toHaveLength(2);
    expect(calls).toBe(2);
  });
});

describe('errors whose body is the error object, answered in other statuses', () => {
  it('reads a status the dialect names for a code as the contract’s, and no other', () => {
    expect(statusOfAnswer(403, 'NOT_FOUND')).toBe(404);
    expect(statusOfAnswer(422, 'VALIDATION_ERROR')).toBe(400);
    expect(statusOfAnswer(403, 'ENTITLEMENT_REQUIRED')).toBe(403);
    expect(statusOfAnswer(403, undefined)).toBe(403);
    expect(statusOfAnswer(404, 'NOT_FOUND')).toBe(404);
  });

  it('takes a 403 carrying NOT_FOUND for a subscription that is gone', async () => {
    nock(BASE_URL).get(paths.hook('hook_gone')).reply(403, { code: 'NOT_FOUND', message: 'Hook not found' });
    expect((await run((z, b) => getHook(z, b, 'hook_gone'))).hook).toBeNull();
  });

  it('takes a 422 carrying VALIDATION_ERROR as a rejected request', async () => {
    nock(BASE_URL)
      .get(paths.orders())
      .query(true)
      .reply(422, { code: 'VALIDATION_ERROR', message: 'companyId is malformed', field: 'companyId' });
    const error = await caught(() => run((z, b) => listOrders(z, b, { companyId: 'cmp_42' })));
    expect(appErrorCode(error)).toBe('REQUEST_REJECTED');
  });

  it('still reads a 403 carrying ENTITLEMENT_REQUIRED as a missing feature', async () => {
    nock(BASE_URL)
      .get(paths.orders())
      .query(true)
      .reply(403, { code: 'ENTITLEMENT_REQUIRED', message: 'no', entitlement: 'venue' });
    const error = await caught(() => run((z, b) => listOrders(z, b, { companyId: 'cmp_42' })));
    expect(appErrorCode(error)).toBe('ENTITLEMENT_REQUIRED');
    expect(error.message).toMatch(/Venue Floor Plans/);
  });
});

describe('a secret the app makes (secretSource "client")', () => {
  const params = {
    targetUrl: 'https://hooks.zapier.test/h/1',
    event: 'FORM_SUBMISSION' as const,
    eventId: null,
  };

  it('is sent in the subscribe request, the same for a turn-on sent again, and kept when not answered back', async () => {
    const bodies: Array<Record<string, unknown>> = [];
    nock(BASE_URL)
      .post(paths.hooks())
      .times(2)
      .reply(201, (_uri, body) => {
        bodies.push(body as Record<string, unknown>);
        return { id: 'hook_1', event: 'FORM_SUBMISSION', eventId: null, targetUrl: params.targetUrl };
      });
    const first = await run((z, b) => subscribeHook(z, b, params));
    const again = await run((z, b) => subscribeHook(z, b, params));
    const apiKey = String(authData().apiKey);
    expect(bodies[0]?.secret).toBe(turnOnSecret(apiKey, params));
    expect(bodies[1]).toEqual(bodies[0]);
    expect(first.secret).toBe(bodies[0]?.secret);
    expect(again.secret).toBe(first.secret);
    // Neither the key nor the turn-on's Idempotency-Key can be read from it.
    expect(first.secret).not.toContain(apiKey);
    expect(first.secret).not.toContain(turnOnKey(params));
    expect(turnOnSecret(`${apiKey}x`, params)).not.toBe(first.secret);
  });

  it('never shows the secret it sent when the service echoes it in a refusal', async () => {
    const secret = turnOnSecret(String(authData().apiKey), params);
    nock(BASE_URL)
      .post(paths.hooks())
      .reply(422, { code: 'VALIDATION_ERROR', message: `secret ${secret} is too long`, field: 'secret' });
    const error = await caught(() => run((z, b) => subscribeHook(z, b, params)));
    expect(appErrorCode(error)).toBe('REQUEST_REJECTED');
    expect(`${error.message}\n${error.stack ?? ''}`).not.toContain(secret);
    expect(`${error.message}\n${error.stack ?? ''}`).not.toContain(secret.slice(6, 30));
  });
});
