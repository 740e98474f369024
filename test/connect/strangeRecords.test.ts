/**
 * One record never fails a list, however strange: a registration nested thousands of levels deep, one with an
 * answer key of 120,000 characters, one of 9 MB, and an envelope member of 50 MB. Every read of the registrations (a poll
 * of New Form Submission, Find Registration, the registration dropdown, the attendee lookup of an order)
 * succeeds with all the siblings, and a log line names what was left out.
 */
import { Readable } from 'node:stream';
import nock from 'nock';
import type { Bundle, ZObject } from 'zapier-platform-core';
import { findAttendee } from '../../src/account/attendee';
import { paths } from '../../src/connect';
import { FIND_REGISTRATION_KEY, REGISTRATION_LIST_TRIGGER_KEY } from '../../src/fields/keys';
import { SAMPLE_EVENT } from '../../src/mappers/event';
import { SAMPLE_SUBMISSION } from '../../src/mappers/submission';
import newSubmission from '../../src/triggers/newSubmission';
import { functionOf } from '../../scripts/lib/app';
import { BASE_URL, appTester, authData, meta, testerCache } from '../support/app';
import { wireList, wireListFrame, wireObject } from '../../sandbox/wire';

const EVENT_ID = SAMPLE_EVENT.id;
const SIBLINGS = 5;
const STRANGE = 'sub_strange';

type Item = Record<string, unknown> & { id: string };

/** A registration made `minutes` ago (within the window of a first poll). */
const registration = (id: string, minutes: number, overrides: Record<string, unknown> = {}) => ({
  ...SAMPLE_SUBMISSION,
  submissionId: id,
  eventId: EVENT_ID,
  status: 'approved',
  email: 'ada@example.com',
  lastName: `Lovelace ${id}`,
  createdAt: new Date(Date.now() - minutes * 60_000).toISOString(),
  ...overrides,
});

/** A registration's JSON text as the service writes it (its own id is `submissionId` in the contract). */
const wireText = (record: object): string => JSON.stringify(wireObject(record, 'submissionId'));

/** Whether a list answer is an object around the records (none when it is a bare array). */
const hasEnvelope = () => wireListFrame().close.endsWith('}');

const siblingIds = Array.from({ length: SIBLINGS }, (_, i) => `sub_${i}`);

/** The answer's text around the strange record: siblings before and after it, the strange one in the middle. */
const listText = (strange: string, after = ''): string[] => {
  const records = siblingIds.map((id, i) => wireText(registration(id, i + 2)));
  const middle = Math.floor(SIBLINGS / 2);
  const { open, close } = wireListFrame();
  // The envelope's members go before its last `}` (a list that is the answer itself holds none).
  const envelope = hasEnvelope();
  return [
    `${open}${[...records.slice(0, middle), strange, ...records.slice(middle)].join(',')}${envelope ? close.slice(0, -1) : close}`,
    after,
    envelope ? '}' : '',
  ];
};

/** An answer value nested `depth` levels deep: `[[[…"é"…]]]`. */
const deepValue = (depth: number, escaped = false) =>
  `${'['.repeat(depth)}${escaped ? '"caf\\u00e9"' : '1'}${']'.repeat(depth)}`;

/** The strange registration, with `answerValue` (JSON text) as the value of its second answer. */
const strangeWith = (answerValue: string): string => {
  const text = wireText(
    registration(STRANGE, 1, {
      answers: [
        { key: 'company', label: 'Company', value: 'Analytical Engines' },
        { key: 'deep', label: 'Deep', value: '__VALUE__' },
      ],
    }),
  );
  return text.replace('"__VALUE__"', answerValue);
};

interface Scenario {
  name: string;
  /** Pieces of the body; a function piece is streamed in 64 KB chunks (never built whole). */
  body: () => Array<string | (() => Generator<Buffer>)>;
  /** Whether the strange registration is among what is read (it is kept, without what was left out). */
  strangeKept: boolean;
  /** Log lines that must appear for each read. */
  lines: RegExp[];
  /** Log lines that must appear for the reads that map answers (poll, Find Registration). */
  answerLines?: RegExp[];
  /** What the attendee lookup logs, when not `lines` (it stops reading at the registration it looks for). */
  lookupLines?: RegExp[];
}

