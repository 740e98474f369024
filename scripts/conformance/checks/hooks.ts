/**
 * The hook subscription endpoints (contract §5), as far as they can be checked without making anything: the
 * answer for a subscription that does not exist, and, only when asked (`--probe-turn-on`), whether
 * `POST …/hooks` reads an `Idempotency-Key` before it makes anything. That probe sends a key longer than the
 * contract allows and an unknown kind: a service that follows the contract refuses the key (400 naming it)
 * and makes nothing; one that made a subscription anyway has it deleted at once.
 */
import { paths } from '../../../src/connect/paths';
import { appError } from '../app';
import { answerText, checkError } from '../evaluate';
import type { Answer } from '../http';
import type { Run } from '../run';
import { type Check, type Outcome, checkMaker, differs, holds } from '../types';

const check = checkMaker('Hook subscriptions (GET /api/v1/integrations/zapier/hooks/:id)', 'hooks');
const turnOnCheck = checkMaker('Turning a Zap on (POST /api/v1/integrations/zapier/hooks)', 'hooks');

const CONSEQUENCE =
  'turning off a Zap whose subscription is already gone in the service would fail, and a delivery signed with a rotated secret would fail instead of being checked against the current secret';

/** Longer than the contract's 255 characters: malformed for any service that reads the key. */
const MALFORMED_KEY = 'k'.repeat(256);
const PROBE_BODY = {
  targetUrl: 'https://conformance.invalid/turn-on-probe',
  event: 'CONFORMANCE_PROBE_NOT_A_KIND',
  eventId: null,
};
const LOST_ANSWER =
  'a Zap whose turn-on answer is lost could leave a subscription in the service that no Zap owns, and turning it on again would make a second one';
const KEY_ACTION =
  'Ask the service whether POST …/hooks honours an Idempotency-Key (docs/connect-contract.md §5), then check on a staging account: the same subscribe request sent twice with one key must answer the same subscription, the second time with Idempotent-Replayed: true.';

/** What the probe's answer says of the key, deleting a subscription the service made anyway. */
const keyOutcome = async (run: Run, answer: Answer): Promise<Outcome> => {
  if (answer.status >= 200 && answer.status < 300) {
    const id = (answer.json as { id?: unknown } | undefined)?.id;
    const removal = typeof id === 'string' ? await run.probe.write('DELETE', paths.hook(id)) : null;
    const cleaned =
      removal && removal.status < 300
        ? `The probe's subscription ${String(id)} was deleted again.`
        : `Delete the probe's subscription${typeof id === 'string' ? ` ${id}` : ''} (target https://conformance.invalid/…) in the dashboard.`;
    return differs(
      `The service made a subscription for an unknown kind with a malformed Idempotency-Key (${answerText(answer)}): it reads neither, so ${LOST_ANSWER}. ${cleaned}`,
      KEY_ACTION,
    );
  }
  const field = appError(answer, 'the webhook subscription').body?.field;
  if (answer.status === 400 && field === 'Idempotency-Key') {
    return holds(
      'HTTP 400 naming Idempotency-Key, before the body was read: the key is read on this endpoint.',
    );
  }
  return differs(
    `The contract has a malformed key refused before the body; the service answered ${answerText(answer)}${field ? ` (field ${field})` : ''} without naming the key, so it may not read Idempotency-Key on POST …/hooks: then ${LOST_ANSWER}.`,
    KEY_ACTION,
  );
};

/** Sent only with `--probe-turn-on`: a default run sends GET requests only, and lists no such check. */
const idempotencyCheck = async (run: Run): Promise<Check> => {
  const answer = await run.probe.write('POST', paths.hooks(), PROBE_BODY, {
    'Idempotency-Key': MALFORMED_KEY,
  });
  return turnOnCheck(
    'idempotency-key',
    'POST …/hooks reads an Idempotency-Key before making anything (a malformed one is 400 naming it).',
    await keyOutcome(run, answer),
  );
};

export const hookChecks = async (run: Run): Promise<Check[]> => {
  const answer = await run.probe.get(paths.hook(`hook_conformance_missing_${Date.now()}`));
  const outcome = checkError(answer, {
    status: 404,
    meaning: 'not_found',
    what: 'this hook subscription',
    wrongStatus: `The subscription endpoint is not where the contract puts it, or answers otherwise: every instant trigger (New Registration, Payment Succeeded, Event Changed, …) could fail to turn on, and ${CONSEQUENCE}`,
    noCode: CONSEQUENCE,
  });
  const unknown = check('unknown', 'A subscription id that does not exist answers 404 NOT_FOUND.', outcome);
  return run.options.probeTurnOn ? [unknown, await idempotencyCheck(run)] : [unknown];
};
