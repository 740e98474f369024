/**
 * The bounds of one record, whatever the service put in it: every record the app reads (a list's record, a
 * single answer) passes through `boundRecord` before its schema checks it, so no text, list or object of any
 * size reaches a mapper, an item or the cache whole.
 *
 * - A text longer than `TEXT_CHARS` keeps its first `TEXT_CHARS` characters and ends with `CUT_MARK`.
 * - A list (or an object) with more than `LIST_ENTRIES` entries keeps its first `LIST_ENTRIES`.
 * - One record keeps at most `RECORD_TEXT_CHARS` characters of text in all: past them, each further text keeps
 *   `SHORT_TEXT_CHARS`; and at most `RECORD_VALUES` values in all: past them, lists and objects are emptied.
 *
 * Each cut is recorded in the record's cuts (`cutsOf`): the path of the field (`description`, `items`,
 * `answers[2].value`) and its whole size (characters of a text, entries of a list), so that an item can say
 * that a field was cut and how long it was. Nothing is copied unless something is cut.
 */

import { cutListTail, cutTextTail } from './listSplitter';

/** The most characters of one text kept in a record. */
export const TEXT_CHARS = 16 * 1024;
/** The most entries of one list (or members of one object) kept in a record. */
export const LIST_ENTRIES = 100;
/** The most characters of text one record keeps in all. */
export const RECORD_TEXT_CHARS = 16 * TEXT_CHARS;
/** The characters a text keeps once its record has spent `RECORD_TEXT_CHARS`. */
export const SHORT_TEXT_CHARS = 64;
/** The most values (texts, numbers, lists, objects) one record keeps in all. */
export const RECORD_VALUES = 200 * LIST_ENTRIES;
/**
 * The most bytes of one text of a record held while it is read (`listSplitter`'s `maxStringBytes`): enough
 * for `TEXT_CHARS` characters whatever their script and escapes; the rest is read past and only counted.
 */
export const READ_TEXT_BYTES = 8 * TEXT_CHARS;
/**
 * The most entries of one list of a record held while it is read (`listSplitter`'s `maxListEntries`): the
 * most any list of a record keeps (`Bounds.lists`); the rest are read past and only counted.
 */
export const READ_LIST_ENTRIES = 10 * LIST_ENTRIES;
/** What ends a text that was cut. */
export const CUT_MARK = ' … [cut]';

/** The app's own key of a record's cuts (a service field of that name is dropped). */
const CUTS_KEY = '$cuts';

/** The cut of a list of `size` entries (a list counted while it was read). */
export const listCut = (size: number): Cut => ({ size, unit: 'entries' });

/** The whole size of a field that was cut: characters of a text, entries of a list or an object. */
export interface Cut {
  readonly size: number;
  readonly unit: 'characters' | 'entries';
}

/** Field path → its whole size. */
export type Cuts = Readonly<Record<string, Cut>>;

export interface Bounds {
  /** The most entries of a list named here (by its path in the record: `booths`, `sessions`). */
  readonly lists?: Readonly<Record<string, number>>;
  /** The most characters of text one record keeps in all (default `RECORD_TEXT_CHARS`). */
  readonly recordText?: number;
}

