/** Shared test helpers: the app under test, a fake account and a recording of what Zapier would print. */
import { createAppTester } from 'zapier-platform-core';
import App from '../../index';
import { errorText } from '../../src/connect';

export const BASE_URL = 'https://api.connect.test';
/** A unique key that must never show up anywhere but in the X-API-KEY header. */
export const SENTINEL_KEY = 'sk_live_SENTINEL_3f9a1c7e5b2d4e6f8a0b';

export const authData = (overrides: Record<string, string> = {}) => ({
  apiKey: SENTINEL_KEY,
  baseUrl: BASE_URL,
  companyId: 'cmp_42',
  ...overrides,
});

export const appTester = createAppTester(App);
export { App };

/** Meta as Zapier sends it for a normal run (`createAppTester` does not fill it). */
export const meta = (overrides: Record<string, unknown> = {}) => ({
  isLoadingSample: false,
  isFillingDynamicDropdown: false,
  isPopulatingDedupe: false,
  isTestingAuth: false,
  isBulkRead: false,
  limit: -1,
  page: 0,
  timezone: 'Europe/Paris',
  ...overrides,
});

/** The message of a Zapier error (AppError and ThrottledError carry JSON in `message`). */
export const errorMessage = errorText;

/** Runs `fn` and returns what it threw (fails the test when it does not throw). */
export const caught = async (fn: () => Promise<unknown>): Promise<Error> => {
  try {
    await fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to throw');
};
