/**
 * The documents a Zap builder reads quote the app's own labels: every bold phrase of README.md and
 * docs/zap-builders.md, and every field named in the guide's field tables, is a label of the app definition
 * (an operation, an input or output field, a choice), read from the definition itself, or one of the few
 * phrases listed below that are not labels of this app. A label renamed in the app, or misquoted in a
 * document, fails here.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Bundle } from 'zapier-platform-core';
import { answerOutputFields } from '../src/mappers/submission';
import { App } from './support/app';
import { type Operation, inputFieldsOf } from '../scripts/lib/inputSchemas';

const ROOT = path.resolve(__dirname, '..');
const DOCUMENTS = ['README.md', 'docs/zap-builders.md'];

/** Bold phrases of the documents that are not labels of this app, with what they are. */
const NOT_LABELS: Record<string, string> = {
  'Settings → Integrations → API keys': "a page of the platform's dashboard",
  'Settings → Company': "a page of the platform's dashboard",
  'Settings → Integrations → Webhooks': "a page of the platform's dashboard",
  'Load more': "Zapier's button under a dropdown",
  'Test trigger': "Zapier's button in the Zap editor",
  'Create Spreadsheet Row': "an action of Google Sheets' integration",
  'Find or Create Contact': "an action of the CRMs' integrations",
  'Create Sales Receipt': "an action of the accounting tools' integrations",
  Connect: "the platform's interface, in the README's first line",
  'New Registration (instant) or New Form Submission (polling)?': 'a question the guide answers',
  'Registration approved later?': 'a question the guide answers',
  'Events that open with a rush.': 'a case the guide answers',
  'Payments: Payment Succeeded (instant) or New Order (polling)?': 'a question the guide answers',
  'Events:': 'the start of a paragraph',
  'Rescans.': 'the start of a paragraph',
  'Already checked in is a success': 'the start of a paragraph',
  'Attendee fields of orders and payments.': 'the start of a paragraph',
  Registrations: 'the start of a paragraph of "Fields you get"',
  'Orders and payments': 'the start of a paragraph of "Fields you get"',
  Events: 'the start of a paragraph of "Fields you get"',
  'Floor plans': 'the start of a paragraph of "Fields you get"',
  Agendas: 'the start of a paragraph of "Fields you get"',
  'Map the scan time of your scanner app here': 'emphasis',
  'the same scan': 'emphasis',
  'scan time': 'emphasis',
  'per-scan reference': 'emphasis',
  'The step says to reconnect': 'a case of "When something goes wrong"',
  '"This delivery could not be checked against the subscription\'s current signing secret"':
    'a message quoted in "When something goes wrong"',
  '"The Zap was not turned on"': 'a message quoted in "When something goes wrong"',
  '"Your plan does not include the … feature"': 'a message quoted in "When something goes wrong"',
  '"… is not among the events of the connected account"': 'a message quoted in "When something goes wrong"',
  '"… is not one of the connected account\'s events"': 'a message quoted in "When something goes wrong"',
  '"The agenda embed needs the event\'s slug"': 'a message quoted in "When something goes wrong"',
  '"No published event has the slug …"': 'a message quoted in "When something goes wrong"',
  '"… does not answer like a Connect API"': 'a message quoted in "When something goes wrong"',
  '"… is not an email address"': 'a message quoted in "When something goes wrong"',
  '"… is not an ID: an ID has no spaces"': 'a message quoted in "When something goes wrong"',
  '"… is … in the future"': 'a message quoted in "When something goes wrong"',
  'A temporary failure': 'a case of "When something goes wrong"',
  'An instant Zap did not run': 'a case of "When something goes wrong"',
  '1. Start the sandbox': 'a step of "Trying it by hand"',
  '2. Every polling trigger, search and create through `zapier-platform invoke`':
    'a step of "Trying it by hand"',
  '3. Watch an instant trigger run': 'a step of "Trying it by hand"',
  '4. See the embeds.': 'a step of "Trying it by hand"',
  holds: "a status of the conformance kit's report",
  tolerated: "a status of the conformance kit's report",
  differs: "a status of the conformance kit's report",
  unchecked: "a status of the conformance kit's report",
};

interface Field {
  key?: string;
  label?: string;
  choices?: unknown;
  children?: Field[];
}

const choiceLabels = (choices: unknown): string[] =>
  Array.isArray(choices)
    ? choices.flatMap((choice) =>
        typeof choice === 'object' && choice && 'label' in choice ? [String(choice.label)] : [],
      )
    : choices && typeof choices === 'object'
      ? Object.values(choices).map(String)
      : [];

/**
 * The fields of a list: static ones, and those a dynamic function gives for every value of the inputs it
 * reads (`checkInBy` today; empty inputs give every field it can show).
 */
