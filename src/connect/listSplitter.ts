/**
 * Incremental reader of a list answer, `{ "data": [ … ] }` (contract §1), fed with the bytes of the body as
 * they arrive. It splits the `data` array into its elements and hands each one, parsed by `JSON.parse`, to a
 * callback. Of the other members of the envelope only the catalog's paging (`page`, `limit`, `total`) is kept,
 * and only while small; any other member is read past without being held (a small one is still checked as
 * JSON, a large one for its structure only). Neither the whole body, nor its text, nor the whole list is ever
 * held: only the record being read.
 *
 * How it stays correct and fast:
 * - It works on bytes. Every byte that matters to the structure (`{ } [ ] " \ , :`) is ASCII, and no byte of
 *   a multi-byte UTF-8 character is below 0x80, so a character split across two chunks cannot be mistaken
 *   for structure; a record's bytes are decoded only once the record is complete.
 * - Inside a string it jumps to the next `"` with `indexOf` and counts the backslashes before it (carrying
 *   an odd run across chunk boundaries), so an escaped quote never ends a string.
 * - Outside strings it counts nesting only; each element's own syntax is checked by `JSON.parse`, and the
 *   envelope's grammar by the state machine here, so a body is accepted only if it is valid JSON, and
 *   then the records are exactly those `JSON.parse` of the whole body would give. The exceptions are what
 *   is read past unheld (an envelope member other than the paging, a part of a record nested too deeply, a
 *   record too large, a record that cannot hold the `mentions`): their strings and brackets are followed,
 *   their syntax is not checked further.
 * - A body that ends before the envelope is closed is an error (`truncated`), never a shorter list.
 * - Each record's nesting is counted as it is scanned. A record nested deeper than `MAX_JSON_DEPTH` is read
 *   member by member (`parseJsonPruned`): what is too deep is left out and named, for the odd-record rule
 *   to log, and the rest of the record and of the list is read as usual. No nesting can overflow the stack.
 * - A record larger than `maxElementBytes` is read past without being held (only its first bytes are kept,
 *   to name it) and handed out as `Oversize`, for the odd-record rule to skip with a log line.
 * - With `mentions` (a lookup's email), a record whose bytes cannot hold them (`mentions.ts`) is read past
 *   by its structure only, neither decoded nor parsed nor handed out: most of a whole event read to find
 *   one person costs only the scan of its bytes. A record too large or nested too deeply is still handed
 *   out as above, so that its log line says what was left out.
 */
import { DIALECT, besideRecords, nextMember, pathOf } from './dialect';
import { MAX_JSON_DEPTH, parseJsonPruned, parseJsonSafely, valueKind } from './json';
import { type MentionTest, mentionTest } from './mentions';

export type ListReadErrorKind =
  /** The body is not JSON at all (an HTML page, plain text). */
  | 'not-json'
  /** The body started as JSON, then broke its syntax. */
  | 'syntax'
  /** The body ended before the envelope was complete (a cut connection). */
  | 'truncated'
  /** Valid JSON that is not an object with a `data` list. */
  | 'shape'
  /** One element larger than the reader accepts. */
  | 'too-large';

export class ListReadError extends Error {
  constructor(
    readonly kind: ListReadErrorKind,
    message: string,
    /** Bytes of the body read when the problem was found. */
    readonly offset: number,
    /** A short piece of the body near the problem (for `not-json`: its beginning). */
    readonly near: string,
  ) {
    super(message);
    this.name = 'ListReadError';
  }
}

export interface EnvelopeSummary {
  /** The envelope's members kept (`page`, `limit`, `total`), parsed. */
  fields: Record<string, unknown>;
  /** Other members of the envelope, read past and not kept (a `"__proto__"` member is counted in `droppedKeys`). */
  skippedMembers: number;
  /** The names of the first few of them, shortened, for a log line. */
  skippedNames: string[];
  /** Elements of `data` handed to the callback. */
  records: number;
  /** Bytes of the body read. */
  bytes: number;
  /** `"__proto__"` keys dropped from the records (only own fields are read; see `json.ts`). */
  droppedKeys: number;
  /** Elements of `data` read past unparsed because they could not hold the `mentions` (not handed out). */
  unread: number;
}

