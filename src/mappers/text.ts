/** Text helpers shared by lookups and embed codes. */

/** Lower case without accents or surrounding spaces, for forgiving comparisons ("Équipe" ~ "equipe"). */
export const folded = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .toLowerCase();

/**
 * `text` without `char` at either end, in one pass. Patterns such as `/^-+|-+$/g` are quadratic on a long run
 * of `char` that does not reach the end (the engine tries the run from each of its positions), so service text
 * is never trimmed with them.
 */
export const trimChar = (text: string, char: string): string => {
  let start = 0;
  let end = text.length;
  while (start < end && text[start] === char) start++;
  while (end > start && text[end - 1] === char) end--;
  return text.slice(start, end);
};

/** Words of a text as a slug ("TechWeek Paris 2026!" → "techweek-paris-2026"), for title-or-slug searches. */
export const slugText = (text: string): string => trimChar(folded(text).replace(/[^a-z0-9]+/g, '-'), '-');

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/** A value made safe for HTML text and for quoted attribute values alike. */
export const escapeHtml = (value: string): string => value.replace(/[&<>"'`]/g, (c) => HTML_ESCAPES[c] ?? c);

/** A string value trimmed, or `''` for anything that is not a string (input data, answers, subscribe data). */
export const trimmed = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');
