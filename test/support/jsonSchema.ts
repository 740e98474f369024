/**
 * The JSON Schema an operation's inputs are described with (docs/input-schemas.json), read on its own terms:
 * whether an input is allowed (`violations`), inputs it allows (`allowedInput`) and inputs it forbids, each
 * with the fields it is wrong about (`forbiddenInput`). Only the keywords the schema generator writes are read
 * (type, enum, const, pattern, formats `date` and `date-time` with `formatMinimum`, properties, required,
 * additionalProperties, items, oneOf, anyOf, allOf, not); any other keyword is an error here, so a schema that
 * grows one cannot pass unread.
 */
import fc from 'fast-check';

export type Schema = Record<string, unknown>;
/** A schema, or `false` (nothing allowed) / `true` (anything). */
type SchemaOrBoolean = Schema | boolean;
type Input = Record<string, unknown>;

const KNOWN = new Set([
  ...['$schema', 'title', 'description', 'default', 'examples', 'x-zapier-choices-from', 'x-zapier-search'],
  ...['type', 'enum', 'const', 'pattern', 'format', 'formatMinimum', 'x-minutes-ahead-of-now-at-most'],
  ...['properties', 'required', 'additionalProperties', 'items', 'oneOf', 'anyOf', 'allOf', 'not'],
]);

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

const realDay = (y: string, m: string, d: string): boolean => {
  const date = new Date(0);
  date.setUTCFullYear(Number(y), Number(m) - 1, Number(d));
  return date.getUTCMonth() === Number(m) - 1 && date.getUTCDate() === Number(d) && Number(m) >= 1;
};

/** Whether a string is an RFC 3339 date (`date`) or date and time (`date-time`). */
const hasFormat = (format: string, value: string): boolean => {
  if (format === 'date') {
    const m = DATE.exec(value);
    return Boolean(m && realDay(m[1]!, m[2]!, m[3]!));
  }
  const m = DATE_TIME.exec(value);
  if (!m) return false;
  const [, y, mo, d, h, mi, s, , oh = '00', om = '00'] = m;
  return realDay(y!, mo!, d!) && +h! < 24 && +mi! < 60 && +s! < 60 && +oh < 24 && +om < 60;
};

const typeOk = (type: unknown, value: unknown): boolean => {
  if (type === undefined) return true;
  if (type === 'object') return typeof value === 'object' && value !== null && !Array.isArray(value);
  if (type === 'array') return Array.isArray(value);
  if (type === 'integer') return Number.isInteger(value);
  return typeof value === type;
};

/** Why `value` is not allowed by `schema` (an empty list: it is allowed). */
export const violations = (given: SchemaOrBoolean, value: unknown, at = ''): string[] => {
  if (given === false) return [`${at || 'input'}: not allowed here`];
  if (given === true) return [];
  const schema = given;
  const unknown = Object.keys(schema).filter((key) => !KNOWN.has(key));
  if (unknown.length > 0) throw new Error(`keywords not read by this checker: ${unknown.join(', ')}`);
  const why: string[] = [];
  const say = (text: string) => why.push(`${at || 'input'}: ${text}`);
  if (!typeOk(schema.type, value)) say(`not of type ${String(schema.type)}`);
  if ('const' in schema && value !== schema.const) say(`not ${JSON.stringify(schema.const)}`);
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) say('not one of the enum');
  if (typeof value === 'string') {
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern).test(value)) say('pattern');
    if (typeof schema.format === 'string' && !hasFormat(schema.format, value)) say(schema.format);
    const instant = Date.parse(value);
    if (typeof schema.formatMinimum === 'string' && !(instant >= Date.parse(schema.formatMinimum)))
      say('before formatMinimum');
    const ahead = schema['x-minutes-ahead-of-now-at-most'];
    if (typeof ahead === 'number' && !(instant <= Date.now() + ahead * 60_000)) say('too far ahead');
  }
  if (Array.isArray(value) && schema.items)
    value.forEach((item, i) => why.push(...violations(schema.items as Schema, item, `${at}[${i}]`)));
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const input = value as Input;
    const properties = (schema.properties ?? {}) as Record<string, SchemaOrBoolean>;
    for (const key of (schema.required ?? []) as string[]) if (!(key in input)) say(`${key} missing`);
    for (const [key, item] of Object.entries(input)) {
      if (properties[key] !== undefined) why.push(...violations(properties[key], item, key));
      else if (schema.additionalProperties === false) say(`${key} not a property`);
    }
  }
  const passes = (sub: unknown) => violations(sub as Schema, value, at).length === 0;
  const oneOf = (schema.oneOf ?? []) as Schema[];
  if (oneOf.length > 0 && oneOf.filter(passes).length !== 1) say('not exactly one of oneOf');
  const anyOf = (schema.anyOf ?? []) as Schema[];
  if (anyOf.length > 0 && !anyOf.some(passes)) say('none of anyOf');
  for (const sub of (schema.allOf ?? []) as Schema[]) why.push(...violations(sub, value, at));
  if (schema.not && passes(schema.not)) say('matches not');
  return why;
};

