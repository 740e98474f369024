/**
 * Endpoints 6 to 8, answered without a key: the public catalog (envelope, paging, `limit`, published only)
 * and the event and agenda widgets; and that none of them asks for a key.
 */
import { pathSegmentProblem, paths } from '../../../src/connect/paths';
import { EVENT_RULE } from '../../../src/connect/records';
import {
  Agenda,
  type Event,
  EventWidget,
  LIST_LIMIT_MAX,
  catalogPagingOf,
} from '../../../src/connect/schemas';
import { DIALECT } from '../../../src/connect/testing';
import { type ListOutcome, answerText, checkError, readList, readObject } from '../evaluate';
import type { Answer } from '../http';
import type { EventRef, Run } from '../run';
import { type Check, type Outcome, checkMaker, differs, holds, tolerated, unchecked } from '../types';
import { type CatalogNext, catalogNextOf, catalogScopeChecks } from './catalogScope';
import { addressOutcome, eventRefs } from './events';
import { refusal } from './floorPlans';
import { LIST_LIMIT_DEFAULT, needsRecords, noted, unreadable } from './lists';

const catalog = checkMaker('Public catalog (GET /api/v1/public/events, no key)', 'catalog');
const widgets = checkMaker('Widgets (GET /widgets/event/:slug[/agenda], no key)', 'widgets');

const FIND = 'Find Event (your events past the newest 100)';
const PAGING_ACTION =
  'Send this report to the service: the catalog pages with page (1-based) and limit (docs/connect-contract.md §1).';

const PUBLISHED_ONLY = 'The catalog shows published events only.';
const LIMIT_DEFAULT = `Without limit, a page holds at most ${LIST_LIMIT_DEFAULT} events.`;
const LIMIT_CLAMP = `A limit above ${LIST_LIMIT_MAX} is clamped to ${LIST_LIMIT_MAX}, not refused.`;
const PAGING = 'page is 1-based; consecutive pages do not overlap; total counts every event.';

export const publicChecks = async (run: Run): Promise<Check[]> => {
  const path = paths.publicEvents();
  const answer = await run.probe.get(path, {}, false);
  const first = readList(answer, EVENT_RULE, FIND);
  const checks = [
    catalog(
      'envelope',
      'The catalog answers { "data": [Event, …], page, limit, total } without a key.',
      addressOutcome(envelopeOutcome(first), eventRefs(first), 'catalog event', answer.blank),
    ),
  ];
  const why = needsRecords(first, 'catalog.envelope');
  if (why) {
    const rest = unreadable(
      {
        'published-only': PUBLISHED_ONLY,
        'limit-default': LIMIT_DEFAULT,
        'limit-clamp': LIMIT_CLAMP,
        paging: PAGING,
      },
      why,
    );
    return [
      ...checks,
      ...rest.map((l) => catalog(l.name, l.assumption, l.outcome)),
      ...(await widgetChecks(run, first)),
    ];
  }
  const published = first.records.filter((e) => e.status !== 'published');
  checks.push(
    catalog(
      'published-only',
      PUBLISHED_ONLY,
      noted(
        published.length
          ? differs(
              `${published.length} of ${first.records.length} catalog events are not published: ${FIND} would offer them.`,
              'Ask the service why the public catalog shows unpublished events.',
            )
          : holds(`All ${first.records.length} events of the first page are published.`),
        first,
      ),
    ),
    catalog('limit-default', LIMIT_DEFAULT, noted(limitDefault(first), first)),
    catalog('limit-clamp', LIMIT_CLAMP, await limitClamp(run)),
    catalog('paging', PAGING, await pagingOutcome(run)),
    ...(await catalogScopeChecks(run, first)),
  );
  return [...checks, ...(await widgetChecks(run, first))];
};