interface Budget {
  text: number;
  values: number;
  cuts: Record<string, Cut>;
  lists: Readonly<Record<string, number>>;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A text cut at `keep` characters, never inside a surrogate pair, with the mark: a copy of its own, since a
 * slice keeps alive the whole text it was cut from (the engine shares their characters).
 */
export const cutText = (text: string, keep: number): string => {
  let end = Math.max(0, keep);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return JSON.parse(JSON.stringify(`${text.slice(0, end)}${CUT_MARK}`)) as string;
};

const boundText = (read: string, path: string, budget: Budget): string => {
  // A text cut while it was read says how much of it was left out (`cutTextTail`).
  const { text, leftOut } = cutTextTail(read);
  const cap = budget.text > 0 ? Math.min(TEXT_CHARS, budget.text) : SHORT_TEXT_CHARS;
  if (text.length <= cap && leftOut === 0) {
    budget.text -= text.length;
    return text;
  }
  const keep = Math.min(cap, text.length);
  budget.text -= keep;
  budget.cuts[path] = { size: text.length + leftOut, unit: 'characters' };
  return cutText(text, keep);
};

/** The lists of bounds that name none (the usual case): no path of the record is then looked up. */
const NO_LISTS: Readonly<Record<string, number>> = Object.freeze({});

const entriesCap = (path: string, budget: Budget): number => {
  const named = budget.lists === NO_LISTS ? undefined : budget.lists[path.replace(/\[\d+\]/g, '[]')];
  return budget.values > 0 ? Math.min(named ?? LIST_ENTRIES, budget.values) : 0;
};

const boundList = (read: unknown[], path: string, budget: Budget): unknown[] => {
  // A list cut while it was read says how many entries were left out (`cutListTail`).
  const { list, leftOut } = cutListTail(read);
  const cap = entriesCap(path, budget);
  const kept = list.length > cap || leftOut ? list.slice(0, cap) : list;
  if (kept !== list) budget.cuts[path] = { size: list.length + leftOut, unit: 'entries' };
  let copy: unknown[] | null = kept === list ? null : kept;
  kept.forEach((entry, i) => {
    const bounded = bound(entry, `${path}[${i}]`, budget);
    if (bounded !== entry) (copy ??= [...kept])[i] = bounded;
  });
  return copy ?? list;
};

const boundObject = (
  object: Record<string, unknown>,
  path: string,
  budget: Budget,
): Record<string, unknown> => {
  const keys = Object.keys(object);
  const cap = entriesCap(path, budget);
  let copy: Record<string, unknown> | null = null;
  if (keys.length > cap) {
    budget.cuts[path] = { size: keys.length, unit: 'entries' };
    copy = {};
    for (const key of keys.slice(0, cap)) copy[key] = object[key];
  }
  for (const key of keys.slice(0, cap)) {
    const value = object[key];
    const bounded = bound(value, path ? `${path}.${key}` : key, budget);
    if (bounded !== value) (copy ??= { ...object })[key] = bounded;
  }
  return copy ?? object;
};

const bound = (value: unknown, path: string, budget: Budget): unknown => {
  budget.values--;
  if (typeof value === 'string') return boundText(value, path, budget);
  if (Array.isArray(value)) return boundList(value, path, budget);
  if (isPlainObject(value)) return boundObject(value, path, budget);
  return value;
};

export interface Bounded {
  value: unknown;
  /** What was cut, or `null` when the record is whole. */
  cuts: Cuts | null;
}

/** `record` within the bounds (the same value when nothing is cut), and what was cut. */
export const boundRecord = (record: unknown, bounds: Bounds = {}): Bounded => {
  if (!isPlainObject(record)) return { value: record, cuts: null };
  const own = Object.hasOwn(record, CUTS_KEY) ? { ...record } : record;
  if (own !== record) delete own[CUTS_KEY];
  const budget: Budget = {
    text: bounds.recordText ?? RECORD_TEXT_CHARS,
    values: RECORD_VALUES,
    cuts: {},
    lists: bounds.lists && Object.keys(bounds.lists).length > 0 ? bounds.lists : NO_LISTS,
  };
  // The record itself is not an entry of anything: its own members are capped like any object's.
  const value = boundObject(own, '', budget);
  return { value, cuts: Object.keys(budget.cuts).length ? budget.cuts : null };
};

/** Records `cuts` on a checked record (the app's own field, kept through the cache). */
export const withCuts = <T>(record: T, cuts: Cuts | null): T => {
  if (cuts && isPlainObject(record)) Object.assign(record, { [CUTS_KEY]: cuts });
  return record;
};

/** What was cut of `record` (field path → whole size); `{}` when it is whole. */
export const cutsOf = (record: unknown): Cuts => {
  if (!isPlainObject(record)) return {};
  const cuts = record[CUTS_KEY];
  return isPlainObject(cuts) ? (cuts as Cuts) : {};
};

/** `record` without its cuts, for mappers that keep a record's other fields. */
export const withoutCuts = <T extends object>(record: T): T => {
  if (!Object.hasOwn(record, CUTS_KEY)) return record;
  const copy = { ...record } as Record<string, unknown>;
  delete copy[CUTS_KEY];
  return copy as T;
};
