// POST /api/v1/checkin (contract.md §4): both body forms, every error row, the first check-in winning, and
// Idempotency-Key semantics (replay, reuse with another body, in flight, scope, retention).

import type { FastifyInstance } from 'fastify';
import { startSandbox, type RunningSandbox } from '../../sandbox';
import {
  call,
  deliveriesIdle,
  eventId,
  expectError,
  HARBOR,
  json,
  LUMEN,
  makeApp,
  newSubmission,
  NORTHWIND,
  Receiver,
  record,
  subscribe,
  submissionsOf,
  type Clock,
} from './helpers';
import { errorOf, inAppNames } from '../../src/connect/testing';

const CHECKIN = '/api/v1/checkin';

let app: FastifyInstance;
let clock: Clock;

beforeEach(() => {
  ({ app, clock } = makeApp());
});
afterEach(() => app.close());

const checkin = (body: unknown, headers: Record<string, string> = {}, key: string = NORTHWIND.apiKey) =>
  call(app, 'POST', CHECKIN, { body, headers, key });

describe('check-in', () => {
  it('checks an approved submission in by code, then reports already_checked_in with the first time', async () => {
    const sub = await newSubmission(app, 'approved');
    const first = await checkin({ code: sub.qrCode });
    expect(first.statusCode).toBe(200);
    expect(record(first, 'checkInResult')).toEqual({
      result: 'checked_in',
      submissionId: sub.submissionId,
      eventId: sub.eventId,
      checkInTime: '2026-11-22T10:00:00.000Z',
      attendee: { firstName: 'Test', lastName: 'Guest', email: expect.stringMatching(/@example\.com$/) },
    });
    expect(first.headers['idempotent-replayed']).toBeUndefined();

    clock.advance(60_000);
    const again = await checkin({ eventId: sub.eventId, submissionId: sub.submissionId });
    expect(again.statusCode).toBe(200);
    expect(record(again, 'checkInResult')).toMatchObject({
      result: 'already_checked_in',
      checkInTime: '2026-11-22T10:00:00.000Z',
    });

    const listed = (await submissionsOf(app, sub.eventId)).find((s) => s.submissionId === sub.submissionId);
    expect(listed?.checkedInAt).toBe('2026-11-22T10:00:00.000Z');
  });

  it('checks in by eventId + submissionId and keeps a given checkInTime (normalised)', async () => {
    const sub = await newSubmission(app, 'approved');
    const res = await checkin({
      eventId: sub.eventId,
      submissionId: sub.submissionId,
      checkInTime: '2026-12-01T09:01:12+01:00',
    });
    expect(record(res, 'checkInResult')).toMatchObject({
      result: 'checked_in',
      checkInTime: '2026-12-01T08:01:12.000Z',
    });
  });

  it.each([
    [{ code: 'EVT1:x', eventId: 'e', submissionId: 's' }, 'code'],
    [{ code: 'EVT1:x', submissionId: 's' }, 'code'],
    [{}, 'code'],
    [{ checkInTime: '2026-12-01T08:00:00.000Z' }, 'code'],
    [{ code: '' }, 'code'],
    [{ code: '   ' }, 'code'],
    [{ code: 42 }, 'code'],
    [{ eventId: 'e' }, 'submissionId'],
    [{ submissionId: 's' }, 'eventId'],
    [{ eventId: 5, submissionId: 's' }, 'eventId'],
    [{ code: 'EVT1:x', checkInTime: 'tomorrow' }, 'checkInTime'],
    [{ qrPayload: 'EVT1:x' }, 'code'],
    ['EVT1:x', 'body'],
    [null, 'body'],
  ])('%j → 400 VALIDATION_ERROR field %s', async (body, field) => {
    const res =
      body === null || typeof body === 'string'
        ? await app.inject({
            method: 'POST',
            url: CHECKIN,
            headers: { 'x-api-key': NORTHWIND.apiKey, 'content-type': 'application/json' },
            payload: JSON.stringify(body),
          })
        : await checkin(body);
    expectError(res, 400, 'VALIDATION_ERROR', { field });
  });

  it('answers 422 SUBMISSION_NOT_APPROVED for pending and rejected submissions, by either form', async () => {
    const pending = await newSubmission(app, 'pending');
    const res = await checkin({ eventId: pending.eventId, submissionId: pending.submissionId });
    expectError(res, 422, 'SUBMISSION_NOT_APPROVED');

    // Approved, then rejected: the code it had is recognised, and refused.
    const approved = await newSubmission(app, 'approved');
    await call(app, 'POST', `/_sandbox/submissions/${approved.submissionId}/reject`);
    expectError(await checkin({ code: approved.qrCode }), 422, 'SUBMISSION_NOT_APPROVED');
    expectError(
      await checkin({ eventId: approved.eventId, submissionId: approved.submissionId }),
      422,
      'SUBMISSION_NOT_APPROVED',
    );
  });

  it('answers 404 TICKET_NOT_FOUND when nothing matches, including another tenant’s ticket', async () => {
    const sub = await newSubmission(app, 'approved');
    const other = await eventId(app, 'data-ai-summit-lyon');
    expectError(await checkin({ code: 'EVT1:deadbeef:sub_NOPE:0000' }), 404, 'TICKET_NOT_FOUND');
    expectError(await checkin({ code: 'my-own-qr-format-123' }), 404, 'TICKET_NOT_FOUND');
    expectError(await checkin({ code: `${sub.qrCode?.slice(0, -4)}ffff` }), 404, 'TICKET_NOT_FOUND');
    expectError(await checkin({ eventId: other, submissionId: sub.submissionId }), 404, 'TICKET_NOT_FOUND');
    expectError(await checkin({ eventId: sub.eventId, submissionId: 'sub_NOPE' }), 404, 'TICKET_NOT_FOUND');

    const harborSub = await newSubmission(app, 'approved', HARBOR.apiKey, 'harbor-ai-night-sf');
    expectError(await checkin({ code: harborSub.qrCode }), 404, 'TICKET_NOT_FOUND');
    expect((await checkin({ code: harborSub.qrCode }, {}, HARBOR.apiKey)).statusCode).toBe(200);
  });

  it('answers 403 ENTITLEMENT_REQUIRED qrScan for an organizer without QR scanning', async () => {
    const res = await checkin({ code: 'EVT1:x' }, {}, LUMEN.apiKey);
    expectError(res, 403, 'ENTITLEMENT_REQUIRED', { entitlement: 'qrScan' });
  });

  it('treats a door scan by the service’s own scanner like an API check-in', async () => {
    const sub = await newSubmission(app, 'approved');
    const scan = await call(app, 'POST', '/_sandbox/scan', { body: { code: sub.qrCode } });
    expect(json(scan)).toMatchObject({ result: 'checked_in', submissionId: sub.submissionId });
    clock.advance(5000);
    const api = await checkin({ code: sub.qrCode });
    expect(record(api, 'checkInResult')).toMatchObject({
      result: 'already_checked_in',
      checkInTime: json(scan).checkInTime,
    });
    expectError(
      await call(app, 'POST', '/_sandbox/scan', { body: { code: 'x' }, key: LUMEN.apiKey }),
      403,
      'ENTITLEMENT_REQUIRED',
      {
        entitlement: 'qrScan',
      },
    );
  });
});

