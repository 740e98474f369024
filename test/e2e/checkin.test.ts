/**
 * End to end against the sandbox: Check In Attendee by QR code and by registration (picked from the
 * registration dropdown), twice, concurrently, with a registration approved between two runs of the same
 * step, on a tenant whose plan lacks QR check-in, and with a code that matches no ticket.
 */
import { startSandbox, type RunningSandbox } from '../../sandbox';
import checkInAttendee from '../../src/creates/checkIn';
import registrationList from '../../src/triggers/registrationList';
import { appTester, caught, errorMessage, meta } from '../support/app';
import { LUMEN, NORTHWIND, type Tenant, authOf as sandboxAuth, simulate } from '../support/sandbox';
import { functionOf } from '../../scripts/lib/app';
import { useGenerousTimeLimits } from '../support/limits';
import { recordsOf } from '../../src/connect/testing';

useGenerousTimeLimits();

type Item = Record<string, unknown>;

let sandbox: RunningSandbox;
let eventId: string;

const authOf = (tenant: Tenant) => sandboxAuth(sandbox, tenant);

/** A change made in the service's dashboard (simulation API of the sandbox). */
const sim = <T = Item>(tenant: Tenant, method: string, path: string, body?: unknown): Promise<T> =>
  simulate<T>(sandbox, tenant, method, path, body);

let people = 0;
/** A new registration of the test event (approved unless told otherwise). */
const register = (
  status: 'approved' | 'pending' = 'approved',
  tenant: Tenant = NORTHWIND,
  event = eventId,
) => {
  people += 1;
  return sim<{ submissionId: string; qrCode: string | null }>(tenant, 'POST', '/_sandbox/submissions', {
    eventId: event,
    email: `guest${people}@example.com`,
    firstName: `Guest${people}`,
    lastName: `Door${String(people).padStart(3, '0')}`,
    status,
  });
};

const checkIn = (inputData: Item, tenant: Tenant = NORTHWIND) =>
  appTester(functionOf('creates', checkInAttendee.key), {
    authData: authOf(tenant),
    inputData,
    meta: meta(),
  });

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  const event = await sim<{ id: string }>(NORTHWIND, 'POST', '/_sandbox/events', {
    title: 'Door Test Day',
    status: 'published',
  });
  eventId = event.id;
});

afterAll(() => sandbox?.close());

it('checks in by the scanned QR code, and a second run of the same step gets the same answer', async () => {
  const ada = await register();
  const first = await checkIn({ checkInBy: 'code', code: `\r\n${ada.qrCode}\r\n` });
  expect(first).toMatchObject({
    result: 'checked_in',
    alreadyCheckedIn: false,
    submissionId: ada.submissionId,
    eventId,
    eventTitle: 'Door Test Day',
    isRepeatedScan: false,
  });
  const again = await checkIn({ checkInBy: 'code', code: ada.qrCode });
  expect(again).toMatchObject({ result: 'checked_in', checkInTime: first.checkInTime, isRepeatedScan: true });

  // Another scan of the same ticket later (its own scan time) is reported as already checked in.
  const later = await checkIn({ code: ada.qrCode, checkInTime: new Date(Date.now() + 60_000).toISOString() });
  expect(later).toMatchObject({
    result: 'already_checked_in',
    alreadyCheckedIn: true,
    checkInTime: first.checkInTime,
  });
  const stored = await sim<{ checkedInAt: string }>(
    NORTHWIND,
    'GET',
    `/_sandbox/submissions/${ada.submissionId}`,
  );
  expect(stored.checkedInAt).toBe(first.checkInTime);
});

it('checks in by registration picked from the dropdown of approved registrations', async () => {
  const bob = await register();
  const pending = await register('pending');
  const choices = (await appTester(
    functionOf('triggers', registrationList.key),
    { authData: authOf(NORTHWIND), inputData: { eventId }, meta: meta({ isFillingDynamicDropdown: true }) },
    true,
  )) as Array<{ id: string; label: string }>;
  const ids = choices.map((c) => c.id);
  expect(ids).toContain(bob.submissionId);
  expect(ids).not.toContain(pending.submissionId);
  expect(choices.find((c) => c.id === bob.submissionId)?.label).toMatch(
    /^Door\d+, Guest\d+ — guest\d+@example\.com$/,
  );

  const input = {
    checkInBy: 'registration',
    eventId,
    submissionId: bob.submissionId,
    checkInTime: '2025-01-01T09:00:00+01:00',
  };
  const first = await checkIn(input);
  expect(first).toMatchObject({
    result: 'checked_in',
    checkInTime: '2025-01-01T08:00:00.000Z',
    fullName: expect.stringMatching(/^Guest/),
  });
  await expect(checkIn(input)).resolves.toMatchObject({ result: 'checked_in', isRepeatedScan: true });
});

