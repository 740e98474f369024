/**
 * The hook subscription endpoints (contract §5), as far as they can be read without writing: nothing is
 * subscribed or deleted, so only the answer for a subscription that does not exist is checked.
 */
import { paths } from '../../../src/connect/paths';
import { checkError } from '../evaluate';
import type { Run } from '../run';
import { type Check, checkMaker } from '../types';

const check = checkMaker('Hook subscriptions (GET /api/v1/integrations/zapier/hooks/:id)', 'hooks');

const CONSEQUENCE =
  'turning off a Zap whose subscription is already gone in the service would fail, and a delivery signed with a rotated secret would fail instead of being checked against the current secret';

export const hookChecks = async (run: Run): Promise<Check[]> => {
  const answer = await run.probe.get(paths.hook(`hook_conformance_missing_${Date.now()}`));
  const outcome = checkError(answer, {
    status: 404,
    code: 'NOT_FOUND',
    what: 'this hook subscription',
    wrongStatus: `The subscription endpoint is not where the contract puts it, or answers otherwise: every instant trigger (New Registration, Payment Succeeded, Event Changed, …) could fail to turn on, and ${CONSEQUENCE}`,
    noCode: CONSEQUENCE,
  });
  return [check('unknown', 'A subscription id that does not exist answers 404 NOT_FOUND.', outcome)];
};