const fieldsOf = (list: unknown): Field[] => {
  if (!Array.isArray(list)) return [];
  return list.flatMap((entry: unknown): Field[] => {
    if (typeof entry === 'object' && entry) {
      const field = entry as Field;
      return [field, ...(field.children ?? [])];
    }
    if (typeof entry !== 'function') return [];
    return [{}, { checkInBy: 'code' }, { checkInBy: 'registration' }].flatMap((inputData) => {
      const fields: unknown = entry({}, { inputData } as unknown as Bundle);
      // Fields read from the service (custom answers) are not labels a document can quote.
      return Array.isArray(fields) ? fieldsOf(fields) : [];
    });
  });
};

/** Every label of the app definition. */
const appLabels = (): Set<string> => {
  const labels = new Set<string>();
  const addFields = (fields: Field[]) => {
    for (const field of fields) {
      if (field.label) labels.add(field.label);
      for (const label of choiceLabels(field.choices)) labels.add(label);
    }
  };
  addFields(fieldsOf(App.authentication?.fields));
  for (const group of [App.triggers, App.searches, App.creates]) {
    for (const definition of Object.values(group ?? {})) {
      labels.add(definition.display.label);
      addFields(fieldsOf(definition.operation.inputFields));
      // The fields each choice of a mode shows (Check In By, What to Embed).
      addFields(inputFieldsOf(definition as unknown as Operation));
      addFields(fieldsOf(definition.operation.outputFields));
    }
  }
  return labels;
};

const LABELS = appLabels();

/**
 * The labels of custom answers as the app makes them from a form's questions (`answerOutputFields`): one
 * answer each to the questions the documents use as examples, lists for the checkbox ones.
 */
const ANSWER_LABELS = new Set(
  answerOutputFields([
    { key: 'company', label: 'Company', value: 'Analytical Engines Ltd' },
    { key: 'topics', label: 'Topics', value: ['AI', 'Data'] },
    { key: 'dietary', label: 'Dietary needs', value: ['Vegetarian'] },
  ]).map((field) => field.label ?? ''),
);

const isLabel = (phrase: string): boolean => {
  if (LABELS.has(phrase) || ANSWER_LABELS.has(phrase)) return true;
  // "Line Items: …" names the family of labels that start with "Line Items: ".
  if (!phrase.endsWith(': …')) return false;
  const prefix = phrase.slice(0, -1);
  return [...LABELS, ...ANSWER_LABELS].some((label) => label.startsWith(prefix));
};

const boldPhrases = (file: string): string[] => {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  return [...new Set([...text.matchAll(/\*\*([^*]+?)\*\*/g)].map((m) => (m[1] ?? '').replace(/\s+/g, ' ')))];
};

it('reads labels of every kind from the app definition', () => {
  for (const label of [
    'New Form Submission',
    'Check In By',
    'QR Code (the scanned ticket)',
    'Registration',
    'Same Scan Sent Before',
    'Map Frame URL or Embed Script URL',
    'Floor Plan Map (iframe)',
    'API Key',
  ]) {
    expect([label, LABELS.has(label)]).toEqual([label, true]);
  }
});

describe.each(DOCUMENTS)('%s', (file) => {
  it('quotes in bold only labels of the app, or phrases listed as something else', () => {
    const unknown = boldPhrases(file).filter((phrase) => !isLabel(phrase) && !(phrase in NOT_LABELS));
    expect(unknown).toEqual([]);
  });
});

it('lists as "not a label" only phrases the documents use, none of them a label of the app', () => {
  const used = new Set(DOCUMENTS.flatMap(boldPhrases));
  const stale = Object.keys(NOT_LABELS).filter((phrase) => !used.has(phrase) || LABELS.has(phrase));
  expect(stale).toEqual([]);
});

it("names, in the guide's field tables, only fields of the app", () => {
  const guide = readFileSync(path.join(ROOT, 'docs', 'zap-builders.md'), 'utf8');
  const lines = guide.split('\n');
  // A table whose first column is headed "Field": the cell of each row after the separator.
  const named = lines.flatMap((line, index) => {
    if (!/^\| Field +\|/.test(line)) return [];
    const rows: string[] = [];
    for (let i = index + 2; lines[i]?.startsWith('|'); i++) rows.push(lines[i] as string);
    return rows
      .map((row) => row.split('|')[1]?.trim() ?? '')
      .flatMap((cell) => cell.replace(/ \(Advanced\)$/, '').split(', '));
  });
  expect(named).toEqual(expect.arrayContaining(['Check In By', 'What to Embed', 'API Key']));
  expect(named.filter((name) => !LABELS.has(name))).toEqual([]);
});

it('quotes the labels the guide once got wrong as the app has them', () => {
  const guide = readFileSync(path.join(ROOT, 'docs', 'zap-builders.md'), 'utf8').replace(/\s+/g, ' ');
  for (const label of [
    'Same Scan Sent Before',
    'QR Code (the scanned ticket)',
    'Registration (event and person)',
    'Agenda (script embed)',
    'Floor Plan Map (iframe)',
    'Map Frame URL or Embed Script URL',
  ]) {
    expect([label, guide.includes(`**${label}**`)]).toEqual([label, true]);
  }
  expect(guide).not.toContain('Same Scan Was Sent Before');
});
