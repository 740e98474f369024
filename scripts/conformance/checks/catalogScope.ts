/**
 * Whose events the public catalog lists (the whole platform's, or the account's alone) and how many pages of
 * 100 it holds: how far Find Event and the Event dropdown's "Load more" have to read to reach the key's
 * events past the newest 100. And that the keyed read the app asks whether an event is the account's
 * (its registrations since a moment ahead) answers 200 for the key's own event and 404 for another's.
 */
import { STREAM_LIMITS } from '../../../src/connect/client';
import { paths } from '../../../src/connect/paths';
import { EVENT_RULE } from '../../../src/connect/records';
import { type Event, LIST_LIMIT_MAX, catalogPagingOf } from '../../../src/connect/schemas';
import { type ListOutcome, answerText, readList } from '../evaluate';
import type { Answer } from '../http';
import { besideRecords, listMembersOf } from '../../../src/connect/testing';
import type { Run } from '../run';
import { type Check, type Outcome, checkMaker, differs, holds, unchecked } from '../types';

const catalog = checkMaker('Public catalog (GET /api/v1/public/events, no key)', 'catalog');

const SCOPE =
  "The catalog's events are the whole platform's or the account's alone; a keyed read of an event's registrations answers 404 for an event that is not the account's.";
const PAGES = 'The catalog holds a known number of pages of 100 (its total).';
const USERS =
  'Find Event, every Event dropdown past its first page, and every operation given an older event';
const OWNERSHIP_ACTION =
  "Send this report to the service: the app asks GET /api/v1/integrations/zapier/submissions?eventId=&since= whether an event is the account's (contract §2: 404 for another tenant's).";
/** At most this many catalog events are checked with the key. */
const CHECKED = 5;
/** At most this many pages are counted when the envelope has no total. */
const COUNTED = 20;

/** How the key's registrations read answers for `eventId`: 'own' (200), 'other' (404), else the answer. */
const ownership = async (run: Run, eventId: string) => {
  const since = new Date(Date.now() + 86_400_000).toISOString();
  const answer = await run.probe.get(paths.submissions(), { eventId, since });
  if (answer.status === 200) return 'own' as const;
  if (answer.status === 404) return 'other' as const;
  return answerText(answer);
};

