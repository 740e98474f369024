/**
 * The conformance kit: checks the assumptions of docs/connect-contract.md against a running service,
 * read-only, with the app's own contract module. `runConformance` is a pure function of the options: it
 * returns the checks (or throws `StopError` when the URL or the key is wrong) and prints nothing.
 */
import { connectionChecks, preflight } from './checks/connection';
import { dialectChecks } from './checks/dialect';
import { errorChecks } from './checks/errors';
import { eventChecks } from './checks/events';
import { floorPlanChecks } from './checks/floorPlans';
import { hookChecks } from './checks/hooks';
import { orderChecks } from './checks/orders';
import { publicChecks } from './checks/public';
import { lateCheck, submissionChecks } from './checks/submissions';
import { PathSegmentError } from '../../src/connect/paths';
import { Probe } from './http';
import { type Run, newRun } from './run';
import { type Check, type ConformanceOptions, StopError, differs, unchecked } from './types';

export { StopError, STATUSES, type Check, type ConformanceOptions, type Status } from './types';

/** The groups, in the order they run (events first: the others pick their event from that list). */
const STEPS: Array<[string, string, (run: Run) => Promise<Check[]> | Check[]]> = [
  ['the service’s dialect', 'dialect', dialectChecks],
  ['events', 'events', eventChecks],
  ['submissions', 'submissions', submissionChecks],
  ['orders', 'orders', orderChecks],
  ['floor plans', 'floorPlans', floorPlanChecks],
  ['public catalog and widgets', 'catalog', publicChecks],
  ['errors', 'errors', errorChecks],
  ['hook subscriptions', 'hooks', hookChecks],
  ['late registrations', 'submissions', async (run) => [await lateCheck(run)]],
  ['connection', 'connection', connectionChecks],
];

/**
 * One group of checks, whatever happens in it: a value the service answered that breaks a check (an
 * identifier that cannot be put in an address) or a fault of the kit ends that group with a check saying
 * so, and the run goes on to its report. Only a `StopError` (an answer too large to read, the service gone)
 * stops the run.
 */
export const guarded = async (run: Run, [name, prefix, step]: (typeof STEPS)[number]): Promise<Check[]> => {
  try {
    return await step(run);
  } catch (error) {
    if (error instanceof StopError) {
      error.midRun = true;
      throw error;
    }
    const base = {
      id: `${prefix}.unfinished`,
      group: 'Checks the kit could not finish',
      assumption: `The ${name} checks run to their end.`,
    };
    if (error instanceof PathSegmentError) {
      return [
        {
          ...base,
          ...differs(
            `They stopped at an identifier the service answered that cannot be put in an address (".", "..", a slash or the like): the app refuses it there too, so the operations that read it would fail.`,
            'Ask the service: identifiers and slugs must each be usable as one segment of an address.',
          ),
        },
      ];
    }
    const words = run.probe.blank(
      `${(error as Error)?.name ?? 'Error'}: ${String((error as Error)?.message ?? error)}`,
    );
    const line = words.split('\n')[0] ?? '';
    return [
      {
        ...base,
        ...unchecked(
          `They stopped at an unexpected error of the kit (${line.length > 200 ? `${line.slice(0, 200)}…` : line}); the other groups ran. Please report it with this table.`,
        ),
      },
    ];
  }
};

export const runConformance = async (options: ConformanceOptions): Promise<Check[]> => {
  const probe = new Probe(options.baseUrl, options.apiKey, options.maxAnswerBytes, options.maxListPages);
  options.onProgress?.('connection', 0, STEPS.length + 1);
  await preflight(probe, options);
  const run = newRun(probe, options);
  const checks: Check[] = [];
  for (const [index, step] of STEPS.entries()) {
    options.onProgress?.(step[0], index + 1, STEPS.length + 1);
    checks.push(...(await guarded(run, step)));
  }
  const order = [...new Set(checks.map((c) => c.group))];
  const connection = order.filter((g) => g === 'Connection');
  const rank = (group: string) => [...connection, ...order.filter((g) => g !== 'Connection')].indexOf(group);
  return checks.sort((a, b) => rank(a.group) - rank(b.group));
};