const NOW_MS = () => Date.now();

/** Values one property allows (an item's values for a list). */
export const valueArbitrary = (schema: Schema): fc.Arbitrary<unknown> => {
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if (schema.type === 'boolean') return fc.boolean();
  if (schema.type === 'array')
    return fc.uniqueArray(valueArbitrary(schema.items as Schema), { maxLength: 3 });
  if (schema.format === 'date-time') {
    const min = typeof schema.formatMinimum === 'string' ? new Date(schema.formatMinimum) : new Date(0);
    return fc
      .date({ min, max: new Date(NOW_MS()), noInvalidDate: true })
      .map((d) => d.toISOString().replace('.000Z', 'Z'));
  }
  if (schema.format === 'date')
    return fc
      .date({
        min: new Date('0001-01-01T00:00:00Z'),
        max: new Date('9999-12-31T00:00:00Z'),
        noInvalidDate: true,
      })
      .map((d) => d.toISOString().slice(0, 10));
  if (typeof schema.pattern === 'string') return fc.stringMatching(new RegExp(schema.pattern));
  if (Array.isArray(schema.examples))
    return fc.oneof(fc.constantFrom(...(schema.examples as string[])), fc.string());
  return fc.string();
};

const propertiesOf = (schema: Schema) => (schema.properties ?? {}) as Record<string, Schema>;
/** The fields a mode (a `oneOf` branch) does not take: `false` in its properties. */
const notTaken = (branch: Schema): string[] =>
  Object.entries((branch.properties ?? {}) as Record<string, unknown>)
    .filter(([, p]) => p === false)
    .map(([key]) => key);

/** Inputs the schema allows: a mode (a `oneOf` branch), its required fields, any of the others. */
export const allowedInput = (schema: Schema): fc.Arbitrary<Input> => {
  const branches = ((schema.oneOf ?? [{}]) as Schema[]).map((branch) => {
    const required = new Set([
      ...((schema.required ?? []) as string[]),
      ...((branch.required ?? []) as string[]),
    ]);
    const taken = Object.entries(propertiesOf(schema)).filter(([key]) => !notTaken(branch).includes(key));
    const fields = taken.map(([key, property]) => {
      const value = valueArbitrary(propertiesOf(branch)[key] ?? property);
      // An optional field is left out half the time, so inputs with none of them come up too.
      return [key, required.has(key) ? value : fc.option(value, { nil: undefined, freq: 2 })] as const;
    });
    return fc.record(Object.fromEntries(fields));
  });
  return fc
    .oneof(...branches)
    .map((input) => Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)))
    .filter((input) => violations(schema, input).length === 0);
};

/** Texts a no-code user or an AI caller may send where they do not belong. */
const ODD_TEXTS = ['Dec 1', 'two words', 'a/b', '..', 'ada at example', '-', '#', '2026-02-30', '20/12/2026'];
const oddText = fc.oneof(
  fc.string({ minLength: 1 }),
  fc.string({ minLength: 1, unit: fc.constantFrom(...' .-_/\\?#!,;:()*&%$@~'.split('')) }),
  fc.constantFrom(...ODD_TEXTS),
);

/**
 * Values a property forbids that are not empty (an empty or blank text is a field left empty, as Zapier sends
 * it): `null` when it forbids none (free text, a boolean read leniently, or a pattern that only asks for a
 * filled-in value).
 */
