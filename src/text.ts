/** Text helpers shared by lookups and embed codes. */

/** Lower case without accents or surrounding spaces, for forgiving comparisons ("Équipe" ~ "equipe"). */
export const folded = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .toLowerCase();

/** Words of a text as a slug ("TechWeek Paris 2026!" → "techweek-paris-2026"), for title-or-slug searches. */
export const slugText = (text: string): string =>
  folded(text)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

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
