/**
 * Every answer within Zapier's limits whatever the service's records hold: one test per kind of record of
 * issue 38's table (big descriptions and unknown fields, long orders, huge agendas and floor plans, a
 * registration with a 7 MiB answer, a 5 MB delivery). Sizes that take seconds to read are scaled down here
 * (the full sizes are `npm run bench:bounds`); each test asserts the answer's size in UTF-8 bytes of its
 * JSON, that nothing failed, and that what was cut says so with its whole size.
 */
import { Readable } from 'node:stream';
import fc from 'fast-check';
import nock from 'nock';
import * as z from 'zod';
import type { Bundle, ZObject } from 'zapier-platform-core';
import {
  CUT_MARK,
  type Event,
  LIST_ENTRIES,
  type Order,
  type Submission,
  TEXT_CHARS,
  paths,
} from '../../src/connect';
import { LONG_LIST_ENTRIES } from '../../src/connect/api';
import { boundRecord, cutsOf } from '../../src/connect/bounds';
import { collect, listReader } from '../../src/connect/lists';
import { recordLog } from '../../src/connect/records';
import { SAMPLE_EVENT } from '../../src/mappers/event';
import { SAMPLE_ORDER } from '../../src/mappers/order';
import { SAMPLE_SUBMISSION } from '../../src/mappers/submission';
import { SAMPLE_AGENDA } from '../../src/mappers/agenda';
import { SAMPLE_FLOOR_PLAN } from '../../src/mappers/floorPlan';
import { EVENT_LIST_TRIGGER_KEY } from '../../src/fields/keys';
import { App, BASE_URL, appTester, authData, meta, testerCache } from '../support/app';
import { functionOf } from '../../scripts/lib/app';
import { hookBundle, signedDelivery } from '../support/deliveries';
import { serviceHooks } from '../support/serviceHooks';
import { wireDeliveryBody, wireListFrame, wireListText } from '../../sandbox/wire';

const MIB = 1024 * 1024;
const ANSWER_LIMIT = 6 * MIB;

type Items = Array<Record<string, unknown>>;
const bytesOf = (answer: unknown) => Buffer.byteLength(JSON.stringify(answer));

/**
 * A list answer written record by record as it is read (never held whole here either), in the service's list
 * envelope (`wireListFrame`); or, given `member`, one object whose list `member` is written so.
 */
const streamed =
  (
    count: number,
    record: (i: number) => unknown,
    member: string | null = null,
    head = '',
    opening = member === null ? wireListFrame().open : `{${head}"${member}":[`,
    closing = member === null ? wireListFrame().close : ']}',
  ) =>
  () =>
    Readable.from(
      (function* () {
        // In pieces of about 64 KB, as a server writes them.
        let piece = opening;
        for (let i = 0; i < count; i++) {
          piece += `${i ? ',' : ''}${JSON.stringify(record(i))}`;
          if (piece.length >= 64 * 1024) {
            yield piece;
            piece = '';
          }
        }
        yield `${piece}${closing}`;
      })(),
    );

const at = (i: number) => new Date(Date.UTC(2026, 9, 1) + i * 60_000).toISOString();
const uuid = (i: number) => `${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`;

/** One description of `size` characters: HTML with an image inlined as base64, as real ones are. */
const description = (size: number) => {
  const head = '<p>Three days of talks.</p><img src="data:image/png;base64,';
  return `${head}${'iVBORw0KGgo'.repeat(Math.ceil(size / 11)).slice(0, size - head.length - 2)}">`;
};

const eventAt = (i: number, text: string, extra: Record<string, unknown> = {}): Event => ({
  ...SAMPLE_EVENT,
  id: uuid(i),
  slug: `techweek-${i}`,
  title: `TechWeek ${i}`,
  createdAt: at(1000 - i),
  description: text,
  ...extra,
});

