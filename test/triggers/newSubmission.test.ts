import nock from 'nock';
import { paths } from '../../src/connect';
import { POLL_TIMINGS as CURSOR_TIMING } from '../../src/polling';
import { SAMPLE_EVENT } from '../../src/mappers/event';
import { submissionSample } from '../../src/mappers/submission';
import newSubmission, { submissionStreamKey } from '../../src/triggers/newSubmission';
import { BASE_URL, appTester, authData, caught, errorMessage, meta, testerCache } from '../support/app';
import { EVENT_ID, HOUR, MINUTE, T0, controlClock, iso, submissionAt } from './fixtures';
import { functionOf } from '../../scripts/lib/app';
import { wireError, wireList } from '../../sandbox/wire';

/** How far before the service's clock a kept entry is settled: the visibility delay and the settle margin. */
const SETTLE_MS = CURSOR_TIMING.visibilityDelayMs + CURSOR_TIMING.settleMarginMs;
/** A stream's window when its cache holds nothing (forgotten): as far back as the kept entry keeps. */
const FORGOTTEN_MS = CURSOR_TIMING.keptMs + SETTLE_MS;

type Item = Record<string, unknown> & { id: string };

const perform = functionOf('triggers', newSubmission.key);
const poll = (
  options: { inputData?: Record<string, unknown>; meta?: Record<string, unknown>; fresh?: boolean } = {},
) =>
  appTester(
    perform,
    {
      authData: authData(),
      inputData: { eventId: EVENT_ID, ...options.inputData },
      meta: meta(options.meta),
    },
    options.fresh ?? false,
  ) as Promise<Item[]>;

/** Replies to the submissions endpoint with `records` and the service's clock, recording each query. */
const serveSubmissions = (records: unknown[], queries: Array<Record<string, string>>) =>
  nock(BASE_URL)
    .get(paths.submissions())
    .query((query) => {
      // nock asks every interceptor's query, whatever the path: only the submissions' are recorded.
      if (!('eventId' in query)) return false;
      queries.push(query as Record<string, string>);
      return true;
    })
    .reply(200, wireList(records), { Date: new Date(clock.now).toUTCString() });

const serveEvents = () =>
  nock(BASE_URL)
    .get(paths.events())
    .query({ limit: '100' })
    .reply(200, wireList([SAMPLE_EVENT]));

/**
 * Turns a Zap on (Zapier's first run of a trigger, on an empty cache): it starts the stream's state, so that
 * the first scheduled poll knows nothing is owed (a stream without a state, its cache lost, owes what it
 * cannot return of the last day).
 */
const turnOn = async () => {
  nock(BASE_URL)
    .get(paths.submissions())
    .query((query) => 'eventId' in query)
    .reply(200, wireList([]), { Date: new Date(clock.now).toUTCString() });
  await poll({ meta: { isPopulatingDedupe: true }, fresh: true });
};

let clock: ReturnType<typeof controlClock>;
beforeEach(() => {
  clock = controlClock();
  testerCache(appTester).zcacheTestObj = {};
});
afterEach(() => {
  clock.restore();
  nock.cleanAll();
});

