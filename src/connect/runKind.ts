/**
 * What kind of run an invocation is, for the words of a temporary failure: a poll checks again at its next
 * run, but a search, a dropdown, a trigger's test or a webhook's run does not. `sealApp` (./seal.ts) marks each
 * invocation's `z` once, from the operation and the function Zapier called; errors read it back (./errors.ts).
 */
import type { Bundle, ZObject } from 'zapier-platform-core';

export type RunKind =
  | 'poll'
  | 'delivery'
  | 'trigger-test'
  | 'dropdown'
  | 'fields'
  | 'search'
  | 'action'
  | 'turn-on';

const kinds = new WeakMap<object, RunKind>();

/** Marks the run `z` belongs to. */
export const markRun = (z: ZObject | undefined, kind: RunKind): void => {
  if (z && typeof z === 'object') kinds.set(z, kind);
};

/** The kind of run `z` belongs to; `null` when no sealed function started it (a unit test's direct call). */
export const runKindOf = (z: ZObject | undefined): RunKind | null =>
  (z && typeof z === 'object' && kinds.get(z)) || null;

/** Where a function sits in the app definition. */
export interface Place {
  family: 'triggers' | 'searches' | 'creates' | 'authentication';
  /** The operation's function (`perform`, `performList`, …); `fields` for input and output field functions. */
  fn: string;
  /** A REST hook (instant) trigger. */
  hook: boolean;
  /** A hidden trigger: it only feeds a dropdown. */
  hidden: boolean;
}

/** The kind of run of a call to the function at `place` with `bundle`; `null` for one that needs none. */
export const runKindAt = (place: Place, bundle: Partial<Bundle> | undefined): RunKind | null => {
  const meta = (bundle?.meta ?? {}) as { isFillingDynamicDropdown?: boolean; isLoadingSample?: boolean };
  if (place.fn === 'fields') return 'fields';
  if (place.family === 'searches') return 'search';
  if (place.family === 'creates') return 'action';
  if (place.family !== 'triggers') return null;
  if (place.fn === 'performSubscribe') return 'turn-on';
  if (place.fn === 'performList') return 'trigger-test';
  if (place.fn !== 'perform') return null;
  if (place.hidden || meta.isFillingDynamicDropdown) return 'dropdown';
  if (place.hook) return 'delivery';
  return meta.isLoadingSample ? 'trigger-test' : 'poll';
};