const serveEvents = (count: number, text: string, extra: Record<string, unknown> = {}) =>
  nock(BASE_URL)
    .get(paths.events())
    .query(true)
    .reply(
      200,
      streamed(count, (i) => eventAt(i, text, extra)),
      { 'Content-Type': 'application/json' },
    )
    .persist();

const run = (group: 'triggers' | 'searches', key: string, inputData: Record<string, unknown> = {}) =>
  appTester(
    functionOf(group, key),
    { authData: authData(), inputData, meta: meta() },
    true,
  ) as Promise<Items>;

beforeEach(() => {
  testerCache(appTester).zcacheTestObj = {};
});
afterEach(() => nock.cleanAll());

describe('the bounds of one record', () => {
  it('cuts a long text with the mark, a long list to its first entries, and says what each was', () => {
    const record = {
      id: 'r',
      text: 'x'.repeat(TEXT_CHARS + 10),
      list: Array.from({ length: 250 }, (_, i) => i),
    };
    const { value, cuts } = boundRecord(record);
    const bounded = value as typeof record;
    expect(bounded.text).toBe(`${'x'.repeat(TEXT_CHARS)}${CUT_MARK}`);
    expect(bounded.list).toHaveLength(LIST_ENTRIES);
    expect(cuts).toEqual({
      text: { size: TEXT_CHARS + 10, unit: 'characters' },
      list: { size: 250, unit: 'entries' },
    });
    expect(record.text).toHaveLength(TEXT_CHARS + 10);
  });

  it('hands a record within the bounds on as it is, and never cuts inside a surrogate pair', () => {
    const small = { id: 'r', answers: [{ key: 'a', value: 'b' }] };
    expect(boundRecord(small)).toEqual({ value: small, cuts: null });
    expect(boundRecord(small).value).toBe(small);
    const emoji = { text: `${'a'.repeat(TEXT_CHARS - 1)}😀😀` };
    const cut = (boundRecord(emoji).value as typeof emoji).text;
    expect(cut).toBe(`${'a'.repeat(TEXT_CHARS - 1)}${CUT_MARK}`);
  });

  it('keeps a record to its budget of text whatever its number of fields', () => {
    const wide = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`f${i}`, 'y'.repeat(TEXT_CHARS)]));
    const { value } = boundRecord(wide);
    expect(bytesOf(value)).toBeLessThan(20 * TEXT_CHARS);
  });
});

describe('events with descriptions of megabytes and unknown fields', () => {
  // Scaled: 100 events with 256 KB descriptions (the benchmark reads 1 to 5 MB ones).
  const big = description(256 * 1024);
  const unknown = { sponsorsHtml: 'z'.repeat(200 * 1024) };

  it('the Event dropdown: every event, each description cut and saying how long it was', async () => {
    serveEvents(100, big);
    const items = await run('triggers', EVENT_LIST_TRIGGER_KEY);
    expect(items).toHaveLength(100);
    expect(bytesOf(items)).toBeLessThan(ANSWER_LIMIT);
    expect(items[0]).toMatchObject({
      descriptionCut: true,
      descriptionLength: big.length,
      cutFields: `description (${big.length.toLocaleString('en-US')} characters)`,
    });
    expect(String(items[0]!.description).endsWith(CUT_MARK)).toBe(true);
  });

  it('the Event dropdown with an unknown 200 KB field: never copied whole', async () => {
    serveEvents(100, description(100 * 1024), unknown);
    const items = await run('triggers', EVENT_LIST_TRIGGER_KEY);
    expect(items).toHaveLength(100);
    expect(bytesOf(items)).toBeLessThan(ANSWER_LIMIT);
    expect(String(items[0]!.sponsorsHtml).length).toBeLessThan(2048);
    expect(String(items[0]!.cutFields)).toMatch(/sponsorsHtml \(204,800 characters\)/);
  });

  it('New Event: the 100 newest, each bounded', async () => {
    serveEvents(100, big, unknown);
    const items = await run('triggers', 'new_event');
    expect(items.map((item) => item.id)).toEqual(Array.from({ length: 100 }, (_, i) => uuid(i)));
    expect(bytesOf(items)).toBeLessThan(ANSWER_LIMIT);
    expect(items.every((item) => item.descriptionCut === true)).toBe(true);
  });

  it('Find Event: found, with the public page description cut too', async () => {
    serveEvents(100, big, unknown);
    nock(BASE_URL)
      .get(paths.eventWidget('techweek-7'))
      .reply(200, () => JSON.stringify({ ...eventAt(7, description(1024 * 1024)), coverImageUrl: null }));
    const items = await run('searches', 'find_event', { query: 'techweek-7' });
    expect(items[0]).toMatchObject({
      slug: 'techweek-7',
      descriptionCut: true,
      descriptionLength: 1024 * 1024,
    });
    expect(bytesOf(items)).toBeLessThan(ANSWER_LIMIT);
  });

  it('what is written to the cache is bounded too', async () => {
    serveEvents(100, big, unknown);
    await run('triggers', EVENT_LIST_TRIGGER_KEY);
    await run('searches', 'find_registration', { eventId: uuid(3), email: 'nobody@example.com' }).catch(
      () => undefined,
    );
    expect(bytesOf(testerCache(appTester).zcacheTestObj)).toBeLessThan(MIB);
  });
});