export const wrongValue = (schema: Schema, filledPattern: string): fc.Arbitrary<unknown> | null => {
  if (schema.type === 'array') {
    const bad = wrongValue(schema.items as Schema, filledPattern);
    return bad && fc.tuple(valueArbitrary(schema), bad).map(([ok, one]) => [...(ok as unknown[]), one]);
  }
  if (Array.isArray(schema.enum)) {
    const values = schema.enum as string[];
    return fc.oneof(
      fc.constantFrom(...values).map((v) => `${v}2`),
      // A digit or a sign: never a choice's value or label, nor a word the app reads as one.
      oddText.filter((s) => /[^A-Za-z\s]/.test(s.trim()) && !values.includes(s.trim().toLowerCase())),
    );
  }
  if (schema.format === 'date') return fc.constantFrom('Dec 20', '20/12/2026', '2026-13-01', '2026-02-30');
  if (schema.format === 'date-time') {
    const ahead = schema['x-minutes-ahead-of-now-at-most'];
    return fc.oneof(
      fc.constantFrom('Dec 1', '20261201', '2026-02-30T10:00:00Z', '2026-12-01', '1'),
      ...(typeof schema.formatMinimum === 'string'
        ? [
            fc
              .date({
                min: new Date('1000-01-01T00:00:00Z'),
                max: new Date(Date.parse(schema.formatMinimum) - 1000),
                noInvalidDate: true,
              })
              .map((d) => d.toISOString()),
          ]
        : []),
      ...(typeof ahead === 'number'
        ? [
            fc
              .integer({ min: ahead + 2, max: 5_000_000 })
              .map((m) => new Date(NOW_MS() + m * 60_000).toISOString()),
          ]
        : []),
    );
  }
  if (typeof schema.pattern === 'string' && schema.pattern !== filledPattern) {
    const re = new RegExp(schema.pattern);
    return oddText.filter((s) => s.trim() !== '' && !re.test(s) && !re.test(s.trim()));
  }
  return null;
};

export interface Forbidden {
  input: Input;
  /** The fields it is wrong about: the refusal names one of them. */
  fields: string[];
}

/** The mode (`oneOf` branch) an allowed input is in, `{}` without modes. */
const branchOf = (schema: Schema, input: Input): Schema =>
  ((schema.oneOf ?? []) as Schema[]).find((b) => violations(b, input).length === 0) ?? {};

const without = (input: Input, keys: string[]): Input =>
  Object.fromEntries(Object.entries(input).filter(([key]) => !keys.includes(key)));

/**
 * One change that takes an allowed input out of the schema: a required field left out (not one with a
 * default, which the app fills in), a value it forbids, a field another excludes, or none of a group of which
 * one must be filled in.
 */
const changesOf = (schema: Schema, input: Input, filledPattern: string): Array<fc.Arbitrary<Forbidden>> => {
  const properties = propertiesOf(schema);
  const required = [
    ...((schema.required ?? []) as string[]),
    ...((branchOf(schema, input).required ?? []) as string[]),
  ];
  const leftOut = [...new Set(required)]
    .filter((key) => properties[key]?.default === undefined)
    .map((key) => fc.constant<Forbidden>({ input: without(input, [key]), fields: [key] }));
  const wrong = Object.keys(input).flatMap((key) => {
    const bad = wrongValue(properties[key]!, filledPattern);
    return bad ? [bad.map((value) => ({ input: { ...input, [key]: value }, fields: [key] }))] : [];
  });
  const not = schema.not as Schema | undefined;
  const pairs = not ? ((not.anyOf as Schema[] | undefined) ?? [not]).map((p) => p.required as string[]) : [];
  const excluded = pairs.flatMap(([a, b]) =>
    a! in input && !(b! in input)
      ? [
          valueArbitrary(properties[b!]!).map((value) => ({
            input: { ...input, [b!]: value },
            fields: [a!, b!],
          })),
        ]
      : [],
  );
  const groups = ((schema.anyOf ?? []) as Schema[]).map((g) => (g.required as string[])[0]!);
  const none =
    groups.length > 0 ? [fc.constant<Forbidden>({ input: without(input, groups), fields: groups })] : [];
  return [...leftOut, ...wrong, ...excluded, ...none];
};

/** Inputs the schema forbids, each with the fields it is wrong about. */
export const forbiddenInput = (schema: Schema, filledPattern: string): fc.Arbitrary<Forbidden> =>
  allowedInput(schema)
    .chain((input) => {
      const changes = changesOf(schema, input, filledPattern);
      return changes.length > 0 ? fc.oneof(...changes) : fc.constant(null);
    })
    .filter((f): f is Forbidden => f !== null && violations(schema, f.input).length > 0);

/** Whether the schema forbids anything an input of its fields could say (an operation without inputs does not). */
export const forbidsAny = (schema: Schema, filledPattern: string): boolean => {
  const properties = Object.values(propertiesOf(schema));
  return (
    properties.some((p) => wrongValue(p, filledPattern) !== null) ||
    ((schema.required ?? []) as string[]).length > 0 ||
    'not' in schema ||
    'anyOf' in schema ||
    'oneOf' in schema
  );
};
