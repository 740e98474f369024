/** Shared pieces of the end-to-end suites that drive the app against a running sandbox. */
import { SEED_TENANTS, type RunningSandbox, type SeedTenant, sandboxCall } from '../../sandbox';
import {
  type AppRecord,
  type PageAnswer,
  type RecordNoun,
  inAppNames,
  wholeListOf,
} from '../../src/connect/testing';

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

/**
 * Every record of a list of `sandbox` as `tenant` sees it, under the app's names: asked and followed as the
 * app asks and follows it (the dialect's query names and pages: `wholeListOf`), so a test reads the same list
 * whatever dialect the sandbox speaks.
 */
export const readWholeList = async <T = AppRecord>(
  sandbox: Pick<RunningSandbox, 'url'>,
  tenant: Tenant,
  noun: RecordNoun,
  path: string,
  query: Record<string, string | number>,
): Promise<T[]> => {
  const get = async (address: string): Promise<PageAnswer> => {
    const url = /^https?:/.test(address) ? address : `${sandbox.url}${address}`;
    const answer = await fetch(url, { headers: { 'X-API-KEY': tenant.apiKey } });
    if (!answer.ok) throw new Error(`GET ${address} answered ${answer.status}: ${await answer.text()}`);
    return { body: await answer.json(), link: answer.headers.get('link') };
  };
  const records = await wholeListOf(get, path, query);
  return records.map((record) => inAppNames(noun, record) as T);
};