describe('orders of 4,000 line items', () => {
  const lines = Array.from({ length: 4000 }, (_, i) => ({
    name: `Ticket ${i}`,
    quantity: 1,
    unitAmount: 12900,
  }));
  const orderAt = (i: number): Order => ({
    ...SAMPLE_ORDER,
    id: `ord_${i}`,
    paymentId: `pay_${i}`,
    submissionId: `sub_${i}`,
    createdAt: at(1000 - i),
    totalAmount: 4000 * 12900,
    items: lines,
  });
  const serveOrders = () =>
    nock(BASE_URL)
      .get(paths.orders())
      .query(true)
      .reply(200, streamed(100, orderAt), { 'Content-Type': 'application/json' })
      .persist();
  const events = () => serveEvents(1, 'short');

  it('New Order: 100 orders, each listing its first lines and giving the whole count', async () => {
    serveOrders();
    events();
    const items = await run('triggers', 'new_order');
    expect(items).toHaveLength(100);
    expect(bytesOf(items)).toBeLessThan(ANSWER_LIMIT);
    expect(items[0]).toMatchObject({ lineCount: 4000, linesCut: true, itemCount: null });
    expect(items[0]!.items).toHaveLength(LIST_ENTRIES);
  });

  it("Find Order by an attendee's email: found, bounded", async () => {
    serveOrders();
    events();
    nock(BASE_URL)
      .get(paths.submissions())
      .query(true)
      .reply(200, () =>
        wireListText(
          [{ ...SAMPLE_SUBMISSION, submissionId: 'sub_3', email: 'kim@example.com' }],
          'submissionId',
        ),
      )
      .persist();
    const items = await run('searches', 'find_order', { email: 'kim@example.com' });
    expect(items.map((item) => item.id)).toEqual(['ord_3']);
    expect(bytesOf(items)).toBeLessThan(ANSWER_LIMIT);
    expect(items[0]).toMatchObject({ lineCount: 4000, linesCut: true });
  });
});

