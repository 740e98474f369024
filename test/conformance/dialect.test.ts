/**
 * A service that differs from the contract in every shape at once (snake_case names, `{ items, has_more }`
 * lists, `{ error: { type } }` errors, `t=…,v1=…` signatures), played by the sandbox's switches, against
 * the app as it is: one run of the kit names each of the four once, with what the contract says and the
 * operations it breaks, and still checks the records (order, `limit`, `since`) in the dialect it found.
 */
import { DIALECT_SWITCHES, type Deviation, SEED_TENANTS, sandboxCall, startSandbox } from '../../sandbox';
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

/** Each difference: its sandbox switch, its check, and the words that name it where the app does not speak it. */
const FINDINGS: Array<[Deviation, string, RegExp[]]> = [
  [
    'snake-case',
    'dialect.names',
    [
      /^Names follow snake_case: /,
      /"created_at" for "createdAt"/,
      /"id" for "submissionId"/,
      /"items\[\]\.unit_amount" for "items\[\]\.unitAmount"/,
      /"sessions\[\]\.starts_at" for "sessions\[\]\.startsAt"/,
      /New Form Submission.*Find Registration/,
    ],
  ],
  [
    'has-more',
    'dialect.envelope',
    [
      /^Lists hold their records in "items" where the contract has "data"\. "has_more" is true when `limit` left records out \(true with limit=1 of \d+ events, false with all\)/,
    ],
  ],
  [
    'error-type',
    'dialect.errors',
    [/^Error bodies carry their code in "type", spelled "not_found" for NOT_FOUND\./],
  ],
  [
    'timestamped-signature',
    'dialect.signature',
    [
      /^The delivery is signed t=<Unix time>,v1=<hex HMAC-SHA256 of "<t>\.<body>">, where the contract has sha256=/,
      /Attendee Checked In/,
    ],
  ],
];

/** A difference the app already speaks (the contract's own dialect, DIALECT_SWITCHES) is no difference. */
const differing = FINDINGS.filter(([deviation]) => !DIALECT_SWITCHES.includes(deviation));

it('names each difference once, and nothing else differs', () => {
  expect(checks.filter((c) => c.status === 'differs').map((c) => c.id)).toEqual(
    differing.map(([, id]) => id),
  );
});

it.each(FINDINGS)(
  '%s: named with what the contract says and the operations it breaks (%s)',
  (deviation, id, words) => {
    if (!differing.some(([d]) => d === deviation)) {
      expect(detail(id)).toMatch(/The app was taught/);
      return;
    }
    for (const pattern of words) expect(detail(id)).toMatch(pattern);
  },
);

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

it('passes over an event larger than it reads while it finds the dialect, and runs to its report', async () => {
  const sandbox = await startSandbox();
  const { apiKey, companyId } = SEED_TENANTS[0];
  try {
    // The newest event: 150 registrations, more than the 64 KiB this run reads of one answer.
    const big = await sandboxCall<{ id: string }>(sandbox.url, apiKey, 'POST', '/_sandbox/events', {
      title: 'Big Day',
    });
    for (let i = 0; i < 150; i++) {
      const person = {
        eventId: big.id,
        email: `guest.${i}@example.com`,
        firstName: 'Guest',
        lastName: `Number ${i}`,
      };
      await sandboxCall(sandbox.url, apiKey, 'POST', '/_sandbox/submissions', {
        ...person,
        answers: [{ key: 'note', label: 'Note', value: 'x'.repeat(400) }],
      });
    }
    const found = await runConformance({
      baseUrl: sandbox.url,
      apiKey,
      companyId,
      maxAnswerBytes: 64 * 1024,
    });
    expect(found.find((c) => c.id === 'dialect.names')?.detail).toMatch(/\(event, submission, /);
    const dialect = found.filter((c) => c.id.startsWith('dialect.'));
    expect(dialect.map((c) => c.status)).toEqual([
      'holds',
      'holds',
      'holds',
      'holds',
      'holds',
      'holds',
      'unchecked',
    ]);
  } finally {
    await sandbox.close();
  }
});
