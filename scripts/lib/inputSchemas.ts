/**
 * The inputs of every visible operation as the JSON Schema an AI caller reads (Zapier's SDK and MCP turn each
 * operation's input fields into one), derived from the app's own field declarations:
 *
 * - a field that alters the dynamic fields (Check In By, What to Embed) makes modes: one `oneOf` branch per
 *   choice, with the fields the app's dynamic function shows for it, required where it requires them;
 * - a choice list is an `enum`, or `examples` where the field keeps other values too (`otherValues: 'kept'`);
 * - what a text field accepts (src/fields/accepts.ts: a pattern, a day, bounds of a date and time, at least
 *   one of a group filled in, a field that excludes another) becomes `pattern`, `format`, `anyOf` and `not`;
 * - defaults have the field's type (Zapier declares every default as text: `"false"` is `false`).
 *
 * `npm run words -- --write` writes docs/input-schemas.json; test/words.test.ts checks it is current, and
 * test/inputSchemas.test.ts that every input a schema allows passes the operation's checks.
 */
import App from '../../index';
import { acceptsOf } from '../../src/fields/accepts';

export type Field = {
  key: string;
  label?: string;
  type?: string;
  required?: boolean;
  list?: boolean;
  helpText?: string;
  choices?: unknown;
  dynamic?: string;
  search?: string;
  default?: string;
  computed?: boolean;
  altersDynamicFields?: boolean;
  meta?: Record<string, string | number | boolean>;
};
type FieldSource = Field | ((z: unknown, bundle: { inputData: Record<string, unknown> }) => unknown);
export type Operation = {
  key: string;
  noun: string;
  display: { label: string; description: string; hidden?: boolean };
  operation: {
    type?: string;
    inputFields?: FieldSource[];
    outputFields?: unknown[];
    sample?: unknown;
  };
};
export type Kind = 'trigger' | 'search' | 'create';
export type JsonSchema = Record<string, unknown>;

export interface Visible {
  kind: Kind;
  op: Operation;
}

/** Every visible operation of the app, triggers then searches then creates. */
export const visibleOperations = (): Visible[] => {
  const app = App as unknown as Record<string, Record<string, Operation>>;
  const of = (group: string, kind: Kind) =>
    Object.values(app[group] ?? {})
      .filter((op) => !op.display.hidden)
      .map((op) => ({ kind, op }));
  return [...of('triggers', 'trigger'), ...of('searches', 'search'), ...of('creates', 'create')];
};

/** The values of a field's choices (a list of values or `{ value, label }`, or an object keyed by value). */
export const choiceValues = (choices: unknown): string[] => {
  if (Array.isArray(choices))
    return choices.map((c) => (typeof c === 'string' ? c : String((c as { value: unknown }).value)));
  if (choices && typeof choices === 'object') return Object.keys(choices);
  return [];
};

const isInput = (f: Field): boolean => f.type !== 'copy' && !f.computed;

/** The input fields an operation shows for `inputData`: static ones, then what its dynamic functions give. */
const fieldsFor = (op: Operation, inputData: Record<string, unknown>): Field[] =>
  (op.operation.inputFields ?? [])
    .flatMap((source) => {
      if (typeof source !== 'function') return [source];
      const made = source(null, { inputData });
      return Array.isArray(made) ? (made as Field[]) : [];
    })
    .filter(isInput);

const staticFields = (op: Operation): Field[] =>
  (op.operation.inputFields ?? []).filter((f): f is Field => typeof f !== 'function').filter(isInput);

/** Each choice of a field that alters the dynamic fields, with the fields the operation shows for it. */
const modesOf = (op: Operation): Array<{ field: Field; value: string; fields: Field[] }> =>
  staticFields(op)
    .filter((f) => f.altersDynamicFields && choiceValues(f.choices).length > 0)
    .flatMap((field) =>
      choiceValues(field.choices).map((value) => ({
        field,
        value,
        fields: fieldsFor(op, { [field.key]: value }),
      })),
    );

/**
 * Every input field an operation can show: static ones, and the fields of each choice a dynamic function
 * offers (called with each choice of the fields before it). Copy fields are notes, not inputs.
 */
export const inputFieldsOf = (op: Operation): Field[] => {
  const fields = new Map<string, Field>();
  const statics = staticFields(op);
  const choices = statics.flatMap((f) => choiceValues(f.choices).map((value) => ({ [f.key]: value })));
  for (const inputData of [{}, ...choices])
    for (const f of fieldsFor(op, inputData)) if (!fields.has(f.key)) fields.set(f.key, f);
  return [...fields.values()];
};

