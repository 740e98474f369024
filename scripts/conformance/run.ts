/** What the groups of checks share during one run. */
import { DIALECT, type Dialect } from '../../src/connect/dialect';
import { pathSegmentProblem } from '../../src/connect/paths';
import type { Probe } from './http';
import type { ConformanceOptions, Outcome } from './types';

/** An event of the key, as far as the kit could read it. */
export interface EventRef {
  id: string;
  slug?: string;
  status?: string;
}

export interface Run {
  probe: Probe;
  options: ConformanceOptions;
  /** The service's dialect, once found (`checks/dialect.ts`); the app's until then. */
  dialect: Dialect;
  /**
   * The key's events, newest first: the records the app reads or, when it can use none of them, the ids,
   * slugs and statuses of the items as answered (so that each endpoint still reports for itself).
   */
  events: EventRef[];
  /** Why `events` is empty, in words (the reason the checks that need an event give). */
  eventsWhy: string;
  /** A 403 ENTITLEMENT_REQUIRED seen on the way (floor plans, agenda), checked by the errors group. */
  entitlement: { where: string; outcome: Outcome } | null;
  /** The reads of the run that could have shown a missing feature, in words (for errors.entitlement). */
  featureReads: string[];
  /** The first full read of the submissions, for the late-records check at the end of the run. */
  firstRead: { eventId: string; ids: Set<string>; answeredAt: number } | null;
  /** Why `firstRead` is null, in words. */
  firstReadWhy: string;
}

export const newRun = (probe: Probe, options: ConformanceOptions): Run => ({
  probe,
  options,
  dialect: DIALECT,
  events: [],
  eventsWhy: 'the events list was not read',
  entitlement: null,
  featureReads: [],
  firstRead: null,
  firstReadWhy: 'the registrations were not read',
});

/** Events tried, newest first, before a check gives up finding a suitable one. */
export const PICK_TRIES = 10;

/** Whether an event suits a check: `true`, or why not, as a predicate ("had 1 registration", "answered HTTP 500"). */
export type Suits = (eventId: string) => Promise<true | string>;

/**
 * The event the event-bound checks use: `--event`, else the newest of the key's events that `suits` (one
 * whose id can be put in an address, when `inPath`); when none does, why, in words that are true.
 */
export const pickEvent = async (
  run: Run,
  need: string,
  suits: Suits,
  inPath = false,
): Promise<{ eventId: string } | { why: string }> => {
  if (run.options.eventId) return { eventId: run.options.eventId };
  if (!run.events.length)
    return { why: `No event could be chosen: ${run.eventsWhy}. Give one with --event.` };
  const tried = run.events.slice(0, PICK_TRIES);
  const reasons = new Map<string, number>();
  for (const event of tried) {
    const problem = inPath ? pathSegmentProblem(event.id) : null;
    const result = problem
      ? `had an id that cannot be put in an address (${problem})`
      : await suits(event.id);
    if (result === true) return { eventId: event.id };
    reasons.set(result, (reasons.get(result) ?? 0) + 1);
  }
  const which =
    run.events.length > tried.length
      ? `the ${tried.length} newest of the key's ${run.events.length} events`
      : `the key's ${tried.length} event${tried.length === 1 ? '' : 's'}`;
  const why = [...reasons].map(([reason, n]) => `${tried.length === 1 ? 'it' : n} ${reason}`).join('; ');
  return { why: `None of ${which} ${need} (${why}). Give one with --event.` };
};
