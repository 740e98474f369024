// `npx tsx scripts/bench-records.ts [count]`: the cost of checking registrations against their schema, the
// read path of every list and delivery (src/connect/records.ts), for a day of a big event (200,000 by
// default). Prints the best of three rounds for the full registration and for its keys only, with today's
// field names (an identity table: records are handed on as they are) and with every registration field
// renamed on the wire (snake_case, the id as `id`), which costs one renaming per record before the check.
import {
  SUBMISSION_KEY_RULE,
  SUBMISSION_RULE,
  type WireNames,
  checkRecord,
  renamer,
} from '../src/connect/testing';
import { SUBMISSION_NAMES } from '../src/connect/wireNames';

const count = Number(process.argv[2] ?? 200_000);
const snake = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const snakeNames = (names: WireNames): WireNames =>
  Object.fromEntries(
    Object.entries(names).map(([app, field]) => [
      app,
      app === 'submissionId'
        ? 'id'
        : typeof field === 'string'
          ? snake(field)
          : 'fields' in field
            ? { name: snake(field.name), fields: snakeNames(field.fields) }
            : { ...field, name: snake(field.name) },
    ]),
  );

const record = (i: number): Record<string, unknown> => ({
  submissionId: `sub_${i}`,
  eventId: '7d0c6f1e-2f6a-4a7e-9a51-3f0e1b2c4d5e',
  status: 'approved',
  email: `guest${i}@example.com`,
  firstName: 'Ada',
  lastName: 'Lovelace',
  answers: [
    { key: 'company', label: 'Company', value: 'Analytical Engines' },
    { key: 'diet', label: 'Dietary needs', value: ['vegan'] },
  ],
  ticketType: 'Standard',
  qrCode: `EVT1:7d0c6f1e:sub_${i}:9f2c`,
  createdAt: '2026-11-21T14:05:09.123Z',
  approvedAt: '2026-11-21T14:06:00.000Z',
  checkedInAt: null,
});

const toWire = renamer(snakeNames(SUBMISSION_NAMES), 'write');
const fromWire = renamer(snakeNames(SUBMISSION_NAMES), 'read');
const plain = Array.from({ length: count }, (_, i) => record(i));
const renamed = plain.map(toWire);

const best = (read: (value: unknown) => boolean, records: unknown[]): number => {
  const times: number[] = [];
  for (let round = 0; round < 3; round++) {
    const start = performance.now();
    let kept = 0;
    for (const value of records) if (read(value)) kept++;
    times.push(performance.now() - start);
    if (kept !== records.length) throw new Error(`only ${kept} of ${records.length} records were kept`);
  }
  return Math.min(...times);
};

console.log(`| ${count.toLocaleString('en')} registrations | Full record | Keys only |`);
console.log('|---|---|---|');
for (const [label, records, prepare] of [
  ['Wire names = app names', plain, (value: unknown) => value],
  ['Every field renamed (snake_case)', renamed, fromWire],
] as const) {
  const full = best((value) => checkRecord(SUBMISSION_RULE, prepare(value)).ok, [...records]);
  const keys = best((value) => checkRecord(SUBMISSION_KEY_RULE, prepare(value)).ok, [...records]);
  console.log(`| ${label} | ${full.toFixed(0)} ms | ${keys.toFixed(0)} ms |`);
}
