/**
 * What every section of the journey shares: the step runner, the app under test, the sandbox and the hook
 * receiver, the connected account, and small helpers that format items for the table.
 */
import type { PerformFunction } from 'zapier-platform-core';
import { SEED_TENANTS, type RunningSandbox, sandboxCall } from '../../sandbox';
import { functionOf, instantTriggerKeys, instantTriggers } from '../lib/app';
import type { HookReceiver } from '../lib/hookRequest';
import type { Runner } from './runner';

export type Item = Record<string, unknown>;

export const NORTHWIND = SEED_TENANTS[0];
export const LUMEN = SEED_TENANTS[1];

/** The app's instant triggers (from the app itself: a new one joins the journey without an edit here). */
export const HOOK_TRIGGERS: readonly string[] = instantTriggerKeys();
export type HookKey = string;
/** Triggers of the event-lifecycle kinds follow every event of the account; the others the journey's event. */
export const ACCOUNT_WIDE: ReadonlySet<HookKey> = new Set(
  instantTriggers()
    .filter(({ kind }) => kind.startsWith('EVENT_'))
    .map(({ key }) => key),
);

export interface Journey {
  run: Runner;
  /** Runs an operation's function as Zapier does (through the app tester). */
  call: (fn: PerformFunction, bundle: Record<string, unknown>) => Promise<unknown>;
  /** The app's own log lines, collected instead of printed over the table. */
  appLogs: string[];
  sandbox: RunningSandbox;
  hooks: HookReceiver;
  authData: Record<string, string>;
  /** What organizers, attendees and the door app do in the service itself (its simulation API). */
  service: { call: <T = Item>(method: string, path: string, body?: unknown) => Promise<T> };
  /** The subscribe data of each instant Zap, once it is turned on. */
  subscriptions: Map<HookKey, { id: string } & Item>;
}

/** The journey's shared state for a started sandbox and receiver. */
export const journeyOf = (
  run: Runner,
  call: Journey['call'],
  appLogs: string[],
  sandbox: RunningSandbox,
  hooks: HookReceiver,
): Journey => ({
  run,
  call,
  appLogs,
  sandbox,
  hooks,
  authData: {
    apiKey: NORTHWIND.apiKey,
    baseUrl: sandbox.url,
    companyId: NORTHWIND.companyId,
    frontUrl: 'https://front.example.com',
    embedUrl: 'https://embed.example.com',
  },
  service: {
    call: <T = Item>(method: string, path: string, body?: unknown) =>
      sandboxCall<T>(sandbox.url, NORTHWIND.apiKey, method, path, body),
  },
  subscriptions: new Map(),
});

export interface PollingZap {
  /** Turns the Zap on (Zapier's dedupe seeding); resolves how many items were recorded as seen. */
  turnOn(): Promise<number>;
  /** One scheduled poll; resolves the items that run the Zap (ids not seen before). */
  poll(): Promise<Item[]>;
}

let zapIds = 100;

/** A polling Zap as Zapier runs it: turned on once (dedupe seeding), then polled; only new ids run it. */
export const pollingZap = (j: Journey, key: string, inputData: Item): PollingZap => {
  const seen = new Set<string>();
  const meta = { zap: { id: (zapIds += 1) } };
  const perform = functionOf('triggers', key);
  const { authData } = j;
  return {
    turnOn: async () => {
      const items = asItems(
        await j.call(perform, { authData, inputData, meta: { ...meta, isPopulatingDedupe: true } }),
      );
      for (const item of items) seen.add(String(item.id));
      return items.length;
    },
    poll: async () => {
      const items = asItems(await j.call(perform, { authData, inputData, meta }));
      const fresh = items.filter((item) => !seen.has(String(item.id)));
      for (const item of fresh) seen.add(String(item.id));
      return fresh;
    },
  };
};

export const asItems = (value: unknown): Item[] =>
  Array.isArray(value) ? (value as Item[]) : [value as Item];

/** The first sentence of a message, for the table. */
export const firstSentence = (text: string): string => text.replace(/^(.*?\.)(\s.*)?$/s, '$1');

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export const shortTime = (iso: unknown) =>
  typeof iso === 'string' ? iso.replace(/\.\d{3}Z$/, 'Z').replace('T', ' ') : '—';

/** One line about an item of any noun, for the table. */
export const summary = (item: Item | undefined): string => {
  if (!item) return 'no item';
  if (typeof item.totalFormatted === 'string') {
    return `${String(item.orderId ?? item.id)} · ${item.totalFormatted} · ${String(item.status)}${item.eventTitle ? ` · ${String(item.eventTitle)}` : ''}`;
  }
  if (typeof item.fullName === 'string' || typeof item.email === 'string') {
    return `${String(item.fullName ?? item.email)} <${String(item.email)}> · ${String(item.status)}${item.eventTitle ? ` · ${String(item.eventTitle)}` : ''}`;
  }
  if (typeof item.title === 'string') {
    return `"${item.title}" · ${String(item.status)}${item.change ? ` · change: ${String(item.change)}` : ''}`;
  }
  return JSON.stringify(item).slice(0, 80);
};
