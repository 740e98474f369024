import { FLOOR_PLAN_LIST_TRIGGER_KEY } from './keys';

/** The Floor Plan dropdown: the published plans of the event chosen in the Event field. */
export const floorPlanField = (helpText: string) => ({
  key: 'planId',
  label: 'Floor Plan',
  type: 'string' as const,
  required: false,
  dynamic: `${FLOOR_PLAN_LIST_TRIGGER_KEY}.id.label`,
  dependsOn: ['eventId'],
  helpText,
});
