/** Endpoints 1 and 2, an event's published floor plans: the list, one plan, an unknown plan. */
import { paths } from '../../../src/connect/paths';
import { FLOOR_PLAN_RULE } from '../../../src/connect/records';
import type { FloorPlan } from '../../../src/connect/schemas';
import { checkError, readList, readObject } from '../evaluate';
import type { Answer } from '../http';
import { type Run, pickEvent } from '../run';
import { type Check, checkMaker, unchecked } from '../types';

const check = checkMaker(
  'Floor plans (GET /connect/v1/events/:eventUuid/floor-plans[/:planId])',
  'floorPlans',
);

const OPERATIONS = 'Find Floor Plan, the Floor Plan dropdown and the map of Generate Embed Code';

const ASSUMPTIONS = {
  envelope: 'The list answers { "data": [FloorPlan, …] } with the documented FloorPlan records.',
  one: 'One plan answers the FloorPlan object itself.',
  unknown: 'An unknown plan answers 404 NOT_FOUND.',
} as const;

export const ENTITLEMENT_EXPECTATION = {
  status: 403,
  code: 'ENTITLEMENT_REQUIRED',
  member: 'entitlement',
  wrongStatus: 'A plan without the feature would not be reported as such',
  noCode:
    'a user whose plan lacks the feature would see "access refused, check the permissions of the API key" instead of the feature to add',
} as const;

export const floorPlanChecks = async (run: Run): Promise<Check[]> => {
  let answer: Answer | null = null;
  let refused = false;
  const eventId = await pickEvent(run, async (id) => {
    if (refused) return false;
    answer = await run.probe.get(paths.floorPlans(id));
    if (answer.status === 403) {
      refused = true;
      run.entitlement ??= { where: 'floor plans', outcome: checkError(answer, ENTITLEMENT_EXPECTATION) };
    }
    return readList(answer, FLOOR_PLAN_RULE, OPERATIONS).records.length > 0;
  });
  const all = (why: string) => Object.entries(ASSUMPTIONS).map(([n, a]) => check(n, a, unchecked(why)));
  if (refused)
    return all('The organizer of this key lacks the venue feature (403): floor plans cannot be read.');
  if (!eventId) return all('No event of this key has a published floor plan; give one with --event.');
  answer ??= await run.probe.get(paths.floorPlans(eventId));
  const list = readList<typeof FloorPlan>(answer, FLOOR_PLAN_RULE, OPERATIONS);
  const checks = [check('envelope', ASSUMPTIONS.envelope, list.outcome)];
  const plan = list.records[0];
  checks.push(
    check(
      'one',
      ASSUMPTIONS.one,
      plan
        ? readObject(
            await run.probe.get(paths.floorPlan(eventId, plan.id)),
            FLOOR_PLAN_RULE,
            `Find Floor Plan would fail`,
          ).outcome
        : unchecked('The event has no published floor plan (or it could not be read).'),
    ),
  );
  const missing = await run.probe.get(paths.floorPlan(eventId, `plan_conformance_missing_${Date.now()}`));
  const outcome = checkError(missing, {
    status: 404,
    code: 'NOT_FOUND',
    wrongStatus:
      'Find Floor Plan would fail with an error for a plan that is not published, instead of finding nothing',
    noCode:
      'Find Floor Plan would fail with an error for a plan that is not published, instead of finding nothing',
  });
  return [...checks, check('unknown', ASSUMPTIONS.unknown, outcome)];
};