describe('single objects with long lists, read entry by entry', () => {
  it('Find Event Agenda: an agenda of 20,000 sessions, its first ones listed and the whole count', async () => {
    serveEvents(1, 'short');
    const session = (i: number) => ({
      ...SAMPLE_AGENDA.sessions[0]!,
      id: `ses_${i}`,
      title: `Session ${i}`,
      startsAt: new Date(Date.UTC(2026, 11, 1, 8) + i * 60_000).toISOString(),
      endsAt: null,
    });
    nock(BASE_URL)
      .get(paths.agendaWidget('techweek-0'))
      .reply(200, streamed(20_000, session, 'sessions', `"eventId":"${uuid(0)}","slug":"techweek-0",`), {
        'Content-Type': 'application/json',
      });
    const items = await run('searches', 'find_agenda', { eventId: uuid(0) });
    expect(items[0]).toMatchObject({ sessionCount: 20_000, sessionsCut: true });
    expect(items[0]!.sessions).toHaveLength(LONG_LIST_ENTRIES);
    expect(bytesOf(items)).toBeLessThan(ANSWER_LIMIT);
  });

  it('Find Floor Plan without a plan: the list of plans, with a plan of 100,000 booths, finds it', async () => {
    serveEvents(1, 'short');
    const booth = (i: number) => ({
      id: `B${i}`,
      label: `B${i}`,
      status: 'available',
      x: i,
      y: 1,
      w: 2,
      h: 2,
    });
    const { booths: _b, ...plan } = SAMPLE_FLOOR_PLAN;
    const head = `${JSON.stringify(plan).slice(0, -1)},"booths":[`;
    nock(BASE_URL)
      .get(paths.floorPlans(uuid(0)))
      .reply(
        200,
        streamed(100_000, booth, null, '', `${wireListFrame().open}${head}`, `]}${wireListFrame().close}`),
        {
          'Content-Type': 'application/json',
        },
      );
    const items = await run('searches', 'find_floor_plan', { eventId: uuid(0) });
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ id: SAMPLE_FLOOR_PLAN.id, boothCount: 100_000, boothsCut: true });
    expect(items[0]!.booths).toHaveLength(LONG_LIST_ENTRIES);
    expect(bytesOf(items)).toBeLessThan(ANSWER_LIMIT);
  });

  it('Find Floor Plan: a plan of 100,000 booths, counted whole, its first booths listed', async () => {
    serveEvents(1, 'short');
    const statuses = ['available', 'held', 'booked', 'booked'];
    const booth = (i: number) => ({
      id: `B${i}`,
      label: `B${i}`,
      status: statuses[i % 4],
      x: i,
      y: 1,
      w: 2,
      h: 2,
    });
    const { booths: _b, ...plan } = SAMPLE_FLOOR_PLAN;
    const head = JSON.stringify(plan).slice(1, -1);
    nock(BASE_URL)
      .get(paths.floorPlan(uuid(0), 'plan_main'))
      .reply(200, streamed(100_000, booth, 'booths', `${head},`), { 'Content-Type': 'application/json' });
    const items = await run('searches', 'find_floor_plan', { eventId: uuid(0), planId: 'plan_main' });
    expect(items[0]).toMatchObject({
      boothCount: 100_000,
      availableCount: 25_000,
      heldCount: 25_000,
      bookedCount: 50_000,
      boothsCut: true,
    });
    expect(items[0]!.booths).toHaveLength(LONG_LIST_ENTRIES);
    expect(bytesOf(items)).toBeLessThan(ANSWER_LIMIT);
  });
});

