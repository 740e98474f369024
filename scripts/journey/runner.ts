/**
 * A small step runner for the journey: each step runs, is timed and printed as one row as soon as it ends;
 * a failing step is recorded with its error and the journey goes on where it can.
 */
import { errorText } from '../../src/connect';

export interface Row {
  section: string;
  step: string;
  ok: boolean;
  detail: string;
  ms: number;
}

export interface Printer {
  line(text: string): void;
  color: boolean;
}

const paint = (color: boolean, code: string, text: string) =>
  color ? `\u001b[${code}m${text}\u001b[0m` : text;

const STEP_WIDTH = 44;
/** Details longer than this wrap onto lines of their own, under the detail column. */
const DETAIL_WIDTH = 80;

/** `text` in lines of at most `width` characters, broken at spaces (a longer word is split). */
export const wrap = (text: string, width = DETAIL_WIDTH): string[] => {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(' ')) {
      let rest = word;
      while (rest.length > width) {
        if (line) lines.push(line);
        lines.push(rest.slice(0, width));
        rest = rest.slice(width);
        line = '';
      }
      if (!line) line = rest;
      else if (line.length + 1 + rest.length <= width) line = `${line} ${rest}`;
      else {
        lines.push(line);
        line = rest;
      }
    }
    lines.push(line);
  }
  return lines;
};

export class Runner {
  readonly rows: Row[] = [];
  private section = '';

  constructor(private readonly out: Printer) {}

  heading(title: string, note?: string): void {
    this.section = title;
    this.out.line('');
    this.out.line(
      `${paint(this.out.color, '1;36', title)}${note ? paint(this.out.color, '2', `  ${note}`) : ''}`,
    );
  }

  note(text: string): void {
    this.out.line(paint(this.out.color, '2', `    ${text}`));
  }

  /** Runs one step; `fn` returns the detail shown beside it. Resolves the step's value, or undefined. */
  async step<T>(step: string, fn: () => Promise<{ detail: string; value?: T }>): Promise<T | undefined> {
    const started = performance.now();
    let ok = true;
    let detail: string;
    let value: T | undefined;
    try {
      const result = await fn();
      detail = result.detail;
      value = result.value;
    } catch (error) {
      ok = false;
      detail = describeError(error);
    }
    const ms = Math.round(performance.now() - started);
    this.rows.push({ section: this.section, step, ok, detail, ms });
    const mark = ok ? paint(this.out.color, '32', '✔') : paint(this.out.color, '31', '✘');
    // A long name gets a line of its own; a long detail continues under the detail column. Nothing is cut.
    if (step.length > STEP_WIDTH) this.out.line(`  ${mark} ${step}`);
    const name = step.length > STEP_WIDTH ? ' '.repeat(STEP_WIDTH) : step.padEnd(STEP_WIDTH);
    const time = paint(this.out.color, '2', `${String(ms).padStart(5)} ms`);
    const [first = '', ...more] = wrap(detail).map((line) => (ok ? line : paint(this.out.color, '31', line)));
    this.out.line(`  ${step.length > STEP_WIDTH ? ' ' : mark} ${name} ${time}  ${first}`);
    const indent = ' '.repeat(2 + 2 + STEP_WIDTH + 1 + 8 + 2);
    for (const line of more) this.out.line(`${indent}${line}`);
    return value;
  }

  get failed(): Row[] {
    return this.rows.filter((row) => !row.ok);
  }
}

/** The readable message of an error, including Zapier's JSON-wrapped messages. */
export const describeError = (error: unknown): string =>
  `${error instanceof Error ? error.name : 'Error'}: ${errorText(error)}`;

/** Throws with `message` unless `condition` holds. */
export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}