const envelopeOutcome = (list: ReturnType<typeof readList<typeof Event>>): Outcome => {
  if (!list.readable) return list.outcome;
  const paging = catalogPagingOf(list.fields);
  const missing = (['page', 'limit', 'total'] as const).filter((k) => paging[k] === undefined);
  if (!missing.length || list.outcome.status === 'differs') return list.outcome;
  // A catalog taught to continue by a cursor or link needs no page numbers: the app follows its pages.
  if (DIALECT.catalog) return list.outcome;
  return tolerated(
    `${list.outcome.detail} No usable ${missing.join(', ')} in the envelope; the app pages by counting the events of each page.`,
  );
};

const limitDefault = (list: { records: Event[]; fields: Record<string, unknown> }): Outcome => {
  const limit = catalogPagingOf(list.fields).limit;
  return list.records.length <= LIST_LIMIT_DEFAULT && (limit === undefined || limit === LIST_LIMIT_DEFAULT)
    ? holds(
        `${list.records.length} events on page 1 without limit${limit !== undefined ? `, limit ${limit} in the envelope` : ''}.`,
      )
    : tolerated(
        `${list.records.length} events on page 1 without limit (limit ${String(limit)} in the envelope); the app always sends limit.`,
      );
};

const limitClamp = async (run: Run): Promise<Outcome> => {
  const answer = await run.probe.get(paths.publicEvents(), { page: 1, limit: LIST_LIMIT_MAX * 10 }, false);
  if (answer.status !== 200)
    return tolerated(
      `limit=${LIST_LIMIT_MAX * 10} answered ${answerText(answer)}; the app never asks for more than ${LIST_LIMIT_MAX}.`,
    );
  const list = readList(answer, EVENT_RULE, FIND);
  if (list.unusable) return list.outcome;
  return noted(
    list.records.length <= LIST_LIMIT_MAX
      ? holds(`limit=${LIST_LIMIT_MAX * 10} answered ${list.records.length} events.`)
      : tolerated(
          `limit=${LIST_LIMIT_MAX * 10} answered ${list.records.length} events; the app reads them all.`,
        ),
    list,
  );
};

const TEACH_CATALOG =
  'If the service documents it, teach it to the app in src/connect/dialect.ts (catalog) and to the contract (docs/connect-contract.md §8) together; otherwise ask the service for page numbers.';

/**
 * The catalog paged by a cursor or link where the contract has page numbers: the dialect's `catalog`, which
 * the kit writes with the rest of the dialect (`--write-dialect`). Taught, the kit reads page 2 by it.
 */
/** The dialect found, with how the catalog continues (`--write-dialect` writes it). */
const foundCatalog = (run: Run, next: CatalogNext['next'] | null): void => {
  run.dialect = { ...run.dialect, catalog: next };
  run.options.onDialect?.(run.dialect);
};

const catalogCursorOutcome = async (run: Run, found: CatalogNext): Promise<Outcome> => {
  foundCatalog(run, found.next);
  const words = `The catalog ignores page and continues by ${found.next.cursor === null ? 'a link' : 'a cursor'} ("${found.next.member}": ${JSON.stringify(found.value)} beside the events of page 1, which page 2 repeats).`;
  if (JSON.stringify(DIALECT.catalog ?? null) !== JSON.stringify(found.next)) {
    return differs(
      `${words} Until the app is taught it (catalog in src/connect/dialect.ts), ${FIND} would list the first page again and again and miss every event past it, and the Event dropdown's "Load more" would show the same events on every page.`,
      TEACH_CATALOG,
    );
  }
  if (found.next.cursor === null) return holds(`${words} The app was taught it.`);
  const one = readList(await run.probe.get(paths.publicEvents(), { limit: 2 }, false), EVENT_RULE, FIND);
  const two = readList(
    await run.probe.get(paths.publicEvents(), { limit: 2, [found.next.cursor]: found.value }, false),
    EVENT_RULE,
    FIND,
  );
  if (two.unusable) return two.outcome;
  const firstIds = new Set(one.records.map((e) => e.id));
  const repeated = two.records.filter((e) => firstIds.has(e.id)).length;
  if (repeated || !two.records.length)
    return differs(
      `${words} The app was taught it, but the page its cursor names ${repeated ? `shares ${repeated} event(s) with page 1` : 'is empty'}: ${FIND} would list events twice or miss some.`,
      PAGING_ACTION,
    );
  return noted(holds(`${words} The app was taught it: the page its cursor names holds other events.`), two);
};

