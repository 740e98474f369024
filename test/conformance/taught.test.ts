/**
 * The kit reads error bodies through the app's own error translation (src/connect/errors.ts), never with a
 * schema of its own: once the app's translation is taught another error body (here the sandbox's
 * `error-type` switch, `{ "error": { "type": "not_found", "message" } }`), the kit reads it as the app does,
 * and nothing differs. A kit that read the wire with the contract's schema would still report a difference.
 */
import { SEED_TENANTS, startSandbox } from '../../sandbox';
import { runConformance } from '../../scripts/conformance/index';

jest.mock('../../src/connect/errors', () => {
  type Errors = typeof import('../../src/connect/errors');
  const actual = jest.requireActual<Errors>('../../src/connect/errors');
  // What teaching the app would look like: `type` read as the code, in the contract's spelling.
  const taught = (content: string): string => {
    try {
      const body = JSON.parse(content) as { error?: Record<string, unknown> };
      const error = body.error;
      if (!error || typeof error.type !== 'string' || 'code' in error) return content;
      const { type, ...rest } = error;
      return JSON.stringify({ error: { ...rest, code: type.toUpperCase() } });
    } catch {
      return content;
    }
  };
  const mocked: Partial<Errors> = {
    parseErrorBody: (content) => actual.parseErrorBody(taught(content)),
    throwForAnswer: (z, answer, ...rest) =>
      actual.throwForAnswer(z, { ...answer, content: taught(answer.content) }, ...rest),
  };
  return { ...actual, ...mocked };
});

it('reads an error body the app was taught as the app does: no error check differs', async () => {
  const sandbox = await startSandbox({ deviations: ['error-type'] });
  try {
    const checks = await runConformance({
      baseUrl: sandbox.url,
      apiKey: SEED_TENANTS[0].apiKey,
      companyId: SEED_TENANTS[0].companyId,
    });
    const found = new Map(checks.map((c) => [c.id, c]));
    expect(checks.filter((c) => c.status === 'differs')).toEqual([]);
    for (const id of ['hooks.unknown', 'floorPlans.unknown', 'widgets.unknown', 'orders.unknown-company']) {
      expect({ id, status: found.get(id)?.status }).toEqual({ id, status: 'holds' });
    }
    // The taught body has no `field` nor `entitlement`: the app's messages then name none.
    expect(found.get('errors.malformed-since')?.detail).toMatch(/without error\.field/);
  } finally {
    await sandbox.close();
  }
});
