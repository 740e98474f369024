/**
 * The API key never leaves the kit. A key of `WHOLE_TEXT_MIN` characters or more is blanked wherever it
 * appears, in every spelling an echo may use (the app's own redactor, src/connect/secrets.ts). A shorter
 * value is no key the service issues, and blanking it everywhere would corrupt the report (`--api-key 127`
 * would turn `http://127.0.0.1:4011` into `http://[redacted].0.0.1:4011`): it is blanked only where it stands
 * as a whole word, between spaces, quotes, brackets, commas or semicolons (docs/conformance.md, "The key").
 *
 * Text is always blanked whole before any excerpt is cut from it, so not even a prefix of a key can show.
 */
import { REDACTED, redactor } from '../../src/connect/secrets';

export type Blank = (text: string) => string;

/** Keys at least this long are blanked wherever they appear; shorter ones only as a whole word. */
export const WHOLE_TEXT_MIN = 8;

/** What may stand on each side of a short key for it to be blanked: a word's edges in a message or a body. */
const EDGE = `\\s"'\`<>()\\[\\]{},;`;

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The function that blanks `key` in a text, by the rule above. */
export const keyBlanker = (key: string): Blank => {
  const value = key.trim();
  if (!value) return (text) => text;
  if (value.length >= WHOLE_TEXT_MIN) return redactor([value]);
  const word = new RegExp(`(^|[${EDGE}])${escapeRegExp(value)}(?=$|[${EDGE}])`, 'g');
  return (text) => text.replace(word, `$1${REDACTED}`);
};