export interface SplitterOptions {
  /** The largest element read, in bytes (default 8 MiB): a larger one is read past unheld, not a memory spike. */
  maxElementBytes?: number;
  /** Records nested deeper are read without their too-deep parts (default `MAX_JSON_DEPTH`). */
  maxDepth?: number;
  /**
   * The member whose list is read entry by entry (default: the dialect's, `data`): a path of members
   * (`result.items`), or `""` for an answer that is the list itself. A single object read as a stream names
   * its long list (`booths` of a floor plan): each entry is handed out as a record.
   */
  listKey?: string;
  /**
   * Which other members are kept: `paging` (default: `page`, `limit`, `total`), or `small`: every member up
   * to `MEMBER_BYTES` (the other fields of a single object read as a stream).
   */
  members?: 'paging' | 'small';
  /**
   * A text of a record longer than this many bytes is cut while it is read: its first bytes are kept and the
   * rest is read past, counted, never held (`CUT_TEXT_*` says how many characters were left out). Default:
   * no cut.
   */
  maxStringBytes?: number;
  /**
   * A list inside a record with more entries than this keeps its first ones; the others are read past,
   * counted, never held (`cutListTail` says how many were left out). Default: no cut.
   */
  maxListEntries?: number;
  /**
   * Values a record must hold to be of use (the email a lookup looks for), each somewhere in its text, ASCII
   * case aside (`mentions.ts`). A record whose bytes cannot hold them is read past without being decoded,
   * parsed or handed out (counted in `unread`). Default: every record is handed out.
   */
  mentions?: readonly string[];
}

/** A list cut while it was read ends with the entry `"\u0000<entries left out>\u0000"`. */
const LIST_TAIL = /^\u0000(\d+)\u0000$/;

/** The list without its cut tail, and the entries that were left out (0 when it was not cut). */
export const cutListTail = (list: unknown[]): { list: unknown[]; leftOut: number } => {
  const last = list[list.length - 1];
  const match = typeof last === 'string' ? LIST_TAIL.exec(last) : null;
  return match ? { list: list.slice(0, -1), leftOut: Number(match[1]) } : { list, leftOut: 0 };
};

/**
 * A text cut while it was read ends with `\u0000<characters left out>\u0000` (NUL is never part of a
 * record's text the app keeps): `cutTextTail` reads it back and `bounds.ts` turns it into the record's cuts.
 */
const CUT_TAIL = /\u0000(\d+)\u0000$/;

/** The text without its cut tail, and the characters that were left out (0 when it was not cut). */
export const cutTextTail = (text: string): { text: string; leftOut: number } => {
  if (text.charCodeAt(text.length - 1) !== 0) return { text, leftOut: 0 };
  const match = CUT_TAIL.exec(text);
  return match ? { text: text.slice(0, match.index), leftOut: Number(match[1]) } : { text, leftOut: 0 };
};

/** Bytes a cut point may move back to stay out of a character or an escape. */
const CUT_MARGIN = 8;
const LETTER_U = 0x75;

/** What was left out of one record because it was nested too deeply: its paths (`answers[3].value`). */
export type PrunedPaths = string[];

/** A record larger than `maxElementBytes`: read past without being held, and handed out as this. */
export interface Oversize {
  /** Its size in bytes. */
  bytes: number;
  /** Its first bytes as text (up to `OVERSIZE_HEAD_BYTES`), to find its identifier for the log line. */
  head: string;
}

/** The largest record read by default (8 MiB); a larger one is read past and handed out as `Oversize`. */
export const MAX_ELEMENT_BYTES = 8 * 1024 * 1024;

/** Bytes kept of the beginning of a record too large to read. */
export const OVERSIZE_HEAD_BYTES = 4096;

/**
 * The envelope members kept: the catalog's paging, the dialect's "more records" flag and the members that
 * name a list's or the catalog's next page, when it has them (`dialect.ts`). Every other member is read past.
 */
export const ENVELOPE_MEMBERS: ReadonlySet<string> = new Set([
  ...['page', 'limit', 'total'].flatMap((name) => [name, besideRecords(DIALECT, name)]),
  ...(DIALECT.list.more === null ? [] : [DIALECT.list.more]),
  ...(nextMember(DIALECT.list.next) === null ? [] : [nextMember(DIALECT.list.next) as string]),
  ...(nextMember(DIALECT.catalog ?? null) === null ? [] : [nextMember(DIALECT.catalog ?? null) as string]),
]);
/** An envelope member larger than this is read past by its structure only, never held nor parsed. */
export const MEMBER_BYTES = 64 * 1024;
/** A member name longer than this is not held (it cannot be `data` nor a paging member). */
const KEY_BYTES = 1024;
/** Names of skipped members kept for the log line, and their length. */
const SKIPPED_NAMES = 5;
const NAME_CHARS = 40;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

const isSpace = (byte: number | undefined): boolean =>
  byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

/** Whether a JSON value can start with this byte: `{ [ "`, a digit or `-`, `t`, `f`, `n`. */
const startsValue = (byte: number): boolean =>
  byte === OPEN_BRACE ||
  byte === OPEN_BRACKET ||
  byte === QUOTE ||
  byte === 0x2d ||
  (byte >= 0x30 && byte <= 0x39) ||
  byte === 0x74 ||
  byte === 0x66 ||
  byte === 0x6e;

/** Bytes kept of a body that is not a JSON object, to tell a wrong shape from non-JSON and to quote it. */
const FOREIGN_LIMIT = 64 * 1024;
/** Bytes of the body kept from its beginning, for messages. */
const HEAD_LIMIT = 512;
const NEAR_BYTES = 40;