const padding = (bytes: number) =>
  function* () {
    const chunk = Buffer.alloc(64 * 1024, 'x');
    for (let sent = 0; sent < bytes; sent += chunk.length)
      yield chunk.subarray(0, Math.min(chunk.length, bytes - sent));
  };

const LONG_KEY = `q${'_'.repeat(120_000)}x!`;

/**
 * The answer's body pieces around a strange registration whose `notes` answer is `value` (pieces of JSON
 * text, streamed ones included): the siblings before and after it, as `listText` puts them.
 */
const withNotes = (...value: Array<string | (() => Generator<Buffer>)>) => {
  const [head, , tail] = listText('__BIG__');
  const [before, after] = (head as string).split('__BIG__') as [string, string];
  const record = wireText(registration(STRANGE, 1, { answers: [{ key: 'notes', value: '__NOTES__' }] }));
  const [start, end] = record.split('"__NOTES__"') as [string, string];
  return [before, start, ...value, end, after, tail as string];
};

const scenarios: Array<Scenario & { envelopeMember?: true }> = [
  {
    name: 'one registration whose answer is nested 6,000 levels deep',
    body: () => listText(strangeWith(deepValue(6000))),
    strangeKept: true,
    lines: [/registration "sub_strange" kept without answers\[1\]\.value \(nested deeper than 64 levels/],
  },
  {
    name: 'one registration nested 3,000 levels deep around a \\u escape',
    body: () => listText(strangeWith(deepValue(3000, true))),
    strangeKept: true,
    lines: [/registration "sub_strange" kept without answers\[1\]\.value \(nested deeper than 64 levels/],
  },
  {
    name: 'one item that is nothing but nesting, 6,000 levels deep',
    body: () => listText(deepValue(6000)),
    strangeKept: false,
    lines: [/item 3 skipped: all of it is nested deeper than 64 levels, so it could not be read/],
  },
  {
    name: 'one registration with an answer key of 120,000 characters',
    body: () =>
      listText(
        wireText(registration(STRANGE, 1, { answers: [{ key: LONG_KEY, label: 'Long', value: 'yes' }] })),
      ),
    strangeKept: true,
    lines: [],
    answerLines: [/Registration "sub_strange": 1 answer key\(s\) longer than 200 characters/],
  },
  {
    name: 'one registration of 9 MB of short members, more than a record may be',
    body: () => {
      // Lists and texts are cut as they are read; an object of many members is not, so this one is too large.
      const many = Array.from(
        { length: (9 * 1024 * 1024) / 64 },
        (_, i) => `"${String(i).padStart(8, '0')}":"${'x'.repeat(51)}"`,
      ).join(',');
      return withNotes('{', many, '}');
    },
    strangeKept: false,
    lines: [
      /registration "sub_strange" \(item 3\) skipped: it is 9\.\d MB, more than the 8\.0 MB a record may be/,
    ],
  },
  {
    // A long text is cut as it is read (listSplitter's `maxStringBytes`): the record is kept, never skipped.
    name: 'one registration with a 9 MB answer, cut as it is read',
    body: () => withNotes('"', padding(9 * 1024 * 1024), '"'),
    strangeKept: true,
    lines: [],
  },
  {
    name: 'an envelope member of 50 MB',
    envelopeMember: true,
    body: () => {
      const [head, , tail] = listText(wireText(registration(STRANGE, 1)));
      return [head as string, ',"padding":"', padding(50 * 1024 * 1024), '"', tail as string];
    },
    strangeKept: true,
    lines: [/had 1 member\(s\) besides its list \("padding"\); they were read past and left out/],
    // The member comes after the list: the lookup stops at the registration and never downloads it.
    lookupLines: [],
  },
];

/** Serves the registrations of the event (any `since`) with `pieces`, streamed. */
const serveRegistrations = (pieces: () => Array<string | (() => Generator<Buffer>)>) =>
  nock(BASE_URL)
    .persist()
    .get(paths.submissions())
    .query((query) => query.eventId === EVENT_ID)
    .reply(
      200,
      () =>
        Readable.from(
          (function* () {
            for (const piece of pieces()) {
              if (typeof piece === 'string') yield Buffer.from(piece);
              else yield* piece();
            }
          })(),
          { objectMode: false },
        ),
      { 'Content-Type': 'application/json', Date: new Date().toUTCString() },
    );

const serveEvents = () =>
  nock(BASE_URL)
    .persist()
    .get(paths.events())
    .query(true)
    .reply(200, wireList([SAMPLE_EVENT]));

/** Runs `fn` as the app would, with what it logs. */
const logged = async <T>(
  fn: (z: ZObject, bundle: Bundle) => Promise<T>,
  bundle: Record<string, unknown>,
): Promise<{ result: T; lines: string[] }> => {
  const lines: string[] = [];
  const result = (await appTester(
    (async (z: ZObject, b: Bundle) => {
      z.console.log = (...parts: unknown[]) => {
        lines.push(parts.map(String).join(' '));
      };
      return fn(z, b);
    }) as never,
    { authData: authData(), ...bundle },
    true,
  )) as T;
  return { result, lines };
};

const call =
  (group: 'triggers' | 'searches', key: string) =>
  (z: ZObject, bundle: Bundle): Promise<Item[]> =>
    (functionOf(group, key) as unknown as (z: ZObject, bundle: Bundle) => Promise<Item[]>)(z, bundle);

beforeEach(() => {
  nock.disableNetConnect();
  testerCache(appTester).zcacheTestObj = {};
});
afterEach(() => nock.cleanAll());

describe.each(scenarios)('$name', (scenario) => {
  // A list that is the answer itself (a bare array) holds no envelope member.
  const play = scenario.envelopeMember && !hasEnvelope() ? it.skip : it;
  const expectedIds = (kept: boolean) => [...siblingIds, ...(kept ? [STRANGE] : [])].sort();
  const expectLines = (lines: string[], patterns: RegExp[]) => {
    for (const pattern of patterns) expect(lines.some((line) => pattern.test(line))).toBe(true);
    expect(lines.join('\n')).not.toContain(authData().apiKey);
  };

  beforeEach(() => {
    serveRegistrations(scenario.body);
    serveEvents();
  });

  play('a poll of New Form Submission returns every sibling', async () => {
    const { result, lines } = await logged(call('triggers', newSubmission.key), {
      inputData: { eventId: EVENT_ID },
      meta: meta(),
    });
    expect(result.map((item) => item.id).sort()).toEqual(expectedIds(scenario.strangeKept));
    expectLines(lines, [...scenario.lines, ...(scenario.answerLines ?? [])]);
    const strange = result.find((item) => item.id === STRANGE);
    if (strange && scenario.name.includes('deep')) {
      // Each answer once: in its own field; the list names the questions only.
      expect(strange.answers).toEqual([
        { key: 'company', label: 'Company', field: 'answers__company' },
        { key: 'deep', label: 'Deep', field: 'answers__deep' },
      ]);
      expect(strange).toHaveProperty('answers__company', 'Analytical Engines');
    }
    if (strange && scenario.name.includes('answer key')) {
      const keys = Object.keys(strange).filter((key) => key.startsWith('answers__q'));
      expect(keys).toHaveLength(1);
      expect(keys[0]?.length).toBeLessThan(260);
    }
  });

  play('Find Registration finds every sibling', async () => {
    const { result, lines } = await logged(call('searches', FIND_REGISTRATION_KEY), {
      inputData: { eventId: EVENT_ID, email: 'ada@example.com' },
    });
    expect(result.map((item) => item.id).sort()).toEqual(expectedIds(scenario.strangeKept));
    expectLines(lines, [...scenario.lines, ...(scenario.answerLines ?? [])]);
  });

  play('the registration dropdown lists every sibling', async () => {
    const { result, lines } = await logged(call('triggers', REGISTRATION_LIST_TRIGGER_KEY), {
      inputData: { eventId: EVENT_ID },
      meta: meta(),
    });
    expect(result.map((item) => item.id).sort()).toEqual(expectedIds(scenario.strangeKept));
    expectLines(lines, scenario.lines);
  });

  play('the attendee lookup of an order finds its registration, read after the strange one', async () => {
    const last = siblingIds[SIBLINGS - 1] as string;
    const { result, lines } = await logged(
      (z, bundle) =>
        findAttendee(z, bundle, {
          orderId: 'ord_1',
          eventId: EVENT_ID,
          submissionId: last,
          orderCreatedAt: new Date().toISOString(),
        }),
      {},
    );
    expect(result).toMatchObject({ found: true, lastName: `Lovelace ${last}` });
    expectLines(lines, scenario.lookupLines ?? scenario.lines);
  });
});
