/**
 * The words an operation shows to people and to AI callers (Zapier's Copilot, MCP and SDK list every visible
 * trigger, search and create as a tool): its description and its input fields' help, graded on the six points
 * of Glama's tool-description rubric that text can show, and its inputs as the JSON Schema an SDK derives.
 *
 * The six points, as this app reads them:
 * - purpose: the description says what starts the trigger / what is found / what is done, in Zapier's form
 *   ("Triggers when …", "Finds …", a verb), without repeating the label;
 * - usage: it names, by label, a sibling operation a user could mistake it for, and when to pick which;
 * - behaviour: what it gives (`with …`, `returns …`), how soon a trigger runs, what a search does when nothing
 *   matches, and for a create its side effect and what a repeated run does;
 * - parameters: every input has help that adds to its label, with an example where the value has a format;
 * - concise: the description fits in 400 characters and each help text in 700;
 * - complete: a static sample and a label for every static output field.
 *
 * `npm run words` prints each operation's grade and writes docs/input-schemas.json; the words test checks
 * that every visible operation has all six points and that the file is what the app derives.
 */
import App from '../../index';

type Field = {
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
};
type FieldSource = Field | ((z: unknown, bundle: { inputData: Record<string, unknown> }) => unknown);
type Operation = {
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

export const POINTS = ['purpose', 'usage', 'behaviour', 'parameters', 'concise', 'complete'] as const;
export type Point = (typeof POINTS)[number];

/**
 * Operations a user (or an AI caller) could pick one for the other: each must name another of its group by
 * label and say when to pick which. Keys, not labels: the labels are read from the app.
 */
export const SIBLINGS: ReadonlyArray<readonly string[]> = [
  ['new_registration', 'new_submission', 'registration_approved'],
  ['payment_succeeded', 'payment_failed', 'payment_refunded', 'new_order'],
  ['new_event', 'event_published', 'event_changed'],
  ['find_registration', 'find_order'],
  ['find_agenda', 'find_floor_plan', 'generate_embed_code'],
  ['check_in_attendee', 'attendee_checked_in'],
];

/** Where a value has a format (IDs, emails, dates, codes, links): its help must show an example. */
const FORMATTED = /(^|\s)(ID|Email|Time|Day|Date|Code|Link|URL|Reference|Slug|Language)(\s|$)/i;
const EXAMPLE = /for example|such as|e\.g\.|`[^`]+`/i;

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

const labelOf = (key: string): string => {
  const found = visibleOperations().find((v) => v.op.key === key);
  if (!found) throw new Error(`SIBLINGS names "${key}", which is not a visible operation of the app`);
  return found.op.display.label;
};

/**
 * Every input field an operation can show: static ones, and the fields of each choice a dynamic function
 * offers (called with each choice of the fields before it). Copy fields are notes, not inputs.
 */
export const inputFieldsOf = (op: Operation): Field[] => {
  const fields = new Map<string, Field>();
  const sources = op.operation.inputFields ?? [];
  const statics = sources.filter((f): f is Field => typeof f !== 'function');
  for (const source of sources) {
    if (typeof source !== 'function') {
      if (source.type !== 'copy' && !source.computed) fields.set(source.key, source);
      continue;
    }
    const choices = statics.flatMap((f) => choiceValues(f.choices).map((value) => ({ [f.key]: value })));
    for (const inputData of [{}, ...choices]) {
      const made = source(null, { inputData });
      if (!Array.isArray(made)) continue;
      for (const f of made as Field[]) if (!fields.has(f.key) && f.type !== 'copy') fields.set(f.key, f);
    }
  }
  return [...fields.values()];
};

const choiceValues = (choices: unknown): string[] => {
  if (Array.isArray(choices))
    return choices.map((c) => (typeof c === 'string' ? c : String((c as { value: unknown }).value)));
  if (choices && typeof choices === 'object') return Object.keys(choices);
  return [];
};

/** Why each point fails for one operation (an empty list: the point holds). */
export const grade = ({ kind, op }: Visible): Record<Point, string[]> => {
  const text = op.display.description;
  const label = op.display.label;
  const fields = inputFieldsOf(op);
  const purpose = [
    ...(kind === 'trigger' && !text.startsWith('Triggers when ') ? ['does not start "Triggers when"'] : []),
    ...(kind === 'search' && !text.startsWith('Finds ') ? ['does not start "Finds"'] : []),
    ...(kind === 'create' && !/^[A-Z][a-z]+s /.test(text) ? ['does not start with what it does'] : []),
    ...(text.toLowerCase().includes(label.toLowerCase()) ? ['repeats its label'] : []),
  ];
  const group = SIBLINGS.find((g) => g.includes(op.key)) ?? [];
  const others = group.filter((key) => key !== op.key).map(labelOf);
  const usage =
    others.length === 0 || others.some((other) => text.includes(`**${other}**`))
      ? []
      : [`names none of its siblings in bold (${others.join(', ')})`];
  const behaviour = [
    ...(/\b(with (its|the|their|a|an)|returns?|gives?)\b/i.test(text) ? [] : ['says not what it gives']),
    ...(kind === 'trigger' && !/instantly|every few minutes|within seconds/i.test(text)
      ? ['says not how soon it runs']
      : []),
    ...(kind === 'search' && !/nothing (matches|is found)/i.test(text)
      ? ['says not what no match gives']
      : []),
    ...(kind === 'create' && !/changes nothing|nothing is changed|checks .* in/i.test(text)
      ? ['says not what it changes']
      : []),
    ...(kind === 'create' && !/twice|again|repeat/i.test(text) ? ['says not what a repeated run does'] : []),
  ];
  const parameters = fields.flatMap((f) => {
    const help = f.helpText ?? '';
    const name = f.label ?? f.key;
    if (!help) return [`${name}: no help text`];
    if (help.trim().toLowerCase().startsWith(name.toLowerCase())) return [`${name}: help repeats the label`];
    if (help.length < 25) return [`${name}: help too short to add anything`];
    if (FORMATTED.test(name) && !f.dynamic && !f.choices && !EXAMPLE.test(help))
      return [`${name}: a formatted value without an example`];
    return [];
  });
  const concise = [
    ...(text.length > 400 ? [`description of ${text.length} characters (at most 400)`] : []),
    ...fields
      .filter((f) => (f.helpText ?? '').length > 700)
      .map((f) => `${f.label ?? f.key}: help of ${(f.helpText ?? '').length} characters (at most 700)`),
  ];
  const outputs = (op.operation.outputFields ?? []).filter(
    (f): f is { key: string; label?: string } => typeof f === 'object' && f !== null,
  );
  const complete = [
    ...(op.operation.sample ? [] : ['no static sample']),
    ...outputs.filter((f) => !f.label).map((f) => `output ${f.key} has no label`),
  ];
  return { purpose, usage, behaviour, parameters, concise, complete };
};

/** The points an operation has, out of six. */
export const score = (grades: Record<Point, string[]>): number =>
  POINTS.filter((p) => grades[p].length === 0).length;

type JsonSchema = Record<string, unknown>;

/** One input field as the JSON Schema property an SDK derives from it. */
const propertyOf = (f: Field): JsonSchema => {
  const base: JsonSchema =
    f.type === 'boolean'
      ? { type: 'boolean' }
      : f.type === 'integer'
        ? { type: 'integer' }
        : f.type === 'number'
          ? { type: 'number' }
          : f.type === 'datetime'
            ? { type: 'string', format: 'date-time' }
            : { type: 'string' };
  const values = choiceValues(f.choices);
  const property: JsonSchema = { title: f.label ?? f.key, description: f.helpText ?? '', ...base };
  if (values.length > 0) property.enum = values;
  if (f.dynamic) property['x-zapier-choices-from'] = f.dynamic.split('.')[0];
  if (f.search) property['x-zapier-search'] = f.search.split('.')[0];
  if (f.default !== undefined) property.default = f.default;
  return f.list
    ? { title: property.title, description: property.description, type: 'array', items: base }
    : property;
};

/** The inputs of an operation as one JSON Schema object. */
export const inputSchemaOf = (op: Operation): JsonSchema => {
  const fields = inputFieldsOf(op);
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: op.display.label,
    description: op.display.description,
    type: 'object',
    properties: Object.fromEntries(fields.map((f) => [f.key, propertyOf(f)])),
    required: fields.filter((f) => f.required).map((f) => f.key),
    additionalProperties: false,
  };
};

/** Every visible operation's input schema, keyed `trigger/new_registration` as the changelog names them. */
export const inputSchemas = (): Record<string, JsonSchema> =>
  Object.fromEntries(visibleOperations().map(({ kind, op }) => [`${kind}/${op.key}`, inputSchemaOf(op)]));
