/** Shared pieces of the end-to-end suites that drive the app against a running sandbox. */
import { SEED_TENANTS, type RunningSandbox, type SeedTenant, sandboxCall } from '../../sandbox';

export type Tenant = SeedTenant;
export const NORTHWIND = SEED_TENANTS[0];
export const LUMEN = SEED_TENANTS[1];
export const HARBOR = SEED_TENANTS[2];

/** The connection of a seed tenant to `sandbox`. */
export const authOf = (
  sandbox: Pick<RunningSandbox, 'url'>,
  tenant: Tenant,
  extra: Record<string, string> = {},
) => ({
  apiKey: tenant.apiKey,
  baseUrl: sandbox.url,
  companyId: tenant.companyId,
  ...extra,
});

/** A change made in the service's dashboard or apps (the sandbox's simulation API), as `tenant`. */
export const simulate = <T = Record<string, unknown>>(
  sandbox: Pick<RunningSandbox, 'url'>,
  tenant: Tenant,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> => sandboxCall<T>(sandbox.url, tenant.apiKey, method, path, body);
