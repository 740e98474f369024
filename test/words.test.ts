/**
 * The words people and AI callers read: every visible trigger, search and create has the six points of the
 * rubric (scripts/lib/words.ts), within Zapier's length limits, and docs/input-schemas.json is the JSON Schema
 * of their inputs as an SDK derives it from the app, complete.
 */
import { readFileSync } from 'node:fs';
import { POINTS, grade, inputSchemas, score, visibleOperations } from '../scripts/lib/words';
import { siblingsOf } from '../src/siblings';
import { SCHEMA_FILE, schemaFileText } from '../scripts/words';

const operations = visibleOperations();

describe.each(operations.map((v) => ({ name: `${v.kind}/${v.op.key}`, v })))('$name', ({ v }) => {
  it.each([...POINTS])('has the point "%s"', (point) => {
    expect(grade(v)[point]).toEqual([]);
  });

  it("is within Zapier's limits: description and every help text 1 to 1,000 characters", () => {
    expect(v.op.display.description.length).toBeLessThanOrEqual(1000);
    for (const field of v.op.operation.inputFields ?? []) {
      if (typeof field === 'function' || !('helpText' in field) || field.helpText === undefined) continue;
      expect(field.helpText.length).toBeGreaterThan(0);
      expect(field.helpText.length).toBeLessThanOrEqual(1000);
    }
  });
});

it('reads sibling groups from the operations: visible operations only, each group of two or more', () => {
  const keys = operations.map((v) => v.op.key);
  const grouped = keys.filter((key) => siblingsOf(key).length > 0);
  expect(grouped.length).toBeGreaterThan(0);
  for (const key of grouped) {
    expect({ key, size: siblingsOf(key).length > 1 }).toEqual({ key, size: true });
    for (const other of siblingsOf(key)) expect(keys).toContain(other);
  }
  expect(siblingsOf('payment_failed')).toEqual(expect.arrayContaining(['payment_succeeded', 'new_order']));
});

it('fails a search or an unchanging create whose words claim an effect it does not have', () => {
  const op = (description: string, helpText: string) => ({
    key: 'generate_embed_code',
    noun: 'Embed Code',
    display: { label: 'Generate Embed Code', description },
    operation: {
      inputFields: [{ key: 'eventId', label: 'Event', helpText, dynamic: 'event_list.id.label' }],
    },
  });
  const unchanging =
    'Generates the code; nothing is changed in the service, and a repeated run gives it again.';
  expect(
    grade({ kind: 'create', op: op(unchanging, 'The event to publish, from your events.') }).behaviour,
  ).toEqual(expect.arrayContaining(['Event: claims "to publish", and the operation changes nothing']));
  expect(
    grade({ kind: 'search', op: op('Finds an event and deletes it.', 'The event to look for.') }).behaviour,
  ).toEqual(expect.arrayContaining(['description: claims "deletes", and the operation changes nothing']));
  // A create that does change something may say so; a state ("once it is published") is no claim.
  const changing =
    'Checks a person in, and returns them; a repeated run checks in once. It will create a check-in.';
  expect(
    grade({ kind: 'create', op: op(changing, 'Visitors see it once it is published.') }).behaviour,
  ).toEqual([]);
});

it('fails a description that says only what starts it, point by point', () => {
  const bare = {
    kind: 'search' as const,
    op: {
      key: 'find_registration',
      noun: 'Registration',
      display: { label: 'Find Registration', description: 'Looks up Find Registration records.' },
      operation: {
        inputFields: [
          { key: 'email', label: 'Email', helpText: 'Email' },
          {
            key: 'submissionIdText',
            label: 'Registration ID',
            helpText: 'The registration to look up, mapped.',
          },
        ],
        outputFields: [{ key: 'id' }],
      },
    },
  };
  const grades = grade(bare);
  expect(grades.purpose).toEqual(['does not start "Finds"', 'repeats its label']);
  expect(grades.usage).toEqual(['names none of its siblings in bold (Find Order)']);
  expect(grades.behaviour).toEqual(['says not what it gives', 'says not what no match gives']);
  expect(grades.parameters).toEqual([
    'Email: help repeats the label',
    'Registration ID: a formatted value without an example',
  ]);
  expect(grades.complete).toEqual(['no static sample', 'output id has no label']);
  expect(score(grades)).toBe(1);
});

