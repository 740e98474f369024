/** Shared test helpers: the app under test, a fake account and a recording of what Zapier would print. */
import { createAppTester } from 'zapier-platform-core';
import App from '../../index';
import { callable, operationOf } from '../../scripts/lib/app';
import { errorText } from '../../src/connect';
import { ATTENDEE_FIELD_KEYS } from '../../src/mappers/attendee';

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

export { meta } from '../../scripts/lib/app';

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

/** The instant trigger `key` as tests drive it: its four functions, its sample and its output fields. */
export const hookOperation = (key: string) => {
  const operation = operationOf('triggers', key);
  if (operation.type !== 'hook') throw new Error(`trigger ${key} is not an instant trigger`);
  return {
    perform: callable(operation.perform, `${key}: perform`),
    performList: callable(operation.performList, `${key}: performList`),
    performSubscribe: callable(operation.performSubscribe, `${key}: performSubscribe`),
    performUnsubscribe: callable(operation.performUnsubscribe, `${key}: performUnsubscribe`),
    sample: operation.sample ?? {},
    outputFields: operation.outputFields ?? [],
  };
};

/** Keys of the app's instant triggers. */
export const hookTriggerKeys = (): string[] =>
  Object.values(App.triggers)
    .filter((trigger) => trigger.operation.type === 'hook')
    .map((trigger) => trigger.key);

/** The in-memory `z.cache` of an app tester (core's tester keeps it between calls). */
export const testerCache = (tester: unknown): { zcacheTestObj: Record<string, unknown> } =>
  tester as { zcacheTestObj: Record<string, unknown> };

/** The attendee fields of an order item: one dehydration pointer each, for the order's registration. */
export const attendeePointerFields = (order: { id: string; submissionId?: string | null }) =>
  Object.fromEntries(
    ATTENDEE_FIELD_KEYS.map((field) => [
      field,
      expect.stringMatching(
        new RegExp(
          `^hydrate\\|\\|\\|\\{"type":"method","method":"hydrators\\.attendee","bundle":\\{"orderId":"${order.id}",.*"submissionId":"${order.submissionId}",.*"field":"${field}"\\}\\}\\|\\|\\|hydrate$`,
        ),
      ),
    ]),
  );