const enum Mode {
  Start,
  KeyOrEnd,
  Key,
  KeyString,
  Colon,
  Value,
  MemberValue,
  ArrayFirst,
  ElementStart,
  Element,
  AfterMember,
  Done,
  Foreign,
}

const enum Terminator {
  Member,
  Element,
}

export class EnvelopeSplitter {
  private mode = Mode.Start;
  private bytes = 0;
  private records = 0;
  private droppedKeys = 0;
  private readonly fields: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  private sawData = false;
  private skippedMembers = 0;
  private readonly skippedNames: string[] = [];
  /** The current member's name; `null` when it was too long to hold. */
  private key: string | null = '';
  private readonly maxElementBytes: number;
  private readonly maxDepth: number;
  private readonly listKey: string;
  /** The members from the answer down to its list (`listKey` as a path; empty: the answer is the list). */
  private readonly listPath: readonly string[];
  /** The envelope objects entered on the way to the list (0: the answer's own members). */
  private level = 0;
  /** The names of kept members at `level`: the path to it, dotted (`result.`). */
  private prefix = '';
  private readonly keepsSmall: boolean;
  private readonly maxStringBytes: number;
  private readonly maxListEntries: number;
  private readonly mentions: MentionTest | null;
  private unread = 0;
  /** Per open list or object of the record being read (by depth): a list's commas so far, -1 an object. */
  private commas: number[] = [];
  /** The depth of the list whose further entries are being read past, 0 when none. */
  private skipDepth = 0;
  /** Entries of that list read past so far. */
  private skippedEntries = 0;
  /** Where the text being read in a record starts in the body (its first byte after the quote). */
  private textStart = 0;
  /** The text being read is being cut: its bytes are read past and counted. */
  private cutting = false;
  /** Characters of the text being cut read past so far. */
  private leftOut = 0;
  /** Escape state of the bytes read past: 0 none, 1 after a backslash, 2–5 hex digits of `\u` still due. */
  private escape = 0;

  // The value being captured: where it starts in the current chunk, and earlier chunks' pieces of it.
  private captureStart = -1;
  private pieces: Uint8Array[] = [];
  private pieceBytes = 0;
  // Scanner state of the value being captured.
  private depth = 0;
  /** The deepest nesting of the value being scanned so far. */
  private deepest = 0;
  /** The most bytes of the current key or member value held; past it, the capture is let go. */
  private captureLimit = 0;
  /** Whether the capture of the current key or member value was let go (it was too large). */
  private released = false;
  /** Where the current element starts in the body, and the first bytes of it once it was let go. */
  private elementStart = 0;
  private oversizeHead = '';
  private inString = false;
  /** Parity of the run of backslashes that ended the previous chunk inside a string. */
  private oddBackslashes = false;

  private head: Uint8Array[] = [];
  private headBytes = 0;
  private foreign: Uint8Array[] = [];
  private foreignBytes = 0;

  constructor(
    private readonly onElement: (
      value: unknown,
      index: number,
      pruned: PrunedPaths,
      oversize?: Oversize,
    ) => void,
    options: SplitterOptions = {},
  ) {
    this.maxElementBytes = options.maxElementBytes ?? MAX_ELEMENT_BYTES;
    this.maxDepth = options.maxDepth ?? MAX_JSON_DEPTH;
    this.listKey = options.listKey ?? DIALECT.list.member;
    this.listPath = pathOf(this.listKey);
    this.keepsSmall = options.members === 'small';
    this.maxStringBytes = options.maxStringBytes ?? Infinity;
    this.maxListEntries = options.maxListEntries ?? Infinity;
    this.mentions = mentionTest(options.mentions);
  }

  /** Reads the next bytes of the body; throws `ListReadError` (or what the callback throws). */
  write(input: Uint8Array | string): void {
    const chunk = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
    const n = chunk.length;
    if (n === 0) return;
    const chunkStart = this.bytes;
    this.bytes += n;
    if (this.headBytes < HEAD_LIMIT) {
      const piece = chunk.subarray(0, HEAD_LIMIT - this.headBytes);
      this.head.push(Uint8Array.prototype.slice.call(piece));
      this.headBytes += piece.length;
    }
    if (this.mode === Mode.Foreign) {
      this.keepForeign(chunk);
      return;
    }
    let i = 0;
    while (i < n) i = this.step(chunk, i, chunkStart);
    this.carryCapture(chunk);
  }

  /** Reads from `chunk[i]` in the current mode; answers where the next step starts. */
  private step(chunk: Uint8Array, i: number, chunkStart: number): number {
    switch (this.mode) {
      case Mode.Start:
        return this.atStart(chunk, i);
      case Mode.KeyOrEnd:
      case Mode.Key:
        return this.atKey(chunk, i, chunkStart);
      case Mode.KeyString:
        return this.inKey(chunk, i, chunkStart);
      case Mode.Colon:
        return this.atColon(chunk, i, chunkStart);
      case Mode.Value:
        return this.atValue(chunk, i, chunkStart);
      case Mode.MemberValue:
        return this.inMember(chunk, i, chunkStart);
      case Mode.ArrayFirst:
        return this.atArrayFirst(chunk, i);
      case Mode.ElementStart:
        return this.atElementStart(chunk, i, chunkStart);
      case Mode.Element:
        return this.inElement(chunk, i, chunkStart);
      case Mode.AfterMember:
        return this.afterMember(chunk, i, chunkStart);
      case Mode.Done:
        if (!isSpace(chunk[i]))
          this.fail('syntax', 'something follows the end of the answer', chunk, i, chunkStart);
        return i + 1;
      default:
        return chunk.length;
    }
  }

