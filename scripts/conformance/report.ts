/** The kit's output: a table grouped by endpoint, a summary with what to do, and the JSON file. */
import { type Check, STATUSES, type Status } from './types';

const COLORS: Record<Status, string> = { holds: '32', tolerated: '36', differs: '31', unchecked: '33' };

export interface RenderOptions {
  /** ANSI colours (a terminal that wants them). */
  color?: boolean;
  /** Characters per line for wrapped text (default 110). */
  width?: number;
}

const paint = (text: string, status: Status, color: boolean | undefined): string =>
  color ? `\u001b[${COLORS[status]}m${text}\u001b[0m` : text;

/** Words of `text` in lines of at most `width` characters. */
export const wrap = (text: string, width: number): string[] => {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return line ? [...lines, line] : lines;
};

/** Every check, grouped by endpoint: status, name and assumption, then what was seen. */
export const renderTable = (checks: Check[], options: RenderOptions = {}): string => {
  const width = Math.max(60, options.width ?? 110);
  const nameWidth = Math.max(...checks.map((c) => c.id.split('.').slice(1).join('.').length), 4);
  const column = ' '.repeat(2 + 10 + 1 + nameWidth + 2);
  // On a narrow terminal, what was seen starts under the name, not under the assumption.
  const indent = width - column.length >= 70 ? column : ' '.repeat(2 + 10 + 1);
  const out: string[] = [];
  for (const group of [...new Set(checks.map((c) => c.group))]) {
    out.push('', group);
    for (const c of checks.filter((check) => check.group === group)) {
      const name = c.id.split('.').slice(1).join('.');
      const [first = '', ...rest] = wrap(c.assumption, width - column.length);
      out.push(
        `  ${paint(c.status.padEnd(10), c.status, options.color)} ${name.padEnd(nameWidth)}  ${first}`,
      );
      for (const line of wrap(rest.join(' '), width - indent.length)) out.push(`${indent}${line}`);
      for (const line of wrap(`→ ${c.detail}`, width - indent.length)) out.push(`${indent}${line}`);
    }
  }
  return `${out.join('\n')}\n`;
};

/** Counts per status, then what to do for each check that differs. */
export const renderSummary = (checks: Check[], options: RenderOptions = {}): string => {
  const width = Math.max(60, options.width ?? 110);
  const count = (status: Status) => checks.filter((c) => c.status === status).length;
  const counts = STATUSES.map((s) => paint(`${count(s)} ${s}`, s, options.color)).join(', ');
  const out = ['', `Summary: ${checks.length} checks: ${counts}.`];
  const differing = checks.filter((c) => c.status === 'differs');
  if (!differing.length) {
    out.push('Nothing differs: the service behaves as the integration expects, as far as these checks see.');
  } else {
    out.push('', 'What to do:');
    for (const c of differing) {
      const [first = '', ...rest] = wrap(`${c.id} (${c.assumption})`, width - 4);
      out.push(`  - ${first}`, ...rest.map((line) => `    ${line}`));
      out.push(...wrap(`→ ${c.action ?? 'See the detail above.'}`, width - 4).map((line) => `    ${line}`));
    }
  }
  const skipped = checks.filter((c) => c.status === 'unchecked');
  if (skipped.length) {
    const list = `Unchecked (${skipped.length}): ${skipped.map((c) => c.id).join(', ')}; the table says why.`;
    out.push('', ...wrap(list, width));
  }
  return `${out.join('\n')}\n`;
};

/** The `--json` file: `{ "checks": [ { id, assumption, status, detail } ] }`. */
export const toJson = (checks: Check[]): string =>
  `${JSON.stringify(
    { checks: checks.map(({ id, assumption, status, detail }) => ({ id, assumption, status, detail })) },
    null,
    2,
  )}\n`;
