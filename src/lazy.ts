/**
 * A value built on its first use, for the zod schemas of the app. Zapier loads the whole app at every cold
 * start, if only to answer for its definition, and building every schema there costs milliseconds that
 * every invocation pays, while an invocation uses a few. `lazy(build)` stands for what `build` returns in
 * every way (properties, methods, `z.infer`); `built(schema)` is what it stands for, to nest in another
 * schema (a parse through the stand-in pays a trap on every property the parser reads: a day of
 * registrations read through stand-ins took about 1.5 times as long).
 */
const BUILT = Symbol('built schema');

export const lazy = <T extends object>(build: () => T): T => {
  let made: T | undefined;
  const real = (): T => (made ??= build());
  return new Proxy({} as T, {
    get: (_, key) => (key === BUILT ? real() : Reflect.get(real(), key)),
    has: (_, key) => Reflect.has(real(), key),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(real(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
    set: (_, key, value) => Reflect.set(real(), key, value),
  });
};

/** The value behind a `lazy` one (built now if it was not yet), or `value` itself when it is not lazy. */
export const built = <T extends object>(value: T): T =>
  (value as Record<symbol, T | undefined>)[BUILT] ?? value;
