/** Check-in wording of the errors layer, and the flag of answers the service replayed for a repeated key. */
import nock from 'nock';
import { checkIn, appErrorCode, isReplayedAnswer, paths } from '../../src/connect';
import { BASE_URL, appTester, authData, caught, errorMessage } from '../support/app';

const send = () =>
  caught(() =>
    appTester((z, bundle) => checkIn(z, bundle, { code: 'X' }, 'key-1'), { authData: authData() }),
  );

const reply = (status: number, error: Record<string, unknown>, headers: Record<string, string> = {}) =>
  nock(BASE_URL)
    .post(paths.checkIn())
    .reply(status, JSON.stringify({ error }), { 'Content-Type': 'application/json', ...headers });

afterEach(() => nock.cleanAll());

it('flags an error the service replayed from its idempotency store, and only that one', async () => {
  reply(404, { code: 'TICKET_NOT_FOUND', message: 'no' }, { 'Idempotent-Replayed': 'true' });
  const replayed = await send();
  expect(appErrorCode(replayed)).toBe('TICKET_NOT_FOUND');
  expect(isReplayedAnswer(replayed)).toBe(true);

  reply(404, { code: 'TICKET_NOT_FOUND', message: 'no' });
  expect(isReplayedAnswer(await send())).toBe(false);
  expect(isReplayedAnswer(new Error('x'))).toBe(false);
});

it('SUBMISSION_NOT_APPROVED says the registration exists but is not approved, with its status when given', async () => {
  reply(422, { code: 'SUBMISSION_NOT_APPROVED', message: 'not approved', status: 'rejected' });
  expect(errorMessage(await send())).toBe(
    'The registration behind QR code "X" was rejected, so it has no ticket to check in. If it was rejected by mistake, approve it in the dashboard, then run this step again. The service said: not approved.',
  );
  // The documented answer cannot tell pending from rejected: the message says it may be either.
  reply(422, { code: 'SUBMISSION_NOT_APPROVED' });
  expect(errorMessage(await send())).toBe(
    'The registration behind QR code "X" is not approved: it is still pending or was rejected, so it has no ticket to check in. Look it up in the dashboard: if it is pending (or was rejected by mistake), approve it, then run this step again.',
  );
  reply(422, { code: 'SUBMISSION_NOT_APPROVED', status: 'cancelled' });
  expect(errorMessage(await send())).toBe(
    'The registration behind QR code "X" is not approved (its status is "cancelled"), so it has no ticket to check in. Look it up in the dashboard; once it is approved, run this step again.',
  );
});

it('IDEMPOTENCY_KEY_REUSED explains the scan reference', async () => {
  reply(422, { code: 'IDEMPOTENCY_KEY_REUSED', message: 'different body' });
  const error = await send();
  expect(appErrorCode(error)).toBe('IDEMPOTENCY_KEY_REUSED');
  expect(errorMessage(error)).toMatch(
    /^This scan reference was already used .* "Scanner's Scan Reference", or leave that field empty\. The service said: different body\.$/,
  );
});
