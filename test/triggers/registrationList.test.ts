import nock from 'nock';
import registrationList from '../../src/triggers/registrationList';
import { type Submission, paths } from '../../src/connect';
import { SAMPLE_EVENT } from '../../src/mappers/event';
import { SAMPLE_SUBMISSION } from '../../src/mappers/submission';
import { ALL_TIME } from '../../src/account/registrations';
import { MAX_PAGES, PAGE_SIZE, SNAPSHOT_PAGES } from '../../src/triggers/registrationList';
import { BASE_URL, appTester, authData, caught, errorMessage, meta } from '../support/app';
import { functionOf } from '../../scripts/lib/app';
import { wireList } from '../../sandbox/wire';

const perform = functionOf('triggers', registrationList.key);
const EVENT_ID = SAMPLE_EVENT.id;
const run = (page: number, inputData: Record<string, unknown> = { eventId: EVENT_ID }, clear = false) =>
  appTester(
    perform,
    { authData: authData(), inputData, meta: meta({ isFillingDynamicDropdown: true, page }) },
    clear,
  ) as Promise<Array<{ id: string; label: string }>>;

const person = (i: number, overrides: Partial<Submission> = {}): Submission => ({
  ...SAMPLE_SUBMISSION,
  submissionId: `sub_${String(i).padStart(4, '0')}`,
  firstName: `First${i}`,
  lastName: `Last${String(i).padStart(4, '0')}`,
  email: `p${i}@example.com`,
  createdAt: new Date(Date.UTC(2026, 10, 1) + i * 1000).toISOString(),
  ...overrides,
});

const registrations = (data: Submission[]) =>
  nock(BASE_URL)
    .get(paths.submissions())
    .query({ eventId: EVENT_ID, since: ALL_TIME })
    .reply(200, wireList(data));

afterEach(() => nock.cleanAll());

it('lists only approved registrations, sorted by last name, labelled for people', async () => {
  registrations([
    person(1, { lastName: 'Żukowska', firstName: 'Ewa' }),
    person(2, { lastName: 'Adams', firstName: 'Zoe', checkedInAt: '2026-12-01T08:00:00.000Z' }),
    person(3, { status: 'pending', lastName: 'Aaron' }),
    person(4, { status: 'rejected', lastName: 'Abel' }),
    person(5, { lastName: 'Émile', firstName: null, email: null }),
  ]);
  const items = await run(0, undefined, true);
  expect(items.map((i) => i.label)).toEqual([
    'Adams, Zoe — p2@example.com (checked in)',
    'Émile',
    'Żukowska, Ewa — p1@example.com',
  ]);
  expect(items.map((i) => i.id)).toEqual(['sub_0002', 'sub_0005', 'sub_0001']);
});

it(`pages ${PAGE_SIZE} at a time from the snapshot the first page was cut from`, async () => {
  const all = Array.from({ length: 250 }, (_, i) => person(i));
  registrations(all);
  const first = await run(0, undefined, true);
  const second = await run(1);
  const third = await run(2);
  const fourth = await run(3);
  expect([first.length, second.length, third.length, fourth.length]).toEqual([100, 100, 50, 0]);
  expect(first[0]?.id).toBe('sub_0000');
  expect(second[0]?.id).toBe('sub_0100');
  expect(third[49]?.id).toBe('sub_0249');
  expect(new Set([...first, ...second, ...third].map((i) => i.id)).size).toBe(250);
});

it('goes on past the snapshot with the rows after its last one, never overlapping or skipping', async () => {
  // 1,260 approved among pending ones, in no particular order.
  const all = Array.from({ length: 1_400 }, (_, i) =>
    person((i * 769) % 1_400, i % 10 === 9 ? { status: 'pending' } : {}),
  );
  const approved = all.filter((p) => p.status === 'approved').length;
  registrations(all);
  const pages: Array<Array<{ id: string; label: string }>> = [await run(0, undefined, true)];
  for (let page = 1; page < SNAPSHOT_PAGES; page++) pages.push(await run(page));
  for (let page = SNAPSHOT_PAGES; page < SNAPSHOT_PAGES + 3; page++) {
    registrations(all);
    pages.push(await run(page));
  }
  const labels = pages.flat().map((item) => item.label);
  expect(labels).toHaveLength(approved);
  expect(new Set(labels).size).toBe(approved);
  expect(labels).toEqual([...labels].sort());
  expect(pages[SNAPSHOT_PAGES + 2]).toHaveLength(approved - (SNAPSHOT_PAGES + 2) * PAGE_SIZE);
});

it(`stops after ${MAX_PAGES} pages`, async () => {
  registrations(Array.from({ length: 1_001 }, (_, i) => person(i)));
  await run(0, undefined, true);
  expect(await run(MAX_PAGES)).toEqual([]);
});

it('asks again when the first page is loaded again (a just-approved person shows up)', async () => {
  registrations([person(1)]);
  expect(await run(0, undefined, true)).toHaveLength(1);
  registrations([person(1), person(2)]);
  expect(await run(0)).toHaveLength(2);
});

it('asks to choose the event first', async () => {
  expect(errorMessage(await caught(() => run(0, {}, true)))).toMatch(/^No event was given\. Choose an event/);
});
