/**
 * What an item says of the fields cut to fit Zapier's limits (src/connect/bounds.ts cuts every record as it
 * is read), and the unknown fields an item keeps: never one copied whole.
 */
import type { PlainOutputField } from 'zapier-platform-core';
import { type Cut, type Cuts, cutText, cutsOf } from '../connect';

/** The most unknown fields (fields the service added) one item keeps. */
export const EXTRA_FIELDS = 20;
/** The most characters of one unknown field an item keeps (of its JSON, for a list or an object). */
export const EXTRA_CHARS = 1024;

/** `description (5,242,880 characters), items (4,000 entries)`; `null` when nothing was cut. */
export const cutSummary = (cuts: Cuts): string | null => {
  const parts = Object.entries(cuts).map(
    ([path, cut]) => `${path || 'the record'} (${cut.size.toLocaleString('en-US')} ${cut.unit})`,
  );
  return parts.length ? parts.join(', ') : null;
};

/** The output field that names the cut fields of an item. */
export const cutFieldsOutputField: PlainOutputField = {
  key: 'cutFields',
  label: 'Fields Cut to Fit With Their Whole Size',
  type: 'string',
};

const isScalar = (value: unknown): boolean =>
  value === null || typeof value === 'number' || typeof value === 'boolean';

/** Where an item's cut fields count the fields the service added past `EXTRA_FIELDS` (all it sent). */
export const ADDED_FIELDS = '(fields the service added)';

/** The app's own key of a record's cuts (src/connect/bounds.ts): never a field of the record. */
const CUTS_KEY = '$cuts';

/** The fields the service added to a record, and the cuts its item reports (`itemCuts`). */
export interface ExtraFields {
  fields: Record<string, unknown>;
  cuts: Record<string, Cut>;
}

/**
 * The unknown fields of `record` an item keeps, the same for every record kind: the first `EXTRA_FIELDS` not
 * in `known`, a text cut at `EXTRA_CHARS` characters, a list or an object kept only when its JSON fits in
 * `EXTRA_CHARS` (else left out). What is cut or left out is in `cuts`; past `EXTRA_FIELDS`, `ADDED_FIELDS`
 * gives how many the service sent, counted before the record was cut as it was read (its members past
 * `LIST_ENTRIES` are then only counted).
 */
export const extraFields = (record: object, known: ReadonlySet<string>): ExtraFields => {
  const fields: Record<string, unknown> = {};
  const cuts: Record<string, Cut> = {};
  // A field already cut as it was read keeps its whole size from then.
  const read = cutsOf(record);
  // One pass over the keys (a poll maps thousands of records): the first `EXTRA_FIELDS` unknown ones kept,
  // the known ones counted.
  const unknown: string[] = [];
  let knownCount = 0;
  let unknownCount = 0;
  for (const key of Object.keys(record)) {
    if (key === CUTS_KEY) continue;
    if (known.has(key)) knownCount += 1;
    else if ((unknownCount += 1) <= EXTRA_FIELDS) unknown.push(key);
  }
  const sent = read[''] ? read[''].size - knownCount : unknownCount;
  // As a spread would: a `__proto__` field is a field of its own, never the prototype.
  const keep = (key: string, value: unknown) => {
    if (key === '__proto__')
      Object.defineProperty(fields, key, { value, enumerable: true, writable: true, configurable: true });
    else fields[key] = value;
  };
  for (const key of unknown) {
    const value = (record as Record<string, unknown>)[key];
    if (typeof value === 'string') {
      keep(key, value.length > EXTRA_CHARS ? cutText(value, EXTRA_CHARS) : value);
      if (value.length > EXTRA_CHARS) cuts[key] = read[key] ?? { size: value.length, unit: 'characters' };
    } else if (isScalar(value)) {
      keep(key, value);
    } else {
      const json = JSON.stringify(value) ?? '';
      if (json.length <= EXTRA_CHARS) keep(key, value);
      else cuts[key] = read[key] ?? { size: json.length, unit: 'characters' };
    }
  }
  if (sent > EXTRA_FIELDS) cuts[ADDED_FIELDS] = { size: sent, unit: 'entries' };
  return { fields, cuts };
};

/**
 * The cuts an item of `record` reports: the record's own (made as it was read) for its known fields and the
 * added fields it keeps, then `extras.cuts`. An added field left out is counted in `ADDED_FIELDS`, and so is
 * the record's own member count when that was cut as it was read.
 */
export const itemCuts = (
  record: object,
  known: ReadonlySet<string>,
  extras: ExtraFields,
): Record<string, Cut> => {
  const own = cutsOf(record);
  // A whole record (the usual one): its item reports only what `extraFields` cut, if anything.
  if (Object.keys(own).length === 0) return { ...extras.cuts };
  const cuts: Record<string, Cut> = {};
  const counted = extras.cuts[ADDED_FIELDS] !== undefined;
  for (const [path, cut] of Object.entries(own)) {
    const field = /^[^.[]*/.exec(path)?.[0] ?? path;
    if (path === '' ? counted : !known.has(field) && !Object.hasOwn(extras.fields, field)) continue;
    cuts[path] = cut;
  }
  return { ...cuts, ...extras.cuts };
};
