import type { Bundle, ZObject } from 'zapier-platform-core';
import { pathSegmentProblem } from '../connect';
import { accepts } from './accepts';
import { FLOOR_PLAN_LIST_TRIGGER_KEY } from './keys';
import { textInput } from './read';

// What `pathSegmentProblem` lets through, without spaces around: no `/`, `\\`, `?`, `#` or control
// character, and neither `.` nor `..`.
const PLAN_CHAR = '[^/\\\\?#\\x00-\\x1f\\x7f]';
const PLAN_EDGE = '[^\\s/\\\\?#\\x00-\\x1f\\x7f]';
const PLAN_FIRST = '[^\\s./\\\\?#\\x00-\\x1f\\x7f]';

/** A floor plan ID: any text that can stand as one segment of an address. */
const PLAN_ID_PATTERN = `^(?:${PLAN_FIRST}(?:${PLAN_CHAR}*${PLAN_EDGE})?|\\.${PLAN_FIRST}|\\.${PLAN_CHAR}+${PLAN_EDGE})$`;

/** The Floor Plan dropdown: the published plans of the event chosen in the Event field. */
export const floorPlanField = (helpText: string) => ({
  key: 'planId',
  label: 'Floor Plan',
  type: 'string' as const,
  required: false,
  dynamic: `${FLOOR_PLAN_LIST_TRIGGER_KEY}.id.label`,
  dependsOn: ['eventId'],
  helpText,
  meta: accepts({ pattern: PLAN_ID_PATTERN }),
});

/**
 * The Floor Plan input (chosen or mapped), `''` when empty. A value that would change the path of a request
 * or of the map frame (`..`, `.`, `a/b`) is refused before anything is sent or generated.
 */
export const planIdInput = (z: ZObject, bundle: Pick<Bundle, 'inputData'>): string => {
  const planId = textInput(bundle, 'planId');
  const problem = planId ? pathSegmentProblem(planId) : null;
  if (problem) {
    throw new z.errors.Error(
      `"${planId.slice(0, 60)}" in Floor Plan is not a floor plan ID (${problem}). Choose the plan in the Floor Plan field, or map the ID of a floor plan from an earlier step.`,
      'INVALID_INPUT',
      400,
    );
  }
  return planId;
};
