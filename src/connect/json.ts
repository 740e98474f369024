/**
 * JSON from outside, read safely.
 *
 * - **Own keys only.** `JSON.parse` keeps a `"__proto__"` key as an ordinary own property, but the first copy
 *   made by assignment (zod's object parsing, `Object.assign`, a mapper) turns it into the object's
 *   prototype: `{"__proto__": {"email": "x"}}` then answers `email` through the prototype. Such keys are
 *   dropped while parsing, and reported, so nothing can be set through a prototype.
 * - **Bounded depth.** Validating a 50,000-deep body recurses until the stack overflows (`RangeError`). The
 *   depth is measured on the text first, without recursion, and a body nested deeper than the limit is
 *   refused before it is parsed. A record of a list is not refused whole: `parseJsonPruned` reads it without
 *   its too-deep parts, which the odd-record rule names in its log line.
 */

/** No contract object nests deeper than a handful of levels; this leaves ample room for extra fields. */
export const MAX_JSON_DEPTH = 64;

const PROTO_KEY = '__proto__';

/** The deepest nesting of objects and arrays in a JSON text (strings skipped), in one pass, no recursion. */
export const jsonDepth = (text: string): number => {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
};

export type SafeJson =
  | { ok: true; value: unknown; droppedKeys: number }
  | { ok: false; problem: 'not-json' }
  | { ok: false; problem: 'too-deep'; depth: number };

/**
 * Parses `text` with own keys only (`__proto__` keys dropped and counted). With `maxDepth`, a text nested
 * deeper is refused before parsing.
 */
export const parseJsonSafely = (text: string, maxDepth?: number): SafeJson => {
  if (maxDepth !== undefined) {
    const depth = jsonDepth(text);
    if (depth > maxDepth) return { ok: false, problem: 'too-deep', depth };
  }
  let droppedKeys = 0;
  try {
    // The reviver costs time on large answers: it runs only when the text may have such a key at all
    // (spelled out, or hidden behind \u escapes, which JSON decodes in keys too).
    const value: unknown =
      text.includes(PROTO_KEY) || text.includes('\\u')
        ? JSON.parse(text, (key, v: unknown) => {
            if (key !== PROTO_KEY) return v;
            droppedKeys++;
            return undefined;
          })
        : JSON.parse(text);
    return { ok: true, value, droppedKeys };
  } catch {
    return { ok: false, problem: 'not-json' };
  }
};

/**
 * How many levels of a too-deep record are read member by member (the record's fields, the elements of a list
 * field, the fields of such an element) before what is still too deep is left out whole. Bounded, so reading
 * a record never recurses deeper than this, however deep the text.
 */
export const PRUNE_LEVELS = 3;

export type PrunedJson =
  | {
      ok: true;
      /** The value without the parts nested too deeply; `undefined` when nothing of it could be read. */
      value: unknown;
      droppedKeys: number;
      /** Where parts were left out (`answers[3].value`); `''` for the whole value. */
      pruned: string[];
    }
  | { ok: false };

const LEFT_OUT = Symbol('left out');

const isWhitespace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** Index just after the string that starts at `from` (a `"`), or -1 when it is not closed. */
const stringEnd = (text: string, from: number): number => {
  for (let i = from + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) i++;
    else if (c === 0x22) return i + 1;
  }
  return -1;
};

/** Index of the `,` or closing bracket that ends the value starting at `from` (no recursion). */
const valueEnd = (text: string, from: number): number => {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const end = stringEnd(text, i);
      if (end < 0) return -1;
      i = end - 1;
    } else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) {
      if (depth === 0) return i;
      depth--;
    } else if (c === 0x2c && depth === 0) return i;
  }
  return -1;
};

interface Member {
  /** The member's name (objects), or `null` (arrays). */
  key: string | null;
  text: string;
}

