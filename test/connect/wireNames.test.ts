/**
 * Another naming of the registration's fields on the wire (snake_case, the registration id as `id`) is a
 * change of the registration's wire table alone: with only that table swapped, the registration reads, a
 * poll of New Form Submission and an instant New Registration delivery give exactly the items they give
 * with today's names.
 */
import nock from 'nock';
import type { Bundle, ZObject } from 'zapier-platform-core';
import { paths } from '../../src/connect';
import { DIALECT } from '../../src/connect/testing';
import type { WireField, WireNames } from '../../src/connect/wire';
import { SAMPLE_EVENT } from '../../src/mappers/event';
import newSubmission from '../../src/triggers/newSubmission';
import { wireDeliveryBody, wireList } from '../../sandbox/wire';
import { functionOf } from '../../scripts/lib/app';
import { BASE_URL, appTester, authData, hookOperation, meta, testerCache } from '../support/app';
import { hookBundle, signedDelivery } from '../support/deliveries';
import { serviceHooks } from '../support/serviceHooks';
import { listSubmissions } from '../support/submissions';
import { EVENT_ID, MINUTE, T0, controlClock, iso, submissionAt } from '../triggers/fixtures';

const snake = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

// The one change: the registration's table (its answers' table within it), in snake_case with the
// registration's id as `id`.
jest.mock('../../src/connect/wireNames', () => {
  const actual = jest.requireActual<typeof import('../../src/connect/wireNames')>(
    '../../src/connect/wireNames',
  );
  const toSnake = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  const swap = (names: WireNames): WireNames =>
    Object.fromEntries(
      Object.entries(names).map(([app, field]: [string, WireField]) => [
        app,
        app === 'submissionId'
          ? 'id'
          : typeof field === 'string'
            ? toSnake(field)
            : 'fields' in field
              ? { name: toSnake(field.name), fields: swap(field.fields) }
              : { ...field, name: toSnake(field.name) },
      ]),
    );
  return { ...actual, SUBMISSION_NAMES: swap(actual.SUBMISSION_NAMES) };
});

/** A registration in the swapped naming, as that service would send it. */
const onWire = (record: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(record).map(([key, value]) => [
      key === 'submissionId' ? 'id' : snake(key),
      key === 'answers' && Array.isArray(value)
        ? value.map((answer: Record<string, unknown>) => onWire(answer))
        : value,
    ]),
  );

const SECRET = 'whsec_wire_names';
let clock: ReturnType<typeof controlClock>;
beforeEach(() => {
  clock = controlClock();
  testerCache(appTester).zcacheTestObj = {};
});
afterEach(() => {
  clock.restore();
  nock.cleanAll();
});

const newer = submissionAt('sub_new', T0 - 5 * MINUTE, { approvedAt: null });
const older = submissionAt('sub_old', T0 - 20 * MINUTE);

const serveSubmissions = (records: Array<Record<string, unknown>>) =>
  nock(BASE_URL)
    .get(paths.submissions())
    .query(true)
    .reply(200, wireList(records.map(onWire)), { Date: new Date(T0).toUTCString() });

it('the swapped table is really in use: the wire names differ from the app names', () => {
  const wire = onWire(newer);
  expect(wire).toHaveProperty('id', 'sub_new');
  expect(wire).toHaveProperty('event_id', EVENT_ID);
  expect(wire).not.toHaveProperty('submissionId');
  expect(wire).toHaveProperty('created_at');
});

it('registration reads hand the app its own names, answers included, unknown fields kept', async () => {
  serveSubmissions([older, { ...newer, brandNewField: 1 }]);
  const page = await appTester(
    (z: ZObject, bundle: Bundle) =>
      listSubmissions(z, bundle, { eventId: EVENT_ID, since: '2026-01-01T00:00:00.000Z' }),
    { authData: authData() },
  );
  // A field no table names keeps the name the dialect's rule gives it (`brand_new_field` under camelCase).
  expect(page.submissions).toEqual([{ ...newer, [DIALECT.names.app('brand_new_field')]: 1 }, older]);
  expect(page.submissions[0]?.answers?.[0]).toHaveProperty('key');
});

it('a record without its id in the swapped naming is skipped, the rest kept', async () => {
  const broken = onWire(submissionAt('sub_broken', T0 - 2 * MINUTE));
  delete broken.id;
  nock(BASE_URL)
    .get(paths.submissions())
    .query(true)
    .reply(200, wireList([broken, onWire(older)]));
  const page = await appTester(
    (z: ZObject, bundle: Bundle) =>
      listSubmissions(z, bundle, { eventId: EVENT_ID, since: '2026-01-01T00:00:00.000Z' }),
    { authData: authData() },
  );
  expect(page.submissions.map((s) => s.submissionId)).toEqual(['sub_old']);
});

it('a poll of New Form Submission gives the items it gives with today’s names', async () => {
  nock(BASE_URL)
    .get(paths.events())
    .query(true)
    .reply(200, wireList([SAMPLE_EVENT]))
    .persist();
  serveSubmissions([older, newer]);
  const perform = functionOf('triggers', newSubmission.key);
  const items = (await appTester(perform, {
    authData: authData(),
    inputData: { eventId: EVENT_ID },
    meta: meta({ isLoadingSample: false, isPopulatingDedupe: false }),
  })) as Array<Record<string, unknown>>;
  expect(items.map((item) => item.id)).toEqual(['sub_new', 'sub_old']);
  expect(items[0]).toMatchObject({ submissionId: 'sub_new', eventId: EVENT_ID, email: newer.email });
});

it('an instant New Registration delivery is read through the same table', async () => {
  serviceHooks(SECRET);
  nock(BASE_URL)
    .get(paths.events())
    .query(true)
    .reply(200, wireList([SAMPLE_EVENT]))
    .persist();
  const op = hookOperation('new_registration');
  const items = (await appTester(
    op.perform,
    hookBundle(
      signedDelivery(
        wireDeliveryBody({ id: 'dlv_1', type: 'FORM_SUBMISSION', createdAt: iso(T0), data: onWire(newer) }),
        SECRET,
      ),
      {
        authData: authData(),
        subscribeData: { id: 'hook_1', secret: SECRET, kind: 'FORM_SUBMISSION', eventId: null },
        inputData: {},
      },
    ),
  )) as Array<Record<string, unknown>>;
  expect(items).toHaveLength(1);
  expect(items[0]).toMatchObject({ id: 'sub_new', submissionId: 'sub_new', eventId: EVENT_ID });
});
