/**
 * Messages a user reads, against the sandbox: a Connect API URL with a path after the host gets, in every
 * operation, the words of the connection test; a local address typed without a scheme is told to use
 * http://; an event that is deleted or unknown gets one message in every search that takes an event, the
 * one New Form Submission gives; Find Order with nothing to find by names its fields by their labels.
 * The operations are read from the app definition, so a new one is held to the same words.
 */
import type { Bundle } from 'zapier-platform-core';
import { startSandbox, type RunningSandbox } from '../../sandbox';
import { callable, functionOf } from '../../scripts/lib/app';
import findOrder from '../../src/searches/findOrder';
import newSubmission from '../../src/triggers/newSubmission';
import { App, appTester, caught, errorMessage, meta } from '../support/app';
import { NORTHWIND, authOf, simulate } from '../support/sandbox';
import { useGenerousTimeLimits } from '../support/limits';
import { recordsOf } from '../../src/connect/testing';

useGenerousTimeLimits();

let sandbox: RunningSandbox;
let eventId: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  const answer = await simulate(sandbox, NORTHWIND, 'GET', '/api/v1/integrations/zapier/events?limit=100');
  const events = recordsOf<{ id: string; slug: string }>('event', answer);
  eventId = (events.find((e) => e.slug === 'techweek-paris-2026') ?? events[0])?.id ?? '';
});

afterAll(() => sandbox?.close());

/** Inputs that take every operation past its own checks to its first request. */
const inputsFor = (event: string) => ({
  eventId: event,
  planId: 'plan_main',
  query: 'techweek',
  email: 'ada@example.com',
  submissionIdText: 'sub_1',
  orderIdText: 'ord_1',
  embedType: 'agenda',
  checkInBy: 'code',
  code: 'EVT1:0123456789',
});

type Run = { name: string; call: (authData: Record<string, string>) => Promise<unknown> };

/** Every function a Zap or the editor runs that reaches the service: perform, and a hook's list and subscribe. */
const everyOperation = (): Run[] =>
  (['triggers', 'searches', 'creates'] as const).flatMap((group) =>
    Object.entries(App[group] ?? {}).flatMap(([key, definition]): Run[] => {
      const operation = definition.operation as Record<string, unknown> & { type?: string };
      const members = operation.type === 'hook' ? ['performList', 'performSubscribe'] : ['perform'];
      return members.map((member) => ({
        name: `${group}.${key}.${member}`,
        call: (authData) =>
          appTester(callable(operation[member], `${key}: ${member}`), {
            authData,
            inputData: inputsFor(eventId),
            targetUrl: 'https://hooks.zapier.com/hooks/standard/1/abc/',
            meta: meta({ isFillingDynamicDropdown: key.endsWith('_list') }),
          } as unknown as Bundle),
      }));
    }),
  );

describe('a Connect API URL with a path after the host', () => {
  it('gets, in every operation, what the connection test says', async () => {
    const authData = authOf(sandbox, NORTHWIND, {
      baseUrl: `${sandbox.url}/embed`,
      frontUrl: sandbox.url,
      embedUrl: sandbox.url,
    });
    const said = errorMessage(
      await caught(() => appTester(callable(App.authentication?.test), { authData })),
    );
    expect(said).toBe(
      `${new URL(sandbox.url).host}/embed does not answer like a Connect API (the events endpoint was not found). Check the Connect API URL of your connection: it is the address of the API host, without any path after it.`,
    );
    const runs = everyOperation();
    expect(runs.length).toBeGreaterThan(20);
    const messages: Array<[string, string]> = [];
    for (const run of runs) messages.push([run.name, errorMessage(await caught(() => run.call(authData)))]);
    expect(messages.filter(([, message]) => message !== said)).toEqual([]);
  });

  it('goes away once the path is removed, as the message says', async () => {
    // The same sandbox reached without the path: the path was the only thing wrong.
    const authData = authOf(sandbox, NORTHWIND);
    await expect(appTester(callable(App.authentication?.test), { authData })).resolves.toMatchObject({
      companyId: NORTHWIND.companyId,
    });
  });
});

