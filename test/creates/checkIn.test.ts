import nock from 'nock';
import checkInAttendee from '../../src/creates/checkIn';
import { paths } from '../../src/connect';
import { SAMPLE_EVENT } from '../../src/mappers/event';
import { SAMPLE_CHECK_IN } from '../../src/mappers/checkIn';
import { derivedScanKey } from '../../src/creates/common/scan';
import { BASE_URL, SENTINEL_KEY, appTester, authData, caught, errorMessage, meta } from '../support/app';
import { functionOf } from '../../scripts/lib/app';
import { wireError, wireList, wireObject } from '../../sandbox/wire';
import { inAppNames } from '../../src/connect/testing';

const perform = functionOf('creates', checkInAttendee.key);
const EVENT_ID = SAMPLE_EVENT.id;
const CODE = 'EVT1:7d0c6f1e:sub_01JD3K9V8Q2W:9f2c';

const run = (inputData: Record<string, unknown>) =>
  appTester(perform, { authData: authData(), inputData, meta: meta() }, true);

/** The events list the create reads (once, cached) for the event title. */
const eventsList = () =>
  nock(BASE_URL)
    .get(paths.events())
    .query({ limit: '100' })
    .reply(200, wireList([SAMPLE_EVENT]));

/** A check-in call, recording what was sent. */
const checkInCall = (
  reply: { status: number; body: unknown; headers?: Record<string, string> },
  seen: Array<{ body: unknown; key: string | undefined }> = [],
) =>
  nock(BASE_URL)
    .post(paths.checkIn())
    .reply(function (_uri, body) {
      // What the app sent, read in its own names.
      seen.push({
        body: inAppNames('checkInRequest', body),
        key: this.req.headers['idempotency-key'] as string | undefined,
      });
      return [
        reply.status,
        JSON.stringify(reply.body),
        { 'Content-Type': 'application/json', ...reply.headers },
      ];
    });

const ok = (overrides: Record<string, unknown> = {}) => ({
  status: 200,
  body: wireObject({ ...SAMPLE_CHECK_IN, ...overrides }),
});
const apiError = (status: number, code: string, extra: Record<string, unknown> = {}) => ({
  status,
  body: wireError(code, `the ${code} message`, extra),
});

afterEach(() => nock.cleanAll());

describe('check in by QR code', () => {
  it('sends only the raw code (surrounding scanner whitespace trimmed) with a derived key, and maps the answer', async () => {
    const seen: Array<{ body: unknown; key: string | undefined }> = [];
    checkInCall(ok(), seen);
    eventsList();
    const item = await run({ checkInBy: 'code', code: `\r\n  ${CODE}\t\n` });
    expect(seen).toEqual([{ body: { code: CODE }, key: derivedScanKey({ code: CODE }) }]);
    expect(item).toMatchObject({
      id: SAMPLE_CHECK_IN.submissionId,
      result: 'checked_in',
      alreadyCheckedIn: false,
      checkInTime: SAMPLE_CHECK_IN.checkInTime,
      submissionId: SAMPLE_CHECK_IN.submissionId,
      eventId: EVENT_ID,
      eventTitle: SAMPLE_EVENT.title,
      firstName: 'Ada',
      lastName: 'Lovelace',
      fullName: 'Ada Lovelace',
      email: 'ada@example.com',
      isRepeatedScan: false,
      scanId: derivedScanKey({ code: CODE }),
    });
    expect(JSON.stringify(item)).not.toContain(SENTINEL_KEY);
  });

  it('keeps inner spaces and characters of the code untouched', async () => {
    const seen: Array<{ body: unknown; key: string | undefined }> = [];
    checkInCall(ok(), seen);
    eventsList();
    await run({ code: ' A B\u00e9:"x" ' });
    expect(seen[0]?.body).toEqual({ code: 'A B\u00e9:"x"' });
  });

  it('"already checked in" is a success with the first check-in time', async () => {
    checkInCall(ok({ result: 'already_checked_in', checkInTime: '2025-12-01T07:55:00.000Z' }));
    eventsList();
    const item = await run({ checkInBy: 'code', code: CODE });
    expect(item).toMatchObject({
      alreadyCheckedIn: true,
      result: 'already_checked_in',
      checkInTime: '2025-12-01T07:55:00.000Z',
    });
  });

  it('an answer replayed by the service for the same scan is the same answer, flagged as repeated', async () => {
    checkInCall({ ...ok(), headers: { 'Idempotent-Replayed': 'true' } });
    eventsList();
    const item = await run({ checkInBy: 'code', code: CODE });
    expect(item).toMatchObject({ result: 'checked_in', alreadyCheckedIn: false, isRepeatedScan: true });
  });

  it('normalises a given check-in time to UTC and sends it', async () => {
    const seen: Array<{ body: unknown; key: string | undefined }> = [];
    checkInCall(ok(), seen);
    eventsList();
    await run({ checkInBy: 'code', code: CODE, checkInTime: '2025-12-01T09:01:12+01:00' });
    expect(seen[0]?.body).toEqual({ code: CODE, checkInTime: '2025-12-01T08:01:12.000Z' });
    expect(seen[0]?.key).toBe(derivedScanKey({ code: CODE, checkInTime: '2025-12-01T08:01:12.000Z' }));
  });

  it('still answers when the event title cannot be read after the check-in', async () => {
    checkInCall(ok());
    nock(BASE_URL).get(paths.events()).query(true).times(2).reply(500, 'down');
    const item = await run({ code: CODE });
    expect(item).toMatchObject({ result: 'checked_in', eventTitle: null, eventId: EVENT_ID });
  });
});

