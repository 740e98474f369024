/**
 * The wire's field names, one table per resource, and the one place they are applied: every object the
 * service sends is renamed to the app's names here, before its schema checks it, and every object the app
 * sends is renamed to the wire's names here. A table maps each of the app's field names to the wire's name
 * (an object or list of objects nested in a field has its own table, `fields`). Fields the table does not
 * name are kept (the contract's "unknown fields are kept", §1) under the name the dialect's naming rule gives
 * them (`dialect.ts`), at every level: a field the service adds later never reaches Zap data under a wire
 * name.
 *
 * With the contract's dialect the wire's names are the app's names, and an identity table costs nothing: the
 * object is handed on as it is. The tables are computed from the dialect (`wireNames.ts`).
 */
import { AS_IS, CAMEL_CASE, DIALECT, type NameRule, type Spelling } from './dialect';

/**
 * The wire's name of one field, and the table of the object (or of each object of the list) it holds, or the
 * spelling of the enumeration it holds (a status, a kind).
 */
export type WireField =
  | string
  | { readonly name: string; readonly fields: WireNames }
  | { readonly name: string; readonly values: Spelling };
/** App field name → wire field name. */
export type WireNames = Readonly<Record<string, WireField>>;

const nameOf = (field: WireField): string => (typeof field === 'string' ? field : field.name);

const isIdentity = (names: WireNames, rule: NameRule): boolean =>
  rule === CAMEL_CASE &&
  Object.entries(names).every(
    ([app, field]) =>
      nameOf(field) === app &&
      (typeof field === 'string' ||
        ('fields' in field ? isIdentity(field.fields, rule) : field.values === AS_IS)),
  );

/** The renamer of what a field holds: its object's table, the spelling of its value, or nothing. */
const innerOf = (field: WireField, direction: 'read' | 'write', rule: NameRule): Renamer => {
  if (typeof field === 'string') return IDENTITY;
  if ('fields' in field) return renamer(field.fields, direction, rule);
  if (field.values === AS_IS) return IDENTITY;
  const spell = direction === 'read' ? field.values.app : field.values.wire;
  return (value) => (typeof value === 'string' ? spell(value) : value);
};

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Renames one object (`from` the wire's names `to` the app's names, or back); other values pass through. */
export type Renamer = (value: unknown) => unknown;

const IDENTITY: Renamer = (value) => value;

/** A value no table names, with every object key in it renamed by `rename` (arrays and objects, all levels). */
const renamedDeep = (value: unknown, rename: (name: string) => string): unknown => {
  if (Array.isArray(value)) return value.map((item) => renamedDeep(item, rename));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const name = rename(key);
    if (!Object.hasOwn(out, name)) out[name] = renamedDeep(inner, rename);
  }
  return out;
};

/**
 * A renamer for `names`: `'read'` turns the wire's names into the app's, `'write'` the app's into the
 * wire's; fields the table does not name are renamed by `rule` (the app's dialect unless given). Built once
 * per table; an identity table under the contract's rule gives a renamer that returns its argument.
 */
export const renamer = (
  names: WireNames,
  direction: 'read' | 'write',
  rule: NameRule = DIALECT.names,
): Renamer => {
  if (isIdentity(names, rule)) return IDENTITY;
  const unknown = direction === 'read' ? rule.app : rule.wire;
  // [name in the input, name in the output, renamer of what the field holds]
  const moves: Array<[string, string, Renamer]> = Object.entries(names).map(([app, field]) => {
    const wire = nameOf(field);
    const inner = innerOf(field, direction, rule);
    return direction === 'read' ? [wire, app, inner] : [app, wire, inner];
  });
  const known = new Set(moves.map(([from]) => from));
  const nested = (inner: Renamer, value: unknown): unknown =>
    inner === IDENTITY ? value : Array.isArray(value) ? value.map((item) => inner(item)) : inner(value);
  return (value) => {
    if (!isPlainObject(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [from, to, inner] of moves) {
      if (Object.hasOwn(value, from)) out[to] = nested(inner, value[from]);
    }
    for (const key of Object.keys(value)) {
      const name = known.has(key) ? null : unknown(key);
      if (name !== null && !Object.hasOwn(out, name)) out[name] = renamedDeep(value[key], unknown);
    }
    return out;
  };
};

/** The wire's name of the app's field `app` in `names` (for reading an identifier from raw text). */
export const wireNameOf = (names: WireNames, app: string): string => {
  const field = names[app];
  return field === undefined ? app : nameOf(field);
};

const TABLES = new WeakMap<object, { names: WireNames; read?: Renamer }>();

/** Declares `names` as the wire table of the records `schema` checks; returns `schema`. */
export const wired = <S extends object>(schema: S, names: WireNames): S => {
  TABLES.set(schema, { names });
  return schema;
};

/** The renamer from the wire's names to the app's for the records `schema` checks (identity if none). */
export const readerOf = (schema: object): Renamer => {
  const table = TABLES.get(schema);
  if (!table) return IDENTITY;
  return (table.read ??= renamer(table.names, 'read'));
};

/** The wire table declared for `schema`, if any. */
export const wireNamesOf = (schema: object): WireNames | undefined => TABLES.get(schema)?.names;