describe('a scheduled poll', () => {
  it('without a state (the cache holds nothing) reads as far back as the kept entry keeps, and returns newest first', async () => {
    const queries: Array<Record<string, string>> = [];
    // Shuffled on purpose; b and c share one millisecond.
    serveSubmissions(
      [
        submissionAt('sub_b', T0 - 5 * MINUTE),
        submissionAt('sub_a', T0 - 20 * MINUTE),
        submissionAt('sub_d', T0 - 1 * MINUTE),
        submissionAt('sub_c', T0 - 5 * MINUTE),
      ],
      queries,
    );
    const events = serveEvents();

    const items = await poll({ fresh: true });

    expect(FORGOTTEN_MS).toBe(152 * MINUTE + 1_000);
    expect(queries).toEqual([{ eventId: EVENT_ID, since: iso(T0 - FORGOTTEN_MS - 1) }]);
    expect(items.map((item) => item.id)).toEqual(['sub_d', 'sub_c', 'sub_b', 'sub_a']);
    expect(items.map((item) => item.submissionId)).toEqual(['sub_d', 'sub_c', 'sub_b', 'sub_a']);
    expect(items[0]).toMatchObject({ eventTitle: 'TechWeek 2026', eventSlug: 'techweek-2026' });
    events.done();
  });

  it('then reads only after the newest settled point, and returns what the stream keeps for 150 minutes', async () => {
    await turnOn();
    const queries: Array<Record<string, string>> = [];
    serveSubmissions([submissionAt('sub_a', T0 - 3 * MINUTE)], queries);
    serveEvents();
    await poll();
    expect(queries[0]).toEqual({ eventId: EVENT_ID, since: iso(T0 - 80 * MINUTE - 1) });

    // Everything made before the first answer minus the visibility delay (2 min) and the margin (30 s) was
    // read then and is kept: only what is newer is read again.
    clock.advance(5 * MINUTE);
    serveSubmissions([submissionAt('sub_a', T0 - 3 * MINUTE), submissionAt('sub_b', T0 + MINUTE)], queries);
    expect((await poll()).map((item) => item.id)).toEqual(['sub_b', 'sub_a']);
    expect(queries[1]).toEqual({ eventId: EVENT_ID, since: iso(T0 - SETTLE_MS - 1) });

    // An hour later the service has nothing new, and every poll still returns the kept registrations: a Zap
    // held that long by Zapier gets them from any poll.
    clock.advance(HOUR);
    serveSubmissions([], queries);
    const later = await poll();
    expect(later.map((item) => item.id)).toEqual(['sub_b', 'sub_a']);
    expect(later[0]).toMatchObject({ eventTitle: 'TechWeek 2026' });
    expect(queries[2]).toEqual({ eventId: EVENT_ID, since: iso(T0 + 5 * MINUTE - SETTLE_MS - 1) });

    // A registration leaves the kept records 150 minutes after the poll that first returned it.
    expect(CURSOR_TIMING.keptMs).toBe(150 * MINUTE);
    clock.set(T0 + 150 * MINUTE + 1);
    serveSubmissions([], queries);
    expect((await poll()).map((item) => item.id)).toEqual(['sub_b']);
    expect(nock.pendingMocks()).toEqual([]);
  });

  it('a slow poll settles less: its whole duration comes off the service clock of its answer', async () => {
    await turnOn();
    const queries: Array<Record<string, string>> = [];
    serveEvents();
    // The service dates its answer when the poll starts; reading it takes 20 s of the client's clock.
    nock(BASE_URL)
      .get(paths.submissions())
      .query((query) => {
        queries.push(query as Record<string, string>);
        return true;
      })
      .reply(() => {
        const date = new Date(clock.now).toUTCString();
        clock.advance(20_000);
        return [200, wireList([submissionAt('sub_a', T0 - 3 * MINUTE)]), { Date: date }];
      });
    await poll();
    clock.advance(5 * MINUTE);
    serveSubmissions([], queries);
    expect((await poll()).map((item) => item.id)).toEqual(['sub_a']);
    expect(queries[1]).toEqual({ eventId: EVENT_ID, since: iso(T0 - 20_000 - SETTLE_MS - 1) });
  });

  it('without its kept records (evicted, or over the cap), reads back as far as they keep, never before the stream began', async () => {
    await turnOn();
    const queries: Array<Record<string, string>> = [];
    serveSubmissions([submissionAt('sub_a', T0 - 3 * MINUTE)], queries);
    serveEvents();
    await poll();
    clock.advance(51 * MINUTE);
    serveSubmissions([], queries);
    await poll();
    const store = testerCache(appTester).zcacheTestObj ?? {};
    const keptKey = Object.keys(store).find((key) => key.endsWith(':kept'));
    expect(keptKey).toBeDefined();
    delete store[keptKey ?? ''];

    // The first poll is the anchor (older than the hold): records made more than the visibility delay and
    // a 3-minute margin before it answered were returned by it and by every poll since. What the kept
    // records held for a Zap that Zapier held reaches further back: to the stream's start, the window of
    // its first poll (the stateless one), less than the kept time ago.
    serveSubmissions([submissionAt('sub_a', T0 - 3 * MINUTE)], queries);
    expect((await poll()).map((item) => item.id)).toEqual(['sub_a']);
    expect(queries[2]).toEqual({ eventId: EVENT_ID, since: iso(T0 - CURSOR_TIMING.statelessMs - 1) });
    expect(CURSOR_TIMING.holdMs).toBe(50 * MINUTE);
    // That poll keeps what it read again.
    expect(Object.keys(store).some((key) => key.endsWith(':kept'))).toBe(true);
  });

  it('gives every item exactly the fields of the static sample (the same mapper)', async () => {
    serveSubmissions([submissionAt('sub_a', T0 - MINUTE)], []);
    serveEvents();
    const [item] = await poll({ fresh: true });
    expect(Object.keys(item ?? {}).sort()).toEqual(Object.keys(submissionSample).sort());
    expect(item).toMatchObject({
      answers__company: 'Analytical Engines',
      answers__diet: 'vegan, no nuts',
      fullName: 'Ada Lovelace',
      createdAt: iso(T0 - MINUTE),
    });
    expect(newSubmission.operation.sample).toBe(submissionSample);
  });

  it('filters by status, and shares one state per event and filter, never per Zap', async () => {
    serveSubmissions(
      [
        submissionAt('sub_ok', T0 - 10 * MINUTE, { status: 'approved' }),
        submissionAt('sub_wait', T0 - 2 * MINUTE, { status: 'pending', qrCode: null }),
      ],
      [],
    );
    serveEvents();
    const items = await poll({ inputData: { status: 'approved' }, meta: { zap: { id: 4242 } }, fresh: true });
    expect(items.map((item) => item.id)).toEqual(['sub_ok']);
    expect(submissionStreamKey(EVENT_ID, null)).toBe(`poll:submissions:${EVENT_ID}:any`);
    expect(submissionStreamKey(EVENT_ID, 'approved')).toBe(`poll:submissions:${EVENT_ID}:approved`);
    // Whatever Zapier puts in meta, the state is the stream's.
    const stored = Object.keys(testerCache(appTester).zcacheTestObj ?? {});
    expect(stored.some((key) => key.endsWith(`:poll:submissions:${EVENT_ID}:approved`))).toBe(true);
    expect(stored.some((key) => key.includes('4242'))).toBe(false);
  });

  it('returns nothing (and fetches no event) when nothing is new', async () => {
    serveSubmissions([], []);
    await expect(poll({ fresh: true })).resolves.toEqual([]);
    expect(nock.pendingMocks()).toEqual([]);
  });
});

