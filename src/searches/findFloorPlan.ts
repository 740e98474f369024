/**
 * Find Floor Plan: an event's published floor plans (or the one chosen), booths as line items and the counts
 * of available, held and booked booths. Answers are cached for 5 minutes for the account; "Bypass Cache"
 * reads the service again (after holds or bookings). A plan that is not published is `[]`; an event that is
 * not among the account's events is an error that says so. Any event of the account is reached, past the
 * newest 100 too, by ID, slug or public page link.
 */
import { type Bundle, type ZObject, defineSearch } from 'zapier-platform-core';
import { searchDeadline } from '../account/catalog';
import { requireAccountEvent } from '../account/events';
import { type Fetched, cachedFloorPlan, cachedFloorPlans } from '../account/plansAndAgendas';
import type { FloorPlan } from '../connect';
import { eventField, requiredEventInput } from '../fields/event';
import { floorPlanField, planIdInput } from '../fields/floorPlan';
import { booleanInput } from '../fields/read';
import { floorPlanOutputFields, floorPlanSample, toFloorPlanItem } from '../mappers/floorPlan';
import { sibling } from '../siblings';

/** At most this many of the event's plans are named in the log line of a plan not found. */
const PLANS_NAMED = 20;

/**
 * The log line of a Floor Plan that is not one of the event's published plans: the service answers the same
 * for an ID that no plan has and for a plan never published, so the line names both and lists the plans it has.
 */
const notPublished = (planId: string, eventId: string, plans: Fetched<FloorPlan[]>): string => {
  const named = plans.value
    .slice(0, PLANS_NAMED)
    .map((plan) => `"${plan.name.slice(0, 80)}" (${plan.id.slice(0, 80)})`);
  const more = plans.value.length > PLANS_NAMED ? `, and ${plans.value.length - PLANS_NAMED} more` : '';
  const has = named.length ? `Its published plans: ${named.join(', ')}${more}.` : 'It has no published plan.';
  return `Find Floor Plan found nothing: "${planId.slice(0, 80)}" is not a published floor plan of event ${eventId}. Either no plan has this ID (check the Floor Plan field), or the plan was never published (publish it in the dashboard); the service answers the same for both. ${has}`;
};

const perform = async (z: ZObject, bundle: Bundle) => {
  const given = requiredEventInput(z, bundle);
  const planId = planIdInput(z, bundle);
  const fresh = booleanInput(bundle, 'bypassCache');
  const deadline = searchDeadline();
  // The plans are keyed reads of the account: an event given by slug or link is resolved to its ID first.
  const resolved = 'id' in given ? null : await requireAccountEvent(z, bundle, given, deadline);
  const eventId = resolved?.id ?? ('id' in given ? given.id : '');
  let found;
  if (planId) {
    const one = await cachedFloorPlan(z, bundle, eventId, planId, fresh);
    // "Not found" names the plan or the event: the event's list of plans tells (an unknown event throws).
    if (!one.value) {
      const published = await cachedFloorPlans(z, bundle, eventId, fresh);
      z.console.log(notPublished(planId, eventId, published));
    }
    found = { plans: one.value ? [one.value] : [], fetchedAt: one.fetchedAt };
  } else {
    const all = await cachedFloorPlans(z, bundle, eventId, fresh);
    if (all.value.length === 0)
      z.console.log(
        `Find Floor Plan: event ${eventId} has no published floor plan (a plan drawn in the dashboard is served once it is published), so nothing was found.`,
      );
    found = { plans: all.value, fetchedAt: all.fetchedAt };
  }
  if (found.plans.length === 0) return [];
  const event =
    resolved?.event ??
    (await requireAccountEvent(z, bundle, { id: eventId }, deadline).then(
      (found) => found.event,
      () => null,
    ));
  return found.plans
    .map((plan) => toFloorPlanItem(plan, event, found.fetchedAt))
    .sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }));
};

const definition = defineSearch({
  key: 'find_floor_plan',
  noun: 'Floor Plan',
  display: {
    label: 'Find Floor Plan',
    description:
      'Finds a published floor plan of an event and returns its booths, with how many are available, held or booked. When nothing is found (no published plan), it returns nothing. For the booth map on your website, use **Generate Embed Code**.',
  },
  operation: {
    perform,
    inputFields: [
      eventField({
        required: true,
        takes: 'reference',
        helpText:
          'The event whose published floor plans to read: any of your events (its search finds older ones), or its event ID, slug or public page link mapped from an earlier step.',
      }),
      floorPlanField(
        "One of the event's published plans; empty for all of them (the first one, by name, is used by later steps). A plan ID that no plan has, or a plan drawn but never published, finds nothing (the service answers the same for both): the step's log in the Zap history then says so and lists the event's published plans.",
      ),
      {
        key: 'bypassCache',
        label: 'Bypass Cache',
        type: 'boolean' as const,
        required: false,
        default: 'false',
        helpText:
          'Answers are kept for 5 minutes. Choose True right after booths were held or booked to read the current statuses from the service.',
      },
    ],
    sample: floorPlanSample,
    outputFields: floorPlanOutputFields,
  },
});

export default sibling('event-pages', definition);