  private atStart(chunk: Uint8Array, i: number): number {
    const byte = chunk[i] as number;
    if (isSpace(byte)) return i + 1;
    if (byte === OPEN_BRACE && this.listPath.length > 0) {
      this.mode = Mode.KeyOrEnd;
      return i + 1;
    }
    if (byte === OPEN_BRACKET && this.listPath.length === 0) {
      this.sawData = true;
      this.mode = Mode.ArrayFirst;
      return i + 1;
    }
    this.mode = Mode.Foreign;
    this.keepForeign(chunk.subarray(i));
    return chunk.length;
  }

  private atKey(chunk: Uint8Array, i: number, chunkStart: number): number {
    const byte = chunk[i] as number;
    if (isSpace(byte)) return i + 1;
    if (byte === QUOTE) {
      this.beginCapture(i, KEY_BYTES);
      this.inString = true;
      this.oddBackslashes = false;
      this.mode = Mode.KeyString;
      return i + 1;
    }
    if (byte === CLOSE_BRACE && this.mode === Mode.KeyOrEnd) {
      this.closeObject();
      return i + 1;
    }
    return this.fail('syntax', 'a member name was expected', chunk, i, chunkStart);
  }

  private inKey(chunk: Uint8Array, i: number, chunkStart: number): number {
    const end = this.scanString(chunk, i);
    if (end < 0) return chunk.length;
    if (this.heldTooMuch(end)) {
      this.endCapture();
      this.key = null;
    } else {
      const key = this.parseCaptured(chunk, end, chunkStart);
      if (typeof key !== 'string') this.fail('syntax', 'a member name was expected', chunk, end, chunkStart);
      const last = this.level === this.listPath.length - 1;
      if (last && key === this.listPath[this.level] && this.sawData) {
        this.fail('shape', `the member "${this.listKey}" appears twice`, chunk, end, chunkStart);
      }
      if (last && key === this.listPath[this.level]) this.sawData = true;
      this.key = key as string;
    }
    this.mode = Mode.Colon;
    return end;
  }

  private atColon(chunk: Uint8Array, i: number, chunkStart: number): number {
    const byte = chunk[i] as number;
    if (isSpace(byte)) return i + 1;
    if (byte !== COLON) this.fail('syntax', '":" was expected after a member name', chunk, i, chunkStart);
    this.mode = Mode.Value;
    return i + 1;
  }

  private atValue(chunk: Uint8Array, i: number, chunkStart: number): number {
    const byte = chunk[i] as number;
    if (isSpace(byte)) return i + 1;
    if (this.key !== null && this.key === this.listPath[this.level]) {
      const last = this.level === this.listPath.length - 1;
      if (byte === (last ? OPEN_BRACKET : OPEN_BRACE)) {
        if (last) this.mode = Mode.ArrayFirst;
        else this.openObject();
        return i + 1;
      }
      this.fail('shape', `"${this.listKey}" is not a list`, chunk, i, chunkStart);
    }
    if (!startsValue(byte)) this.fail('syntax', 'a value was expected', chunk, i, chunkStart);
    this.beginValue(i, MEMBER_BYTES);
    this.mode = Mode.MemberValue;
    return i;
  }

  private inMember(chunk: Uint8Array, i: number, chunkStart: number): number {
    const end = this.scanValue(chunk, i, Terminator.Member, chunkStart);
    if (end < 0) return chunk.length;
    // A small member is checked as JSON (parsed); a large or too deep one only by its structure.
    const parse = !this.heldTooMuch(end) && this.deepest <= this.maxDepth;
    const value = parse ? this.parseCaptured(chunk, end, chunkStart) : this.endCapture();
    // Own keys only, as for every JSON the app reads (json.ts): a "__proto__" member is dropped.
    if (this.key === '__proto__') this.droppedKeys++;
    else if (parse && this.key !== null && (this.keepsSmall || ENVELOPE_MEMBERS.has(this.prefix + this.key)))
      this.fields[this.prefix + this.key] = value;
    else this.skipMember();
    if (chunk[end] === COMMA) this.mode = Mode.Key;
    else this.closeObject();
    return end + 1;
  }

  /** Enters the envelope object of member `key` on the way to the list. */
  private openObject(): void {
    this.prefix += `${this.key}.`;
    this.level++;
    this.mode = Mode.KeyOrEnd;
  }

