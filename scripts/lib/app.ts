/**
 * The app definition as the journey, the benchmarks and the tests drive it: an operation by group and key,
 * its functions ready for `createAppTester`, and the `meta` Zapier sends.
 */
import type { Create, PerformFunction, Search, Trigger } from 'zapier-platform-core';
import App from '../../index';
import type { HookKind } from '../../src/connect';
import { instantKindOf } from '../../src/webhooks';

export type Group = 'triggers' | 'searches' | 'creates';
export type Member = 'perform' | 'performList' | 'performSubscribe' | 'performUnsubscribe';

/**
 * An operation's function. The platform's types also allow a request template in its place, which no
 * operation of this app uses: anything but a function is an error here.
 */
export const callable = (member: unknown, what = 'this operation member'): PerformFunction => {
  if (typeof member !== 'function') throw new Error(`${what} is not a function`);
  return member as PerformFunction;
};

type Definitions = { triggers: Trigger; searches: Search; creates: Create };
const registry: { [G in Group]: Record<string, Definitions[G]> } = {
  triggers: App.triggers,
  searches: App.searches,
  creates: App.creates,
};

/** The operation of the trigger, search or create `key`; throws when the app has none. */
export const operationOf = <G extends Group>(group: G, key: string): Definitions[G]['operation'] => {
  const definition = registry[group][key];
  if (!definition) throw new Error(`the app has no ${group.slice(0, -1)} "${key}"`);
  return definition.operation;
};

/** One function of an operation (`perform` unless told). */
export const functionOf = (group: Group, key: string, member: Member = 'perform'): PerformFunction => {
  const members: Partial<Record<Member, unknown>> = operationOf(group, key);
  return callable(members[member], `${group.slice(0, -1)} ${key}: ${member}`);
};

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

/** The app's instant (REST hook) triggers, by key, each with the webhook kind it subscribes to. */
export const instantTriggers = (): Array<{ key: string; kind: HookKind }> =>
  Object.entries(App.triggers ?? {})
    .filter(([, t]) => (t.operation as { type?: string }).type === 'hook')
    .map(([key]) => {
      const kind = instantKindOf(key);
      if (!kind) throw new Error(`instant trigger ${key} was not declared with instantTrigger`);
      return { key, kind };
    })
    .sort((a, b) => a.key.localeCompare(b.key));

/** The keys of the app's instant triggers, sorted. */
export const instantTriggerKeys = (): string[] => instantTriggers().map(({ key }) => key);