it('a local address typed without a scheme is told to use http://, not that http is refused', async () => {
  const typed = new URL(sandbox.url).host;
  const authData = authOf(sandbox, NORTHWIND, { baseUrl: typed });
  const message = errorMessage(
    await caught(() => appTester(callable(App.authentication?.test), { authData })),
  );
  expect(message).toBe(
    `The Connect API URL "${typed}" has no https://, so https://${typed} was tried, but the server there does not speak HTTPS (it answers like a plain HTTP server), so the list of your events could not be fetched. ${typed} is a local address, where plain http is accepted: if that server has no HTTPS, reconnect your account with http://${typed}.`,
  );
  expect(message).not.toMatch(/not accepted|SSL|routines/);
  // Followed literally, the advice works.
  await expect(
    appTester(callable(App.authentication?.test), { authData: { ...authData, baseUrl: `http://${typed}` } }),
  ).resolves.toMatchObject({ host: typed });
});

describe('an event that is not among the account’s events', () => {
  const SEARCHES = ['find_registration', 'find_agenda', 'find_floor_plan'];
  const notAmong = (id: string) =>
    `The event in the Event field (ID ${id}) is not among the events of the connected account: it may have been deleted, or it belongs to another organizer account. Choose the event again in the Event field, or map an event ID of this account from an earlier step.`;

  const said = async (key: string, group: 'searches' | 'triggers', event: string, input = {}) =>
    errorMessage(
      await caught(() =>
        appTester(functionOf(group, key), {
          authData: authOf(sandbox, NORTHWIND),
          inputData: { eventId: event, email: 'ada@example.com', ...input },
          meta: meta(),
        }),
      ),
    );

  it.each([
    ['deleted', true],
    ['unknown', false],
  ])('%s: every search that takes an event says so, as New Form Submission does', async (_kind, made) => {
    let id = '0d3e5f7a-1b2c-4d5e-8f90-a1b2c3d4e5f6';
    if (made) {
      const event = await simulate<{ id: string }>(sandbox, NORTHWIND, 'POST', '/_sandbox/events', {
        title: 'Cancelled Fair',
        status: 'published',
      });
      await simulate(sandbox, NORTHWIND, 'DELETE', `/_sandbox/events/${event.id}`);
      id = event.id;
    }
    expect(await said(newSubmission.key, 'triggers', id)).toBe(notAmong(id));
    for (const key of SEARCHES) expect([key, await said(key, 'searches', id)]).toEqual([key, notAmong(id)]);
    // A plan of a gone event, too (not "no such plan").
    expect(await said('find_floor_plan', 'searches', id, { planId: 'plan_main' })).toBe(notAmong(id));
  });

  it('an event that exists, with nothing to find, still finds nothing without an error', async () => {
    const run = (key: string, input: Record<string, unknown>) =>
      appTester(functionOf('searches', key), {
        authData: authOf(sandbox, NORTHWIND),
        inputData: { eventId, ...input },
        meta: meta(),
      });
    await expect(run('find_registration', { email: 'nobody@nowhere.example' })).resolves.toEqual([]);
    await expect(run('find_floor_plan', { planId: 'plan_never_drawn' })).resolves.toEqual([]);
    await expect(run('find_agenda', { track: 'No Such Track' })).resolves.toEqual([]);
  });
});

it('Find Order with nothing to find by names its three fields by their labels', async () => {
  const labels = (findOrder.operation.inputFields ?? [])
    .filter((field) => typeof field === 'object' && field !== null && 'label' in field && field.label)
    .map((field) => (field as { label: string }).label);
  expect(labels).toEqual(['Order ID', 'Registration ID', 'Attendee Email']);
  const message = errorMessage(
    await caught(() =>
      appTester(functionOf('searches', findOrder.key), {
        authData: authOf(sandbox, NORTHWIND),
        inputData: {},
        meta: meta(),
      }),
    ),
  );
  expect(message).toBe('Fill in Order ID, Registration ID or Attendee Email to say which order to find.');
});
