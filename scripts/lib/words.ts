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
import { siblingsOf } from '../../src/siblings';
import { type Kind, type Visible, inputFieldsOf, visibleOperations } from './inputSchemas';

export { type Kind, type Visible, inputSchemas, visibleOperations } from './inputSchemas';

export const POINTS = ['purpose', 'usage', 'behaviour', 'parameters', 'concise', 'complete'] as const;
export type Point = (typeof POINTS)[number];

/** Where a value has a format (IDs, emails, dates, codes, links): its help must show an example. */
const FORMATTED = /(^|\s)(ID|Email|Time|Day|Date|Code|Link|URL|Reference|Slug|Language)(\s|$)/i;
const EXAMPLE = /for example|such as|e\.g\.|`[^`]+`/i;

/**
 * Words that claim an effect on the service's data ("to publish", "deletes", "will create"): wrong in an
 * operation that changes nothing, where an AI caller would take them at their word.
 */
const EFFECT =
  /\b(?:to|will|would|it|this step)\s+(?:publish|create|delete|remove|update|change|cancel|send|approve|refund|book|check in)\b|\b(?:publishes|creates|deletes|removes|updates|cancels|sends|approves|refunds|books)\b/i;

/**
 * An operation that changes nothing: a search, or a create that says so. (A trigger's words tell what others
 * did: "when an event is created".)
 */
const changesNothing = (kind: Kind, description: string): boolean =>
  kind === 'search' || (kind === 'create' && /changes nothing|nothing is changed/i.test(description));

/** Where an operation that changes nothing claims an effect, in its description or a field's help. */
const claimedEffects = ({ kind, op }: Visible): string[] => {
  if (!changesNothing(kind, op.display.description)) return [];
  const texts = [
    { where: 'description', text: op.display.description },
    ...inputFieldsOf(op).map((f) => ({ where: f.label ?? f.key, text: f.helpText ?? '' })),
  ];
  return texts.flatMap(({ where, text }) => {
    const claim = EFFECT.exec(text)?.[0];
    return claim ? [`${where}: claims "${claim}", and the operation changes nothing`] : [];
  });
};

const labelOf = (key: string): string => {
  const found = visibleOperations().find((v) => v.op.key === key);
  if (!found) throw new Error(`"${key}" is declared a sibling, and it is not a visible operation of the app`);
  return found.op.display.label;
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
  const others = siblingsOf(op.key)
    .filter((key) => key !== op.key)
    .map(labelOf);
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
    ...claimedEffects({ kind, op }),
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