  /** An envelope object ends: the answer, or one entered on the way to the list. */
  private closeObject(): void {
    if (this.level === 0) {
      this.mode = Mode.Done;
      return;
    }
    this.level--;
    this.prefix = this.prefix.slice(0, this.prefix.lastIndexOf('.', this.prefix.length - 2) + 1);
    this.mode = Mode.AfterMember;
  }

  private atArrayFirst(chunk: Uint8Array, i: number): number {
    const byte = chunk[i] as number;
    if (isSpace(byte)) return i + 1;
    if (byte === CLOSE_BRACKET) this.listEnds();
    else this.mode = Mode.ElementStart;
    return byte === CLOSE_BRACKET ? i + 1 : i;
  }

  private atElementStart(chunk: Uint8Array, i: number, chunkStart: number): number {
    const byte = chunk[i] as number;
    if (isSpace(byte)) return i + 1;
    if (!startsValue(byte)) {
      this.fail('syntax', `record ${this.records + 1} is not valid JSON`, chunk, i, chunkStart);
    }
    this.beginValue(i, this.maxElementBytes);
    this.elementStart = chunkStart + i;
    this.mode = Mode.Element;
    return i;
  }

  private inElement(chunk: Uint8Array, i: number, chunkStart: number): number {
    const end = this.scanValue(chunk, i, Terminator.Element, chunkStart);
    if (end < 0) return chunk.length;
    if (this.heldTooMuch(end)) {
      // Too large to hold: read past, and handed out as such (the odd-record rule skips it).
      if (!this.released) this.keepOversizeHead(chunk.subarray(this.captureStart, end));
      this.endCapture();
      const oversize = { bytes: chunkStart + end - this.elementStart, head: this.oversizeHead };
      this.onElement(undefined, this.records++, [], oversize);
    } else if (this.deepest > this.maxDepth) {
      // Read whatever the `mentions`, like a record too large: the odd-record rule names what was left out.
      const pruned = this.parseCapturedPruned(chunk, end, chunkStart);
      this.onElement(pruned.value, this.records++, pruned.pruned);
    } else if (this.mentions !== null && !this.mentions(this.capturedBytes(chunk, end))) {
      // It cannot be a record looked for: read past, neither decoded nor parsed.
      this.endCapture();
      this.records++;
      this.unread++;
    } else {
      const value = this.parseCaptured(chunk, end, chunkStart);
      this.onElement(value, this.records++, []);
    }
    if (chunk[end] === COMMA) this.mode = Mode.ElementStart;
    else this.listEnds();
    return end + 1;
  }

  /** The list's closing bracket: the answer ends with it when it is the list itself. */
  private listEnds(): void {
    this.mode = this.listPath.length === 0 ? Mode.Done : Mode.AfterMember;
  }

  private afterMember(chunk: Uint8Array, i: number, chunkStart: number): number {
    const byte = chunk[i] as number;
    if (isSpace(byte)) return i + 1;
    if (byte === COMMA) this.mode = Mode.Key;
    else if (byte === CLOSE_BRACE) this.closeObject();
    else this.fail('syntax', '"," or "}" was expected after the list', chunk, i, chunkStart);
    return i + 1;
  }

  /** At the end of a chunk: keeps the piece of the value being captured, or lets it go when too large. */
  private carryCapture(chunk: Uint8Array): void {
    if (this.captureStart < 0) return;
    const piece = chunk.subarray(this.captureStart);
    this.pieceBytes += piece.length;
    if (this.pieceBytes <= this.captureLimit) {
      this.pieces.push(piece);
      this.captureStart = 0;
    } else {
      // A record, a member name or an envelope member too large to hold: read past it, holding nothing
      // (of a record, only its first bytes, to name it).
      if (this.mode === Mode.Element) this.keepOversizeHead(piece);
      this.endCapture();
      this.released = true;
    }
  }

  /** The body has ended: checks that the answer was complete and had a `data` list. */
  end(): EnvelopeSummary {
    if (this.mode === Mode.Foreign) return this.endForeign();
    if (this.mode === Mode.Start) {
      throw new ListReadError('not-json', 'the answer was empty', this.bytes, '');
    }
    if (this.mode !== Mode.Done) {
      const where =
        this.mode === Mode.Element || this.mode === Mode.ElementStart
          ? `inside record ${this.records + 1}`
          : this.mode === Mode.ArrayFirst || this.mode === Mode.AfterMember
            ? `after record ${this.records}`
            : 'inside the envelope';
      throw new ListReadError(
        'truncated',
        `the answer ended after ${this.bytes} bytes, ${where}, before it was complete`,
        this.bytes,
        this.tail(),
      );
    }
    // A single object read as a stream may lack its list (an empty plan); an envelope never does.
    if (!this.sawData && !this.keepsSmall) {
      throw new ListReadError(
        'shape',
        `the answer has no "${this.listKey}" list`,
        this.bytes,
        this.headText(),
      );
    }
    return {
      fields: { ...this.fields },
      skippedMembers: this.skippedMembers,
      skippedNames: [...this.skippedNames],
      records: this.records,
      bytes: this.bytes,
      droppedKeys: this.droppedKeys,
      unread: this.unread,
    };
  }