it('concurrent runs of the same scan check in once: the one in flight makes the other retry, and the retry gets the same answer', async () => {
  const cleo = await register();
  await sim(NORTHWIND, 'POST', '/_sandbox/faults', {
    route: 'POST /api/v1/checkin',
    kind: 'slow',
    delayMs: 400,
  });
  const input = { code: cleo.qrCode };
  const outcomes = await Promise.allSettled([checkIn(input), checkIn(input)]);
  const answers = outcomes.filter((o) => o.status === 'fulfilled').map((o) => o.value);
  const throttled = outcomes
    .filter((o): o is PromiseRejectedResult => o.status === 'rejected')
    .map((o) => o.reason as Error);
  expect(answers.length).toBeGreaterThanOrEqual(1);
  for (const error of throttled) expect(error.name).toBe('ThrottledError');
  // Zapier retries the throttled run later: it gets the stored answer.
  for (let i = 0; i < throttled.length; i++) answers.push(await checkIn(input));
  expect(answers.map((a) => [a.result, a.checkInTime])).toEqual([
    ['checked_in', answers[0]?.checkInTime],
    ['checked_in', answers[0]?.checkInTime],
  ]);
  expect(answers.map((a) => a.isRepeatedScan).sort()).toEqual([false, true]);
});

it('two doors scanning the same person at once (two scans): one checks in, the other is told it already happened', async () => {
  const dan = await register();
  const [north, south] = await Promise.all([
    checkIn({ code: dan.qrCode, scanReference: 'north-door-1' }),
    checkIn({ code: dan.qrCode, scanReference: 'south-door-1' }),
  ]);
  expect([north.result, south.result].sort()).toEqual(['already_checked_in', 'checked_in']);
  expect(north.checkInTime).toBe(south.checkInTime);
  expect(north.scanId).toBe('north-door-1');
});

it('a registration approved after a failed scan is checked in when the same step runs again', async () => {
  const eve = await register('pending');
  const input = { checkInBy: 'registration', eventId, submissionId: eve.submissionId };
  expect(errorMessage(await caught(() => checkIn(input)))).toMatch(
    / is still waiting for approval \(status "pending"\), so it has no ticket to check in yet\./,
  );
  await sim(NORTHWIND, 'POST', `/_sandbox/submissions/${eve.submissionId}/approve`);
  await expect(checkIn(input)).resolves.toMatchObject({
    result: 'checked_in',
    submissionId: eve.submissionId,
  });
});

it('a code that matches no ticket, and input mistakes, are clear errors', async () => {
  expect(errorMessage(await caught(() => checkIn({ code: 'EVT1:nothing:here:0000' })))).toMatch(
    /^No ticket of your events matches /,
  );
  expect(
    errorMessage(
      await caught(() => checkIn({ checkInBy: 'registration', eventId: 'door-test-day', submissionId: 'x' })),
    ),
  ).toMatch(/^"door-test-day" is not an event ID/);
  expect(errorMessage(await caught(() => checkIn({ code: 'a', submissionId: 'b' })))).toMatch(
    /^Both a QR code/,
  );
});

it('a real registration checked in under another event: the message names that event and the Event field', async () => {
  const other = await sim<{ id: string }>(NORTHWIND, 'POST', '/_sandbox/events', {
    title: 'Other Door Day',
    status: 'published',
  });
  const guest = await register();
  const message = errorMessage(
    await caught(() =>
      checkIn({ checkInBy: 'registration', eventId: other.id, submissionId: guest.submissionId }),
    ),
  );
  expect(message).toMatch(
    new RegExp(
      `^Registration ${guest.submissionId} is not one of the registrations of "Other Door Day" \\(the event in the Event field\\), so nobody was checked in\\. Check the Event field`,
    ),
  );
  // Under its own event, the same registration is checked in.
  await expect(
    checkIn({ checkInBy: 'registration', eventId, submissionId: guest.submissionId }),
  ).resolves.toMatchObject({ result: 'checked_in' });
});

it('a rejected registration is not told that it waits for approval', async () => {
  const guest = await register('pending');
  await sim(NORTHWIND, 'POST', `/_sandbox/submissions/${guest.submissionId}/reject`);
  const message = errorMessage(
    await caught(() => checkIn({ checkInBy: 'registration', eventId, submissionId: guest.submissionId })),
  );
  expect(message).toMatch(/rejected/);
  expect(message).not.toMatch(/waiting for approval/);
});

it('a tenant whose plan lacks QR check-in is told so', async () => {
  const events = await sim(LUMEN, 'GET', '/api/v1/integrations/zapier/events');
  const published = recordsOf<{ id: string; status: string }>('event', events).find(
    (e) => e.status === 'published',
  );
  const guest = await register('approved', LUMEN, published?.id);
  const error = await caught(() => checkIn({ code: guest.qrCode }, LUMEN));
  expect(errorMessage(error)).toMatch(/^Your plan does not include the QR Check-in feature/);
  const stored = await sim<{ checkedInAt: string | null }>(
    LUMEN,
    'GET',
    `/_sandbox/submissions/${guest.submissionId}`,
  );
  expect(stored.checkedInAt).toBeNull();
});