describe('Idempotency-Key', () => {
  it('replays the stored response for the same key and body, with Idempotent-Replayed: true', async () => {
    const sub = await newSubmission(app, 'approved');
    const first = await checkin({ code: sub.qrCode }, { 'idempotency-key': 'desk-1-scan-1' });
    clock.advance(30_000);
    // Same body with other key order and spacing is the same body.
    const replay = await app.inject({
      method: 'POST',
      url: CHECKIN,
      headers: {
        'x-api-key': NORTHWIND.apiKey,
        'content-type': 'application/json',
        'idempotency-key': '"desk-1-scan-1"',
      },
      payload: `{ "code" : ${JSON.stringify(sub.qrCode)} }`,
    });
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(first.body);
    expect(record(replay, 'checkInResult').result).toBe('checked_in');

    // A new key for the same ticket is a new scan: already checked in.
    const second = await checkin({ code: sub.qrCode }, { 'idempotency-key': 'desk-1-scan-2' });
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(record(second, 'checkInResult').result).toBe('already_checked_in');
  });

  it('answers 422 IDEMPOTENCY_KEY_REUSED for the same key with a different body', async () => {
    const a = await newSubmission(app, 'approved');
    const b = await newSubmission(app, 'approved');
    await checkin({ code: a.qrCode }, { 'idempotency-key': 'k-1' });
    expectError(
      await checkin({ code: b.qrCode }, { 'idempotency-key': 'k-1' }),
      422,
      'IDEMPOTENCY_KEY_REUSED',
    );
    expectError(
      await checkin(
        { code: a.qrCode, checkInTime: '2026-11-22T10:00:00.000Z' },
        { 'idempotency-key': 'k-1' },
      ),
      422,
      'IDEMPOTENCY_KEY_REUSED',
    );
    const listed = (await submissionsOf(app, b.eventId)).find((s) => s.submissionId === b.submissionId);
    expect(listed?.checkedInAt).toBeNull();
  });

  it('replays stored error responses too (one key names one scan)', async () => {
    const sub = await newSubmission(app, 'pending');
    const body = { eventId: sub.eventId, submissionId: sub.submissionId };
    expectError(await checkin(body, { 'idempotency-key': 'scan-9' }), 422, 'SUBMISSION_NOT_APPROVED');
    await call(app, 'POST', `/_sandbox/submissions/${sub.submissionId}/approve`);
    const replay = await checkin(body, { 'idempotency-key': 'scan-9' });
    expectError(replay, 422, 'SUBMISSION_NOT_APPROVED');
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(record(await checkin(body, { 'idempotency-key': 'scan-10' }), 'checkInResult').result).toBe(
      'checked_in',
    );
  });

  it('scopes keys to the API key', async () => {
    const mine = await newSubmission(app, 'approved');
    const theirs = await newSubmission(app, 'approved', HARBOR.apiKey, 'harbor-ai-night-sf');
    const a = await checkin({ code: mine.qrCode }, { 'idempotency-key': 'shared-key' });
    const b = await checkin({ code: theirs.qrCode }, { 'idempotency-key': 'shared-key' }, HARBOR.apiKey);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(record(b, 'checkInResult').submissionId).toBe(theirs.submissionId);
  });

  it('keeps a key for at least 24 hours', async () => {
    const sub = await newSubmission(app, 'approved');
    await checkin({ code: sub.qrCode }, { 'idempotency-key': 'day-key' });
    clock.advance(23 * 3600_000 + 59 * 60_000);
    const replay = await checkin({ code: sub.qrCode }, { 'idempotency-key': 'day-key' });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    clock.advance(2 * 3600_000);
    const later = await checkin({ code: sub.qrCode }, { 'idempotency-key': 'day-key' });
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(record(later, 'checkInResult').result).toBe('already_checked_in');
  });

  it.each([
    ['', 'empty'],
    ['""', 'empty quoted'],
    ['"unterminated', 'unterminated'],
    ['"bad\\escape"', 'bad escape'],
    ['has space', 'space in a bare token'],
    ['x'.repeat(256), '256 characters'],
    [`"${'x'.repeat(256)}"`, '256 quoted characters'],
  ])('rejects the key %j (%s) with 400 field Idempotency-Key', async (key) => {
    const sub = await newSubmission(app, 'approved');
    const res = await checkin({ code: sub.qrCode }, { 'idempotency-key': key });
    expectError(res, 400, 'VALIDATION_ERROR', { field: 'Idempotency-Key' });
  });

  it('accepts 255 characters and quoted strings with escapes', async () => {
    const sub = await newSubmission(app, 'approved');
    expect((await checkin({ code: sub.qrCode }, { 'idempotency-key': 'k'.repeat(255) })).statusCode).toBe(
      200,
    );
    const quoted = await checkin({ code: sub.qrCode }, { 'idempotency-key': '"a \\"quoted\\" \\\\ key"' });
    expect(quoted.statusCode).toBe(200);
  });

  it('answers 409 IDEMPOTENCY_KEY_IN_USE while the first request is in flight; one check-in happens', async () => {
    const sub = await newSubmission(app, 'approved');
    await call(app, 'POST', '/_sandbox/faults', {
      // Long enough for the four other requests to arrive while the first is in flight, however busy the machine.
      body: { route: 'POST /api/v1/checkin', kind: 'slow', delayMs: 3_000, count: 1 },
    });
    const headers = { 'idempotency-key': 'concurrent-1' };
    const first = checkin({ code: sub.qrCode }, headers);
    await new Promise((r) => setTimeout(r, 20));
    const others = await Promise.all([1, 2, 3, 4].map(() => checkin({ code: sub.qrCode }, headers)));
    for (const res of others) expectError(res, 409, 'IDEMPOTENCY_KEY_IN_USE');
    const done = await first;
    expect(record(done, 'checkInResult').result).toBe('checked_in');
    const after = await checkin({ code: sub.qrCode }, headers);
    expect(after.headers['idempotent-replayed']).toBe('true');
    expect(after.body).toBe(done.body);
  });
});

