/** A command run to its end as a child process of a benchmark, its output collected. */
import { spawn } from 'node:child_process';

export type Outcome = { code: number | null; stdout: string; stderr: string };

/** Runs `command` in `cwd`, killed after `limitMs` (a benchmark never hangs), and collects its output. */
export const runChild = (command: string, args: string[], cwd: string, limitMs?: number): Promise<Outcome> =>
  new Promise((resolve) => {
    const child = spawn(command, args, { cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = limitMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), limitMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