/** The members of the object or array `text` (trimmed), each as its own text; throws on broken syntax. */
const membersOf = (text: string): Member[] => {
  const isObject = text.charCodeAt(0) === 0x7b;
  const close = isObject ? 0x7d : 0x5d;
  if (text.charCodeAt(text.length - 1) !== close) throw new SyntaxError('unbalanced');
  const members: Member[] = [];
  const skip = (at: number) => {
    let i = at;
    while (i < text.length && isWhitespace(text.charCodeAt(i))) i++;
    return i;
  };
  let i = skip(1);
  if (i === text.length - 1) return members;
  for (;;) {
    let key: string | null = null;
    if (isObject) {
      if (text.charCodeAt(i) !== 0x22) throw new SyntaxError('a member name was expected');
      const end = stringEnd(text, i);
      if (end < 0) throw new SyntaxError('unclosed member name');
      key = JSON.parse(text.slice(i, end)) as string;
      i = skip(end);
      if (text.charCodeAt(i) !== 0x3a) throw new SyntaxError('":" was expected');
      i = skip(i + 1);
    }
    const end = valueEnd(text, i);
    if (end < 0) throw new SyntaxError('unclosed value');
    const value = text.slice(i, end).trim();
    if (!value) throw new SyntaxError('a value was expected');
    members.push({ key, text: value });
    if (text.charCodeAt(end) === 0x2c) {
      i = skip(end + 1);
      continue;
    }
    if (end !== text.length - 1) throw new SyntaxError('something follows the end');
    return members;
  }
};

interface PruneState {
  droppedKeys: number;
  pruned: string[];
}

const pruneValue = (
  text: string,
  maxDepth: number,
  levels: number,
  path: string,
  state: PruneState,
  /** Whether the value is a member of an object: a list is read element by element only then (a list field). */
  inObject = false,
): unknown => {
  if (jsonDepth(text) <= maxDepth) {
    const parsed = parseJsonSafely(text);
    if (!parsed.ok) throw new SyntaxError('not JSON');
    state.droppedKeys += parsed.droppedKeys;
    return parsed.value;
  }
  const first = text.charCodeAt(0);
  // Only an object or a list can be nested: anything else this deep is broken JSON (`"a" "v": [[…]]`).
  if (first !== 0x7b && first !== 0x5b) throw new SyntaxError('not JSON');
  const splits = first === 0x7b || (first === 0x5b && inObject);
  if (levels <= 0 || maxDepth <= 1 || !splits) {
    state.pruned.push(path);
    return LEFT_OUT;
  }
  const members = membersOf(text);
  if (first === 0x5b) {
    const list: unknown[] = [];
    members.forEach((member, index) => {
      const value = pruneValue(member.text, maxDepth - 1, levels - 1, `${path}[${index}]`, state);
      if (value !== LEFT_OUT) list.push(value);
    });
    return list;
  }
  const object: Record<string, unknown> = {};
  for (const member of members) {
    const key = member.key as string;
    if (key === PROTO_KEY) {
      state.droppedKeys++;
      continue;
    }
    const at = path ? `${path}.${key}` : key;
    const value = pruneValue(member.text, maxDepth - 1, levels - 1, at, state, true);
    if (value !== LEFT_OUT) object[key] = value;
    else delete object[key];
  }
  return object;
};

/**
 * Parses a record that may be nested deeper than `maxDepth`: parts within the limit are parsed as usual, and
 * a part nested deeper is left out whole, its place listed in `pruned`. An object is read member by member
 * and a list field element by element, for `PRUNE_LEVELS` levels (a record's field, an element of a list
 * field such as an answer, a field of that element such as the answer's `value`); a too-deep part below
 * that, or a list within a list, is left out whole. Nothing recurses
 * with the depth of the text: `JSON.parse` only ever sees parts within the limit. `ok: false` when the text
 * is not valid JSON.
 */
export const parseJsonPruned = (text: string, maxDepth: number, levels = PRUNE_LEVELS): PrunedJson => {
  const state: PruneState = { droppedKeys: 0, pruned: [] };
  try {
    const value = pruneValue(text.trim(), maxDepth, levels, '', state);
    return { ok: true, value: value === LEFT_OUT ? undefined : value, ...state };
  } catch {
    return { ok: false };
  }
};

/** The log line for `count` "__proto__" members dropped from `what` ("The answer for the events list"). */
export const droppedKeysLine = (what: string, count: number): string =>
  `${what} had ${count} "__proto__" field(s); they were ignored (only a record's own fields are read).`;

/** What a JSON value is, in words for a message: "a list", "null", "an object", "a string", "a number"… */
export const valueKind = (value: unknown): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
};