const pagingOutcome = async (run: Run): Promise<Outcome> => {
  const answers: Answer[] = [];
  const page = async (n: number) => {
    answers.push(await run.probe.get(paths.publicEvents(), { page: n, limit: 2 }, false));
    return readList(answers[answers.length - 1] as Answer, EVENT_RULE, FIND);
  };
  const one = await page(1);
  const total = catalogPagingOf(one.fields).total;
  if (one.unusable) return one.outcome;
  if (one.records.length < 2 || (total !== undefined && total <= 2))
    return unchecked(
      `The catalog holds 2 usable events or fewer (page 1 with limit=2 gave ${one.records.length}${total === undefined ? '' : `, total ${total}`}): nothing to page.`,
    );
  const two = await page(2);
  if (two.unusable) return two.outcome;
  const firstIds = new Set(one.records.map((e) => e.id));
  const repeated = two.records.filter((e) => firstIds.has(e.id)).length;
  const echoed = catalogPagingOf(two.fields).page;
  const cursor = catalogNextOf(run, answers[0]?.json);
  if (repeated && cursor !== null) return catalogCursorOutcome(run, cursor);
  if (!repeated && two.records.length) foundCatalog(run, null);
  if (repeated)
    return differs(
      `Pages 1 and 2 (limit=2) share ${repeated} event(s): ${FIND} would list events twice and miss others.`,
      PAGING_ACTION,
    );
  if (!two.records.length)
    return differs(
      `Page 2 (limit=2) is empty although total is ${String(total)}: ${FIND} would miss every event after the first page.`,
      PAGING_ACTION,
    );
  if (DIALECT.catalog)
    return differs(
      `Pages 1 and 2 (limit=2) hold different events: the catalog pages by number, where the app was taught that it continues by a cursor or link (catalog in src/connect/dialect.ts). The app would read its first page only: ${FIND} would miss every event past it.`,
      'Set catalog in src/connect/dialect.ts back to null (page numbers, the contract), or ask the service.',
    );
  if (echoed !== undefined && echoed !== 2)
    return tolerated(`Pages do not overlap, but page 2 says page ${echoed}; the app counts pages itself.`);
  return noted(holds(`Pages 1 and 2 (limit=2) hold different events; total ${String(total)}.`), two);
};

const WIDGET_RULE = { noun: 'event page', schema: EventWidget, idKey: 'id' };
const AGENDA_RULE = { noun: 'agenda', schema: Agenda, idKey: 'eventId' };

/** Slugs to try, best first: the chosen event's, then the catalog's (all published); none that cannot be put in an address. */
const slugsOf = (run: Run, catalogEvents: EventRef[]): string[] => {
  const chosen = run.events.find((e) => e.id === run.options.eventId && e.status === 'published');
  const published = run.events.filter((e) => e.status === 'published');
  return [...new Set([chosen?.slug, ...catalogEvents.map((e) => e.slug), ...published.map((e) => e.slug)])]
    .filter((slug): slug is string => Boolean(slug) && !pathSegmentProblem(slug as string))
    .slice(0, 10);
};

/** Why no slug was found to read the widgets with, in words that are true. */
const noSlugWhy = (run: Run, list: ListOutcome<Event>): string => {
  const catalogWhy =
    list.unusable && !list.items
      ? `the catalog gave no event to use (${list.unusable}; see catalog.envelope)`
      : list.items
        ? 'no event of the catalog has a slug that can be put in an address'
        : 'the catalog is empty';
  const keyWhy = run.events.length
    ? "none of the key's events is published with a slug that can be put in an address"
    : run.eventsWhy;
  return `No published event to read the widgets of: ${catalogWhy}, and ${keyWhy}.`;
};

