/**
 * The conformance kit: checks the assumptions of docs/connect-contract.md against a running service,
 * read-only, with the app's own contract module. `runConformance` is a pure function of the options: it
 * returns the checks (or throws `StopError` when the URL or the key is wrong) and prints nothing.
 */
import { connectionChecks, preflight } from './checks/connection';
import { errorChecks } from './checks/errors';
import { eventChecks } from './checks/events';
import { floorPlanChecks } from './checks/floorPlans';
import { hookChecks } from './checks/hooks';
import { orderChecks } from './checks/orders';
import { publicChecks } from './checks/public';
import { lateCheck, submissionChecks } from './checks/submissions';
import { Probe } from './http';
import type { Run } from './run';
import type { Check, ConformanceOptions } from './types';

export { StopError, STATUSES, type Check, type ConformanceOptions, type Status } from './types';

/** The groups, in the order they run (events first: the others pick their event from that list). */
const STEPS: Array<[string, (run: Run) => Promise<Check[]> | Check[]]> = [
  ['events', eventChecks],
  ['submissions', submissionChecks],
  ['orders', orderChecks],
  ['floor plans', floorPlanChecks],
  ['public catalog and widgets', publicChecks],
  ['errors', errorChecks],
  ['hook subscriptions', hookChecks],
  ['late registrations', async (run) => [await lateCheck(run)]],
  ['connection', connectionChecks],
];

export const runConformance = async (options: ConformanceOptions): Promise<Check[]> => {
  const probe = new Probe(options.baseUrl, options.apiKey);
  options.onProgress?.('connection', 0, STEPS.length + 1);
  await preflight(probe, options);
  const run: Run = { probe, options, events: [], entitlement: null, firstRead: null };
  const checks: Check[] = [];
  for (const [index, [name, step]] of STEPS.entries()) {
    options.onProgress?.(name, index + 1, STEPS.length + 1);
    checks.push(...(await step(run)));
  }
  const order = [...new Set(checks.map((c) => c.group))];
  const connection = order.filter((g) => g === 'Connection');
  const rank = (group: string) => [...connection, ...order.filter((g) => g !== 'Connection')].indexOf(group);
  return checks.sort((a, b) => rank(a.group) - rank(b.group));
};
