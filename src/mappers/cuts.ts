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

/**
 * The unknown fields of `record` an item keeps: the first `EXTRA_FIELDS` not in `known`, a text cut at
 * `EXTRA_CHARS` characters, a list or an object kept only when its JSON fits in `EXTRA_CHARS` (else left out).
 * What is cut or left out is in `cuts`.
 */
export const extraFields = (
  record: object,
  known: ReadonlySet<string>,
): { fields: Record<string, unknown>; cuts: Record<string, Cut> } => {
  const fields: Record<string, unknown> = {};
  const cuts: Record<string, Cut> = {};
  // A field already cut as it was read keeps its whole size from then.
  const read = cutsOf(record);
  const unknown = Object.keys(record).filter((key) => !known.has(key) && key !== '$cuts');
  for (const key of unknown.slice(0, EXTRA_FIELDS)) {
    const value = (record as Record<string, unknown>)[key];
    if (typeof value === 'string') {
      fields[key] = value.length > EXTRA_CHARS ? cutText(value, EXTRA_CHARS) : value;
      if (value.length > EXTRA_CHARS) cuts[key] = read[key] ?? { size: value.length, unit: 'characters' };
    } else if (isScalar(value)) {
      fields[key] = value;
    } else {
      const json = JSON.stringify(value) ?? '';
      if (json.length <= EXTRA_CHARS) fields[key] = value;
      else cuts[key] = read[key] ?? { size: json.length, unit: 'characters' };
    }
  }
  if (unknown.length > EXTRA_FIELDS)
    cuts['(fields the service added)'] = { size: unknown.length, unit: 'entries' };
  return { fields, cuts };
};
