/**
 * What leaves the app when an operation runs or fails. Every function of the app definition (perform,
 * performList, performSubscribe, performUnsubscribe, the authentication test, dynamic fields) is wrapped once:
 *
 * - its log lines (`z.console`) and any error it throws are blanked of the connection's secrets: the API key,
 *   the webhook signing secret and the subscription's secret (src/connect/secrets.ts);
 * - every error it throws is marked `doNotContextify`. Without that mark zapier-platform-core appends a
 *   "What happened" dump to the message (the bundle as JSON, `subscribeData` and its secret included, and
 *   the first 100 characters of the last answer) and, in production, the run's console logs. The app's own
 *   messages already say what failed and what to do, so nothing is lost by leaving the dump out;
 * - its `z` is marked with the kind of run it is (./runKind.ts), so that a temporary failure's words fit it.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { type Redact, bundleRedactor, redactError } from './secrets';
import { type Place, markRun, runKindAt } from './runKind';

type AnyFunction = (...args: unknown[]) => unknown;

const CONSOLE_METHODS = ['log', 'info', 'warn', 'error', 'debug'] as const;
const SEALED = Symbol('sealed');

const redactValue = (value: unknown, redact: Redact): unknown => {
  if (typeof value === 'string') return redact(value);
  if (value instanceof Error) return redactError(value, redact);
  if (value && typeof value === 'object') {
    try {
      return JSON.parse(redact(JSON.stringify(value))) as unknown;
    } catch {
      return '[an object that could not be logged]';
    }
  }
  return value;
};

/** `z.console` of this invocation, with every argument blanked of secrets before it is logged. */
const sealConsole = (z: ZObject, redact: Redact): void => {
  const target = z?.console as unknown as Record<string, unknown> | undefined;
  if (!target || target[SEALED as unknown as string]) return;
  for (const method of CONSOLE_METHODS) {
    const original = target[method];
    if (typeof original !== 'function') continue;
    target[method] = (...args: unknown[]) =>
      (original as AnyFunction).apply(
        target,
        args.map((arg) => redactValue(arg, redact)),
      );
  }
  Object.defineProperty(target, SEALED, { value: true, enumerable: false });
};

/** An error as it may leave the app: secrets blanked, and no bundle dump appended by the platform. */
export const sealError = (error: unknown, redact: Redact): unknown => {
  if (error && typeof error === 'object') {
    redactError(error, redact);
    try {
      (error as { doNotContextify?: boolean }).doNotContextify = true;
    } catch {
      // a frozen error: nothing to mark
    }
  }
  return error;
};

/** `fn` with its console and its errors sealed (sync functions stay sync); `place` marks its runs. */
export const sealFunction = <F extends AnyFunction>(fn: F, place?: Place): F => {
  if ((fn as unknown as Record<symbol, unknown>)[SEALED]) return fn;
  const sealed = function (this: unknown, ...args: unknown[]) {
    const [z, bundle] = args as [ZObject, Partial<Bundle> | undefined];
    const redact = bundleRedactor(bundle ?? {});
    sealConsole(z, redact);
    const kind = place ? runKindAt(place, bundle) : null;
    if (kind) markRun(z, kind);
    try {
      const result = fn.apply(this, args);
      if (result && typeof (result as Promise<unknown>).then === 'function') {
        return (result as Promise<unknown>).catch((error: unknown) => {
          throw sealError(error, redact);
        });
      }
      return result;
    } catch (error) {
      throw sealError(error, redact);
    }
  } as unknown as F;
  Object.defineProperty(sealed, SEALED, { value: true, enumerable: false });
  Object.defineProperty(sealed, 'name', { value: fn.name });
  return sealed;
};

const sealFields = (fields: unknown, place: Place): unknown =>
  Array.isArray(fields)
    ? fields.map((field) =>
        typeof field === 'function' ? sealFunction(field as AnyFunction, { ...place, fn: 'fields' }) : field,
      )
    : fields;

type Where = Omit<Place, 'fn'>;

/** An operation (or the authentication) with each of its functions sealed. */
const sealOperation = <O>(operation: O, where: Where): O => {
  if (!operation || typeof operation !== 'object') return operation;
  const out: Record<string, unknown> = { ...(operation as Record<string, unknown>) };
  const hook = out.type === 'hook';
  for (const [name, value] of Object.entries(out)) {
    const place = { ...where, hook, fn: name };
    if (typeof value === 'function') out[name] = sealFunction(value as AnyFunction, place);
    else if (name === 'inputFields' || name === 'outputFields') out[name] = sealFields(value, place);
  }
  return out as O;
};

type Definition = { operation?: unknown; display?: { hidden?: boolean } };

const sealDefinitions = <M>(definitions: M, family: Place['family']): M => {
  if (!definitions || typeof definitions !== 'object') return definitions;
  const out: Record<string, unknown> = {};
  for (const [key, definition] of Object.entries(definitions as Record<string, Definition>)) {
    const where = { family, hook: false, hidden: definition.display?.hidden === true };
    out[key] = { ...definition, operation: sealOperation(definition.operation, where) };
  }
  return out as M;
};

/** The app definition with every function sealed; the shape is unchanged. */
export const sealApp = <
  A extends { authentication?: unknown; triggers?: unknown; searches?: unknown; creates?: unknown },
>(
  app: A,
): A => ({
  ...app,
  authentication: sealOperation(app.authentication, { family: 'authentication', hook: false, hidden: false }),
  triggers: sealDefinitions(app.triggers, 'triggers'),
  searches: sealDefinitions(app.searches, 'searches'),
  creates: sealDefinitions(app.creates, 'creates'),
});