describe('a registration with a 7 MiB answer', () => {
  const answer = 'a'.repeat(7 * MIB);
  const registration: Submission = {
    ...SAMPLE_SUBMISSION,
    eventId: uuid(0),
    email: 'kim@example.com',
    createdAt: new Date(Date.now() - 60_000).toISOString(),
    answers: [{ key: 'essay', label: 'Essay', value: answer }],
  };
  const serveRegistrations = () =>
    nock(BASE_URL)
      .get(paths.submissions())
      .query(true)
      .reply(
        200,
        streamed(1, () => registration),
        { 'Content-Type': 'application/json' },
      )
      .persist();

  const expectOnce = (item: Record<string, unknown>) => {
    expect(String(item.answers__essay)).toHaveLength(TEXT_CHARS + CUT_MARK.length);
    expect(item.answers).toEqual([{ key: 'essay', label: 'Essay', field: 'answers__essay' }]);
    expect(item.cutFields).toBe(`answers[0].value (${(7 * MIB).toLocaleString('en-US')} characters)`);
  };

  it('Find Registration by its email: found, the answer cut once', async () => {
    serveEvents(1, 'short');
    serveRegistrations();
    const items = await run('searches', 'find_registration', { eventId: uuid(0), email: 'kim@example.com' });
    expect(items).toHaveLength(1);
    expectOnce(items[0]!);
    expect(bytesOf(items)).toBeLessThan(ANSWER_LIMIT);
  });

  it('New Form Submission: the registration, its answer cut once', async () => {
    serveEvents(1, 'short');
    serveRegistrations();
    const items = (await appTester(
      functionOf('triggers', 'new_submission'),
      { authData: authData(), inputData: { eventId: uuid(0) }, meta: meta() },
      true,
    )) as Items;
    expect(items).toHaveLength(1);
    expectOnce(items[0]!);
    expect(bytesOf(items)).toBeLessThan(ANSWER_LIMIT);
  });
});

it('a webhook delivery of 5 MB: one registration, bounded', async () => {
  serviceHooks('whsec_bounds_1');
  serveEvents(1, 'short');
  const data = {
    ...SAMPLE_SUBMISSION,
    answers: [{ key: 'notes', label: 'Notes', value: 'n'.repeat(5 * 1000 * 1000) }],
  };
  const body = wireDeliveryBody({
    id: 'dlv_bounds',
    type: 'FORM_SUBMISSION',
    createdAt: new Date().toISOString(),
    hookId: 'hook_1',
    data,
  });
  const perform = (App.triggers as unknown as Record<string, { operation: { perform: unknown } }>)
    .new_registration!.operation.perform as (z: ZObject, bundle: Bundle) => Promise<Items>;
  const items = (await appTester(
    perform,
    hookBundle(signedDelivery(body, 'whsec_bounds_1'), {
      authData: authData(),
      subscribeData: { id: 'hook_1', secret: 'whsec_bounds_1', kind: 'x', eventId: null },
    }),
  )) as Items;
  expect(items).toHaveLength(1);
  expect(String(items[0]!.answers__notes).endsWith(CUT_MARK)).toBe(true);
  expect(items[0]!.cutFields).toBe('answers[0].value (5,000,000 characters)');
  expect(bytesOf(items)).toBeLessThan(ANSWER_LIMIT);
});

it('a record cut as it is read keeps its cuts through the cache', () => {
  const { value, cuts } = boundRecord({ id: 'e', description: 'd'.repeat(TEXT_CHARS * 2) });
  expect(cutsOf(JSON.parse(JSON.stringify({ ...(value as object), $cuts: cuts })))).toEqual(cuts);
});

