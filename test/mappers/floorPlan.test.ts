import { SAMPLE_FLOOR_PLAN, floorPlanLabel, toFloorPlanItem } from '../../src/mappers/floorPlan';

const AT = '2026-11-30T10:00:00.000Z';

it('counts booths by status, sorts them naturally and lists the available labels', () => {
  const item = toFloorPlanItem(
    {
      ...SAMPLE_FLOOR_PLAN,
      booths: [
        { id: 'b10', label: 'B10', status: 'available' },
        { id: 'b2', label: 'B2', status: 'available', x: 1 },
        { id: 'b3', label: null, status: 'booked' },
        { id: 'b4', label: 'B4', status: 'held' },
        { id: 'b5', label: 'B5', status: 'reserved_for_sponsor' },
      ],
    },
    { title: 'TechWeek 2026' },
    AT,
  );
  expect(item.booths.map((b) => b.label)).toEqual(['B2', 'b3', 'B4', 'B5', 'B10']);
  expect(item).toMatchObject({
    id: 'plan_main',
    planId: 'plan_main',
    eventTitle: 'TechWeek 2026',
    boothCount: 5,
    availableCount: 2,
    heldCount: 1,
    bookedCount: 1,
    availableBooths: 'B2, B10',
    dataAsOf: AT,
  });
  expect(item.booths[0]).toEqual({
    id: 'b2',
    label: 'B2',
    status: 'available',
    x: 1,
    y: null,
    w: null,
    h: null,
  });
});

it('labels plans for the dropdown', () => {
  const item = toFloorPlanItem(SAMPLE_FLOOR_PLAN, null, AT);
  expect(floorPlanLabel(item)).toBe('Main hall — v3, 1 of 3 booths available');
  expect(floorPlanLabel({ ...item, name: '', version: null })).toBe(
    'Untitled plan — 1 of 3 booths available',
  );
});
