/** The conformance kit run as the first seed tenant against a sandbox of its own, for the kit's tests. */
import { type StartOptions, startSandbox } from '../../sandbox';
import { type Check, type ConformanceOptions, runConformance } from '../../scripts/conformance/index';
import { NORTHWIND } from './sandbox';

/** The kit's checks by id, against a sandbox started with `start` (its switches), closed once the kit ends. */
export const kitChecks = async (
  start: StartOptions,
  options: Partial<Omit<ConformanceOptions, 'baseUrl'>> = {},
): Promise<Map<string, Check>> => {
  const sandbox = await startSandbox(start);
  try {
    const checks = await runConformance({
      baseUrl: sandbox.url,
      apiKey: NORTHWIND.apiKey,
      companyId: NORTHWIND.companyId,
      ...options,
    });
    return new Map(checks.map((c) => [c.id, c]));
  } finally {
    await sandbox.close();
  }
};

/** The checks that found a difference. */
export const differing = (checks: Map<string, Check>): Check[] =>
  [...checks.values()].filter((c) => c.status === 'differs');
