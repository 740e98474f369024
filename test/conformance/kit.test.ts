/**
 * The conformance kit against the sandbox: as it is, nothing differs and everything is checked; with each
 * deviation switch on, the check that names the deviation says so, and only deviations the app cannot
 * live with make the run differ.
 */
import {
  AGENCY_TENANT,
  DIALECT_SWITCHES,
  type Deviation,
  type RunningSandbox,
  SEED_TENANTS,
  sandboxCall,
  startSandbox,
} from '../../sandbox';
import { EXIT, main } from '../../scripts/conformance';
import { type Check, runConformance } from '../../scripts/conformance/index';
import { captureDelivery } from '../support/capture';
import { DIALECT, recordsOf } from '../../src/connect/testing';

const NORTHWIND = SEED_TENANTS[0];

/** The checks of the kit's latest run, as `runConformance` returned them (also when `main` ran it). */
let mockLatestChecks: Check[] | undefined;
jest.mock('../../scripts/conformance/index', () => {
  const actual = jest.requireActual<typeof import('../../scripts/conformance/index')>(
    '../../scripts/conformance/index',
  );
  return {
    ...actual,
    runConformance: async (...args: Parameters<typeof actual.runConformance>) => {
      const checks = await actual.runConformance(...args);
      mockLatestChecks = checks;
      return checks;
    },
  };
});

/** The kit against a sandbox with `deviations`, given a delivery captured from it (the signature check). */
const run = async (deviations: Deviation[] = []): Promise<Check[]> => {
  const sandbox = await startSandbox({ deviations });
  try {
    return await runConformance({
      baseUrl: sandbox.url,
      apiKey: NORTHWIND.apiKey,
      companyId: NORTHWIND.companyId,
      ...(await captureDelivery(sandbox)),
    });
  } finally {
    await sandbox.close();
  }
};

const byId = (checks: Check[]) => new Map(checks.map((c) => [c.id, c]));

/** The kit against the sandbox as it is: it only reads (see "changes nothing"), so one run serves every test. */
let asItIs: Promise<Check[]> | undefined;
const runAsItIs = (): Promise<Check[]> => (asItIs ??= run());

