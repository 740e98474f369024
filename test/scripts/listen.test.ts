/**
 * `npm run listen`'s command line as the README gives it: `help` (or `--help`) lists the instant triggers
 * and exits 0; no trigger at all lists them and exits 2; a key that is no instant trigger is refused by name.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { instantTriggerKeys } from '../../scripts/listen';

const ROOT = path.resolve(__dirname, '..', '..');
const NODE = path.join(ROOT, 'node_modules', '.bin', 'node');

const listen = (args: string[]) =>
  new Promise<{ code: number; out: string }>((resolve) => {
    execFile(
      NODE,
      ['--import', 'tsx', 'scripts/listen.ts', ...args],
      { cwd: ROOT },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, out: `${stdout}${stderr}` });
      },
    );
  });

it.each([['help'], ['--help']])(
  '`npm run listen -- %s` lists every instant trigger and exits 0',
  async (word) => {
    const { code, out } = await listen([word]);
    expect(code).toBe(0);
    expect(out).toContain(`Instant triggers: ${instantTriggerKeys().join(', ')}`);
  },
);

it('without a trigger, it lists them and exits 2', async () => {
  const { code, out } = await listen([]);
  expect(code).toBe(2);
  expect(out).toContain('Instant triggers: ');
});

it('refuses a key that is not an instant trigger, by name', async () => {
  const { code, out } = await listen(['new_event']);
  expect(code).not.toBe(0);
  expect(out).toContain('"new_event" is not an instant trigger of this app');
});
