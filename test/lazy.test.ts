/**
 * Schemas built on first use (src/lazy.ts): loading the app builds no zod schema, a lazy schema is built
 * once, when it is first used, and it reads exactly as the schema it stands for, nested or not.
 */
import * as z from 'zod';
import { built, lazy } from '../src/lazy';

/** Every function of zod's top level that loading `index.ts` called, by name. */
const zodCallsWhileLoading = (): string[] => {
  const calls: string[] = [];
  jest.isolateModules(() => {
    jest.doMock('zod', () => {
      const actual = jest.requireActual<Record<string, unknown>>('zod');
      return new Proxy(actual, {
        get: (target, key) => {
          const value = Reflect.get(target, key);
          if (typeof value !== 'function' || typeof key !== 'string' || /^[A-Z$]/.test(key)) return value;
          return (...args: unknown[]) => {
            calls.push(key);
            return (value as (...a: unknown[]) => unknown)(...args);
          };
        },
      });
    });
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const app = require('../index') as { default: { triggers: Record<string, unknown> } };
    expect(Object.keys(app.default.triggers).length).toBeGreaterThan(0);
  });
  jest.dontMock('zod');
  return calls;
};

describe('lazy schemas', () => {
  it('loading the app builds no zod schema', () => {
    expect(zodCallsWhileLoading()).toEqual([]);
  });

  it('builds a schema once, on its first use', () => {
    const build = jest.fn(() => z.object({ id: z.string().min(1) }));
    const Schema = lazy(build);
    expect(build).not.toHaveBeenCalled();
    expect(Schema.safeParse({ id: 'a' }).success).toBe(true);
    expect(Schema.safeParse({ id: '' }).success).toBe(false);
    expect(Object.keys(Schema.shape)).toEqual(['id']);
    expect(build).toHaveBeenCalledTimes(1);
  });

  it('reads like the schema it stands for, alone and nested', () => {
    const Inner = lazy(() => z.object({ ms: z.number().finite(), id: z.string() }));
    const Outer = lazy(() => z.object({ at: built(Inner), list: z.array(built(Inner)).optional() }));
    const good = { at: { ms: 1, id: 'x' }, list: [{ ms: 2, id: '' }] };
    expect(Outer.parse(good)).toEqual(good);
    const bad = Outer.safeParse({ at: { ms: Infinity, id: 'x' } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['at', 'ms']);
    expect(Inner.nullable().parse(null)).toBeNull();
    expect(built(Inner)).toBe(built(Inner));
    expect(built(Inner)).toBeInstanceOf(z.ZodObject);
    expect(Inner).toBeInstanceOf(z.ZodObject);
  });

  it('leaves a value that is not lazy as it is', () => {
    const plain = z.string();
    expect(built(plain)).toBe(plain);
  });
});
