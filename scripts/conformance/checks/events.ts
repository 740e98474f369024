/** Endpoint 3, the key's events: envelope and records, `limit` (default, clamping, newest kept), order. */
import { newestFirst } from '../../../src/connect/api';
import { paths } from '../../../src/connect/paths';
import { EVENT_RULE } from '../../../src/connect/records';
import { LIST_LIMIT_MAX } from '../../../src/connect/schemas';
import { readList } from '../evaluate';
import type { Run } from '../run';
import { type Check, checkMaker } from '../types';
import { LIST_ASSUMPTIONS, limitChecks, orderCheck, unreadable } from './lists';

const check = checkMaker('Events (GET /api/v1/integrations/zapier/events)', 'events');

export const eventChecks = async (run: Run): Promise<Check[]> => {
  const path = paths.events();
  const answer = await run.probe.get(path, { limit: LIST_LIMIT_MAX });
  const list = readList(
    answer,
    EVENT_RULE,
    'New Event, List Events (every Event dropdown) and the samples of Event Changed and Event Published',
  );
  run.events = newestFirst(list.records, (event) => event.id);
  const checks = [
    check(
      'envelope',
      'The list answers { "data": [Event, …] } with the documented Event records.',
      list.outcome,
    ),
  ];
  if (!list.readable) {
    return [
      ...checks,
      ...unreadable(LIST_ASSUMPTIONS('events')).map((l) => check(l.name, l.assumption, l.outcome)),
    ];
  }
  checks.push(
    check(
      'order',
      'Order is not guaranteed; the usual order is newest first.',
      orderCheck(list.records, 'events'),
    ),
  );
  const limits = await limitChecks(run, path, {}, list.records, EVENT_RULE, 'New Event');
  return [...checks, ...limits.map((l) => check(l.name, l.assumption, l.outcome))];
};
