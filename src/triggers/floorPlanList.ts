/**
 * Hidden trigger that feeds the Floor Plan dropdowns (Find Floor Plan, Generate Embed Code): the chosen
 * event's published plans (the event given by ID, slug or link), labelled `Main hall — v3, 12 of 40 booths
 * available`. Loading the dropdown
 * always asks the service, so a plan published a minute ago is listed.
 */
import { type Bundle, type ZObject, defineTrigger } from 'zapier-platform-core';
import { requireAccountEvent } from '../account/events';
import { cachedFloorPlans } from '../account/plansAndAgendas';
import { requiredEventInput } from '../fields/event';
import { FLOOR_PLAN_LIST_TRIGGER_KEY } from '../fields/keys';
import {
  floorPlanLabel,
  floorPlanOutputFields,
  floorPlanSample,
  toFloorPlanItem,
} from '../mappers/floorPlan';
import { staticSample } from '../mappers/sample';

const perform = async (z: ZObject, bundle: Bundle) => {
  // The Event field may hold a slug or a public page link (the operations with a Floor Plan field take them).
  const given = requiredEventInput(z, bundle);
  const eventId = 'id' in given ? given.id : (await requireAccountEvent(z, bundle, given)).id;
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