describe('a long text cut while it is read', () => {
  const rule = { noun: 'record', schema: z.looseObject({ id: z.string() }), idKey: 'id' };
  const readIn = (body: string, chunk: number, maxStringBytes: number) => {
    const { items, visit } = collect<Record<string, unknown>>();
    const log = recordLog(() => undefined, 'the records');
    const reader = listReader(rule, visit, log, { maxStringBytes });
    const bytes = Buffer.from(body);
    for (let at = 0; at < bytes.length; at += chunk) reader.write(bytes.subarray(at, at + chunk));
    reader.end();
    return items;
  };

  it('keeps a prefix of the text, says how long it was, whatever the characters, escapes and chunks', () => {
    const piece = fc.constantFrom('a', 'é', '😀', '"', '\\', '\n', '\u0001', '美', 'z');
    fc.assert(
      fc.property(
        fc.array(piece, { minLength: 0, maxLength: 120 }),
        fc.integer({ min: 1, max: 23 }),
        fc.integer({ min: 9, max: 60 }),
        (parts, chunk, maxStringBytes) => {
          const text = parts.join('');
          const body = wireListText([{ id: 'r1', text, after: 'kept' }, { id: 'r2' }]);
          const [first, second] = readIn(body, chunk, maxStringBytes);
          expect(second).toEqual({ id: 'r2' });
          expect(first).toMatchObject({ id: 'r1', after: 'kept' });
          const read = String(first!.text);
          const cut = cutsOf(first).text;
          if (cut === undefined) {
            expect(read).toBe(text);
          } else {
            expect(read.endsWith(CUT_MARK)).toBe(true);
            expect(text.startsWith(read.slice(0, -CUT_MARK.length))).toBe(true);
            expect(cut).toEqual({ size: text.length, unit: 'characters' });
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never cuts inside an escape whose backslashes began in the chunk before, at every chunk size and bound', () => {
    // A run of backslashes cut by a chunk's end: its parity is that of the whole run, not of the chunk's part.
    for (const text of [`${'\\'.repeat(4)}\u0001${'z'.repeat(20)}`, `${'\\'.repeat(7)}${'z'.repeat(20)}`]) {
      const body = wireListText([{ id: 'r1', text, after: 'kept' }, { id: 'r2' }]);
      const wrong: string[] = [];
      for (let chunk = 1; chunk <= 23; chunk++) {
        for (let maxStringBytes = 9; maxStringBytes <= 40; maxStringBytes++) {
          const [first, second] = readIn(body, chunk, maxStringBytes);
          const read = String(first?.text);
          const cut = cutsOf(first).text;
          const kept = cut === undefined ? read : read.slice(0, -CUT_MARK.length);
          const right =
            second?.id === 'r2' &&
            first?.after === 'kept' &&
            (cut === undefined ? read === text : read.endsWith(CUT_MARK) && cut.size === text.length) &&
            text.startsWith(kept);
          if (!right) wrong.push(`chunk ${chunk}, ${maxStringBytes} bytes: ${JSON.stringify(read)}`);
        }
      }
      expect([JSON.stringify(text), wrong]).toEqual([JSON.stringify(text), []]);
    }
  });

  it('keeps the first entries of a long list and counts the others, lists in lists and texts in them too', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.integer(),
            fc.constantFrom('a,b', '[', '], ', '"'),
            fc.array(fc.integer(), { maxLength: 5 }),
          ),
          {
            maxLength: 40,
          },
        ),
        fc.integer({ min: 1, max: 23 }),
        fc.integer({ min: 1, max: 12 }),
        (list, chunk, maxListEntries) => {
          const body = wireListText([{ id: 'r1', list, after: [7] }, { id: 'r2' }]);
          const { items, visit } = collect<Record<string, unknown>>();
          const reader = listReader(
            rule,
            visit,
            recordLog(() => undefined, 'the records'),
            { maxListEntries },
          );
          const bytes = Buffer.from(body);
          for (let at = 0; at < bytes.length; at += chunk) reader.write(bytes.subarray(at, at + chunk));
          reader.end();
          const [first, second] = items;
          expect(second).toEqual({ id: 'r2' });
          expect(first).toMatchObject({ id: 'r1', after: [7] });
          const capped = (value: unknown): unknown =>
            Array.isArray(value) ? value.slice(0, maxListEntries).map(capped) : value;
          expect(first!.list).toEqual(capped(list));
          expect(cutsOf(first).list).toEqual(
            list.length > maxListEntries ? { size: list.length, unit: 'entries' } : undefined,
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('holds only the first bytes of a text of many megabytes', () => {
    const [record] = readIn(wireListText([{ id: 'r1', text: 'é'.repeat(3 * MIB) }]), 65536, 1024);
    expect(String(record!.text).length).toBeLessThan(1024);
    expect(cutsOf(record).text).toEqual({ size: 3 * MIB, unit: 'characters' });
  });
});
