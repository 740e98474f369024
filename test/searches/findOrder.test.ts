import nock from 'nock';
import findOrder from '../../src/searches/findOrder';
import { type Order, type Submission, paths } from '../../src/connect';
import { SAMPLE_ORDER, toOrderItem } from '../../src/mappers/order';
import { NO_EVENT_CONTEXT, SAMPLE_SUBMISSION } from '../../src/mappers/submission';
import {
  BASE_URL,
  appTester,
  attendeePointerFields,
  authData,
  caught,
  errorMessage,
  meta,
} from '../support/app';
import { functionOf } from '../../scripts/lib/app';
import { wireError, wireList } from '../../sandbox/wire';

const perform = functionOf('searches', findOrder.key);
const run = (inputData: Record<string, unknown>, auth: Record<string, string> = authData()) =>
  appTester(perform, { authData: auth, inputData, meta: meta() }, true) as Promise<
    Array<Record<string, unknown>>
  >;

const E1 = '11111111-1111-4111-8111-111111111111';
const E2 = '22222222-2222-4222-8222-222222222222';
const order = (id: string, submissionId: string, eventId: string, createdAt: string): Order => ({
  ...SAMPLE_ORDER,
  id,
  paymentId: `pay_${id}`,
  submissionId,
  eventId,
  createdAt,
});
const O1 = order('ord_1', 'sub_a', E1, '2026-11-01T10:00:00.000Z');
const O2 = order('ord_2', 'sub_b', E2, '2026-11-02T10:00:00.000Z');
const O3 = order('ord_3', 'sub_a', E1, '2026-11-03T10:00:00.000Z');

const orders = (companyId = 'cmp_42') =>
  nock(BASE_URL)
    .get(paths.orders())
    .query({ companyId, limit: '100' })
    .reply(200, wireList([O1, O2, O3]));
const registrationsOf = (eventId: string, data: Partial<Submission>[]) =>
  nock(BASE_URL)
    .get(paths.submissions())
    .query((q) => q.eventId === eventId)
    .reply(200, wireList(data.map((s) => ({ ...SAMPLE_SUBMISSION, eventId, ...s }))));

afterEach(() => nock.cleanAll());

it('finds by order ID or payment ID', async () => {
  orders();
  expect(await run({ orderIdText: ' ord_2 ' })).toEqual([
    { ...toOrderItem(O2), ...NO_EVENT_CONTEXT, ...attendeePointerFields(O2) },
  ]);
  orders();
  expect((await run({ orderIdText: 'pay_ord_1' })).map((o) => o.id)).toEqual(['ord_1']);
});

it('finds by registration ID, newest first', async () => {
  orders();
  expect((await run({ submissionIdText: 'sub_a' })).map((o) => o.id)).toEqual(['ord_3', 'ord_1']);
});

it("finds by the attendee's email through the registrations of the orders' events", async () => {
  orders();
  registrationsOf(E1, [{ submissionId: 'sub_a', email: 'other@example.com' }]);
  registrationsOf(E2, [{ submissionId: 'sub_b', email: 'Ada@Example.com' }]);
  expect((await run({ email: 'ada@example.com' })).map((o) => o.id)).toEqual(['ord_2']);
});

it('an event of an order that is gone does not fail an email search', async () => {
  orders();
  nock(BASE_URL)
    .get(paths.submissions())
    .query((q) => q.eventId === E1)
    .reply(404, wireError('NOT_FOUND', 'gone'));
  registrationsOf(E2, [{ submissionId: 'sub_b', email: 'ada@example.com' }]);
  expect((await run({ email: 'ada@example.com' })).map((o) => o.id)).toEqual(['ord_2']);
});

it('returns [] when nothing matches, without reading registrations', async () => {
  orders();
  const regs = registrationsOf(E1, []);
  await expect(run({ orderIdText: 'ord_9', email: 'ada@example.com' })).resolves.toEqual([]);
  expect(regs.isDone()).toBe(false);
});

it('keeps the Company ID a step was saved with (steps have no such field any more), and says when none is set', async () => {
  orders('cmp_other');
  expect(await run({ orderIdText: 'ord_1', companyId: 'cmp_other' })).toHaveLength(1);
  const { companyId: _c, ...noCompany } = authData();
  expect(errorMessage(await caught(() => run({ orderIdText: 'ord_1' }, noCompany)))).toMatch(
    /^Your connection has no Company ID/,
  );
});

it('stops on an attendee email that cannot be one, quoting it, before reading any order', async () => {
  const error = await caught(() => run({ email: 'Ada Lovelace' }));
  expect(errorMessage(error)).toBe(
    '"Ada Lovelace" in Attendee Email is not an email address. Write it as name@domain, for example ada@example.com, or map the email from an earlier step.',
  );
});

it('stops on an order ID with spaces inside (a name mapped into it), quoting it', async () => {
  const error = await caught(() => run({ orderIdText: 'Ada Lovelace' }));
  expect(errorMessage(error)).toBe(
    '"Ada Lovelace" in Order ID is not an ID: an ID has no spaces, for example ord_01JD3KB0Z1. Map the ID from an earlier step, or leave Order ID empty.',
  );
});

it('needs at least one criterion', async () => {
  expect(errorMessage(await caught(() => run({})))).toMatch(
    /^Fill in Order ID, Registration ID or Attendee Email to say which order to find\.$/,
  );
});
