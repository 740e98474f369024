/**
 * The service's dialect (src/connect/dialect.ts) taught to the app: snake_case names, `{ items, has_more }`
 * lists, `{ error: { type } }` errors and `t=…,v1=…` signatures, written here by the sandbox's writer with
 * the same switches. Fields the service adds later reach Zap data under the app's names, never the wire's.
 */
import nock from 'nock';
import type { Bundle, ZObject } from 'zapier-platform-core';
import { wireWriter } from '../../sandbox/wire';
import { paths } from '../../src/connect';
import { readDelivery } from '../../src/connect/delivery';
import { SAMPLE_EVENT } from '../../src/mappers/event';
import newEvent from '../../src/triggers/newEvent';
import findFloorPlan from '../../src/searches/findFloorPlan';
import { functionOf } from '../../scripts/lib/app';
import { BASE_URL, appTester, authData, meta } from '../support/app';
import { SERVICE_SWITCHES } from '../support/serviceDialect';

jest.mock('../../src/connect/dialect', () =>
  jest.requireActual<typeof import('../support/serviceDialect')>('../support/serviceDialect').taught(),
);

const wire = wireWriter(SERVICE_SWITCHES);

afterEach(() => nock.cleanAll());

const later = { ...SAMPLE_EVENT, badgePrinted: true, venueInfo: { floorNumber: 2, accessNotes: ['lift'] } };

it('reads a list of snake_case records under "items", unknown fields renamed by the same rule', async () => {
  nock(BASE_URL)
    .get(paths.events())
    .query({ limit: '100' })
    .reply(200, wire.list([later]));
  const items = (await appTester(functionOf('triggers', newEvent.key), {
    authData: authData(),
    meta: meta(),
  })) as Array<Record<string, unknown>>;
  expect(items).toHaveLength(1);
  expect(items[0]).toMatchObject({
    id: SAMPLE_EVENT.id,
    venueName: SAMPLE_EVENT.venueName,
    badgePrinted: true,
  });
  expect(items[0]?.venueInfo).toEqual({ floorNumber: 2, accessNotes: ['lift'] });
  expect(JSON.stringify(items)).not.toMatch(/"[a-z]+_[a-z_]+":/);
});

it('says when the service holds more records than it answered ("has_more": true), and uses those answered', async () => {
  nock(BASE_URL)
    .get(paths.events())
    .query({ limit: '100' })
    .reply(200, wire.list([later], undefined, true));
  const lines: string[] = [];
  const items = (await appTester(
    (async (z: ZObject, bundle: Bundle) => {
      z.console.log = (...parts: unknown[]) => void lines.push(parts.map(String).join(' '));
      return (
        functionOf('triggers', newEvent.key) as unknown as (z: ZObject, b: Bundle) => Promise<unknown[]>
      )(z, bundle);
    }) as never,
    { authData: authData(), meta: meta() },
    true,
  )) as unknown[];
  expect(items).toHaveLength(1);
  expect(lines).toContainEqual(
    expect.stringMatching(
      /^The service says it holds more records for .* than it answered \("has_more": true\)\. The app reads one answer per list: it used the 1 record\(s\) answered\.$/,
    ),
  );
});

it('reads an error body with its code under "type": a plan without the feature is named as such', async () => {
  const eventId = SAMPLE_EVENT.id;
  nock(BASE_URL)
    .get(paths.floorPlans(eventId))
    .reply(403, wire.error('ENTITLEMENT_REQUIRED', 'Feature not in plan', { entitlement: 'venue' }));
  const failed = await appTester(functionOf('searches', findFloorPlan.key), {
    authData: authData(),
    inputData: { eventId },
    meta: meta(),
  }).catch((error: Error) => error);
  expect(String((failed as Error).message)).toMatch(/Venue Floor Plans/);
});

it('checks a timestamped signature: the secret that signed it, not another; a tampered body fails', () => {
  const body = wire.deliveryBody({
    id: 'dlv_1',
    type: 'EVENT_CREATED',
    createdAt: SAMPLE_EVENT.createdAt,
    data: SAMPLE_EVENT,
  });
  const headers = wire.deliveryHeaders(body, ['whsec_old', 'whsec_new']);
  const arrived = readDelivery({ content: body, headers });
  expect(arrived.signatureProblem).toBeNull();
  expect(arrived.rotating).toBe(true);
  expect([
    arrived.signedBy('whsec_old'),
    arrived.signedBy('whsec_new'),
    arrived.signedBy('whsec_other'),
  ]).toEqual([true, true, false]);
  expect(arrived.signedAt).toBe(Date.parse(SAMPLE_EVENT.createdAt));
  expect(arrived.content.ok && arrived.content.delivery.hookId).toBeUndefined();
  const tampered = readDelivery({ content: body.replace('dlv_1', 'dlv_2'), headers });
  expect(tampered.signedBy('whsec_new')).toBe(false);
  const sha = readDelivery({ content: body, headers: { 'x-connect-signature': 'sha256=' + 'a'.repeat(64) } });
  expect(sha.signatureProblem).toMatch(/no well-formed value \(t=<Unix time>,v1=/);
});
