/**
 * The test run itself: every time limit of the app is out of reach (jest's global setup), and a failure is
 * summarised with its test's name, its file and line and the values that differed.
 */
import path from 'node:path';
import { STREAM_LIMITS, streamLimits } from '../src/connect';
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
