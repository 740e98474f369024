/**
 * What an answer holds where the contract expects something else, in words a platform engineer can act on:
 * its top-level keys, the likely counterpart of each name the app reads (`items` for `data`, `created_at`
 * for `createdAt`, `id` for `submissionId`, `type` for `code`), and members that look like paging the app
 * does not follow. These words only describe the wire: whether the app can read it is decided by the app's
 * own readers (evaluate.ts). Every name and value of the service's is blanked of the key (`blank`) before it
 * is cut short.
 */
import { type Seen, excerpt } from './http';
import { CONTRACT_DIALECT, DIALECT } from '../../src/connect/testing';
import type { Blank } from './secret';

/** The contract's names of a list's records and of an error's code (src/connect/dialect.ts). */
const LIST = CONTRACT_DIALECT.list.member;
const CODE = CONTRACT_DIALECT.errors.codeMember;

/** Names that stand for the list of a list answer, or for the code of an error, in other APIs. */
const SYNONYMS: Record<string, readonly string[]> = {
  data: ['items', 'results', 'records', 'rows', 'entries', 'list', 'values', 'content', 'hits', 'elements'],
  code: ['type', 'kind', 'errorcode', 'errortype', 'reason', 'name'],
};

/** Members that look like cursor or page links (the catalog's `page`, `limit`, `total` are the contract's). */
const PAGING =
  /^(next|nextcursor|nextpage|nexttoken|nextpagetoken|nexturl|cursor|hasmore|more|links|pagination|paging|continuation|after|last)$/;

/** `created_at`, `Created-At` and `createdAt` are one name. */
const folded = (name: string): string => name.replace(/[^a-z0-9]/gi, '').toLowerCase();

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `text` blanked of the key, then cut to `max` characters. */
const short = (text: string, blank: Blank, max: number): string => {
  const blanked = blank(text);
  return blanked.length > max ? `${blanked.slice(0, max)}…` : blanked;
};

/** `"a", "b", "c"`, at most `max` of them, then how many in all. */
export const quoteNames = (names: readonly string[], blank: Blank, max = 10): string => {
  const shown = names.slice(0, max).map((name) => `"${short(name, blank, 40)}"`);
  return `${shown.join(', ')}${names.length > max ? `, … (${names.length} in all)` : ''}`;
};

/**
 * The key of `present` that likely stands for `wanted`: the same name in another case or with separators,
 * a usual synonym, or `id` for a record's own identifier (`idKey`). Keys the contract itself names
 * (`known`) are never taken for another one.
 */
export const counterpartOf = (
  wanted: string,
  present: readonly string[],
  known: ReadonlySet<string>,
  idKey?: string,
): string | null => {
  const free = present.filter((key) => !known.has(key));
  const same = free.find((key) => folded(key) === folded(wanted));
  if (same) return same;
  const synonyms = SYNONYMS[wanted] ?? [];
  const synonym = free.find((key) => synonyms.includes(folded(key)));
  if (synonym) return synonym;
  if (wanted === idKey) return free.find((key) => folded(key) === 'id') ?? null;
  return null;
};

export interface Pair {
  wanted: string;
  found: string;
}

/**
 * For objects (records of one list, looked at up to the first 50): each name of `expected` they lack whose
 * counterpart they carry, once.
 */
export const counterpartPairs = (
  objects: readonly unknown[],
  expected: readonly string[],
  idKey?: string,
): Pair[] => {
  const known = new Set(expected);
  const pairs = new Map<string, Pair>();
  for (const value of objects.slice(0, 50)) {
    if (!isObject(value)) continue;
    const keys = Object.keys(value);
    for (const wanted of expected) {
      if (wanted in value || pairs.has(wanted)) continue;
      const found = counterpartOf(wanted, keys, known, idKey);
      if (found) pairs.set(wanted, { wanted, found });
    }
  }
  return [...pairs.values()];
};

/** `"created_at" for "createdAt", "id" for "submissionId"`. */
export const pairWords = (pairs: readonly Pair[], blank: Blank): string =>
  pairs.map((p) => `"${short(p.found, blank, 40)}" for "${p.wanted}"`).join(', ');