  /**
   * What has been read so far, for a read stopped on purpose before the end of the body (no check that the
   * answer is complete: its rest was never asked for). `fields` holds only the members already read.
   */
  progress(): EnvelopeSummary {
    return {
      fields: { ...this.fields },
      skippedMembers: this.skippedMembers,
      skippedNames: [...this.skippedNames],
      records: this.records,
      bytes: this.bytes,
      droppedKeys: this.droppedKeys,
      unread: this.unread,
    };
  }

  /** The first bytes of the body, as text (for messages). */
  headText(): string {
    return Buffer.concat(this.head).toString('utf8');
  }

  private beginCapture(at: number, limit: number): void {
    this.captureStart = at;
    this.pieces = [];
    this.pieceBytes = 0;
    this.captureLimit = limit;
    this.released = false;
  }

  private beginValue(at: number, limit: number): void {
    this.beginCapture(at, limit);
    this.cutting = false;
    this.escape = 0;
    this.commas = [];
    this.skipDepth = 0;
    this.depth = 0;
    this.deepest = 0;
    this.inString = false;
    this.oddBackslashes = false;
  }

  /** Whether the key or member value that ends just before `end` was too large to hold. */
  private heldTooMuch(end: number): boolean {
    return this.released || this.pieceBytes + (end - this.captureStart) > this.captureLimit;
  }

  /** Keeps the first bytes of the record being captured (its earlier pieces, then `last`) as text. */
  private keepOversizeHead(last: Uint8Array): void {
    const parts: Uint8Array[] = [];
    let bytes = 0;
    for (const part of [...this.pieces, last]) {
      if (bytes >= OVERSIZE_HEAD_BYTES) break;
      parts.push(part.subarray(0, OVERSIZE_HEAD_BYTES - bytes));
      bytes += parts[parts.length - 1]!.length;
    }
    this.oversizeHead = Buffer.concat(parts).toString('utf8');
  }

  /** Ends a capture without reading it. */
  private endCapture(): undefined {
    this.captureStart = -1;
    this.pieces = [];
    this.pieceBytes = 0;
    return undefined;
  }

  private skipMember(): void {
    this.skippedMembers++;
    if (this.skippedNames.length < SKIPPED_NAMES) {
      const key = this.key;
      this.skippedNames.push(
        key === null ? '(a very long name)' : key.length > NAME_CHARS ? `${key.slice(0, NAME_CHARS)}…` : key,
      );
    }
  }

  /** Index of the quote that closes the current string, or -1 (state carried) when the chunk ends first. */
  private scanString(chunk: Uint8Array, from: number): number {
    let i = from;
    for (;;) {
      const quote = chunk.indexOf(QUOTE, i);
      if (quote < 0) {
        let k = chunk.length;
        while (k > i && chunk[k - 1] === BACKSLASH) k--;
        const odd = ((chunk.length - k) & 1) === 1;
        this.oddBackslashes = k === i ? this.oddBackslashes !== odd : odd;
        return -1;
      }
      let k = quote;
      while (k > i && chunk[k - 1] === BACKSLASH) k--;
      let escaped = ((quote - k) & 1) === 1;
      if (k === i && this.oddBackslashes) escaped = !escaped;
      this.oddBackslashes = false;
      if (!escaped) {
        this.inString = false;
        return quote + 1;
      }
      i = quote + 1;
    }
  }