const widgetChecks = async (run: Run, list: ListOutcome<Event>): Promise<Check[]> => {
  // The catalog's items as answered when the app can use none of them: other organizers' events, whose
  // agendas may show a missing feature.
  const slugs = slugsOf(run, eventRefs(list));
  const page = 'The event widget answers the Event object with description and coverImageUrl.';
  const agenda = 'The agenda widget answers { eventId, slug, timezone, sessions: [ … ] }.';
  const checks: Check[] = [];
  const [slug] = slugs;
  if (!slug) {
    const why = unchecked(noSlugWhy(run, list));
    checks.push(widgets('event', page, why), widgets('agenda', agenda, why));
    run.featureReads.push('no agenda was read (no published event to read it for)');
  } else {
    const answer = await run.probe.get(paths.eventWidget(slug), {}, false);
    checks.push(
      widgets('event', page, readObject(answer, WIDGET_RULE, 'Find Event (its event page)').outcome),
    );
    checks.push(widgets('agenda', agenda, await agendaOutcome(run, slugs)));
  }
  const missing = await run.probe.get(
    paths.eventWidget(`conformance-no-such-event-${Date.now()}`),
    {},
    false,
  );
  const notFound = checkError(missing, {
    status: 404,
    meaning: 'not_found',
    what: 'the event page',
    wrongStatus:
      'Find Event and Find Event Agenda would fail with an error for an event that is not published, instead of finding nothing',
    noCode:
      'Find Event and Find Event Agenda would fail with an error for an event that is not published, instead of finding nothing',
  });
  checks.push(widgets('unknown', 'An unknown or unpublished slug answers 404 NOT_FOUND.', notFound));
  checks.push(catalog('no-key', 'The catalog and the widgets answer without a key.', noKeyOutcome(run)));
  return checks;
};

/** The first agenda that answers; the other slugs are read on until a 403 shows (for the errors group). */
const agendaOutcome = async (run: Run, slugs: string[]): Promise<Outcome> => {
  let found: Outcome | null = null;
  const refused: string[] = [];
  let read = 0;
  for (const slug of slugs) {
    if (found && run.entitlement) break;
    const answer = await run.probe.get(paths.agendaWidget(slug), {}, false);
    read++;
    if (answer.status === 403) {
      refused.push(refusal(run, answer, `the agenda of "${slug}"`, `the agenda of "${slug}"`));
    } else {
      found ??= readObject(
        answer,
        AGENDA_RULE,
        'Find Event Agenda and the agenda of Generate Embed Code',
      ).outcome;
    }
  }
  run.featureReads.push(`${read - refused.length} of ${read} agenda reads were allowed`);
  return (
    found ??
    unchecked(
      `The agenda of each of the ${read} published event(s) tried was refused (first: ${refused[0] ?? 'none'}).`,
    )
  );
};

const noKeyOutcome = (run: Run): Outcome => {
  const keyless = run.probe.answers.filter((a) => !a.keyed);
  const refused = keyless.filter(
    // A 403 of the agenda widget is the organizer's missing agenda feature, checked with the errors.
    (a) => a.status === 401 || (a.status === 403 && !a.path.endsWith('/agenda')),
  );
  if (!refused.length)
    return holds(`${keyless.length} requests without a key, none refused for want of one.`);
  return differs(
    `${refused.length} of ${keyless.length} requests without a key were refused (first: ${answerText(refused[0] as (typeof refused)[number])}): ${FIND}, Find Event Agenda and the embeds would fail, since the app and visitors' browsers call these without a key.`,
    'Ask the service: the interface document says endpoints 6 to 8 need no key.',
  );
};
