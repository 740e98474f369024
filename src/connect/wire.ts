/**
 * The wire's field names, one table per resource, and the one place they are applied: every object the
 * service sends is renamed to the app's names here, before its schema checks it, and every object the app
 * sends is renamed to the wire's names here. A table maps each of the app's field names to the wire's name
 * (an object or list of objects nested in a field has its own table, `fields`). Fields the table does not
 * name pass through unchanged (the contract's "unknown fields are kept", §1).
 *
 * Today the wire's names are the app's names (every table is the identity), and an identity table costs
 * nothing: the object is handed on as it is. A service that names its fields otherwise (`submission_id`) is
 * a change of these tables alone.
 */

/** The wire's name of one field, and the table of the object (or of each object of the list) it holds. */
export type WireField = string | { readonly name: string; readonly fields: WireNames };
/** App field name → wire field name. */
export type WireNames = Readonly<Record<string, WireField>>;

const nameOf = (field: WireField): string => (typeof field === 'string' ? field : field.name);

const isIdentity = (names: WireNames): boolean =>
  Object.entries(names).every(
    ([app, field]) => nameOf(field) === app && (typeof field === 'string' || isIdentity(field.fields)),
  );

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Renames one object (`from` the wire's names `to` the app's names, or back); other values pass through. */
export type Renamer = (value: unknown) => unknown;

const IDENTITY: Renamer = (value) => value;

/**
 * A renamer for `names`: `'read'` turns the wire's names into the app's, `'write'` the app's into the
 * wire's. Built once per table; the identity table gives a renamer that returns its argument.
 */
export const renamer = (names: WireNames, direction: 'read' | 'write'): Renamer => {
  if (isIdentity(names)) return IDENTITY;
  // [name in the input, name in the output, renamer of what the field holds]
  const moves: Array<[string, string, Renamer]> = Object.entries(names).map(([app, field]) => {
    const wire = nameOf(field);
    const inner = typeof field === 'string' ? IDENTITY : renamer(field.fields, direction);
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
      if (!known.has(key) && !Object.hasOwn(out, key)) out[key] = value[key];
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
