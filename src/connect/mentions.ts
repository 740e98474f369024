/**
 * Whether a record's raw bytes can hold the values a lookup looks for, before the record is decoded, parsed
 * or checked: a lookup by email reads a whole event, and all but a few of its records cannot be the one.
 *
 * A value is looked for without regard to ASCII case, as a lookup compares emails (`trim().toLowerCase()`).
 * The test never drops a record the lookup would keep:
 * - a record's texts are its bytes between quotes, but for its escapes (`\n`, `\u00e9`): a record with an
 *   escape that stands for a character of a value (`\u0040`, `\/`) is kept for the full reading; other
 *   escapes (accents written `\u00e9`, line breaks) cannot be part of it;
 * - the only character outside ASCII whose lower case is ASCII is the Kelvin sign (U+212A, lower case
 *   `k`): a record holding it is kept too;
 * - a value with a character outside ASCII is not looked for at all (every record is kept): its lower and
 *   upper cases are not a matter of bytes.
 * Field names and the dialect do not matter: only values are looked for, and the dialect never respells an
 * email.
 */

const BACKSLASH = 0x5c;
/** The Kelvin sign, U+212A, in UTF-8. */
const KELVIN = Buffer.from('\u212a', 'utf8');

const LETTER_U = 0x75;
/** The character of each one-letter escape (`\n` is a line break). */
const ESCAPED: Readonly<Record<number, number>> = {
  0x22: 0x22,
  0x5c: 0x5c,
  0x2f: 0x2f,
  0x62: 0x08,
  0x66: 0x0c,
  0x6e: 0x0a,
  0x72: 0x0d,
  0x74: 0x09,
};
const HEX4 = /^[0-9a-fA-F]{4}$/;

const isUpper = (byte: number): boolean => byte >= 0x41 && byte <= 0x5a;
const isLower = (byte: number): boolean => byte >= 0x61 && byte <= 0x7a;
const lower = (byte: number): number => (isUpper(byte) ? byte | 0x20 : byte);

/** A value looked for: its bytes in lower case, and the byte its search starts from. */
interface Needle {
  bytes: Buffer;
  /** The index of a byte without case in it (`@`, `.`), or 0. */
  anchor: number;
  /** The anchor byte as it may appear: itself, or both its cases when it is a letter. */
  forms: number[];
}

const needleOf = (value: string): Needle => {
  const bytes = Buffer.from(value.toLowerCase(), 'latin1');
  let anchor = bytes.findIndex((byte) => !isLower(byte));
  if (anchor < 0) anchor = 0;
  const at = bytes[anchor] as number;
  return { bytes, anchor, forms: isLower(at) ? [at, at & ~0x20] : [at] };
};

/** Whether `needle` is at `start` of `bytes`, ASCII case aside. */
const isAt = (bytes: Buffer, start: number, needle: Buffer): boolean => {
  if (start < 0 || start + needle.length > bytes.length) return false;
  for (let i = 0; i < needle.length; i++) if (lower(bytes[start + i] as number) !== needle[i]) return false;
  return true;
};

/** Whether `bytes` hold `needle`, ASCII case aside: found from its anchor with `indexOf`. */
const holds = (bytes: Buffer, needle: Needle): boolean => {
  for (const form of needle.forms) {
    for (let at = bytes.indexOf(form, needle.anchor); at >= 0; at = bytes.indexOf(form, at + 1)) {
      if (isAt(bytes, at - needle.anchor, needle.bytes)) return true;
    }
  }
  return false;
};

/**
 * Whether an escape of `bytes` may stand for a character of a value (`chars`: their bytes, in lower case),
 * or is broken (the full reading then says so).
 */
const escapesMatter = (bytes: Buffer, chars: ReadonlySet<number>): boolean => {
  for (let at = bytes.indexOf(BACKSLASH); at >= 0; ) {
    const letter = bytes[at + 1];
    let code = letter === undefined ? undefined : ESCAPED[letter];
    let length = 2;
    if (letter === LETTER_U) {
      const hex = bytes.toString('latin1', at + 2, at + 6);
      if (!HEX4.test(hex)) return true;
      code = parseInt(hex, 16);
      length = 6;
    }
    if (code === undefined || code === 0x212a || (code < 0x80 && chars.has(lower(code)))) return true;
    at = bytes.indexOf(BACKSLASH, at + length);
  }
  return false;
};

/** A test of a record's raw bytes (see the file's comment). */
export type MentionTest = (bytes: Buffer) => boolean;

/**
 * The test that a record's bytes may hold every one of `values` (ASCII case aside), or `null` when it cannot
 * tell: no value, or a value that is empty or has a character outside ASCII.
 */
export const mentionTest = (values: readonly string[] | undefined): MentionTest | null => {
  if (!values || values.length === 0) return null;
  if (values.some((value) => value === '' || !/^[\x20-\x7e]*$/.test(value))) return null;
  const needles = values.map(needleOf);
  const chars = new Set(needles.flatMap((needle) => [...needle.bytes]));
  return (bytes) =>
    needles.every((needle) => holds(bytes, needle)) ||
    bytes.indexOf(KELVIN) >= 0 ||
    (bytes.indexOf(BACKSLASH) >= 0 && escapesMatter(bytes, chars));
};
