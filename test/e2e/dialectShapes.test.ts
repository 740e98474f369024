/**
 * A service that differs from the contract in every shape at once (snake_case names, `{ items, has_more }`
 * lists, `{ error: { type } }` errors, `t=…,v1=…` signatures), played by the sandbox's switches: the app,
 * taught that dialect in src/connect/dialect.ts alone, runs the whole journey against it, and the
 * conformance kit finds nothing that differs (test/conformance/dialect.test.ts runs the kit against it with
 * the app as it is).
 */
import { SEED_TENANTS, startSandbox } from '../../sandbox';
import { runConformance } from '../../scripts/conformance/index';
import { runJourney } from '../../scripts/journey';
import { captureDelivery } from '../support/capture';
import { SERVICE_SWITCHES, playsAnotherDialect } from '../support/serviceDialect';

// Plays an app not yet taught, or taught another dialect: not played in another dialect (`CONNECT_TEST_DIALECT=every`,
// or any switch).
const play = playsAnotherDialect() ? it.skip : it;

play(
  'the kit reads the taught app’s dialect: the four findings hold, nothing differs or is left unchecked',
  async () => {
    const sandbox = await startSandbox({ deviations: SERVICE_SWITCHES });
    try {
      const checks = await runConformance({
        baseUrl: sandbox.url,
        apiKey: SEED_TENANTS[0].apiKey,
        companyId: SEED_TENANTS[0].companyId,
        ...(await captureDelivery(sandbox)),
      });
      expect(checks.filter((c) => c.status === 'differs' || c.status === 'unchecked')).toEqual([]);
      for (const id of ['dialect.names', 'dialect.envelope', 'dialect.errors', 'dialect.signature']) {
        expect(checks.find((c) => c.id === id)?.detail).toMatch(/The app was taught/);
      }
    } finally {
      await sandbox.close();
    }
  },
);

jest.mock('../../src/connect/dialect', () =>
  jest.requireActual<typeof import('../support/serviceDialect')>('../support/serviceDialect').taught(),
);

play('runs the whole journey against a service speaking another dialect, every step passing', async () => {
  const lines: string[] = [];
  const result = await runJourney({
    out: { line: (text) => lines.push(text), color: false },
    deviations: SERVICE_SWITCHES,
  });
  const failed = result.rows.filter((row) => !row.ok).map((row) => `${row.step}: ${row.detail}`);
  expect(failed).toEqual([]);
});
