/**
 * The test run itself: every time limit of the app is out of reach (jest's global setup), and a failure is
 * summarised with its test's name, its file and line and the values that differed.
 */
import path from 'node:path';
import { STREAM_LIMITS, streamLimits } from '../src/connect';
import { App } from './support/app';
import { GENEROUS_MS } from './support/limits';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { failureText } = require('./support/summary-reporter.js') as {
  failureText: (results: unknown) => string;
};

describe('the run', () => {
  it('has every time limit of the app at ten minutes, however busy the machine (global setup)', () => {
    const limits = streamLimits();
    const keys = Object.keys(STREAM_LIMITS).filter((key) => key !== 'stepMs') as Array<keyof typeof limits>;
    expect(keys).toEqual(expect.arrayContaining(['requestMs', 'lookupMs', 'stallMs', 'searchMs', 'pageMs']));
    for (const key of keys) expect([key, limits[key]]).toEqual([key, GENEROUS_MS]);
    expect(limits.stepMs).toBe(STREAM_LIMITS.stepMs);
  });

  it('summarises a failure with its name, file and line, and the values that differed, without the stack', () => {
    const file = path.join(__dirname, 'e2e', 'example.test.ts');
    const message = [
      'Error: expect(received).toEqual(expected) // deep equality',
      '',
      '- Expected  - 1',
      '+ Received  + 1',
      '',
      '-   "descriptionLength": 1048576,',
      '+   "descriptionLength": 262144,',
      '',
      '  > 193 |     expect(items[0]).toMatchObject({',
      '        |                      ^',
      `    at Object.toMatchObject (${file}:193:22)`,
      '    at processTicksAndRejections (node:internal/process/task_queues:95:5)',
    ].join('\n');
    const text = failureText({
      testResults: [
        {
          testFilePath: file,
          testResults: [
            { status: 'passed', fullName: 'a passing one', failureMessages: [] },
            { status: 'failed', fullName: 'Find Event: found, cut too', failureMessages: [message] },
          ],
        },
      ],
    });
    expect(text).toContain('── failing tests (1) ──');
    expect(text).toContain('✕ Find Event: found, cut too\n  at test/e2e/example.test.ts:193\n');
    expect(text).toContain('+   "descriptionLength": 262144,');
    expect(text).not.toContain('a passing one');
    expect(text).not.toContain('processTicksAndRejections');
    expect(text).not.toContain('> 193 |');
  });

  it('says nothing when every test passed', () => {
    expect(failureText({ testResults: [{ testFilePath: __filename, testResults: [] }] })).toBe('');
  });
});

describe("the app tester's compilation, done once per app (test/support/compiledOnce.ts)", () => {
  // zapier-platform-core's own, and the one its modules get in a test file (set up in setup.ts).
  type Schema = { prepareApp: (app: Record<string, unknown>) => Record<string, unknown> };
  const actual = jest.requireActual<Schema>('zapier-platform-core/src/tools/schema');
  const once = jest.requireMock<Schema>('zapier-platform-core/src/tools/schema');
  const resolve = jest.requireMock<(app: unknown, needle: unknown, explode?: boolean) => unknown>(
    'zapier-platform-core/src/tools/resolve-method-path',
  );
  const definition = () => App as unknown as Record<string, unknown>;

  it('gives what the tester compiled before, and the same again while the app is unchanged', () => {
    const compiled = once.prepareApp(definition());
    expect(compiled).toEqual(actual.prepareApp(definition()));
    expect(Object.isFrozen(compiled)).toBe(true);
    expect(once.prepareApp(definition())).toBe(compiled);
  });

  it("adds a test's own function where the tester would, and compiles again an app that changed", () => {
    const app = { ...definition(), triggers: { ...(definition().triggers as object) } };
    const adHoc = async () => 1;
    const withAdHoc = once.prepareApp(Object.assign(app, { _testRequest: adHoc }));
    expect(withAdHoc).toEqual(actual.prepareApp(app));
    expect(withAdHoc._testRequest).toBe(adHoc);
    delete (app as Record<string, unknown>)._testRequest;
    const before = once.prepareApp(app);
    const [key, trigger] = Object.entries(app.triggers)[0] as [string, Record<string, unknown>];
    const changed = { ...trigger, operation: { ...(trigger.operation as object), perform: async () => [] } };
    (app.triggers as Record<string, unknown>)[key] = changed;
    const after = once.prepareApp(app);
    expect(after).not.toBe(before);
    expect(after).toEqual(actual.prepareApp(app));
    expect((after.triggers as Record<string, { operation: unknown }>)[key]?.operation).toEqual(
      changed.operation,
    );
  });

  it("finds a function of the app where the tester does, and none for a test's own", () => {
    const trigger = Object.values(definition().triggers as object)[0] as { operation: { perform: unknown } };
    expect(resolve(definition(), trigger.operation.perform, false)).toMatch(
      /^triggers\..+\.operation\.perform$/,
    );
    expect(resolve(definition(), async () => 1, false)).toBeUndefined();
    expect(() => resolve(definition(), async () => 1)).toThrow(/could not find your function/);
  });
});
