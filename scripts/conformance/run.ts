/** What the groups of checks share during one run. */
import type { Event } from '../../src/connect/schemas';
import type { Probe } from './http';
import type { ConformanceOptions, Outcome } from './types';

export interface Run {
  probe: Probe;
  options: ConformanceOptions;
  /** The key's events, newest first (empty when the list could not be read). */
  events: Event[];
  /** A 403 ENTITLEMENT_REQUIRED seen on the way (floor plans, agenda), checked by the errors group. */
  entitlement: { where: string; outcome: Outcome } | null;
  /** The first full read of the submissions, for the late-records check at the end of the run. */
  firstRead: { eventId: string; ids: Set<string>; answeredAt: number } | null;
}

/** The event the event-bound checks use: `--event`, else the newest event for which `suits` is true. */
export const pickEvent = async (
  run: Run,
  suits: (eventId: string) => Promise<boolean>,
  tries = 10,
): Promise<string | null> => {
  if (run.options.eventId) return run.options.eventId;
  for (const event of run.events.slice(0, tries)) if (await suits(event.id)) return event.id;
  return null;
};
