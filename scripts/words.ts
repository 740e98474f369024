/**
 * `npm run words`: each visible operation's grade on the six points of the words rubric
 * (scripts/lib/words.ts), with what fails, and `--write` writes docs/input-schemas.json, the JSON Schema of
 * every visible operation's inputs as an SDK derives it (the words test checks the file is current; run
 * `npm run format` after it).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { POINTS, grade, inputSchemas, score, visibleOperations } from './lib/words';

export const SCHEMA_FILE = path.join(__dirname, '..', 'docs', 'input-schemas.json');

/** The file's text: the schemas as JSON, two-space indented, as Prettier leaves it. */
export const schemaFileText = (): string => `${JSON.stringify(inputSchemas(), null, 2)}\n`;

const main = (): void => {
  let total = 0;
  const operations = visibleOperations();
  for (const visible of operations) {
    const grades = grade(visible);
    const points = score(grades);
    total += points;
    console.log(`${`${visible.kind}/${visible.op.key}`.padEnd(32)} ${points}/6`);
    for (const point of POINTS) for (const why of grades[point]) console.log(`  ${point.padEnd(11)} ${why}`);
  }
  console.log(`${operations.length} operations, ${total} of ${operations.length * 6} points`);
  if (process.argv.includes('--write')) {
    writeFileSync(SCHEMA_FILE, schemaFileText());
    console.log(`wrote ${path.relative(process.cwd(), SCHEMA_FILE)}`);
  }
};

if (require.main === module) main();
