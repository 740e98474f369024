/**
 * A service that differs from the contract in every shape at once (snake_case names, `{ items, has_more }`
 * lists, `{ error: { type } }` errors, `t=…,v1=…` signatures), played by the sandbox's switches, against
 * the app as it is: one run of the kit names each of the four once, with what the contract says and the
 * operations it breaks, and still checks the records (order, `limit`, `since`) in the dialect it found.
 */
import { SEED_TENANTS, startSandbox } from '../../sandbox';
import { type Check, runConformance } from '../../scripts/conformance/index';
import { captureDelivery } from '../support/capture';
import { SERVICE_SWITCHES } from '../support/serviceDialect';

let checks: Check[];
beforeAll(async () => {
  const sandbox = await startSandbox({ deviations: SERVICE_SWITCHES });
  try {
    const captured = await captureDelivery(sandbox);
    checks = await runConformance({
      baseUrl: sandbox.url,
      apiKey: SEED_TENANTS[0].apiKey,
      companyId: SEED_TENANTS[0].companyId,
      ...captured,
    });
  } finally {
    await sandbox.close();
  }
});

const detail = (id: string) => checks.find((c) => c.id === id)?.detail ?? '';

it('names each of the four differences once, and nothing else differs', () => {
  expect(checks.filter((c) => c.status === 'differs').map((c) => c.id)).toEqual([
    'dialect.names',
    'dialect.envelope',
    'dialect.errors',
    'dialect.signature',
  ]);
});

it('names the fields, nested ones included, with the operations they break', () => {
  expect(detail('dialect.names')).toMatch(/^Names follow snake_case: /);
  for (const pair of [
    '"created_at" for "createdAt"',
    '"id" for "submissionId"',
    '"items[].unit_amount" for "items[].unitAmount"',
    '"sessions[].starts_at" for "sessions[].startsAt"',
  ]) {
    expect(detail('dialect.names')).toContain(pair);
  }
  expect(detail('dialect.names')).toMatch(/New Form Submission.*Find Registration/);
});

it('names the envelope and what its paging member means', () => {
  expect(detail('dialect.envelope')).toMatch(
    /^Lists hold their records in "items" where the contract has "data"\. "has_more" is true when `limit` left records out \(true with limit=1 of \d+ events, false with all\)/,
  );
});

it('names the error body and the spelling of its codes', () => {
  expect(detail('dialect.errors')).toMatch(
    /^Error bodies carry their code in "type", spelled "not_found" for NOT_FOUND\./,
  );
});

it('names the signature scheme from the captured delivery, and the instant triggers it breaks', () => {
  expect(detail('dialect.signature')).toMatch(
    /^The delivery is signed t=<Unix time>,v1=<hex HMAC-SHA256 of "<t>\.<body>">, where the contract has sha256=/,
  );
  expect(detail('dialect.signature')).toMatch(/Attendee Checked In/);
});

it('still checks order, limit and since, in the dialect it found: nothing is left unchecked', () => {
  expect(checks.filter((c) => c.status === 'unchecked')).toEqual([]);
  for (const id of [
    'events.order',
    'events.limit-newest',
    'submissions.filter',
    'submissions.inclusive',
    'submissions.millis',
    'orders.limit-clamp',
  ]) {
    expect({ id, status: checks.find((c) => c.id === id)?.status }).toEqual({ id, status: 'holds' });
  }
});