describe('concurrent check-ins over real HTTP', () => {
  let sandbox: RunningSandbox;
  let receiver: Receiver;

  beforeAll(async () => {
    sandbox = await startSandbox();
    receiver = await new Receiver().start();
  });
  afterAll(async () => {
    await sandbox.close();
    await receiver.close();
  });

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${sandbox.url}${CHECKIN}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': NORTHWIND.apiKey, ...headers },
      body: JSON.stringify(body),
    });

  it('with the same Idempotency-Key: exactly one check-in and one webhook', async () => {
    await subscribe(sandbox.app, `${receiver.url}/hook`, 'ATTENDANT_CHECKED_IN');
    const sub = await newSubmission(sandbox.app, 'approved');
    const responses = await Promise.all(
      Array.from({ length: 12 }, () => post({ code: sub.qrCode }, { 'idempotency-key': 'same-scan' })),
    );
    const results = await Promise.all(
      responses.map(async (r) => ({
        status: r.status,
        replayed: r.headers.get('idempotent-replayed'),
        body: (await r.json()) as unknown,
      })),
    );
    const fresh = results.filter((r) => r.status === 200 && r.replayed === null);
    expect(fresh).toHaveLength(1);
    expect(inAppNames('checkInResult', fresh[0]?.body).result).toBe('checked_in');
    for (const r of results) {
      if (r.status === 200) expect(inAppNames('checkInResult', r.body).result).toBe('checked_in');
      else expect(errorOf(r.body).code).toBe('IDEMPOTENCY_KEY_IN_USE');
    }
    await deliveriesIdle(sandbox.app);
    expect(
      receiver.ofType('ATTENDANT_CHECKED_IN').filter((r) => r.body.data.submissionId === sub.submissionId),
    ).toHaveLength(1);
  });

  it('without a key: one checked_in, the rest already_checked_in with the first time', async () => {
    const sub = await newSubmission(sandbox.app, 'approved');
    const responses = await Promise.all(Array.from({ length: 10 }, () => post({ code: sub.qrCode })));
    const bodies = (await Promise.all(responses.map((r) => r.json()))).map((body) =>
      inAppNames('checkInResult', body),
    );
    expect(bodies.filter((b) => b.result === 'checked_in')).toHaveLength(1);
    expect(new Set(bodies.map((b) => b.checkInTime)).size).toBe(1);
  });
});