describe('docs/input-schemas.json', () => {
  const schemas = inputSchemas();

  it('is what the app derives (`npm run words -- --write` writes it)', () => {
    expect(JSON.parse(readFileSync(SCHEMA_FILE, 'utf8'))).toEqual(JSON.parse(schemaFileText()));
  });

  it('has every visible operation, each input with a title, a description and a type', () => {
    expect(Object.keys(schemas)).toEqual(operations.map((v) => `${v.kind}/${v.op.key}`));
    for (const schema of Object.values(schemas)) {
      const properties = schema.properties as Record<string, Record<string, unknown>>;
      for (const [key, property] of Object.entries(properties)) {
        expect({ key, title: typeof property.title }).toEqual({ key, title: 'string' });
        expect({ key, description: (property.description as string).length > 0 }).toEqual({
          key,
          description: true,
        });
        expect(['string', 'boolean', 'integer', 'number', 'array']).toContain(property.type);
      }
      for (const key of schema.required as string[]) expect(properties).toHaveProperty(key);
    }
  });

  const propertiesOf = (name: string) => schemas[name]!.properties as Record<string, Record<string, unknown>>;

  it("gives the choices of a dropdown as an enum (a list's items too), and where a dynamic one comes from", () => {
    expect(propertiesOf('trigger/new_order').status?.enum).toEqual(expect.arrayContaining(['paid']));
    expect(propertiesOf('trigger/event_changed').changes).toMatchObject({
      type: 'array',
      items: { type: 'string', enum: ['any', 'created', 'updated', 'published', 'unpublished', 'deleted'] },
      default: ['any'],
    });
    expect(propertiesOf('create/check_in_attendee').eventId?.['x-zapier-choices-from']).toBe('event_list');
  });

  it('makes each mode of Check In Attendee a oneOf branch with the fields it requires and takes', () => {
    const checkIn = schemas['create/check_in_attendee']!;
    expect(Object.keys(propertiesOf('create/check_in_attendee'))).toEqual(
      expect.arrayContaining(['checkInBy', 'code', 'eventId', 'submissionId', 'checkInTime']),
    );
    expect(checkIn.required).toEqual(['checkInBy']);
    expect(checkIn.oneOf).toEqual([
      {
        properties: { checkInBy: { const: 'code' }, eventId: false, submissionId: false },
        required: ['checkInBy', 'code'],
      },
      {
        properties: { checkInBy: { const: 'registration' }, code: false },
        required: ['checkInBy', 'eventId', 'submissionId'],
      },
    ]);
    expect(checkIn.not).toEqual({ required: ['code', 'submissionId'] });
  });

  it('gives values the app keeps beside its choices as examples, and defaults of their type', () => {
    const embed = propertiesOf('create/generate_embed_code');
    expect(embed.theme).toMatchObject({
      type: 'string',
      examples: ['light', 'dark', 'auto'],
      default: 'light',
    });
    expect(embed.language).toMatchObject({
      type: 'string',
      examples: ['en', 'fr', 'de', 'es'],
      default: 'en',
    });
    expect(embed.theme).not.toHaveProperty('enum');
    expect(embed.language).not.toHaveProperty('enum');
    expect(propertiesOf('search/find_floor_plan').bypassCache).toMatchObject({
      type: 'boolean',
      default: false,
    });
    for (const schema of Object.values(schemas))
      for (const property of Object.values(schema.properties as Record<string, Record<string, unknown>>)) {
        if (!('default' in property)) continue;
        const type = property.type === 'array' ? (property.items as { type: string }).type : property.type;
        const values = property.type === 'array' ? (property.default as unknown[]) : [property.default];
        for (const value of values) expect({ type, value: typeof value }).toEqual({ type, value: type });
      }
  });
});