/** A field's default as a value of its type (Zapier declares every default as text). */
const typedDefault = (f: Field): unknown => {
  const text = f.default as string;
  const one =
    f.type === 'boolean'
      ? text.trim().toLowerCase() === 'true'
      : f.type === 'integer' || f.type === 'number'
        ? Number(text)
        : text;
  return f.list ? [one] : one;
};

/** The schema of one value of a field (an item, for a list). */
const valueSchemaOf = (f: Field): JsonSchema => {
  const accepted = acceptsOf(f);
  const schema: JsonSchema =
    f.type === 'boolean'
      ? { type: 'boolean' }
      : f.type === 'integer' || f.type === 'number'
        ? { type: f.type }
        : f.type === 'datetime'
          ? { type: 'string', format: 'date-time' }
          : { type: 'string' };
  if (accepted.format) schema.format = accepted.format;
  if (accepted.earliest) schema.formatMinimum = accepted.earliest;
  if (accepted.minutesAhead !== undefined) schema['x-minutes-ahead-of-now-at-most'] = accepted.minutesAhead;
  if (accepted.pattern) schema.pattern = accepted.pattern;
  const values = choiceValues(f.choices);
  if (values.length > 0) schema[accepted.otherValues === 'kept' ? 'examples' : 'enum'] = values;
  return schema;
};

/** One input field as a JSON Schema property. */
const propertyOf = (f: Field): JsonSchema => {
  const value = valueSchemaOf(f);
  const property: JsonSchema = {
    title: f.label ?? f.key,
    description: f.helpText ?? '',
    ...(f.list ? { type: 'array', items: value } : value),
  };
  if (f.dynamic) property['x-zapier-choices-from'] = f.dynamic.split('.')[0];
  if (f.search) property['x-zapier-search'] = f.search.split('.')[0];
  if (f.default !== undefined) property.default = typedDefault(f);
  return property;
};

/**
 * The modes as `oneOf` branches: the choice, the fields that choice requires, and the fields only other
 * choices show, which it does not take (`false`: the operation would not read them).
 */
const modeBranches = (op: Operation): JsonSchema[] => {
  const statics = new Set(staticFields(op).map((f) => f.key));
  const modes = modesOf(op);
  const shown = (fields: Field[]) => fields.map((f) => f.key).filter((key) => !statics.has(key));
  return modes.map(({ field, value, fields }) => {
    const own = new Set(shown(fields));
    const others = [...new Set(modes.flatMap((m) => shown(m.fields)))].filter((key) => !own.has(key));
    return {
      properties: { [field.key]: { const: value }, ...Object.fromEntries(others.map((key) => [key, false])) },
      required: [field.key, ...fields.filter((f) => f.required && own.has(f.key)).map((f) => f.key)],
    };
  });
};

/** What the fields declare about each other: groups of which one must be filled, fields that exclude others. */
const crossFieldRules = (fields: Field[]): JsonSchema => {
  const groups = new Map<string, string[]>();
  for (const f of fields) {
    const group = acceptsOf(f).fillOneOf;
    if (group) groups.set(group, [...(groups.get(group) ?? []), f.key]);
  }
  const fillOne = [...groups.values()].map((keys) => ({ anyOf: keys.map((key) => ({ required: [key] })) }));
  const excluded = fields.flatMap((f) => {
    const other = acceptsOf(f).excludes;
    return other ? [{ required: [f.key, other] }] : [];
  });
  return {
    ...(fillOne.length === 1 ? fillOne[0] : fillOne.length > 1 ? { allOf: fillOne } : {}),
    ...(excluded.length === 1
      ? { not: excluded[0] }
      : excluded.length > 1
        ? { not: { anyOf: excluded } }
        : {}),
  };
};

/** The inputs of an operation as one JSON Schema object. */
export const inputSchemaOf = (op: Operation): JsonSchema => {
  const fields = inputFieldsOf(op);
  const branches = modeBranches(op);
  const required = (branches.length > 0 ? staticFields(op) : fields).filter((f) => f.required);
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: op.display.label,
    description: op.display.description,
    type: 'object',
    properties: Object.fromEntries(fields.map((f) => [f.key, propertyOf(f)])),
    required: required.map((f) => f.key),
    ...(branches.length > 0 ? { oneOf: branches } : {}),
    ...crossFieldRules(fields),
    additionalProperties: false,
  };
};

/** Every visible operation's input schema, keyed `trigger/new_registration` as the changelog names them. */
export const inputSchemas = (): Record<string, JsonSchema> =>
  Object.fromEntries(visibleOperations().map(({ kind, op }) => [`${kind}/${op.key}`, inputSchemaOf(op)]));
