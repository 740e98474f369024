/**
 * zapier-platform-core's app tester, without the work it repeats on every call: each `appTester(...)` compiles
 * the whole app definition twice (`prepareApp`: a deep copy, a rewrite and a deep freeze of every operation,
 * field and sample) and, for a function written in the test, walks the definition twice to learn that the
 * function is not in it. That was about 7 ms of CPU per call, most of the suite's time in the app tester.
 *
 * Here, for the files that load the tester (the mocks are set in `setup.ts`; a file that never loads core pays
 * nothing):
 * - `prepareApp` compiles a definition once and hands the same frozen result out again while the definition
 *   is unchanged: every plain object and list in it holds the same keys and the same values (compared by
 *   identity), which a walk of the definition checks on each call. The function the tester adds for a test's
 *   own function (`_testRequest`) is added to a frozen copy of that result, as a compilation would add it.
 * - `resolveMethodPath` answers "not in the app" at once for a function the definition does not hold (lodash's
 *   `isEqual`, the tester's second try, compares functions by identity, so it could not find one either);
 *   every other lookup is the tester's own.
 *
 * What the app runs, and what each test sees, is what the tester built before.
 */
type Definition = Record<string, unknown>;
type SchemaModule = { prepareApp: (appRaw: Definition) => Definition };
type ResolveMethodPath = (app: Definition, needle: unknown, explodeIfMissing?: boolean) => string | undefined;

/** The key under which the app tester adds a function written in a test (create-app-tester.js). */
const AD_HOC = '_testRequest';

// Read once: a global read in jest's test context is several times slower than a local one, and the walks
// below make thousands of them.
const { getPrototypeOf, keys: keysOf } = Object;
const { isArray } = Array;
const OBJECT = Object.prototype;

const isPlain = (value: unknown): value is Record<string, unknown> => {
  if (value === null || typeof value !== 'object' || isArray(value)) return false;
  const prototype: unknown = getPrototypeOf(value);
  return prototype === OBJECT || prototype === null;
};

/**
 * Every key and value of the definition's plain objects and lists, in order (the ad-hoc function left out),
 * and the functions among the values.
 */
const contentsOf = (appRaw: Definition): { values: unknown[]; functions: Set<unknown> } => {
  const values: unknown[] = [];
  const functions = new Set<unknown>();
  const visit = (value: unknown): void => {
    values.push(value);
    if (typeof value === 'function') functions.add(value);
    else if (isArray(value)) {
      values.push(value.length);
      for (const item of value) visit(item);
    } else if (isPlain(value)) {
      for (const key of keysOf(value)) {
        if (value === appRaw && key === AD_HOC) continue;
        values.push(key);
        visit(value[key]);
      }
      values.push(undefined);
    }
  };
  visit(appRaw);
  return { values, functions };
};

interface Compiled {
  values: unknown[];
  functions: Set<unknown>;
  app: Definition | undefined;
}

/** Whether `appRaw` still holds what `contentsOf` listed (`values`): walked in the same order, nothing kept. */
const unchanged = (appRaw: Definition, values: readonly unknown[]): boolean => {
  let at = 0;
  const same = (value: unknown): boolean => {
    if (values[at++] !== value) return false;
    if (isArray(value)) {
      if (values[at++] !== value.length) return false;
      for (const item of value) if (!same(item)) return false;
    } else if (isPlain(value)) {
      for (const key of keysOf(value)) {
        if (value === appRaw && key === AD_HOC) continue;
        if (values[at++] !== key || !same(value[key])) return false;
      }
      if (values[at++] !== undefined) return false;
    }
    return true;
  };
  return same(appRaw) && at === values.length;
};

/** What each definition (the app, in a test file) was when last seen, and what it compiled to. */
const known = new WeakMap<Definition, Compiled>();

/** What is known of `appRaw` as it is now (compiled or not yet), learned again when it changed. */
const current = (appRaw: Definition): Compiled => {
  const before = known.get(appRaw);
  if (before && unchanged(appRaw, before.values)) return before;
  const { values, functions } = contentsOf(appRaw);
  const fresh: Compiled = { values, functions, app: undefined };
  known.set(appRaw, fresh);
  return fresh;
};

/** zapier-platform-core/src/tools/schema, its `prepareApp` compiling each definition once. */
export const schemaCompilingOnce = (actual: SchemaModule): SchemaModule => {
  const prepareApp = (appRaw: Definition): Definition => {
    if (!isPlain(appRaw)) return actual.prepareApp(appRaw);
    const compiled = current(appRaw);
    if (!compiled.app) {
      const { [AD_HOC]: _adHoc, ...definition } = appRaw;
      compiled.app = actual.prepareApp(definition);
    }
    if (!Object.hasOwn(appRaw, AD_HOC)) return compiled.app;
    const adHoc = appRaw[AD_HOC];
    if (typeof adHoc === 'function') Object.freeze(adHoc);
    return Object.freeze({ ...compiled.app, [AD_HOC]: adHoc });
  };
  return { ...actual, prepareApp };
};

/** zapier-platform-core/src/tools/resolve-method-path, answering at once for a function the app does not hold. */
export const resolvingAtOnce =
  (actual: ResolveMethodPath): ResolveMethodPath =>
  (app, needle, explodeIfMissing = true) => {
    if (
      typeof needle === 'function' &&
      !explodeIfMissing &&
      isPlain(app) &&
      !current(app).functions.has(needle)
    )
      return undefined;
    return actual(app, needle, explodeIfMissing);
  };
