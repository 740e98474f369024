/** Endpoint 3, the key's events: envelope and records, `limit` (default, clamping, newest kept), order. */
import { newestFirst } from '../../../src/connect/api';
import { pathSegmentProblem, paths } from '../../../src/connect/paths';
import { EVENT_RULE } from '../../../src/connect/records';
import { type Event, LIST_LIMIT_MAX } from '../../../src/connect/schemas';
import { type ListOutcome, readList } from '../evaluate';
import type { EventRef, Run } from '../run';
import type { Blank } from '../secret';
import { type Check, type Outcome, checkMaker, differs } from '../types';
import { LIST_ASSUMPTIONS, limitChecks, needsRecords, noted, orderCheck, unreadable } from './lists';

const check = checkMaker('Events (GET /api/v1/integrations/zapier/events)', 'events');

const OPERATIONS =
  'New Event, List Events (every Event dropdown) and the samples of Event Changed and Event Published';

/** Where the app puts an event's identifiers in an address, in a user's words. */
const IN_ADDRESSES = {
  id: 'Find Floor Plan, the Floor Plan dropdown and the map of Generate Embed Code',
  slug: 'Find Event (public catalog) and Find Event Agenda',
} as const;

/**
 * Events whose id or slug cannot be one segment of an address (`..`, a slash): the app refuses to put them
 * in one, so the operations that do would fail for those events. The outcome differs, saying which.
 */
export const addressOutcome = (outcome: Outcome, events: EventRef[], noun: string, blank: Blank): Outcome => {
  const bad = events.flatMap((event) =>
    (['id', 'slug'] as const).flatMap((key) => {
      const value = event[key];
      const problem = value === undefined ? null : pathSegmentProblem(value);
      return problem ? [{ key, value: value as string, problem }] : [];
    }),
  );
  const first = bad[0];
  if (!first) return outcome;
  const keys = [...new Set(bad.map((b) => b.key))];
  const words = `${bad.length} ${noun} identifier(s) cannot be put in an address (first: ${first.key} "${blank(first.value).slice(0, 40)}": ${first.problem}); the app refuses them there, so ${keys.map((k) => IN_ADDRESSES[k]).join(', and ')} would fail for those events.`;
  return differs(
    `${outcome.detail} ${words}`,
    outcome.action ??
      'Ask the service: identifiers and slugs must each be usable as one segment of an address (no ".", "..", "/", "\\", "?" or "#").',
  );
};

/** The events the later checks choose from: the app's records, or the raw items when it can use none. */
export const eventRefs = (list: ListOutcome<Event>): EventRef[] => {
  if (list.records.length) {
    return newestFirst(list.records, (event) => event.id).map(({ id, slug, status }) => ({
      id,
      slug,
      status,
    }));
  }
  return list.raw().flatMap((item) => {
    const raw = (item ?? {}) as Record<string, unknown>;
    if (typeof raw.id !== 'string' || !raw.id) return [];
    const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
    return [{ id: raw.id, slug: text(raw.slug), status: text(raw.status) }];
  });
};

export const eventChecks = async (run: Run): Promise<Check[]> => {
  const path = paths.events();
  const answer = await run.probe.get(path, { limit: LIST_LIMIT_MAX });
  const list = readList(answer, EVENT_RULE, OPERATIONS);
  run.events = eventRefs(list);
  run.eventsWhy = list.unusable
    ? `the key's events could not be read: ${list.unusable} (see events.envelope)`
    : 'the key has no event';
  const checks = [
    check(
      'envelope',
      'The list answers { "data": [Event, …] } with the documented Event records.',
      addressOutcome(list.outcome, run.events, 'event', answer.blank),
    ),
  ];
  const why = needsRecords(list, 'events.envelope');
  if (why) {
    return [
      ...checks,
      ...unreadable(LIST_ASSUMPTIONS('events'), why).map((l) => check(l.name, l.assumption, l.outcome)),
    ];
  }
  checks.push(
    check(
      'order',
      'Order is not guaranteed; the usual order is newest first.',
      noted(orderCheck(list.records, 'events'), list),
    ),
  );
  const limits = await limitChecks(run, path, {}, list, EVENT_RULE, 'New Event');
  return [...checks, ...limits.map((l) => check(l.name, l.assumption, l.outcome))];
};