const scopeOutcome = async (run: Run, first: ListOutcome<Event>): Promise<Outcome> => {
  const keys = new Set(run.events.map((e) => e.id));
  const newestOwn = first.records.filter((e) => keys.has(e.id));
  const unknown = first.records.filter((e) => !keys.has(e.id)).slice(0, CHECKED);
  const own = run.events.find((e) => e.status === 'published');
  const verdicts = await Promise.all(unknown.map((e) => ownership(run, e.id)));
  const odd = verdicts.find((v) => v !== 'own' && v !== 'other');
  if (odd) {
    return differs(
      `The registrations read of a catalog event answered ${odd}, neither 200 nor 404: ${USERS} would fail instead of telling the account's events from others'.`,
      OWNERSHIP_ACTION,
    );
  }
  const ownAnswer = own ? await ownership(run, own.id) : null;
  if (ownAnswer && ownAnswer !== 'own') {
    return differs(
      `The registrations read of the key's own event ${own?.id} answered ${ownAnswer === 'other' ? 'HTTP 404' : ownAnswer}: ${USERS} would refuse the account's own events.`,
      OWNERSHIP_ACTION,
    );
  }
  const others = verdicts.filter((v) => v === 'other').length;
  const checked = `${newestOwn.length} of the first page's ${first.records.length} events are among the key's newest; ${unknown.length} others were checked with the key`;
  if (!first.records.length) return unchecked('The catalog is empty: nothing to tell whose events it lists.');
  return holds(
    others > 0
      ? `The whole platform's: ${checked}, and ${others} of them belong to other organizers (404). The app checks each older event it answers with one keyed read.`
      : `The account's alone, as far as checked: ${checked}, and all are the key's own. The app still checks each older event with one keyed read.`,
  );
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The members beside the catalog's events by their paths, those of nested objects too (`result.next`). */
const flatMembers = (members: Record<string, unknown>, prefix = ''): Array<[string, unknown]> =>
  Object.entries(members).flatMap(
    ([name, value]): Array<[string, unknown]> =>
      isObject(value) && !prefix ? flatMembers(value, `${name}.`) : [[`${prefix}${name}`, value]],
  );

/**
 * How the catalog continues past page 1 when it names its next page beside the events (`next`: a cursor,
 * sent back as `cursor`, or a link), as the dialect's `catalog` says it; null when it names none.
 */
export type CatalogNext = { next: { member: string; cursor: string | null }; value: string };

export const catalogNextOf = (run: Run, json: unknown): CatalogNext | null => {
  const entry = flatMembers(listMembersOf(json)).find(
    ([name, value]) =>
      /(^|\.)(next|next_?cursor|cursor)$/i.test(name) && typeof value === 'string' && value !== '',
  );
  if (!entry) return null;
  const [name, value] = entry as [string, string];
  const member = name.includes('.') ? name : besideRecords(run.dialect, name);
  const link = /^(https?:\/\/|\/)/.test(value);
  return { next: { member, cursor: link ? null : 'cursor' }, value };
};

/** The pages of a catalog that continues by a cursor (the dialect found's `catalog`), counted by following it. */
const followedPages = async (run: Run, answer: Answer, events: number): Promise<Outcome> => {
  let pages = 1;
  let counted = events;
  let next = catalogNextOf(run, answer.json);
  while (next !== null && next.next.cursor !== null && pages < COUNTED) {
    const query = { limit: LIST_LIMIT_MAX, [next.next.cursor]: next.value };
    const page = await run.probe.get(paths.publicEvents(), query, false);
    counted += readList(page, EVENT_RULE, 'Find Event').records.length;
    pages++;
    next = catalogNextOf(run, page.json);
  }
  return holds(
    `No total in the envelope; the catalog continues by its cursor: counted ${next === null ? '' : 'at least '}${pages} page(s), ${counted.toLocaleString('en-US')} events. The app follows it page after page.`,
  );
};

const pagesOutcome = async (run: Run, first: ListOutcome<Event>): Promise<Outcome> => {
  const total = catalogPagingOf(first.fields).total;
  const answer = await run.probe.get(paths.publicEvents(), { page: 1, limit: LIST_LIMIT_MAX }, false);
  const pageOne = readList(answer, EVENT_RULE, 'Find Event');
  const full = catalogPagingOf(pageOne.fields).total ?? total;
  if (full === undefined && run.dialect.catalog) return followedPages(run, answer, pageOne.records.length);
  if (full !== undefined) {
    const pages = Math.ceil(full / LIST_LIMIT_MAX);
    return holds(
      `${full.toLocaleString('en-US')} events in ${pages.toLocaleString('en-US')} page(s) of ${LIST_LIMIT_MAX}. Find Event reads on for up to ${STREAM_LIMITS.searchMs / 1000} s, then says in the Zap history how far it read.`,
    );
  }
  let pages = 1;
  let last = pageOne.records.length;
  while (last === LIST_LIMIT_MAX && pages < COUNTED) {
    pages++;
    const next = readList(
      await run.probe.get(paths.publicEvents(), { page: pages, limit: LIST_LIMIT_MAX }, false),
      EVENT_RULE,
      'Find Event',
    );
    last = next.records.length;
  }
  return holds(
    `No total in the envelope; counted ${last === LIST_LIMIT_MAX ? 'at least ' : ''}${pages} page(s) of ${LIST_LIMIT_MAX}. The app pages by counting the events of each page.`,
  );
};

export const catalogScopeChecks = async (run: Run, first: ListOutcome<Event>): Promise<Check[]> => [
  catalog('scope', SCOPE, await scopeOutcome(run, first)),
  catalog('pages', PAGES, await pagesOutcome(run, first)),
];
