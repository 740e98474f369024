import nock from 'nock';
import floorPlanList from '../../src/triggers/floorPlanList';
import { paths } from '../../src/connect';
import { SAMPLE_EVENT } from '../../src/mappers/event';
import { SAMPLE_FLOOR_PLAN } from '../../src/mappers/floorPlan';
import { BASE_URL, appTester, authData, meta } from '../support/app';
import { functionOf } from '../../scripts/lib/app';
import { wireList } from '../../sandbox/wire';

const perform = functionOf('triggers', floorPlanList.key);

afterEach(() => nock.cleanAll());

it("lists the event's published plans by name with availability labels, always fresh", async () => {
  const annex = { ...SAMPLE_FLOOR_PLAN, id: 'plan_annex', name: 'Annex', version: 1, booths: [] };
  nock(BASE_URL)
    .get(paths.floorPlans(SAMPLE_EVENT.id))
    .times(2)
    .reply(200, wireList([SAMPLE_FLOOR_PLAN, annex]));
  const bundle = {
    authData: authData(),
    inputData: { eventId: SAMPLE_EVENT.id },
    meta: meta({ isFillingDynamicDropdown: true }),
  };
  const items = (await appTester(perform, bundle, true)) as Array<{ id: string; label: string }>;
  expect(items.map((i) => [i.id, i.label])).toEqual([
    ['plan_annex', 'Annex — v1, 0 of 0 booths available'],
    ['plan_main', 'Main hall — v3, 1 of 3 booths available'],
  ]);
  await appTester(perform, bundle);
  expect(nock.isDone()).toBe(true);
});