  /**
   * Index of the byte that ends the current value (`,` or the closing `]`/`}` of its container), or -1 when
   * the chunk ends first.
   */
  private scanValue(chunk: Uint8Array, from: number, terminator: Terminator, chunkStart: number): number {
    const n = chunk.length;
    let i = from;
    let depth = this.depth;
    while (i < n) {
      if (this.inString) {
        const cuts = terminator === Terminator.Element && this.maxStringBytes < Infinity && !this.skipDepth;
        // Whether the byte at `i` is escaped by the odd run of backslashes the chunk before ended with.
        const escaped = this.oddBackslashes;
        const end = this.cutting ? this.skipCut(chunk, i) : this.scanString(chunk, i);
        if (cuts) this.cutText(chunk, i, end, chunkStart, escaped);
        if (end < 0) {
          this.depth = depth;
          return -1;
        }
        i = end;
        continue;
      }
      const byte = chunk[i] as number;
      if (byte === QUOTE) {
        this.inString = true;
        this.oddBackslashes = false;
        this.textStart = chunkStart + i + 1;
      } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
        depth++;
        if (depth > this.deepest) this.deepest = depth;
        this.commas[depth] = byte === OPEN_BRACKET ? 0 : -1;
      } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
        if (depth === 0) {
          const expected = terminator === Terminator.Element ? CLOSE_BRACKET : CLOSE_BRACE;
          if (byte !== expected) this.fail('syntax', 'a bracket does not match', chunk, i, chunkStart);
          this.depth = 0;
          return i;
        }
        if (depth === this.skipDepth) this.endListCut(i);
        depth--;
      } else if (byte === COMMA && depth === 0) {
        this.depth = 0;
        return i;
      } else if (byte === COMMA && terminator === Terminator.Element) {
        this.listComma(chunk, i, depth);
      }
      i++;
    }
    this.depth = depth;
    return -1;
  }

  /**
   * The cut of a long text of a record, after a piece of it was read from `from` to `end` (its closing quote
   * included; -1: the chunk ended first): when the text has grown past `maxStringBytes`, the captured bytes
   * stop at a point that splits no character and no escape, and the rest is read past; once its closing
   * quote comes, the tail that says how much was left out is added and the capture goes on from the quote.
   * `escaped`: the byte at `from` is escaped by backslashes that ended the chunk before.
   */
  private cutText(chunk: Uint8Array, from: number, end: number, chunkStart: number, escaped: boolean): void {
    if (this.cutting) {
      if (end >= 0) this.resumeAfterCut(end - 1);
      return;
    }
    const stop = end < 0 ? chunk.length : end - 1;
    if (this.released || chunkStart + stop - this.textStart <= this.maxStringBytes) return;
    const lo = Math.max(from, this.textStart - chunkStart);
    let k = Math.max(this.textStart + this.maxStringBytes - chunkStart, lo + CUT_MARGIN);
    if (k >= stop) return;
    k = this.safeCut(chunk, k, lo, escaped && lo === from);
    if (this.captureStart >= 0) {
      const piece = chunk.subarray(this.captureStart, k);
      this.pieces.push(piece);
      this.pieceBytes += piece.length;
    }
    this.captureStart = -1;
    this.cutting = true;
    this.leftOut = 0;
    this.escape = 0;
    this.countLeftOut(chunk, k, stop);
    if (end >= 0) this.resumeAfterCut(stop);
  }

  /**
   * The nearest point at or before `k` (not before `lo`) that is not inside a character or an escape.
   * `escapedAtLo`: the byte at `lo` is escaped by backslashes before it, in the chunk before.
   */
  private safeCut(chunk: Uint8Array, at: number, lo: number, escapedAtLo: boolean): number {
    let k = at;
    while (k > lo && ((chunk[k] as number) & 0xc0) === 0x80) k--;
    for (let p = k - 1; p >= Math.max(lo, k - 6); p--) {
      if (chunk[p] !== BACKSLASH) continue;
      let run = 0;
      while (p - run >= lo && chunk[p - run] === BACKSLASH) run++;
      // `p` opens an escape when the backslashes ending at it are odd in number, counting those the chunk
      // before ended with when the run goes back to `lo` (an odd run there escapes the byte at `lo`).
      const odd = (run % 2 === 1) !== (p - run < lo && escapedAtLo);
      if (odd && (k - p < 2 || (chunk[p + 1] === LETTER_U && k - p < 6))) return p;
      break;
    }
    return k;
  }

  /** Counts the characters of `chunk[from, to)` of a text being read past (as a string's length counts). */
  private countLeftOut(chunk: Uint8Array, from: number, to: number): void {
    let chars = 0;
    let escape = this.escape;
    for (let i = from; i < to; i++) {
      const byte = chunk[i] as number;
      if (escape === 1) {
        chars++;
        escape = byte === LETTER_U ? 5 : 0;
      } else if (escape > 1) {
        escape = escape === 2 ? 0 : escape - 1;
      } else if (byte === BACKSLASH) {
        escape = 1;
      } else if ((byte & 0xc0) !== 0x80) {
        chars += byte >= 0xf0 ? 2 : 1;
      }
    }
    this.escape = escape;
    this.leftOut += chars;
  }

  /** Reads past a text being cut up to its closing quote: where the text ends (after the quote), or -1. */
  private skipCut(chunk: Uint8Array, from: number): number {
    const end = this.scanString(chunk, from);
    this.countLeftOut(chunk, from, end < 0 ? chunk.length : end - 1);
    return end;
  }

  /** After a cut text's closing quote (at `quote`): its tail is captured, then the record goes on. */
  private resumeAfterCut(quote: number): void {
    const tail = Buffer.from(`\\u0000${this.leftOut}\\u0000`, 'latin1');
    this.pieces.push(tail);
    this.pieceBytes += tail.length;
    this.captureStart = quote;
    this.cutting = false;
  }

  /**
   * A comma inside a record, at `depth`: in a list past `maxListEntries` entries, the captured bytes stop
   * before it and the rest of the list is read past, its entries counted.
   */
  private listComma(chunk: Uint8Array, i: number, depth: number): void {
    if (depth === this.skipDepth) {
      this.skippedEntries++;
      return;
    }
    const commas = this.commas[depth] ?? -1;
    if (commas < 0) return;
    this.commas[depth] = commas + 1;
    if (commas + 1 < this.maxListEntries || this.skipDepth || this.released || this.captureStart < 0) return;
    const piece = chunk.subarray(this.captureStart, i);
    this.pieces.push(piece);
    this.pieceBytes += piece.length;
    this.captureStart = -1;
    this.skipDepth = depth;
    this.skippedEntries = 1;
  }

  /** The closing bracket (at `i`) of a list being read past: its tail is captured, then the record goes on. */
  private endListCut(i: number): void {
    const tail = Buffer.from(`,"\\u0000${this.skippedEntries}\\u0000"`, 'latin1');
    this.pieces.push(tail);
    this.pieceBytes += tail.length;
    this.captureStart = i;
    this.skipDepth = 0;
  }

  /** The captured bytes, up to just before `end` in `chunk` (a view when in one piece); the capture goes on. */
  private capturedBytes(chunk: Uint8Array, end: number): Buffer {
    const start = this.captureStart;
    if (this.pieces.length === 0) return Buffer.from(chunk.buffer, chunk.byteOffset + start, end - start);
    return Buffer.concat([...this.pieces, chunk.subarray(start, end)]);
  }

  /** The captured text, which ends just before `end` in `chunk`; ends the capture. */
  private capturedText(chunk: Uint8Array, end: number): string {
    const start = this.captureStart;
    let text: string;
    if (this.pieces.length === 0) {
      text = Buffer.from(chunk.buffer, chunk.byteOffset + start, end - start).toString('utf8');
    } else {
      this.pieces.push(chunk.subarray(start, end));
      text = Buffer.concat(this.pieces).toString('utf8');
    }
    this.endCapture();
    return text;
  }

  /** Parses a record nested deeper than the limit, without its too-deep parts (`parseJsonPruned`). */
  private parseCapturedPruned(
    chunk: Uint8Array,
    end: number,
    chunkStart: number,
  ): { value: unknown; pruned: PrunedPaths } {
    const parsed = parseJsonPruned(this.capturedText(chunk, end), this.maxDepth);
    if (parsed.ok) {
      this.droppedKeys += parsed.droppedKeys;
      return { value: parsed.value, pruned: parsed.pruned };
    }
    return this.fail(
      'syntax',
      `record ${this.records + 1} is not valid JSON`,
      chunk,
      Math.max(0, end - 1),
      chunkStart,
    );
  }

  /** Parses the captured value, which ends just before `end` in `chunk`, and ends the capture. */
  private parseCaptured(chunk: Uint8Array, end: number, chunkStart: number): unknown {
    const parsed = parseJsonSafely(this.capturedText(chunk, end));
    if (parsed.ok) {
      this.droppedKeys += parsed.droppedKeys;
      return parsed.value;
    }
    const what = this.mode === Mode.Element ? `record ${this.records + 1} is not valid JSON` : 'invalid JSON';
    return this.fail('syntax', what, chunk, Math.max(0, end - 1), chunkStart);
  }

  private keepForeign(bytes: Uint8Array): void {
    if (this.foreignBytes >= FOREIGN_LIMIT) {
      this.foreignBytes += bytes.length;
      return;
    }
    const piece = bytes.subarray(0, FOREIGN_LIMIT - this.foreignBytes);
    this.foreign.push(Uint8Array.prototype.slice.call(piece));
    this.foreignBytes += bytes.length;
  }

  /** A body that does not start with `{`: a wrong shape if it is JSON after all, else not JSON. */
  private endForeign(): never {
    const text = Buffer.concat(this.foreign).toString('utf8');
    if (this.foreignBytes <= FOREIGN_LIMIT) {
      let parsed: unknown;
      let json = true;
      try {
        parsed = JSON.parse(text);
      } catch {
        json = false;
      }
      if (json) {
        throw new ListReadError(
          'shape',
          `the answer is ${valueKind(parsed)}, not ${this.expectedShape()}`,
          this.bytes,
          this.headText(),
        );
      }
    }
    throw new ListReadError('not-json', 'the answer is not JSON', this.bytes, this.headText());
  }

  /** The shape of answer this reader reads, for messages. */
  private expectedShape(): string {
    return this.listPath.length === 0 ? 'a list' : `an object with a "${this.listKey}" list`;
  }

  private tail(): string {
    const last = this.pieces[this.pieces.length - 1];
    if (!last) return '';
    return Buffer.from(last.subarray(Math.max(0, last.length - NEAR_BYTES))).toString('utf8');
  }

  private fail(
    kind: ListReadErrorKind,
    reason: string,
    chunk: Uint8Array,
    at: number,
    chunkStart: number,
  ): never {
    const from = Math.max(0, at - NEAR_BYTES);
    const near = Buffer.from(chunk.subarray(from, Math.min(chunk.length, at + NEAR_BYTES))).toString('utf8');
    this.mode = Mode.Foreign;
    throw new ListReadError(kind, `${reason} (at byte ${chunkStart + at + 1})`, chunkStart + at, near);
  }
}