describe('against the sandbox as it is', () => {
  let checks: Check[];
  beforeAll(async () => {
    checks = await runAsItIs();
  });

  it('finds nothing that differs and leaves nothing unchecked', () => {
    const notClean = checks.filter((c) => c.status !== 'holds' && c.status !== 'tolerated');
    expect(notClean).toEqual([]);
    // Plain http is tolerated on a loopback address only; where the dialect pages lists, `limit` is a page's
    // size, and the kit reads every page (so limit=1 answers every order).
    const paged =
      DIALECT.list.next === null ? [] : ['orders.limit-default', 'orders.limit-clamp', 'orders.limit-newest'];
    expect(checks.filter((c) => c.status === 'tolerated').map((c) => c.id)).toEqual([
      'connection.https',
      ...paged,
    ]);
  });

  it("quotes the service's own error code, then the app's reading of it", () => {
    const detail = checks.find((c) => c.id === 'errors.malformed-since')?.detail;
    expect(detail).toBe(
      'HTTP 400 with { "error": { "code": "VALIDATION_ERROR" } } (the app reads it as REQUEST_REJECTED) and a message.',
    );
  });

  it('covers every endpoint and assumption of the issue, each check once', () => {
    const ids = checks.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(
      expect.arrayContaining([
        'connection.https',
        'connection.no-redirects',
        'connection.date-header',
        'connection.clock-skew',
        'events.envelope',
        'events.limit-default',
        'events.limit-clamp',
        'submissions.envelope',
        'submissions.filter',
        'submissions.inclusive',
        'submissions.millis',
        'submissions.order',
        'submissions.timestamps',
        'submissions.late',
        'orders.envelope',
        'floorPlans.envelope',
        'floorPlans.one',
        'catalog.envelope',
        'catalog.paging',
        'catalog.no-key',
        'widgets.event',
        'widgets.agenda',
        'errors.wrong-key',
        'errors.unknown-event',
        'errors.malformed-since',
        'errors.entitlement',
        'hooks.unknown',
      ]),
    );
    for (const c of checks) {
      expect(c.assumption).not.toBe('');
      expect(c.detail).not.toBe('');
    }
  });

  it('changes nothing in the service: no request but GET', async () => {
    const sandbox = await startSandbox();
    try {
      await runConformance({
        baseUrl: sandbox.url,
        apiKey: NORTHWIND.apiKey,
        companyId: NORTHWIND.companyId,
      });
      const counts = await fetch(`${sandbox.url}/_sandbox/requests`, {
        headers: { 'X-API-KEY': NORTHWIND.apiKey },
      });
      const routes = JSON.stringify(await counts.json());
      expect(routes).toContain('GET ');
      expect(routes).not.toMatch(/"(POST|PUT|PATCH|DELETE) /);
    } finally {
      await sandbox.close();
    }
  });
});

/** Each switch: the checks that name it, with their status, and whether the run as a whole differs. */
const CASES: Array<[Deviation, Record<string, Check['status']>, boolean]> = [
  [
    'bare-arrays',
    {
      'dialect.envelope': 'differs',
      'events.envelope': 'holds',
      'submissions.envelope': 'holds',
      'orders.envelope': 'holds',
      'floorPlans.envelope': 'holds',
      'submissions.filter': 'holds',
    },
    true,
  ],
  [
    'nested-envelope',
    {
      'dialect.envelope': 'differs',
      'dialect.paging': 'holds',
      'events.envelope': 'holds',
      'submissions.envelope': 'holds',
      'orders.envelope': 'holds',
      'submissions.filter': 'holds',
    },
    true,
  ],
  [
    'cursor-paging',
    {
      'dialect.paging': 'differs',
      'dialect.envelope': 'holds',
      'submissions.filter': 'holds',
      // `limit` is a page's size: every page read, limit=1 is all orders, the newest among them.
      'orders.limit-newest': 'tolerated',
    },
    true,
  ],
  [
    'link-paging',
    {
      'dialect.paging': 'differs',
      'dialect.envelope': 'holds',
      'submissions.filter': 'holds',
      'orders.limit-newest': 'tolerated',
    },
    true,
  ],
  [
    'flat-errors',
    {
      'dialect.errors': 'differs',
      'hooks.unknown': 'holds',
      'errors.unknown-event': 'holds',
      'errors.malformed-since': 'holds',
    },
    true,
  ],
  [
    'other-statuses',
    {
      'dialect.errors': 'differs',
      'hooks.unknown': 'holds',
      'errors.unknown-event': 'holds',
      'errors.malformed-since': 'holds',
      'catalog.no-key': 'holds',
    },
    true,
  ],
  // A difference the dialect cannot express: named with the files a developer must change.
  ['catalog-cursor', { 'catalog.paging': 'differs', 'catalog.envelope': 'tolerated' }, true],
  ['snake-query', { 'dialect.query': 'differs', 'submissions.filter': 'holds' }, true],
  ['other-spellings', { 'dialect.spellings': 'differs', 'dialect.names': 'holds' }, true],
  ['signature-header', { 'dialect.signature': 'differs' }, true],
  [
    'items-envelope',
    {
      'dialect.envelope': 'differs',
      'events.envelope': 'holds',
      'submissions.envelope': 'holds',
      'orders.envelope': 'holds',
      'floorPlans.envelope': 'holds',
      'submissions.filter': 'holds',
      'orders.limit-newest': 'holds',
    },
    true,
  ],
  [
    'has-more',
    {
      'dialect.envelope': 'differs',
      'events.envelope': 'holds',
      'orders.envelope': 'holds',
      'catalog.envelope': 'holds',
      'orders.limit-newest': 'holds',
    },
    true,
  ],
  [
    'snake-case',
    {
      'dialect.names': 'differs',
      'events.envelope': 'holds',
      'submissions.envelope': 'holds',
      'orders.envelope': 'holds',
      'floorPlans.envelope': 'holds',
      'floorPlans.one': 'holds',
      'catalog.envelope': 'holds',
      'widgets.event': 'holds',
      'widgets.agenda': 'holds',
      'submissions.filter': 'holds',
    },
    true,
  ],
  [
    'error-type',
    {
      'dialect.errors': 'differs',
      'hooks.unknown': 'holds',
      'floorPlans.unknown': 'holds',
      'widgets.unknown': 'holds',
      'orders.unknown-company': 'holds',
      'errors.entitlement': 'holds',
      'errors.wrong-key': 'holds',
      'errors.unknown-event': 'holds',
      'errors.malformed-since': 'holds',
    },
    true,
  ],
  ['timestamped-signature', { 'dialect.signature': 'differs' }, true],
  ['since-ignored', { 'submissions.filter': 'differs' }, true],
  ['since-exclusive', { 'submissions.inclusive': 'tolerated', 'submissions.filter': 'holds' }, false],
  ['since-seconds', { 'submissions.millis': 'tolerated', 'submissions.inclusive': 'holds' }, false],
  [
    'plain-errors',
    {
      'hooks.unknown': 'differs',
      'floorPlans.unknown': 'differs',
      'widgets.unknown': 'differs',
      'orders.unknown-company': 'differs',
      'errors.entitlement': 'differs',
      'errors.wrong-key': 'tolerated',
    },
    true,
  ],
  ['no-date', { 'connection.date-header': 'tolerated', 'connection.clock-skew': 'unchecked' }, false],
  ['skewed-clock', { 'connection.clock-skew': 'differs', 'connection.date-header': 'holds' }, true],
  [
    'limit-rejected',
    {
      'events.limit-clamp': 'tolerated',
      'orders.limit-clamp': 'tolerated',
      'catalog.limit-clamp': 'tolerated',
    },
    false,
  ],
  ['shuffle', { 'submissions.order': 'tolerated', 'orders.order': 'tolerated' }, false],
];

/**
 * The command line against a sandbox with `deviations` (the run `run` makes, through `main`): its exit
 * code, and the checks its run found (one run of the kit for both).
 */
const throughMain = async (deviations: Deviation[]): Promise<{ code: number; checks: Check[] }> => {
  const sandbox = await startSandbox({ deviations });
  const quiet = { write: () => true };
  try {
    const { delivery, secret } = await captureDelivery(sandbox);
    const args = ['--base-url', sandbox.url, '--api-key', NORTHWIND.apiKey, '--company', NORTHWIND.companyId];
    args.push('--delivery', delivery, '--secret', secret);
    mockLatestChecks = undefined;
    const code = await main(args, { out: quiet, err: quiet });
    if (!mockLatestChecks) throw new Error('main ran no check');
    return { code, checks: mockLatestChecks };
  } finally {
    await sandbox.close();
  }
};

/** A switch the contract's own dialect has on (DIALECT_SWITCHES) deviates from nothing: it is not played. */
const DEVIATING = CASES.filter(([deviation]) => !DIALECT_SWITCHES.includes(deviation));

describe.each(DEVIATING)('with the %s deviation', (deviation, expected, anyDiffers) => {
  let checks: Check[];
  let code: number;
  beforeAll(async () => {
    ({ code, checks } = await throughMain([deviation]));
  });

  it(`exits ${anyDiffers ? 1 : 0}`, () => {
    expect(code).toBe(anyDiffers ? EXIT.differs : EXIT.clean);
  });

  it(`reports it where it shows (${Object.keys(expected).join(', ')})`, () => {
    const found = byId(checks);
    for (const [id, status] of Object.entries(expected)) {
      expect({ id, status: found.get(id)?.status }).toEqual({ id, status });
    }
  });

  it(anyDiffers ? 'makes the run differ, saying what would fail' : 'leaves the run clean (tolerated)', () => {
    const differing = checks.filter((c) => c.status === 'differs');
    expect(differing.map((c) => c.id).sort()).toEqual(
      anyDiffers
        ? Object.keys(expected)
            .filter((id) => expected[id] === 'differs')
            .sort()
        : [],
    );
    for (const c of differing) {
      expect(c.detail).toMatch(/would|could|may/);
      expect(c.action).toBeTruthy();
    }
  });
});

describe('what the service answered instead: each difference of dialect named once, the records checked in it', () => {
  it('another envelope: the counterpart of "data" and what its other member means, every list then read', async () => {
    const checks = await run(['items-envelope']);
    const found = byId(checks);
    expect(found.get('dialect.envelope')?.detail).toMatch(
      /^Lists hold their records in "items" where the contract has "data"\. "next" is null with all and with limit=1 of \d+ events: it offers no further page, and the app needs nothing from it\. Until the app is taught this envelope it would read no list/,
    );
    expect(checks.filter((c) => c.status === 'unchecked')).toEqual([]);
  });

  it('another envelope with --event: the registrations of that event are checked all the same', async () => {
    const sandbox = await startSandbox({ deviations: ['items-envelope'] });
    try {
      // The simulation API's own answer (the sandbox's, not the Connect dialect's).
      const events = await sandboxCall<{ data: Array<{ id: string }> }>(
        sandbox.url,
        NORTHWIND.apiKey,
        'GET',
        '/_sandbox/events?q=techweek-paris-2026',
      );
      const eventId = events.data[0]!.id;
      const found = byId(await runConformance({ baseUrl: sandbox.url, apiKey: NORTHWIND.apiKey, eventId }));
      expect(found.get('dialect.envelope')?.status).toBe('differs');
      for (const id of [
        'submissions.envelope',
        'submissions.order',
        'submissions.filter',
        'submissions.inclusive',
        'submissions.late',
      ]) {
        expect(found.get(id)?.status).toMatch(/holds|tolerated/);
      }
    } finally {
      await sandbox.close();
    }
  });

  it('snake_case records: every renamed field named once, nested ones included, and every record check run', async () => {
    const checks = await run(['snake-case']);
    const names = byId(checks).get('dialect.names')?.detail ?? '';
    for (const pair of [
      '"id" for "submissionId"',
      '"event_id" for "eventId"',
      '"created_at" for "createdAt"',
      '"published_at" for "publishedAt"',
      '"items[].unit_amount" for "items[].unitAmount"',
      '"sessions[].starts_at" for "sessions[].startsAt"',
    ]) {
      expect(names).toContain(pair);
    }
    expect(checks.filter((c) => c.id !== 'dialect.names' && /"created_at"/.test(c.detail))).toEqual([]);
    expect(checks.filter((c) => c.status === 'unchecked')).toEqual([]);
  });

  it('another envelope of snake_case records: both named, and the records under it checked', async () => {
    const checks = await run(['items-envelope', 'snake-case']);
    // A contract that came to say snake_case (DIALECT_SWITCHES) has the names taught: only the envelope differs.
    const names = DIALECT_SWITCHES.includes('snake-case') ? [] : ['dialect.names'];
    expect(checks.filter((c) => c.status === 'differs').map((c) => c.id)).toEqual([
      ...names,
      'dialect.envelope',
    ]);
    expect(checks.filter((c) => c.status === 'unchecked')).toEqual([]);
  });

  it('bare arrays (list.member ""): named, and the records in them still checked', async () => {
    const checks = await run(['bare-arrays']);
    expect(byId(checks).get('dialect.envelope')?.detail).toMatch(
      /^Lists answer a bare JSON array, without an envelope/,
    );
    expect(checks.filter((c) => c.status === 'unchecked')).toEqual([]);
  });

  // Played while the contract's own error body is not `error-type`'s (DIALECT_SWITCHES).
  (DIALECT_SWITCHES.includes('error-type') ? it.skip : it)(
    'another error body: the member that carries the code and its spelling, every error then read by meaning',
    async () => {
      const found = byId(await run(['error-type']));
      expect(found.get('dialect.errors')?.detail).toMatch(
        /^Error bodies carry their code in "type", spelled "not_found" for NOT_FOUND\. Until the app is taught these errors \(errors in src\/connect\/dialect\.ts\) it misreads them: a search for something gone would fail instead of finding nothing/,
      );
      expect(found.get('hooks.unknown')?.status).toBe('holds');
    },
  );
});

it('words what a user would see for the deviations the issue names', async () => {
  const found = byId(await run(['since-ignored']));
  expect(found.get('submissions.filter')?.detail).toMatch(
    /every poll of New Form Submission would read the whole event/,
  );
});

describe('odd records (the odd-record rule of src/connect/records.ts)', () => {
  let sandbox: RunningSandbox;
  let eventId: string;
  let submissionIds: string[];
  const sim = (method: string, path: string, body?: unknown) =>
    sandboxCall<Record<string, unknown>>(sandbox.url, NORTHWIND.apiKey, method, path, body);
  const envelope = async () => {
    const checks = await runConformance({ baseUrl: sandbox.url, apiKey: NORTHWIND.apiKey, eventId });
    return byId(checks).get('submissions.envelope');
  };

  beforeAll(async () => {
    sandbox = await startSandbox();
    const events = recordsOf<{ id: string; slug: string }>(
      'event',
      await sim('GET', '/api/v1/integrations/zapier/events?limit=100'),
    );
    eventId = events.find((e) => e.slug === 'techweek-paris-2026')!.id;
    const list = recordsOf<{ submissionId: string }>(
      'submission',
      await sim(
        'GET',
        `/api/v1/integrations/zapier/submissions?eventId=${eventId}&since=2000-01-01T00:00:00.000Z`,
      ),
    );
    submissionIds = list.map((s) => s.submissionId);
  });
  afterAll(() => sandbox.close());

  it('counts records with an odd optional field as tolerated', async () => {
    await sim('POST', `/_sandbox/submissions/${submissionIds[0]}/odd`, { set: { approvedAt: '' } });
    await sim('POST', `/_sandbox/submissions/${submissionIds[1]}/odd`, { set: { firstName: 42 } });
    const check = await envelope();
    expect(check?.status).toBe('tolerated');
    expect(check?.detail).toMatch(new RegExp(`^2 of ${submissionIds.length} records have an optional field`));
  });

  it('calls a record the app cannot read a difference', async () => {
    await sim('POST', `/_sandbox/submissions/${submissionIds[2]}/odd`, { remove: ['createdAt'] });
    const check = await envelope();
    expect(check?.status).toBe('differs');
    expect(check?.detail).toMatch(/^1 of \d+ registration records lack a field the app needs/);
  });
});

it('sees a registration that becomes visible late, and measures the delay against the service clock', async () => {
  // A sandbox clock that only moves when the test says so: the registration below is invisible at the
  // first read of the run and visible when the run reads the event again at its end.
  const start = Date.now();
  let offset = 0;
  const sandbox = await startSandbox({ now: () => start + offset });
  try {
    const sim = (method: string, path: string, body?: unknown) =>
      sandboxCall<Record<string, unknown>>(sandbox.url, NORTHWIND.apiKey, method, path, body);
    const events = recordsOf<{ id: string; slug: string }>(
      'event',
      await sim('GET', '/api/v1/integrations/zapier/events?limit=100'),
    );
    const eventId = events.find((e) => e.slug === 'techweek-paris-2026')!.id;
    await sim('POST', '/_sandbox/submissions', {
      eventId,
      email: 'late.comer@example.com',
      firstName: 'Late',
      lastName: 'Comer',
      createdAt: new Date(start - 100_000).toISOString(),
      visibleAt: new Date(start + 10_000).toISOString(),
    });
    const checks = await runConformance({
      baseUrl: sandbox.url,
      apiKey: NORTHWIND.apiKey,
      eventId,
      onProgress: (group) => {
        if (group === 'late registrations') offset = 60_000;
      },
    });
    const late = byId(checks).get('submissions.late');
    expect(late?.status).toBe('holds');
    // The Date header has whole seconds, so the 100 s show as 99 or 100.
    expect(late?.detail).toMatch(
      /^\d+ registration\(s\) appeared between two reads \d+ s apart .*, at least (99|1\d\d) s late, within the contract's 2 minutes\.$/,
    );
  } finally {
    await sandbox.close();
  }
});

it('reports a redirect, which the app would never follow with the key', async () => {
  const sandbox = await startSandbox();
  try {
    await sandboxCall(sandbox.url, NORTHWIND.apiKey, 'POST', '/_sandbox/faults', {
      route: 'GET /api/v1/integrations/zapier/hooks/:id',
      kind: 'redirect',
      status: 307,
      location: 'other-origin',
    });
    const found = byId(await runConformance({ baseUrl: sandbox.url, apiKey: NORTHWIND.apiKey }));
    expect(found.get('connection.no-redirects')).toMatchObject({
      status: 'differs',
      detail: expect.stringMatching(
        /GET \/api\/v1\/integrations\/zapier\/hooks\/\S+ → HTTP 307 to http:\/\/localhost:/,
      ),
    });
    // The redirected answer was the first read of something missing; the next one told the error body.
    expect(found.get('dialect.errors')?.status).toBe('holds');
  } finally {
    await sandbox.close();
  }
});

describe('the largest limit the service honours', () => {
  it('is said for every list: too few records to tell on the seed, the clamp otherwise', async () => {
    const found = byId(await runAsItIs());
    for (const id of ['events.limit-clamp', 'orders.limit-clamp']) {
      const detail = found.get(id)?.detail ?? `no check ${id} among ${[...found.keys()].join(', ')}`;
      expect(detail).toMatch(
        /^limit=1000 answered \d+ \w+: (there are too few to tell|the largest limit honoured is 100)/,
      );
    }
  });
});

it("names a catalog paged by cursor as the dialect's catalog value, and finds that value to write", async () => {
  const sandbox = await startSandbox({ deviations: ['catalog-cursor'] });
  let found: import('../../src/connect/dialect').Dialect | undefined;
  try {
    const checks = await runConformance({
      baseUrl: sandbox.url,
      apiKey: NORTHWIND.apiKey,
      companyId: NORTHWIND.companyId,
      onDialect: (dialect) => void (found = dialect),
    });
    const paging = byId(checks).get('catalog.paging');
    expect(paging?.status).toBe('differs');
    expect(paging?.detail).toMatch(/continues by a cursor \("next": "c_2"/);
    expect(paging?.detail).toMatch(/Until the app is taught it \(catalog in src\/connect\/dialect\.ts\)/);
  } finally {
    await sandbox.close();
  }
  expect(found?.catalog).toEqual({ member: expect.stringMatching(/(^|\.)next$/), cursor: 'cursor' });
});

describe('the turn-on probe (--probe-turn-on): POST …/hooks reads an Idempotency-Key before making anything', () => {
  const probe = async (deviations: Deviation[]) => {
    const sandbox = await startSandbox({ deviations });
    try {
      const checks = await runConformance({
        baseUrl: sandbox.url,
        apiKey: NORTHWIND.apiKey,
        companyId: NORTHWIND.companyId,
        probeTurnOn: true,
      });
      const routes = JSON.stringify(
        await sandboxCall(sandbox.url, NORTHWIND.apiKey, 'GET', '/_sandbox/requests'),
      );
      const hooks = await sandboxCall<{ data: unknown[] }>(
        sandbox.url,
        NORTHWIND.apiKey,
        'GET',
        '/_sandbox/hooks',
      );
      return { found: byId(checks), routes, live: hooks.data.length };
    } finally {
      await sandbox.close();
    }
  };

  it('holds on the sandbox, with one POST refused and nothing made', async () => {
    const { found, routes, live } = await probe([]);
    expect(found.get('hooks.idempotency-key')).toMatchObject({ status: 'holds' });
    expect(routes).toMatch(/"POST \/api\/v1\/integrations\/zapier\/hooks"/);
    expect(routes).not.toMatch(/"(PUT|PATCH|DELETE) /);
    expect(live).toBe(0);
  });

  it('differs when the service does not read the key, saying what a lost turn-on answer would leave', async () => {
    const { found, live } = await probe(['hook-key-unread']);
    const c = found.get('hooks.idempotency-key');
    expect(c?.status).toBe('differs');
    expect(c?.detail).toMatch(/field event/);
    expect(c?.detail).toMatch(/could leave a subscription in the service that no Zap owns/);
    expect(live).toBe(0);
  });

  it('is not run, nor listed, without the option: a default run sends GET requests only', async () => {
    const found = byId(await runAsItIs());
    expect(found.has('hooks.idempotency-key')).toBe(false);
    expect(found.has('dialect.secret')).toBe(false);
  });

  it('finds where a subscription’s secret comes from: the service’s own on the sandbox as it is', async () => {
    const { found } = await probe([]);
    expect(found.get('dialect.secret')).toMatchObject({ status: 'holds' });
    expect(found.get('dialect.secret')?.detail).toMatch(/the service makes the secret, as the contract says/);
  });

  it('names a service that takes the secret from the subscribe request, and what it breaks', async () => {
    const { found, live } = await probe(['client-secret']);
    const c = found.get('dialect.secret');
    expect(c?.status).toBe('differs');
    expect(c?.detail).toMatch(
      /refused naming "secret".*takes each subscription’s signing secret from the subscribe request/,
    );
    expect(c?.detail).toMatch(/secretSource: 'client' in src\/connect\/dialect\.ts.*would fail to turn on/);
    expect(found.get('hooks.idempotency-key')?.status).toBe('holds');
    expect(live).toBe(0);
  });
});

describe('whose events the public catalog lists, and how many pages it holds', () => {
  it("says the whole platform's, with the key's ownership read answering 404 for other organizers' events", async () => {
    const found = byId(await runAsItIs());
    expect(found.get('catalog.scope')).toMatchObject({
      status: 'holds',
      detail: expect.stringMatching(
        /^The whole platform's: .* \d+ of them belong to other organizers \(404\)/,
      ),
    });
    expect(found.get('catalog.pages')).toMatchObject({
      status: 'holds',
      detail: expect.stringMatching(/^\d+ events in 1 page\(s\) of 100\./),
    });
  });

  it("says the account's alone, and counts 9 pages, for a service that lists only the agency's 1,000 events (900 published)", async () => {
    const sandbox = await startSandbox({ seed: false, agency: 1000 });
    try {
      const found = byId(
        await runConformance({
          baseUrl: sandbox.url,
          apiKey: AGENCY_TENANT.apiKey,
          companyId: AGENCY_TENANT.companyId,
        }),
      );
      expect(found.get('catalog.scope')).toMatchObject({
        status: 'holds',
        detail: expect.stringMatching(/^The account's alone, as far as checked: .* all are the key's own\./),
      });
      expect(found.get('catalog.pages')?.detail).toMatch(/^900 events in 9 page\(s\) of 100\./);
    } finally {
      await sandbox.close();
    }
  });
});