describe('turning a Zap on (isPopulatingDedupe)', () => {
  it('asks for the widest window and answers with every id only', async () => {
    const queries: Array<Record<string, string>> = [];
    const records = Array.from({ length: 1500 }, (_, i) =>
      submissionAt(`sub_${String(i).padStart(4, '0')}`, T0 - 24 * HOUR + i * MINUTE - 1),
    );
    serveSubmissions(records, queries);

    const items = await poll({ meta: { isPopulatingDedupe: true }, fresh: true });

    expect(queries).toEqual([{ eventId: EVENT_ID, since: iso(T0 - CURSOR_TIMING.seedMs) }]);
    expect(CURSOR_TIMING.seedMs).toBe(24 * HOUR + 45 * MINUTE);
    expect(items).toHaveLength(1500);
    expect(items[0]).toEqual({ id: 'sub_1499' });
    expect(items[1499]).toEqual({ id: 'sub_0000' });
  });

  it('starts the stream with nothing owed: the next scheduled poll is stateless and owes nothing', async () => {
    const queries: Array<Record<string, string>> = [];
    serveSubmissions([submissionAt('sub_a', T0 - 2 * HOUR)], queries);
    await poll({ meta: { isPopulatingDedupe: true }, fresh: true });
    clock.advance(5 * MINUTE);
    serveSubmissions([], queries);
    await poll();
    expect(queries[1]?.since).toBe(iso(T0 + 5 * MINUTE - CURSOR_TIMING.statelessMs - 1));
  });
});

