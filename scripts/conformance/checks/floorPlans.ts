/** Endpoints 1 and 2, an event's published floor plans: the list, one plan, an unknown plan. */
import { pathSegmentProblem, paths } from '../../../src/connect/paths';
import { FLOOR_PLAN_RULE } from '../../../src/connect/records';
import { contractCodeOf } from '../../../src/connect/testing';
import type { FloorPlan } from '../../../src/connect/schemas';
import { appError } from '../app';
import { type ListOutcome, answerText, checkError, readList, readObject, unlisted } from '../evaluate';
import type { Answer } from '../http';
import { type Run, pickEvent } from '../run';
import { type Check, type Outcome, checkMaker, differs, unchecked } from '../types';
import { noted } from './lists';

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
  meaning: 'entitlement_missing',
  member: 'entitlement',
  wrongStatus: 'A plan without the feature would not be reported as such',
  noCode:
    'a user whose plan lacks the feature would see "access refused, check the permissions of the API key" instead of the feature to add',
} as const;

/** A 403 of a feature's endpoint: remembered for errors.entitlement, and said in words for the reasons here. */
export const refusal = (run: Run, answer: Answer, where: string, what: string): string => {
  const app = appError(answer, what);
  run.entitlement ??= { where, outcome: checkError(answer, { ...ENTITLEMENT_EXPECTATION, what }) };
  return app.meaning === 'entitlement_missing'
    ? `the organizer of this key lacks the feature (HTTP 403 ${contractCodeOf('entitlement_missing')}${app.body?.entitlement ? ` ${app.body.entitlement}` : ''})`
    : `it was refused with ${answerText(answer)}`;
};

export const floorPlanChecks = async (run: Run): Promise<Check[]> => {
  let answer: Answer | null = null;
  let refused: string | null = null;
  const picked = await pickEvent(
    run,
    'has a published floor plan',
    async (id) => {
      if (refused) return 'was not tried (an earlier event was refused)';
      answer = await run.probe.get(paths.floorPlans(id));
      if (answer.status === 403) {
        refused = refusal(run, answer, 'floor plans', 'the floor plans of this event');
        return 'was refused';
      }
      const list = readList(answer, FLOOR_PLAN_RULE, OPERATIONS);
      if (list.items > 0) return true;
      return list.unusable ? unlisted(answer) : 'had none';
    },
    true,
  );
  run.featureReads.push(
    answer ? 'floor plans were read' : 'no floor plan was read (no event to read them for)',
  );
  const all = (why: string) => Object.entries(ASSUMPTIONS).map(([n, a]) => check(n, a, unchecked(why)));
  if (refused) return all(`Floor plans cannot be read: ${String(refused)}.`);
  if ('why' in picked) return all(picked.why);
  const { eventId } = picked;
  answer ??= await run.probe.get(paths.floorPlans(eventId));
  if (answer.status === 403) {
    return all(
      `Floor plans cannot be read: ${refusal(run, answer, 'floor plans', 'the floor plans of this event')}.`,
    );
  }
  const list = readList<typeof FloorPlan>(answer, FLOOR_PLAN_RULE, OPERATIONS);
  const checks = [check('envelope', ASSUMPTIONS.envelope, list.outcome)];
  checks.push(check('one', ASSUMPTIONS.one, await oneOutcome(run, eventId, list)));
  const missing = await run.probe.get(paths.floorPlan(eventId, `plan_conformance_missing_${Date.now()}`));
  const outcome = checkError(missing, {
    status: 404,
    meaning: 'not_found',
    what: 'this floor plan',
    wrongStatus:
      'Find Floor Plan would fail with an error for a plan that is not published, instead of finding nothing',
    noCode:
      'Find Floor Plan would fail with an error for a plan that is not published, instead of finding nothing',
  });
  return [...checks, check('unknown', ASSUMPTIONS.unknown, outcome)];
};

/** One plan of the list, read on its own; unchecked (with the true reason) when the list gave none to read. */
const oneOutcome = async (run: Run, eventId: string, list: ListOutcome<FloorPlan>): Promise<Outcome> => {
  const plan = list.records[0];
  if (!plan) {
    return unchecked(
      list.unusable
        ? `No plan to read: ${list.unusable} (see floorPlans.envelope).`
        : 'The event has no published floor plan.',
    );
  }
  const problem = pathSegmentProblem(plan.id);
  if (problem) {
    return differs(
      `The plan's id "${run.probe.blank(plan.id).slice(0, 40)}" cannot be put in an address (${problem}): the app refuses it there, so Find Floor Plan and the map of Generate Embed Code would fail for this plan.`,
      'Ask the service: identifiers must each be usable as one segment of an address.',
    );
  }
  const answer = await run.probe.get(paths.floorPlan(eventId, plan.id));
  return noted(readObject(answer, FLOOR_PLAN_RULE, 'Find Floor Plan').outcome, list);
};