/** A JSON value in a few characters: `null`, `"abc…"`, `a list of 3`, `an object`. */
const valueWords = (value: unknown, blank: Blank): string => {
  if (value === null || typeof value === 'boolean' || typeof value === 'number') return String(value);
  if (typeof value === 'string') return `"${short(value, blank, 24)}"`;
  return Array.isArray(value) ? `a list of ${value.length}` : 'an object';
};

/** Paging-like members of an envelope, and what each means for the app, which reads one answer per list. */
export const pagingWords = (
  envelope: Record<string, unknown>,
  blank: Blank,
): { words: string; more: boolean } | null => {
  const members = Object.keys(envelope).filter((key) => PAGING.test(folded(key)));
  if (!members.length) return null;
  const set = members.filter(
    (key) => envelope[key] !== null && envelope[key] !== false && envelope[key] !== '',
  );
  const names = quoteNames(members, blank);
  if (!set.length) {
    return {
      more: false,
      words: `${names} (${valueWords(envelope[members[0] as string], blank)} here) may mean cursor paging, which the app does not follow: it reads one answer per list, so records on a next page would be missed.`,
    };
  }
  return {
    more: true,
    words: `${quoteNames(set, blank)} is set (${valueWords(envelope[set[0] as string], blank)}): the answer says more pages follow, and the app never asks for them, so it would miss their records.`,
  };
};

/**
 * A list answer whose `data` list the app cannot read: its top-level keys, the likely counterpart of `data`,
 * paging-like members, and its beginning (the key blanked).
 */
export const envelopeWords = (json: unknown, answer: Pick<Seen, 'shown'>, blank: Blank): string => {
  const begins = `The answer begins ${excerpt(answer, 80)}.`;
  if (Array.isArray(json)) return `It is a bare list of ${json.length} items, with no envelope. ${begins}`;
  if (!isObject(json)) return begins;
  const keys = Object.keys(json);
  if (!keys.length) return `It is an empty object. ${begins}`;
  const data = counterpartOf(LIST, keys, new Set(['page', 'limit', 'total']));
  const list = alternativeList(json);
  const likely =
    data && Array.isArray(json[data])
      ? ` "${short(data, blank, 40)}" is likely what the contract calls "${LIST}".`
      : list?.key
        ? ` "${short(list.key, blank, 40)}" is its only list, likely what the contract calls "${LIST}".`
        : ' None of them holds a list.';
  const paging = pagingWords(json, blank);
  return `Its top-level keys: ${quoteNames(keys, blank)}.${likely}${paging ? ` ${paging.words}` : ''} ${begins}`;
};

/**
 * Where the records of a list answer the app cannot read probably are: the answer itself when it is a bare
 * list, else the object's counterpart of `data` (or its only list member).
 */
export const alternativeList = (json: unknown): { key: string | null; items: unknown[] } | null => {
  if (Array.isArray(json)) return { key: null, items: json };
  if (!isObject(json)) return null;
  const keys = Object.keys(json).filter((key) => key !== DIALECT.list.member && Array.isArray(json[key]));
  const named = counterpartOf(LIST, keys, new Set());
  const key = named ?? (keys.length === 1 ? (keys[0] as string) : null);
  return key ? { key, items: json[key] as unknown[] } : null;
};

/** What follows "has" for a value: `keys: "a", "b"`, or why it has none. */
export const keysWords = (json: unknown, blank: Blank): string =>
  isObject(json)
    ? `keys: ${quoteNames(Object.keys(json), blank)}`
    : `no keys: it is ${Array.isArray(json) ? `a list of ${json.length}` : json === null ? 'null' : `a ${typeof json}`}`;

/**
 * An error answer whose code the app did not find: what its `error` object (or the body) holds instead, and
 * the likely counterpart of `code` with its value.
 */
export const errorBodyWords = (json: unknown, blank: Blank): string => {
  if (json === undefined) return 'the body is not JSON';
  const error = isObject(json) && isObject(json.error) ? json.error : null;
  if (!error) return `the body has no "error" object (${keysWords(json, blank)})`;
  const keys = Object.keys(error);
  const code = counterpartOf(CODE, keys, new Set(['message', 'field', 'entitlement', 'status']));
  const has = `its "error" object has ${quoteNames(keys, blank)}`;
  if (!code) return has;
  return `${has}; "${short(code, blank, 40)}" (${valueWords(error[code], blank)}) is likely what the contract calls "${CODE}"`;
};
