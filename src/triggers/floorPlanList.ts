/**
 * Hidden trigger that feeds the Floor Plan dropdowns (Find Floor Plan, Generate Embed Code): the chosen
 * event's published plans, labelled `Main hall — v3, 12 of 40 booths available`. Loading the dropdown
 * always asks the service, so a plan published a minute ago is listed.
 */
import { type Bundle, type ZObject, defineTrigger } from 'zapier-platform-core';
import { cachedFloorPlans } from '../account/plansAndAgendas';
import { requiredEventId } from '../fields/event';
import { FLOOR_PLAN_LIST_TRIGGER_KEY } from '../fields/keys';
import {
  floorPlanLabel,
  floorPlanOutputFields,
  floorPlanSample,
  toFloorPlanItem,
} from '../mappers/floorPlan';
import { staticSample } from '../mappers/sample';

const perform = async (z: ZObject, bundle: Bundle) => {
  const eventId = requiredEventId(z, bundle);
  const { value: plans, fetchedAt } = await cachedFloorPlans(z, bundle, eventId, true);
  return plans
    .map((plan) => toFloorPlanItem(plan, null, fetchedAt))
    .sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }))
    .map((item) => ({ ...item, label: floorPlanLabel(item) }));
};

export default defineTrigger({
  key: FLOOR_PLAN_LIST_TRIGGER_KEY,
  noun: 'Floor Plan',
  display: {
    label: 'List Published Floor Plans',
    description: 'Triggers when the published floor plans of an event are loaded for a dropdown.',
    hidden: true,
  },
  operation: {
    perform,
    sample: staticSample('floorPlanChoice', () => ({
      ...floorPlanSample,
      label: floorPlanLabel(floorPlanSample),
    })),
    outputFields: [...floorPlanOutputFields, { key: 'label', label: 'Dropdown Label', type: 'string' }],
  },
});
