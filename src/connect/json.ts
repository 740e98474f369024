/**
 * JSON from outside, read safely.
 *
 * - **Own keys only.** `JSON.parse` keeps a `"__proto__"` key as an ordinary own property, but the first copy
 *   made by assignment (zod's object parsing, `Object.assign`, a mapper) turns it into the object's
 *   prototype: `{"__proto__": {"email": "x"}}` then answers `email` through the prototype. Such keys are
 *   dropped while parsing, and reported, so nothing can be set through a prototype.
 * - **Bounded depth.** Validating a 50,000-deep body recurses until the stack overflows (`RangeError`). The
 *   depth is measured on the text first, without recursion, and a body nested deeper than the limit is
 *   refused before it is parsed.
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
