/**
 * What this worker decoded lately. Zapier runs many polls in one warm process, one after another, and a
 * stream's whole kept entry and the parts of its tail change only now and then: when the stream's next
 * poll lands in the same process, it reads the same packed texts again, and decoding them is half of a
 * steady poll's work. A decoding is remembered by the text it read, never by a key or an account, so what
 * it gives is what decoding that text gives; nothing here is ever the truth (the cache is: a miss decodes
 * as before), and a process that never sees the text again only spent its memory. A remembered decoding is
 * shared by every poll that reads it, so every decoding is frozen, every object of it: whatever would
 * change it throws instead of changing another poll's records. Bounded by what it holds, each decoding
 * weighed as its packed text and the bytes it unpacked to (`heldBytes`: a whole entry at its cap whose
 * records fill an answer, and its tail), so a text that packs very well (long repeated answers) cannot
 * keep tens of megabytes between polls; the decoding read least lately goes first, and a poll that writes
 * a new whole entry forgets the one it replaced. Owed shares are not remembered: a poll reads many, each
 * for its turn only, and remembering them only moved garbage to the old generation.
 */

interface Held {
  kind: string;
  capBytes: number;
  decoded: unknown;
  /** The text's characters and the bytes it unpacked to. */
  weight: number;
}

/** A decoding and the bytes it was read from once unpacked (the JSON text's UTF-8 bytes). */
export interface Sized<T> {
  decoded: T;
  bytes: number;
}

/** The remembered decodings by the text they read, the one read least lately first. */
const memory = new Map<string, Held>();
/** The weight of what `memory` holds. */
let heldTotal = 0;

/** `value` and every object it reaches, frozen (iteratively: a record may nest deeper than the stack). */
const frozen = <T>(value: T): T => {
  const stack: unknown[] = [value];
  while (stack.length) {
    const next = stack.pop();
    if (typeof next !== 'object' || next === null || Object.isFrozen(next)) continue;
    Object.freeze(next);
    for (const inner of Object.values(next))
      if (typeof inner === 'object' && inner !== null) stack.push(inner);
  }
  return value;
};

const forget = (text: string) => {
  const held = memory.get(text);
  if (!held) return;
  memory.delete(text);
  heldTotal -= held.weight;
};

/** Forgets the decodings of `texts`: values the cache no longer holds (a poll wrote others over them). */
export const forgetDecodings = (texts: string[]) => texts.forEach(forget);

/** How often this worker's decodings were remembered or made (what tests look at). */
export const decodingCounts = { remembered: 0, made: 0 };

/**
 * `decode` remembered by the text it reads: `decode(value, capBytes)`'s decoding, frozen, or the same
 * decoding of the same text (as the same `kind`, with the same cap) when this worker made it lately. Every
 * decoding is frozen, remembered or not; one that weighs more than `heldBytes` (0: every one) is not
 * remembered, nor is `null` (not a value of that kind).
 */
export const rememberedDecoding =
  <T>(kind: string, decode: (value: unknown, capBytes: number) => Sized<T> | null) =>
  (value: unknown, capBytes: number, heldBytes: number): T | null => {
    const text = typeof value === 'string' && value.length <= heldBytes ? value : null;
    const held = text === null ? undefined : memory.get(text);
    if (text !== null && held && held.kind === kind && held.capBytes === capBytes) {
      decodingCounts.remembered += 1;
      memory.delete(text);
      memory.set(text, held);
      return held.decoded as T;
    }
    decodingCounts.made += 1;
    const sized = decode(value, capBytes);
    if (sized === null) return null;
    const decoded = frozen(sized.decoded);
    const weight = text === null ? 0 : text.length + sized.bytes;
    if (text === null || weight > heldBytes) return decoded;
    forget(text);
    memory.set(text, { kind, capBytes, decoded, weight });
    heldTotal += weight;
    for (const oldest of memory.keys()) {
      if (heldTotal <= heldBytes) break;
      forget(oldest);
    }
    return decoded;
  };