describe('check in by registration', () => {
  it('sends eventId and submissionId', async () => {
    const seen: Array<{ body: unknown; key: string | undefined }> = [];
    checkInCall(ok(), seen);
    eventsList();
    const item = await run({
      checkInBy: 'registration',
      eventId: EVENT_ID,
      submissionId: ' sub_01JD3K9V8Q2W ',
    });
    const body = { eventId: EVENT_ID, submissionId: 'sub_01JD3K9V8Q2W' };
    expect(seen).toEqual([{ body, key: derivedScanKey(body) }]);
    expect(item).toMatchObject({ result: 'checked_in', eventTitle: SAMPLE_EVENT.title });
  });

  it('infers the mode from the filled field when "Check In By" is empty', async () => {
    const seen: Array<{ body: unknown; key: string | undefined }> = [];
    checkInCall(ok(), seen);
    eventsList();
    await run({ eventId: EVENT_ID, submissionId: 'sub_01JD3K9V8Q2W' });
    expect(seen[0]?.body).toEqual({ eventId: EVENT_ID, submissionId: 'sub_01JD3K9V8Q2W' });
  });
});

describe('the Idempotency-Key', () => {
  const keyOf = async (inputData: Record<string, unknown>) => {
    const seen: Array<{ body: unknown; key: string | undefined }> = [];
    checkInCall(ok(), seen);
    eventsList();
    await run(inputData);
    return seen[0]?.key;
  };

  it('is the same for the same scan (a retry or replay of the step)', async () => {
    const first = await keyOf({ checkInBy: 'code', code: CODE });
    const again = await keyOf({ checkInBy: 'code', code: `${CODE}\n` });
    expect(first).toBe(again);
    expect(first).toMatch(/^zapier-checkin-v1-[0-9a-f]{64}$/);
    const reg = {
      checkInBy: 'registration',
      eventId: EVENT_ID,
      submissionId: 'sub_1',
      checkInTime: '2025-12-01T08:00:00Z',
    };
    expect(await keyOf(reg)).toBe(await keyOf({ ...reg, checkInTime: '2025-12-01T09:00:00+01:00' }));
  });

  it('differs for a different code, registration, event, mode or check-in time', async () => {
    const inputs = [
      { code: CODE },
      { code: `${CODE}x` },
      { code: CODE, checkInTime: '2025-12-01T08:00:00Z' },
      { code: CODE, checkInTime: '2025-12-01T08:00:01Z' },
      { checkInBy: 'registration', eventId: EVENT_ID, submissionId: 'sub_1' },
      { checkInBy: 'registration', eventId: EVENT_ID, submissionId: 'sub_2' },
      { checkInBy: 'registration', eventId: '00000000-0000-4000-8000-000000000000', submissionId: 'sub_1' },
      { code: 'sub_1' },
    ];
    const keys: Array<string | undefined> = [];
    for (const input of inputs) keys.push(await keyOf(input));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('is the scan reference when one is given: verbatim, quoted when it has spaces, hashed when it cannot be a header', async () => {
    expect(await keyOf({ code: CODE, scanReference: ' door-2/scan-000123 ' })).toBe('door-2/scan-000123');
    expect(await keyOf({ code: CODE, scanReference: 'door 2 "north"' })).toBe('"door 2 \\"north\\""');
    const hashed = await keyOf({ code: CODE, scanReference: 'porte-é-1' });
    expect(hashed).toMatch(/^zapier-scan-v1-[0-9a-f]{64}$/);
    expect(await keyOf({ code: CODE, scanReference: 'porte-é-1' })).toBe(hashed);
    expect(await keyOf({ code: CODE, scanReference: 'x'.repeat(256) })).toMatch(/^zapier-scan-v1-/);
    expect(await keyOf({ code: CODE, scanReference: 'x'.repeat(255) })).toBe('x'.repeat(255));
  });
});

describe('errors a door volunteer can act on', () => {
  it('no ticket matches the code', async () => {
    checkInCall(apiError(404, 'TICKET_NOT_FOUND'));
    const error = await caught(() => run({ code: 'NOT-A-TICKET' }));
    expect(errorMessage(error)).toMatch(
      /^No ticket of your events matches QR code "NOT-A-TICKET"\. Check that the person is registered with this organizer account/,
    );
  });

  it("a registration that is not one of the chosen event's: the event is named and the Event field pointed at", async () => {
    checkInCall(apiError(404, 'TICKET_NOT_FOUND'));
    eventsList();
    const error = await caught(() =>
      run({ checkInBy: 'registration', eventId: EVENT_ID, submissionId: 'sub_OTHER_EVENT' }),
    );
    const message = errorMessage(error);
    expect(message).toBe(
      `Registration sub_OTHER_EVENT is not one of the registrations of "${SAMPLE_EVENT.title}" (the event in the Event field), so nobody was checked in. Check the Event field: it must be the event this person registered for (map it from the same step as the registration ID, or pick it again); and check that the registration ID belongs to this organizer account.`,
    );
    expect(message).not.toMatch(/No ticket of your events/);
  });

  it('names the event by its ID when its title cannot be read', async () => {
    checkInCall(apiError(404, 'TICKET_NOT_FOUND'));
    nock(BASE_URL).get(paths.events()).query(true).times(2).reply(500, 'down');
    const error = await caught(() =>
      run({ checkInBy: 'registration', eventId: EVENT_ID, submissionId: 'sub_9' }),
    );
    expect(errorMessage(error)).toMatch(
      new RegExp(
        `^Registration sub_9 is not one of the registrations of the event in the Event field \\(ID ${EVENT_ID}\\), so nobody was checked in\\. Check the Event field`,
      ),
    );
  });

  it('the registration exists but is not approved, with its status', async () => {
    checkInCall(apiError(422, 'SUBMISSION_NOT_APPROVED', { submissionId: 'sub_9', status: 'pending' }));
    const error = await caught(() => run({ code: CODE }));
    expect(errorMessage(error)).toMatch(
      /^The registration behind QR code "EVT1:7d0c6f1e:sub_01JD3K9V8Q2W:9f2c" is still waiting for approval \(status "pending"\), so it has no ticket to check in yet\. Approve it/,
    );
  });

  it('the plan does not include QR check-in', async () => {
    checkInCall(apiError(403, 'ENTITLEMENT_REQUIRED', { entitlement: 'qrScan' }));
    const error = await caught(() => run({ code: CODE }));
    expect(errorMessage(error)).toMatch(/^Your plan does not include the QR Check-in feature/);
  });

  it('the same scan still in flight (409) is retried later by Zapier, not a failure', async () => {
    checkInCall(apiError(409, 'IDEMPOTENCY_KEY_IN_USE'));
    const error = await caught(() => run({ code: CODE }));
    expect(error.name).toBe('ThrottledError');
  });

  it('a scan reference reused for another check-in says what to change', async () => {
    checkInCall(apiError(422, 'IDEMPOTENCY_KEY_REUSED'));
    const error = await caught(() => run({ code: CODE, scanReference: 'scan-1' }));
    expect(errorMessage(error)).toMatch(
      /^This scan reference was already used in the last 24 hours for a different check-in .* into "Scanner's Scan Reference", or leave that field empty\./,
    );
  });

  it.each([
    [
      { checkInBy: 'code', code: CODE, eventId: EVENT_ID, submissionId: 'sub_1' },
      /^Both a QR code and a registration/,
    ],
    [{ code: CODE, submissionId: 'sub_1' }, /^Both a QR code and a registration/],
    [{ checkInBy: 'code', code: ' \n ' }, /^The QR Code field is empty in this run/],
    [{}, /^Neither a QR code nor a registration was given/],
    [{ checkInBy: 'registration', eventId: EVENT_ID }, /^No registration was given/],
    [{ checkInBy: 'registration', submissionId: 'sub_1' }, /^No event was given/],
    [
      { checkInBy: 'registration', eventId: 'TechWeek 2026', submissionId: 'sub_1' },
      /^"TechWeek 2026" is not an event ID/,
    ],
    [{ checkInBy: 'badge', code: CODE }, /^"Check In By" must be QR Code or Registration/],
    [{ checkInBy: 'constructor', code: CODE }, /^"Check In By" must be QR Code or Registration/],
    [{ code: 12345, submissionId: 'sub_1' }, /^Both a QR code and a registration/],
    [{ code: CODE, checkInTime: 'tomorrowish' }, /^"tomorrowish" in Check-In Time is not a date/],
    // Read leniently, these checked people in at 1970, 2001 or 2 March.
    [
      { code: CODE, checkInTime: '20261201' },
      /^"20261201" in Check-In Time is not a date and time \(it is not an ISO 8601/,
    ],
    [{ code: CODE, checkInTime: '1' }, /^"1" in Check-In Time is not a date and time/],
    [{ code: CODE, checkInTime: 1764576000 }, /^"1764576000" in Check-In Time is not a date and time/],
    [{ code: CODE, checkInTime: 'Dec 1' }, /^"Dec 1" in Check-In Time is not a date and time/],
    [
      { code: CODE, checkInTime: '2026-02-30T10:00:00Z' },
      /^"2026-02-30T10:00:00Z" in Check-In Time is not a date and time \(February 2026 has no day 30\)/,
    ],
  ])('refuses %j before any request', async (inputData, message) => {
    const scope = nock(BASE_URL).post(paths.checkIn()).reply(200, wireObject(SAMPLE_CHECK_IN));
    const error = await caught(() => run(inputData));
    expect(errorMessage(error)).toMatch(message);
    expect(scope.isDone()).toBe(false);
  });
});

describe('check-in time', () => {
  /** Now, to the second, plus `ms`, as ISO 8601 UTC. */
  const fromNow = (ms: number) => new Date(Date.now() + ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const DAY = 24 * 3600 * 1000;

  it.each([
    [
      '0026-12-01T10:00:00Z',
      /^"0026-12-01T10:00:00Z" in Check-In Time is in the year 0026, which cannot be right/,
    ],
    ['0099-01-01T00:00:00Z', /is in the year 0099, which cannot be right: the year must be 2000 or later/],
    ['0000-02-29T10:00:00Z', /is in the year 0000/],
    ['1999-12-31T23:59:59Z', /is in the year 1999/],
  ])('refuses %s, a year before 2000 (never read as 19xx), before any request', async (value, message) => {
    const scope = nock(BASE_URL).post(paths.checkIn()).reply(200, wireObject(SAMPLE_CHECK_IN));
    const error = await caught(() => run({ code: CODE, checkInTime: value }));
    const text = errorMessage(error);
    expect(text).toMatch(message);
    expect(text).toMatch(/Send the time as an ISO 8601 date and time with the full year, such as \d{4}-/);
    expect(text).toMatch(/or leave Check-In Time empty to check the person in now\.$/);
    expect(scope.isDone()).toBe(false);
  });

  it('refuses tomorrow (a scan cannot be in the future), saying what was received and what to send', async () => {
    const tomorrow = fromNow(DAY);
    const scope = nock(BASE_URL).post(paths.checkIn()).reply(200, wireObject(SAMPLE_CHECK_IN));
    const error = await caught(() => run({ code: CODE, checkInTime: tomorrow }));
    const text = errorMessage(error);
    expect(text).toContain(`"${tomorrow}" in Check-In Time is `);
    expect(text).toMatch(
      /in the future .* it must be a time that has already happened \(at most 5 minutes ahead/,
    );
    expect(text).toMatch(/or leave Check-In Time empty to check the person in now\.$/);
    expect(scope.isDone()).toBe(false);
  });

  it('quotes a time Zapier rewrote in the Zap timezone as the user typed it too, in UTC', async () => {
    // Typed as 00:00:00Z three days ahead; Zapier hands it over as 18:00:00-06:00 the day before.
    const typed = new Date(Math.ceil((Date.now() + 3 * DAY) / DAY) * DAY);
    const handed = new Date(typed.getTime() - 6 * 3600_000).toISOString().replace('.000Z', '-06:00');
    const error = await caught(() => run({ code: CODE, checkInTime: handed }));
    const text = errorMessage(error);
    expect(text).toContain(
      `"${handed}" (that is ${typed.toISOString().replace('.000Z', 'Z')}: Zapier hands a date and time over in your Zap's timezone) in Check-In Time is 3 days`,
    );
  });

  it('refuses a time 10 minutes ahead, given with an offset or in the Zap timezone', async () => {
    for (const inputData of [
      { code: CODE, checkInTime: fromNow(10 * 60_000) },
      { code: CODE, checkInTime: fromNow(10 * 60_000).replace('Z', '+00:00') },
    ]) {
      const error = await caught(() => run(inputData));
      expect(errorMessage(error)).toMatch(/minutes in the future/);
    }
  });

  it('accepts a time a little ahead (clocks differ), and any past time since 2000', async () => {
    for (const value of [fromNow(2 * 60_000), fromNow(-DAY), '2000-01-01T00:00:00Z']) {
      const seen: Array<{ body: unknown; key: string | undefined }> = [];
      checkInCall(ok(), seen);
      eventsList();
      await run({ code: CODE, checkInTime: value });
      expect(seen[0]?.body).toEqual({ code: CODE, checkInTime: new Date(value).toISOString() });
    }
  });

  it.each([
    ['2025-12-01T09:01:12+01:00', 'Europe/Paris', '2025-12-01T08:01:12.000Z'],
    ['2025-12-01T09:01:12Z', 'Europe/Paris', '2025-12-01T09:01:12.000Z'],
    ['2025-12-01T09:01:12', 'Europe/Paris', '2025-12-01T08:01:12.000Z'],
    ['2025-07-01T09:01:12', 'Europe/Paris', '2025-07-01T07:01:12.000Z'],
    ['2025-12-01 09:01', 'America/New_York', '2025-12-01T14:01:00.000Z'],
    ['2025-12-01T09:01:12.5', 'Asia/Kolkata', '2025-12-01T03:31:12.500Z'],
  ])('%s in a Zap of %s is sent as %s', async (value, timezone, sent) => {
    const seen: Array<{ body: unknown; key: string | undefined }> = [];
    checkInCall(ok(), seen);
    eventsList();
    await appTester(
      perform,
      { authData: authData(), inputData: { code: CODE, checkInTime: value }, meta: meta({ timezone }) },
      true,
    );
    expect(seen[0]?.body).toEqual({ code: CODE, checkInTime: sent });
  });

  it('a value without an offset is read in UTC when Zapier names no timezone', async () => {
    const seen: Array<{ body: unknown; key: string | undefined }> = [];
    checkInCall(ok(), seen);
    eventsList();
    await appTester(
      perform,
      { authData: authData(), inputData: { code: CODE, checkInTime: '2025-12-01T09:00:00' } },
      true,
    );
    expect(seen[0]?.body).toEqual({ code: CODE, checkInTime: '2025-12-01T09:00:00.000Z' });
  });
});

describe('replayed answers that may be outdated', () => {
  it('asks once more with a follow-up key when a stored "not approved" answer is replayed', async () => {
    const seen: Array<{ body: unknown; key: string | undefined }> = [];
    checkInCall(
      { ...apiError(422, 'SUBMISSION_NOT_APPROVED'), headers: { 'Idempotent-Replayed': 'true' } },
      seen,
    );
    checkInCall(ok(), seen);
    eventsList();
    const item = await run({ code: CODE });
    expect(seen).toHaveLength(2);
    expect(seen[0]?.key).toBe(derivedScanKey({ code: CODE }));
    expect(seen[1]?.key).toMatch(/^zapier-checkin-v1-[0-9a-f]{64}$/);
    expect(seen[1]?.key).not.toBe(seen[0]?.key);
    expect(seen[1]?.body).toEqual({ code: CODE });
    expect(item).toMatchObject({ result: 'checked_in', scanId: seen[1]?.key });
  });

  it('does not ask again for a first (not replayed) "not approved" answer', async () => {
    const scope = checkInCall(apiError(422, 'SUBMISSION_NOT_APPROVED'));
    const second = nock(BASE_URL).post(paths.checkIn()).reply(200, wireObject(SAMPLE_CHECK_IN));
    await caught(() => run({ code: CODE }));
    expect(scope.isDone()).toBe(true);
    expect(second.isDone()).toBe(false);
  });

  it('reports the follow-up answer when it is still "not approved"', async () => {
    checkInCall({ ...apiError(422, 'SUBMISSION_NOT_APPROVED'), headers: { 'Idempotent-Replayed': 'true' } });
    checkInCall(apiError(422, 'SUBMISSION_NOT_APPROVED', { status: 'rejected' }));
    const error = await caught(() => run({ code: CODE }));
    expect(errorMessage(error)).toMatch(
      /was rejected, so it has no ticket to check in\. If it was rejected by mistake, approve it/,
    );
  });
});

describe('the fields each mode shows', () => {
  type Field = { key: string; label: string; required?: boolean; dynamic?: string; search?: string };
  type FieldsFn = (z: unknown, bundle: { inputData: Record<string, unknown> }) => Field[];
  const inputFields = checkInAttendee.operation.inputFields ?? [];
  const modeFields = inputFields.find((field) => typeof field === 'function') as unknown as FieldsFn;
  const shown = (checkInBy?: unknown) =>
    appTester(modeFields as never, {
      authData: authData(),
      inputData: checkInBy === undefined ? {} : { checkInBy },
    }) as Promise<Field[]>;
  const keys = async (checkInBy?: unknown) => (await shown(checkInBy)).map((field) => field.key);

  it('"Check In By" alters the fields that follow it', () => {
    expect(inputFields[0]).toMatchObject({ key: 'checkInBy', altersDynamicFields: true, default: 'code' });
  });

  it('QR Code shows the code field only, required', async () => {
    expect(await shown('code')).toEqual([expect.objectContaining({ key: 'code', required: true })]);
  });

  it('Registration shows the event and registration fields, the registration as a dropdown with a search', async () => {
    const fields = await shown('registration');
    expect(fields.map((f) => [f.key, f.required])).toEqual([
      ['eventId', true],
      ['submissionId', true],
    ]);
    expect(fields[1]).toMatchObject({
      dynamic: 'registration_list.id.label',
      search: 'find_registration.id',
      dependsOn: ['eventId'],
    });
  });

  it('before any mode is chosen, the default mode (QR Code) shows', async () => {
    expect(await keys()).toEqual(['code']);
    expect(await keys('')).toEqual(['code']);
  });

  it('a mode mapped from an earlier step, unknown while editing, shows every field, none required', async () => {
    const fields = await shown('{{123__mode}}');
    expect(fields.map((f) => [f.key, f.required])).toEqual([
      ['code', false],
      ['eventId', false],
      ['submissionId', false],
    ]);
  });

  it('the scan reference is labelled and explained as a value mapped from the scanner step, not as an ID to type', () => {
    const reference = inputFields.find(
      (field) => typeof field === 'object' && field.key === 'scanReference',
    ) as Field & {
      helpText: string;
    };
    // Neither the label nor the key reads as an ID (Zapier's check D004 flags ID inputs without a dropdown).
    expect(reference.label).toBe("Scanner's Scan Reference");
    expect(reference.label).not.toMatch(/\bID\b/);
    expect(reference.key).not.toMatch(/id$/i);
    expect(reference.helpText).toMatch(
      /^Not typed by hand: map the reference your scanner app gives each scan/,
    );
  });
});
