/**
 * docs/input-schemas.json is what the app accepts. For every visible operation, inputs are generated from its
 * JSON Schema and run through the operation's own input checks (its `perform`, or `performSubscribe` for an
 * instant trigger, with a `z` whose every request or cache read stops the run: the checks come before any):
 * every input the schema allows gets past them, and an input it forbids is refused with a message that names
 * the field it is wrong about.
 */
import fc from 'fast-check';
import { errors } from 'zapier-platform-core';
import { readFileSync } from 'node:fs';
import { type Visible, visibleOperations } from '../scripts/lib/inputSchemas';
import { SCHEMA_FILE } from '../scripts/words';
import { FILLED_PATTERN } from '../src/fields/accepts';
import { authData, errorMessage, meta } from './support/app';
import { type Schema, allowedInput, forbiddenInput, forbidsAny } from './support/jsonSchema';

/** Thrown by the fake `z` when an operation reaches past its input checks (a request or the cache). */
class Reached extends Error {}

type Outcome = { passed: true } | { passed: false; message: string };

/** Runs the operation's input checks on `input`: passed when it gets to a request, else the refusal. */
const check = async ({ op }: Visible, input: Record<string, unknown>): Promise<Outcome> => {
  let reached = false;
  const touch = () => {
    reached = true;
    throw new Reached('past the input checks');
  };
  const z = {
    errors,
    console: { log: () => {}, info: () => {}, warn: () => {}, error: () => {}, debug: () => {} },
    JSON,
    request: touch,
    cache: new Proxy({}, { get: () => touch }),
    cursor: new Proxy({}, { get: () => touch }),
    dehydrate: touch,
  };
  const bundle = {
    inputData: input,
    authData: authData({ frontUrl: 'https://front.connect.test', embedUrl: 'https://embed.connect.test' }),
    meta: meta(),
    targetUrl: 'https://hooks.zapier.test/1',
  };
  const operation = op.operation as Record<string, unknown>;
  const run = (operation.type === 'hook' ? operation.performSubscribe : operation.perform) as (
    z: unknown,
    bundle: unknown,
  ) => Promise<unknown>;
  try {
    await run(z, bundle);
    return { passed: true };
  } catch (error) {
    if (reached) return { passed: true };
    return { passed: false, message: errorMessage(error) };
  }
};

/** What AI callers read (test/words.test.ts holds it to what the app derives). */
const committed = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as Record<string, Schema>;

const operations = visibleOperations().map((v) => {
  const name = `${v.kind}/${v.op.key}`;
  return { name, v, schema: committed[name]! };
});

/** Whether a refusal names one of the fields (by label, as users see it, or by key). */
const namesOneOf = (schema: Schema, fields: string[], message: string): boolean => {
  const properties = schema.properties as Record<string, { title: string }>;
  const text = message.toLowerCase();
  return fields.some(
    (key) => text.includes(properties[key]!.title.toLowerCase()) || text.includes(key.toLowerCase()),
  );
};

const RUNS = { numRuns: 60 };
/** For a property meant to fail: enough runs to find the failure, and no shrinking of it. */
const TO_FAIL = { numRuns: 100, endOnFailure: true };

/** Whether every input `schema` allows passes `v`'s checks (`false` with the first that does not). */
const allowsOnlyAccepted = (v: Visible, schema: Schema) =>
  fc.asyncProperty(allowedInput(schema), async (input) => (await check(v, input)).passed);

/** Whether every input `schema` forbids is refused by `v`'s checks naming the field. */
const forbidsOnlyRefused = (v: Visible, schema: Schema) =>
  fc.asyncProperty(forbiddenInput(schema, FILLED_PATTERN), async ({ input, fields }) => {
    const outcome = await check(v, input);
    return !outcome.passed && namesOneOf(schema, fields, outcome.message);
  });

describe.each(operations)('$name', ({ v, schema }) => {
  it('lets every input its schema allows past its input checks', async () => {
    await fc.assert(
      fc.asyncProperty(allowedInput(schema), async (input) => {
        expect({ input, outcome: await check(v, input) }).toEqual({ input, outcome: { passed: true } });
      }),
      RUNS,
    );
  });

  if (!forbidsAny(schema, FILLED_PATTERN)) {
    it('has no input to refuse (no field)', () => {
      expect(schema.properties).toEqual({});
    });
    return;
  }

  it('refuses every input its schema forbids, naming the field', async () => {
    await fc.assert(
      fc.asyncProperty(forbiddenInput(schema, FILLED_PATTERN), async ({ input, fields }) => {
        const outcome = await check(v, input);
        expect({ input, passed: outcome.passed }).toEqual({ input, passed: false });
        const message = outcome.passed ? '' : outcome.message;
        expect({ input, fields, message, named: namesOneOf(schema, fields, message) }).toEqual({
          input,
          fields,
          message,
          named: true,
        });
      }),
      RUNS,
    );
  });
});

describe('the property test', () => {
  const find = (name: string) => operations.find((o) => o.name === name)!;

  it('fails for a schema that allows what the app refuses (Find Order without its "one of them" rule)', async () => {
    const { v, schema } = find('search/find_order');
    const loose = Object.fromEntries(Object.entries(schema).filter(([key]) => key !== 'anyOf'));
    expect((await fc.check(allowsOnlyAccepted(v, loose), TO_FAIL)).failed).toBe(true);
    expect((await fc.check(allowsOnlyAccepted(v, schema), RUNS)).failed).toBe(false);
  });

  it('fails for a schema that forbids what the app accepts (Find Event Agenda taking event IDs only)', async () => {
    const { v, schema } = find('search/find_agenda');
    const properties = schema.properties as Record<string, Schema>;
    const idOnly = committed['search/find_registration']!.properties as Record<string, Schema>;
    const strict = { ...schema, properties: { ...properties, eventId: idOnly.eventId } };
    expect((await fc.check(forbidsOnlyRefused(v, strict), TO_FAIL)).failed).toBe(true);
    expect((await fc.check(forbidsOnlyRefused(v, schema), RUNS)).failed).toBe(false);
  });
});
