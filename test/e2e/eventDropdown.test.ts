/**
 * An agency with 250 events, against the sandbox. The Event dropdown of every operation shows the newest 100;
 * its "Load more" (`canPaginate`) shows the next hundred as far as the service answers them: all 250 from a
 * service that honours a large `limit`, the newest 100 only from one that clamps it (the contract) or refuses
 * it. No event is shown twice, the list ends with an empty page, and an event past the last page is still
 * found by its ID (mapped from an earlier step) wherever the service lists it.
 */
import { EVENTS_LIMIT_MAX, LIST_LIMIT_MAX } from '../../src/connect';
import eventList from '../../src/triggers/eventList';
import findAgenda from '../../src/searches/findAgenda';
import findEvent from '../../src/searches/findEvent';
import { type Deviation, type RunningSandbox, sandboxCall, startSandbox } from '../../sandbox';
import { functionOf } from '../../scripts/lib/app';
import { App, appTester, caught, errorMessage, meta } from '../support/app';
import { useGenerousTimeLimits } from '../support/limits';

useGenerousTimeLimits();

const EVENTS = 250;

interface Choice {
  id: string;
  label: string;
}

describe.each<[string, Deviation[], number]>([
  ['a service that honours a large limit (large-limits)', ['large-limits'], EVENTS],
  ['a service that clamps the limit to 100, as the contract says', [], LIST_LIMIT_MAX],
  ['a service that refuses a limit above 100 (limit-rejected)', ['limit-rejected'], LIST_LIMIT_MAX],
])('an account with 250 events, on %s', (_name, deviations, reach) => {
  let sandbox: RunningSandbox;
  let authData: Record<string, string>;
  /** The events' ids, newest first. */
  let newestFirst: string[];

  beforeAll(async () => {
    // Each event is created at its own millisecond: the order by creation is the order of the loop.
    let tick = 0;
    sandbox = await startSandbox({ deviations, now: () => Date.now() + tick++ });
    const organizer = await sandboxCall<{ apiKey: string }>(sandbox.url, '', 'POST', '/_sandbox/tenants', {
      name: 'Agency with many events',
    });
    const ids: string[] = [];
    for (let i = 1; i <= EVENTS; i++) {
      const title = `Client Event ${String(i).padStart(3, '0')}`;
      const event = await sandboxCall<{ id: string }>(
        sandbox.url,
        organizer.apiKey,
        'POST',
        '/_sandbox/events',
        {
          title,
        },
      );
      ids.push(event.id);
    }
    newestFirst = ids.reverse();
    authData = { apiKey: organizer.apiKey, baseUrl: sandbox.url };
  });

  afterAll(() => sandbox?.close());

  const dropdownPage = (page: number) =>
    appTester(functionOf('triggers', eventList.key), {
      authData,
      meta: meta({ isFillingDynamicDropdown: true, page }),
    }) as Promise<Choice[]>;

  it(`"Load more" pages through the newest ${reach}, 100 a page, each once, and ends with an empty page`, async () => {
    expect(App.triggers[eventList.key]?.operation.canPaginate).toBe(true);
    const pages: Choice[][] = [];
    for (let page = 0; page <= EVENTS_LIMIT_MAX / LIST_LIMIT_MAX; page++) {
      const choices = await dropdownPage(page);
      pages.push(choices);
      if (choices.length === 0) break;
    }
    const sizes = pages.map((choices) => choices.length);
    expect(sizes).toEqual(
      reach === EVENTS
        ? [LIST_LIMIT_MAX, LIST_LIMIT_MAX, EVENTS - 2 * LIST_LIMIT_MAX, 0]
        : [LIST_LIMIT_MAX, 0],
    );
    const shown = pages.flat();
    expect(shown.map((choice) => choice.id)).toEqual(newestFirst.slice(0, reach));
    expect(shown[0]?.label).toMatch(/^Client Event 250\b/);
    expect(shown.at(-1)?.label).toMatch(
      new RegExp(`^Client Event ${String(EVENTS - reach + 1).padStart(3, '0')}\\b`),
    );
  });

  it('shows nothing past page 10 (the largest limit the app asks)', async () => {
    await expect(dropdownPage(EVENTS_LIMIT_MAX / LIST_LIMIT_MAX)).resolves.toEqual([]);
  });

  it('finds the oldest event by its ID or its title where the service lists it, and says so where it does not', async () => {
    const oldest = newestFirst[EVENTS - 1] as string;
    const agenda = appTester(functionOf('searches', findAgenda.key), {
      authData,
      inputData: { eventId: oldest },
      meta: meta(),
    });
    const byTitle = (await appTester(functionOf('searches', findEvent.key), {
      authData,
      inputData: { query: 'Client Event 001' },
      meta: meta(),
    })) as Array<{ id: string }>;
    if (reach === EVENTS) {
      // A draft has no public agenda: nothing found, without an error.
      await expect(agenda).resolves.toEqual([]);
      expect(byTitle.map((event) => event.id)).toEqual([oldest]);
    } else {
      expect(errorMessage(await caught(() => agenda))).toBe(
        `The event in the Event field (ID ${oldest}) is not among the 100 newest events that the service lists for the connected account: it may have been deleted, belong to another organizer account, or be older than these. Choose the event again in the Event field, or map an event ID of this account from an earlier step.`,
      );
      expect(byTitle).toEqual([]);
    }
  });
});
