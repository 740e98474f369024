/**
 * The one mapper of the Floor plan noun: a published plan with its booths as line items and the counts of
 * available, held and booked booths, for the Find Floor Plan search, the plan dropdown and samples.
 */
import type { PlainOutputField } from 'zapier-platform-core';
import {
  type Booth,
  type Event,
  type FloorPlan,
  type FloorPlanRead,
  TEXT_CHARS,
  cutText,
  withoutCuts,
} from '../connect';
import { cutFieldsOutputField, cutSummary, extraFields, itemCuts } from './cuts';
import { staticSample } from './sample';

export type BoothLine = {
  [extra: string]: unknown;
  id: string;
  label: string;
  status: string;
  x: number | null;
  y: number | null;
  w: number | null;
  h: number | null;
};

export type FloorPlanItem = {
  [extra: string]: unknown;
  id: string;
  planId: string;
  eventId: string | null;
  eventTitle: string | null;
  name: string;
  version: number | null;
  publishedAt: string | null;
  width: number | null;
  height: number | null;
  boothCount: number;
  availableCount: number;
  heldCount: number;
  bookedCount: number;
  availableBooths: string;
  /** Whether the plan had more booths than are read (`LONG_LIST_ENTRIES`): only its first ones are listed. */
  boothsCut: boolean;
  booths: BoothLine[];
  dataAsOf: string;
  cutFields: string | null;
};

/**
 * The fields of a floor plan item (the contract's, the app's own, and the tally of a plan read on its own):
 * any other field of the service is kept only within `extraFields`' bounds, as for every record kind.
 */
const FLOOR_PLAN_ITEM_KEYS: ReadonlySet<string> = new Set([
  'id',
  'planId',
  'eventId',
  'eventTitle',
  'name',
  'version',
  'publishedAt',
  'width',
  'height',
  'boothCount',
  'availableCount',
  'heldCount',
  'bookedCount',
  'availableBooths',
  'boothsCut',
  'booths',
  'boothTally',
  'dataAsOf',
  'cutFields',
]);

const toBoothLine = (booth: Booth): BoothLine => ({
  ...withoutCuts(booth),
  id: booth.id,
  label: booth.label || booth.id,
  status: booth.status,
  x: booth.x ?? null,
  y: booth.y ?? null,
  w: booth.w ?? null,
  h: booth.h ?? null,
});

/** Booth labels in natural order: B2 before B10. */
const byLabel = (a: BoothLine, b: BoothLine): number =>
  a.label.localeCompare(b.label, 'en', { numeric: true, sensitivity: 'base' });

/**
 * A published floor plan as one item. `fetchedAt` says when the service gave it: answers are cached for a
 * few minutes, so counts can lag holds and bookings made since.
 */
export const toFloorPlanItem = (
  plan: FloorPlan | FloorPlanRead,
  event: Pick<Event, 'title'> | null,
  fetchedAt: string,
): FloorPlanItem => {
  const booths = plan.booths.map(toBoothLine).sort(byLabel);
  // A plan read on its own was tallied whole as it was read; in a list of plans, counts are of the booths listed.
  const tally = (plan as FloorPlanRead).boothTally;
  const extras = extraFields(plan, FLOOR_PLAN_ITEM_KEYS);
  const cuts = itemCuts(plan, FLOOR_PLAN_ITEM_KEYS, extras);
  const count = (status: string) =>
    tally?.byStatus[status] ?? booths.filter((b) => b.status === status).length;
  const available =
    tally?.availableLabels ?? booths.filter((b) => b.status === 'available').map((b) => b.label);
  const availableText = available.join(', ');
  return {
    ...extras.fields,
    id: plan.id,
    planId: plan.id,
    eventId: plan.eventId ?? null,
    eventTitle: event?.title ?? null,
    name: plan.name,
    version: plan.version ?? null,
    publishedAt: plan.publishedAt ?? null,
    width: plan.width ?? null,
    height: plan.height ?? null,
    boothCount: tally?.total ?? cuts.booths?.size ?? booths.length,
    availableCount: count('available'),
    heldCount: count('held'),
    bookedCount: count('booked'),
    availableBooths: availableText.length > TEXT_CHARS ? cutText(availableText, TEXT_CHARS) : availableText,
    boothsCut: cuts.booths !== undefined,
    booths,
    dataAsOf: fetchedAt,
    cutFields: cutSummary(cuts),
  };
};

/** The label of a plan in dropdowns: `Main hall — v3, 12 of 40 booths available`. */
export const floorPlanLabel = (
  item: Pick<FloorPlanItem, 'name' | 'version' | 'availableCount' | 'boothCount'>,
) =>
  `${item.name || 'Untitled plan'} — ${item.version ? `v${item.version}, ` : ''}${item.availableCount} of ${item.boothCount} booths available`;

export const SAMPLE_FLOOR_PLAN: FloorPlan = {
  id: 'plan_main',
  eventId: '7d0c6f1e-2f6a-4a7e-9a51-3f0e1b2c4d5e',
  name: 'Main hall',
  version: 3,
  publishedAt: '2026-11-10T08:00:00.000Z',
  width: 1200,
  height: 800,
  booths: [
    { id: 'B12', label: 'B12', status: 'available', x: 100, y: 40, w: 30, h: 20 },
    { id: 'B13', label: 'B13', status: 'held', x: 140, y: 40, w: 30, h: 20 },
    { id: 'B14', label: 'B14', status: 'booked', x: 180, y: 40, w: 30, h: 20 },
  ],
};

export const floorPlanSample: FloorPlanItem = staticSample('floorPlan', () =>
  toFloorPlanItem(SAMPLE_FLOOR_PLAN, { title: 'TechWeek 2026' }, '2026-11-30T10:00:00.000Z'),
);

export const floorPlanOutputFields: PlainOutputField[] = [
  { key: 'id', label: 'Plan ID', type: 'string', primary: true },
  { key: 'planId', label: 'Copy of Plan ID', type: 'string' },
  { key: 'eventId', label: 'Event ID', type: 'string' },
  { key: 'eventTitle', label: 'Event Title', type: 'string' },
  { key: 'name', label: 'Plan Name', type: 'string' },
  { key: 'version', label: 'Published Version', type: 'integer' },
  { key: 'publishedAt', label: 'Published At', type: 'datetime' },
  { key: 'width', label: 'Width', type: 'number' },
  { key: 'height', label: 'Height', type: 'number' },
  { key: 'boothCount', label: 'Number of Booths', type: 'integer' },
  { key: 'availableCount', label: 'Available Booths', type: 'integer' },
  { key: 'heldCount', label: 'Held Booths', type: 'integer' },
  { key: 'bookedCount', label: 'Booked Booths', type: 'integer' },
  { key: 'availableBooths', label: 'Available Booth Labels', type: 'string' },
  { key: 'boothsCut', label: 'Only the First Booths Are Listed', type: 'boolean' },
  { key: 'booths[]id', label: 'Booths: ID', type: 'string' },
  { key: 'booths[]label', label: 'Booths: Label', type: 'string' },
  { key: 'booths[]status', label: 'Booths: Status', type: 'string' },
  { key: 'booths[]x', label: 'Booths: X', type: 'number' },
  { key: 'booths[]y', label: 'Booths: Y', type: 'number' },
  { key: 'booths[]w', label: 'Booths: Width', type: 'number' },
  { key: 'booths[]h', label: 'Booths: Height', type: 'number' },
  { key: 'dataAsOf', label: 'Data Read At', type: 'datetime' },
  cutFieldsOutputField,
];