describe('the editor test (isLoadingSample)', () => {
  it('returns the 3 newest matching registrations with their event, and leaves no state', async () => {
    const queries: Array<Record<string, string>> = [];
    serveEvents();
    serveSubmissions(
      [
        submissionAt('sub_1', T0 - 50 * MINUTE, { status: 'approved' }),
        submissionAt('sub_2', T0 - 40 * MINUTE, { status: 'approved' }),
        submissionAt('sub_3', T0 - 30 * MINUTE, { status: 'pending' }),
        submissionAt('sub_4', T0 - 20 * MINUTE, { status: 'approved' }),
        submissionAt('sub_5', T0 - 10 * MINUTE, { status: 'approved' }),
      ],
      queries,
    );
    const items = await poll({
      inputData: { status: 'approved' },
      meta: { isLoadingSample: true },
      fresh: true,
    });
    expect(items.map((item) => item.id)).toEqual(['sub_5', 'sub_4', 'sub_2']);
    expect(items[0]).toMatchObject({ eventTitle: 'TechWeek 2026' });
    expect(queries[0]?.since).toBe(iso(T0 - HOUR));

    serveSubmissions([], queries);
    await poll({ inputData: { status: 'approved' } });
    // The next poll finds no state: a stream whose cache holds nothing.
    expect(queries[1]?.since).toBe(iso(T0 - FORGOTTEN_MS - 1));
  });
});

describe('failures lose nothing', () => {
  it('a 500 is a clear error, and for an hour the next polls ask from as far back as it would have returned', async () => {
    await turnOn();
    const queries: Array<Record<string, string>> = [];
    serveSubmissions([submissionAt('sub_a', T0 - 10 * MINUTE)], queries);
    serveEvents();
    await poll();

    clock.advance(5 * MINUTE);
    nock(BASE_URL).get(paths.submissions()).query(true).reply(500, wireError('INTERNAL', 'db down'));
    const error = await caught(() => poll());
    expect(errorMessage(error)).toMatch(
      /had a problem .*registrations of this event.*this trigger checks again at its next poll and misses nothing\.$/,
    );

    // The failed poll would have returned the kept sub_a: the floor starts there.
    clock.advance(55 * MINUTE);
    serveSubmissions([], queries);
    await poll();
    expect(queries[1]?.since).toBe(iso(T0 - 10 * MINUTE - 2));

    clock.advance(HOUR);
    serveSubmissions([], queries);
    await poll();
    expect(queries[2]?.since).toBe(iso(T0 + 60 * MINUTE - SETTLE_MS - 1));
  });

  it('a 429 is a ThrottledError that keeps Retry-After', async () => {
    nock(BASE_URL)
      .get(paths.submissions())
      .query(true)
      .reply(429, wireError('RATE_LIMITED', 'slow down'), { 'Retry-After': '30' });
    const error = await caught(() => poll({ fresh: true }));
    expect(error.name).toBe('ThrottledError');
    expect(JSON.parse(error.message)).toMatchObject({ delay: 30 });
  });

  it('a failed event lookup adds no context but never fails the poll', async () => {
    serveSubmissions([submissionAt('sub_a', T0 - MINUTE)], []);
    nock(BASE_URL).get(paths.events()).query(true).reply(503, 'down');
    const items = await poll({ fresh: true });
    expect(items.map((item) => [item.id, item.eventTitle])).toEqual([['sub_a', null]]);
  });
});

describe('the Event input', () => {
  it('is required and must be one of the events of the dropdown', async () => {
    expect(errorMessage(await caught(() => poll({ inputData: { eventId: '' }, fresh: true })))).toBe(
      'No event was given. Choose an event in the Event field, or map an event ID from an earlier step.',
    );
    expect(errorMessage(await caught(() => poll({ inputData: { eventId: 'TechWeek' } })))).toMatch(
      /"TechWeek" is not an event ID\. Choose the event in the Event field's dropdown/,
    );
    const field = newSubmission.operation.inputFields?.[0];
    expect(field).toMatchObject({ key: 'eventId', required: true, dynamic: 'event_list.id.label' });
  });
});
