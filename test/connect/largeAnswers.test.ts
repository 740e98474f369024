/**
 * Large answers (the registrations of an event) are read as a stream through `z.request({ raw: true })`,
 * record by record, with the odd-record rule; every error answer is mapped as before, and an answer that is
 * cut, not JSON or not a list is a clear error, never a shorter list.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import nock from 'nock';
import { type Bundle, type ZObject, errors } from 'zapier-platform-core';
import { type Submission, type SubmissionKey, appErrorCode, paths, readSubmissions } from '../../src/connect';
import { SAMPLE_SUBMISSION } from '../../src/mappers/submission';
import { BASE_URL, SENTINEL_KEY, appTester, authData, caught, errorMessage } from '../support/app';
import { listSubmissionKeys, listSubmissions } from '../support/submissions';
import { setRunLimits } from '../support/limits';
import { DIALECT, listAnswer } from '../../src/connect/testing';
import { wireError, wireListFrame, wireListText, wireObject } from '../../sandbox/wire';
import { withEnvelopeMembers } from '../support/wireDialect';

/** A list answer of registrations, as the service writes it (a registration's own id is `submissionId`). */
const listOf = (records: unknown[]): string => wireListText(records, 'submissionId');

const params = { eventId: SAMPLE_SUBMISSION.eventId, since: '2026-11-21T00:00:00.000Z' };

const registration = (i: number, overrides: Partial<Record<keyof Submission, unknown>> = {}) => ({
  ...SAMPLE_SUBMISSION,
  submissionId: `sub_${String(i).padStart(5, '0')}`,
  firstName: ['Zoë', 'Ada', 'Łukasz', '美咲', '😀 Emoji'][i % 5],
  lastName: `O"Brien \\ ${i}`,
  createdAt: new Date(Date.UTC(2026, 10, 21) + i * 1000).toISOString(),
  ...overrides,
});

/** A body served in chunks of `size` bytes, each pushed separately (cuts inside strings and characters). */
const chunked = (body: Buffer | string, size: number) => () => {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  return Readable.from(chunks, { objectMode: false });
};

const serve = (status: number, body: () => Readable, headers: Record<string, string> = {}) =>
  nock(BASE_URL)
    .get(paths.submissions())
    .query(params)
    .reply(status, body, { 'Content-Type': 'application/json', ...headers });

const run = <T>(fn: (z: ZObject, bundle: Bundle) => Promise<T>) => appTester(fn, { authData: authData() });

afterEach(() => nock.cleanAll());

it('asks Zapier for the raw answer and reads its body as a stream', async () => {
  const body = listOf([SAMPLE_SUBMISSION]);
  const calls: Array<Record<string, unknown>> = [];
  const z = {
    request: async (options: Record<string, unknown>) => {
      calls.push(options);
      return {
        status: 200,
        headers: { get: (name: string) => (name === 'content-type' ? 'application/json' : null) },
        body: Readable.from([Buffer.from(body)]),
        get content(): string {
          throw new Error('a raw answer has no content');
        },
      };
    },
    console: { log: () => undefined },
    errors,
  } as unknown as ZObject;
  const page = await listSubmissions(z, { authData: authData() } as unknown as Bundle, {
    ...params,
    timeoutMs: 7000,
  });
  expect(page).toEqual({
    submissions: [SAMPLE_SUBMISSION],
    bytes: Buffer.byteLength(body),
    serverTime: null,
  });
  expect(calls[0]).toMatchObject({ raw: true, timeout: 7000, skipThrowForStatus: true });
});

it.each([1, 7, 64, 4096])(
  'over HTTP in chunks of %i bytes, gives the records of a plain JSON.parse, newest first',
  async (size) => {
    const count = size === 1 ? 3 : 40;
    const records = Array.from({ length: count }, (_, i) => registration(i));
    const body = Buffer.from(
      withEnvelopeMembers(listOf(records), `"total":${count},"note":"a \\"]}\\" in the envelope"`),
    );
    serve(200, chunked(body, size), { Date: 'Sat, 21 Nov 2026 12:00:00 GMT' });
    const page = await run((z, b) => listSubmissions(z, b, params));
    expect(page.bytes).toBe(body.length);
    expect(page.serverTime).toBe(Date.parse('2026-11-21T12:00:00.000Z'));
    expect(page.submissions).toEqual([...records].reverse());
  },
);

it('visits every usable record once, in the answer order, and counts what it read', async () => {
  const records = [registration(1), registration(2, { createdAt: '' }), registration(3, { approvedAt: 7 })];
  serve(200, chunked(listOf(records), 5));
  const seen: Array<[string, number]> = [];
  const read = await run((z, b) => readSubmissions(z, b, params, (s, at) => seen.push([s.submissionId, at])));
  expect(seen).toEqual([
    ['sub_00001', 0],
    ['sub_00003', 2],
  ]);
  expect(read).toMatchObject({ items: 3, kept: 2 });
});

it('keeps a registration with an odd optional field and skips one without createdAt, with log lines', async () => {
  const records = [
    registration(1, { approvedAt: '' }),
    registration(2, { createdAt: undefined }),
    registration(3),
  ];
  serve(200, chunked(listOf(records), 11));
  const logged: string[] = [];
  const page = await run(async (z, b) => {
    const log = z.console.log.bind(z.console);
    z.console.log = (...parts: unknown[]) => {
      logged.push(parts.map(String).join(' '));
      log(...parts);
    };
    return listSubmissions(z, b, params);
  });
  expect(page.submissions.map((s) => s.submissionId)).toEqual(['sub_00003', 'sub_00001']);
  expect(page.submissions[1]).not.toHaveProperty('approvedAt');
  expect(logged).toEqual([
    expect.stringMatching(
      /the registrations of this event: registration "sub_00001" kept without approvedAt/,
    ),
    expect.stringMatching(/registration "sub_00002" \(item 2\) skipped: its createdAt is missing/),
  ]);
});

type Refused = [status: number, body: string, type: string, message: RegExp];

/** Answers whose envelope holds no list, where the dialect's lists have an envelope. */
const notInTheEnvelope: Refused[] =
  DIALECT.list.member === ''
    ? []
    : [
        [
          200,
          JSON.stringify({ [`${DIALECT.list.member}_other`]: [] }),
          'application/json',
          new RegExp(
            `did not have the expected shape \\(HTTP 200\\): the answer has no "${DIALECT.list.member}" list`,
          ),
        ],
        [
          200,
          JSON.stringify(listAnswer(DIALECT.list.member, { 0: {} } as unknown as unknown[])),
          'application/json',
          new RegExp(
            `did not have the expected shape \\(HTTP 200\\): "${DIALECT.list.member}" is not a list`,
          ),
        ],
        [
          200,
          '[]',
          'application/json',
          /did not have the expected shape \(HTTP 200\): the answer is a list, not an object/,
        ],
      ];

describe('answers that are not a complete list', () => {
  const records = Array.from({ length: 12 }, (_, i) => registration(i));
  const full = listOf(records);
  /** Just after the first record (and its comma). */
  const boundary =
    wireListFrame().open.length + JSON.stringify(wireObject(records[0]!, 'submissionId')).length + 1;

  it.each([1, 100, full.length - 200, full.length - 2])(
    'an answer cut after %i bytes is an error, never a shorter list',
    async (cut) => {
      serve(200, chunked(full.slice(0, cut), 13));
      const error = await caught(() => run((z, b) => listSubmissions(z, b, params)));
      expect(errorMessage(error)).toMatch(
        /^The service's answer for the registrations of this event was cut off before it was complete \(HTTP 200: the answer ended after \d+ bytes, inside record \d+, before it was complete \(|^The service's answer .* was cut off/,
      );
      expect(errorMessage(error)).toMatch(/Nothing of it was used; Zapier will retry/);
      expect(appErrorCode(error)).toBe('INVALID_RESPONSE');
    },
  );

  /** A real server on 127.0.0.1 that sends `head` then does `finish` to the connection. */
  const brokenServer = async (headers: Record<string, string>, head: string, finish: 'destroy' | 'end') => {
    const server = createServer((_request, response) => {
      response.writeHead(200, headers);
      response.write(head);
      setTimeout(() => (finish === 'destroy' ? response.socket?.destroy() : response.socket?.end()), 20);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return { server, baseUrl: `http://127.0.0.1:${port}` };
  };

  it.each([
    ['chunked, connection reset', { 'Content-Type': 'application/json' }, 'destroy'],
    [
      'with a Content-Length, connection reset',
      { 'Content-Type': 'application/json', 'Content-Length': String(full.length) },
      'destroy',
    ],
    ['with a Content-Length, connection closed early', { 'Content-Length': String(full.length) }, 'end'],
  ] as const)(
    'a connection that breaks in the middle of the body (%s) is an error, never a shorter list',
    async (_name, headers, finish) => {
      const { server, baseUrl } = await brokenServer(headers, full.slice(0, boundary), finish);
      try {
        const error = await caught(() =>
          appTester((z: ZObject, b: Bundle) => listSubmissions(z, b, { ...params, timeoutMs: 1000 }), {
            authData: authData({ baseUrl }),
          }),
        );
        expect(errorMessage(error)).toMatch(
          /^(Could not reach the service at 127\.0\.0\.1:\d+ while fetching the registrations of this event|The service's answer for the registrations of this event was cut off before it was complete)/,
        );
      } finally {
        server.close();
      }
    },
  );

  it('a body that stops arriving is given up at the time limit', async () => {
    nock(BASE_URL)
      .get(paths.submissions())
      .query(params)
      .reply(200, () => {
        const stream = new Readable({ read() {} });
        stream.push(full.slice(0, 500));
        return stream;
      });
    const error = await caught(() => run((z, b) => listSubmissions(z, b, { ...params, timeoutMs: 300 })));
    expect(errorMessage(error)).toMatch(
      /while fetching the registrations of this event: no answer came in time/,
    );
  });

  describe('a lookup through a whole event (no time limit of its own)', () => {
    // Short limits, to test the limits themselves (`setRunLimits` puts the previous ones back).
    let restore: () => void = () => undefined;
    beforeEach(() => {
      restore = setRunLimits({ lookupMs: 1_500, stallMs: 300, stepMs: 20 });
    });
    afterEach(() => restore());

    /** The answer in pieces, one every `everyMs`, stopping after `pieces` of them when `stopAfter` is set. */
    const trickle = (everyMs: number, pieces: number, stopAfter?: number) => () => {
      const size = Math.ceil(full.length / pieces);
      let sent = 0;
      // Stopped with the stream: a read given up leaves no timer running (nor the process waiting on it).
      const stream = new Readable({
        read() {},
        destroy(error, callback) {
          clearInterval(timer);
          callback(error);
        },
      });
      const timer: NodeJS.Timeout = setInterval(() => {
        if (stopAfter !== undefined && sent >= stopAfter) return clearInterval(timer);
        stream.push(full.slice(sent * size, (sent + 1) * size));
        sent++;
        if (sent >= pieces) {
          clearInterval(timer);
          stream.push(null);
        }
      }, everyMs);
      timer.unref();
      return stream;
    };

    it('reads an answer that keeps arriving for longer than the stall limit', async () => {
      // Pieces 100 ms apart for 3 s in all, against a stall limit of 2 s and no whole-read limit to reach:
      // only a pause of 2 s between two pieces, which no busy machine makes, could fail it.
      setRunLimits({ stallMs: 2_000, lookupMs: 600_000 });
      serve(200, trickle(100, 30));
      const page = await run((z, b) => listSubmissions(z, b, params));
      expect(page.submissions).toHaveLength(records.length);
    });

    it('gives up on an answer that stalls, with the no-answer message', async () => {
      serve(200, trickle(50, 8, 2));
      const error = await caught(() => run((z, b) => listSubmissions(z, b, params)));
      expect(errorMessage(error)).toMatch(
        /while fetching the registrations of this event: no answer came in time/,
      );
    });

    it('gives up on an answer still arriving at the whole-read limit', async () => {
      serve(200, trickle(250, 40));
      const error = await caught(() => run((z, b) => listSubmissions(z, b, params)));
      expect(errorMessage(error)).toMatch(/no answer came in time/);
    });
  });

  it('HTML after some records is not valid JSON', async () => {
    serve(200, chunked(`${full.slice(0, boundary)}<html><body>proxy error</body></html>`, 50));
    const error = await caught(() => run((z, b) => listSubmissions(z, b, params)));
    expect(errorMessage(error)).toMatch(/was not valid JSON \(HTTP 200: .*at byte \d+\)/);
  });

  it.each<Refused>([
    [
      200,
      '<!DOCTYPE html><html><body>Maintenance</body></html>',
      'text/html',
      /was not JSON \(HTTP 200, text\/html\): "<!DOCTYPE html><html><body>Maintenance/,
    ],
    [200, 'OK', 'text/plain', /was not JSON \(HTTP 200, text\/plain\): "OK"/],
    [200, '', 'application/json', /was not JSON \(HTTP 200, application\/json\): "\(empty\)"/],
    ...notInTheEnvelope,
  ])('a %i answer %j is a clear error', async (status, body, type, message) => {
    serve(status, chunked(body, 9), { 'Content-Type': type });
    const error = await caught(() => run((z, b) => listSubmissions(z, b, params)));
    expect(errorMessage(error)).toMatch(message);
    expect(appErrorCode(error)).toBe('INVALID_RESPONSE');
  });

  it.each([
    [
      500,
      JSON.stringify(wireError('INTERNAL', 'db down')),
      'application/json',
      /HTTP 500, INTERNAL: db down/,
    ],
    [502, '<html>Bad Gateway</html>', 'text/html', /HTTP 502, it answered text\/html: "<html>Bad Gateway/],
    [
      404,
      JSON.stringify(wireError('NOT_FOUND', 'no event')),
      'application/json',
      /^The event in the Event field \(ID [-0-9a-f]+\) is not among the events of the connected account/,
    ],
    [
      400,
      JSON.stringify(wireError('VALIDATION_ERROR', 'bad since', { field: 'since' })),
      'application/json',
      /bad since \(field "since"\)/,
    ],
  ])('maps a %i answer read as a stream like any other', async (status, body, type, message) => {
    serve(status, chunked(body, 4), { 'Content-Type': type });
    const error = await caught(() => run((z, b) => listSubmissions(z, b, params)));
    expect(errorMessage(error)).toMatch(message);
  });

  it('reads at most 64 KB of an error page', async () => {
    serve(503, chunked(`<html>${'x'.repeat(2_000_000)}</html>`, 16_384), { 'Content-Type': 'text/html' });
    const error = await caught(() => run((z, b) => listSubmissions(z, b, params)));
    expect(errorMessage(error)).toMatch(/HTTP 503, it answered text\/html: "<html>xxx/);
  });

  it('keeps Retry-After on a 429', async () => {
    serve(429, chunked(JSON.stringify(wireError('RATE_LIMITED', 'slow')), 3), {
      'Retry-After': '12',
    });
    const error = await caught(() => run((z, b) => listSubmissions(z, b, params)));
    expect(error.name).toBe('ThrottledError');
    expect(JSON.parse(error.message)).toMatchObject({ delay: 12 });
    expect(appErrorCode(error)).toBeUndefined();
  });

  it('a 401 asks to reconnect, and no message carries the key', async () => {
    serve(401, chunked(JSON.stringify(wireError('INVALID_API_KEY', `bad ${SENTINEL_KEY}`)), 3));
    const error = await caught(() => run((z, b) => listSubmissions(z, b, params)));
    expect(error.name).toBe('ExpiredAuthError');
    expect(error.message).not.toContain(SENTINEL_KEY);
  });
});

it('reads only the keys of the registrations when asked to (a Zap being turned on)', async () => {
  const body = withEnvelopeMembers(
    listOf([SAMPLE_SUBMISSION, { ...SAMPLE_SUBMISSION, submissionId: 'sub_2', approvedAt: '' }]),
    '"total":2',
  );
  serve(200, chunked(body, 10));
  const page = await run((z, b) => listSubmissionKeys(z, b, params));
  const key = (submissionId: string): SubmissionKey => ({
    submissionId,
    eventId: SAMPLE_SUBMISSION.eventId,
    status: 'approved',
    createdAt: SAMPLE_SUBMISSION.createdAt,
  });
  expect(page).toEqual({
    submissions: [key('sub_2'), key(SAMPLE_SUBMISSION.submissionId)],
    bytes: Buffer.byteLength(body),
    serverTime: null,
  });
});

describe('a read stopped once the lookup has what it needs (stopWhen)', () => {
  it('visits no record after the one it stops at, reports an incomplete read and is not an error', async () => {
    const records = Array.from({ length: 400 }, (_, i) => registration(i));
    const body = listOf(records);
    serve(200, chunked(body, 512));
    const seen: string[] = [];
    const read = await run((z, b) =>
      readSubmissions(z, b, { ...params, stopWhen: () => seen.includes('sub_00010') }, (s) =>
        seen.push(s.submissionId),
      ),
    );
    expect(read.complete).toBe(false);
    expect(seen).toContain('sub_00010');
    expect(seen).toHaveLength(11);
  });

  it('a read that is never stopped is complete', async () => {
    serve(200, chunked(listOf([registration(1)]), 7));
    const read = await run((z, b) => readSubmissions(z, b, { ...params, stopWhen: () => false }, () => {}));
    expect(read).toMatchObject({ complete: true, items: 1, kept: 1 });
  });

  it('closes the connection, so the service stops sending the rest of a large answer', async () => {
    // A server on 127.0.0.1 that writes a 64 MB answer only as fast as it is read, and counts what it wrote.
    const total = 64 * 1024 * 1024;
    const piece = JSON.stringify(wireObject(registration(7), 'submissionId'));
    const { open, close } = wireListFrame();
    let written = 0;
    let closedEarly: (value: boolean) => void = () => undefined;
    const closed = new Promise<boolean>((resolve) => (closedEarly = resolve));
    const server = createServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.on('close', () => closedEarly(written < total));
      response.write(open);
      const more = () => {
        while (written < total) {
          const chunk = `${written === 0 ? '' : ','}${piece}${`,${piece}`.repeat(63)}`;
          written += Buffer.byteLength(chunk);
          if (!response.write(chunk)) return void response.once('drain', more);
        }
        response.end(close);
      };
      more();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      let visited = 0;
      const read = await appTester(
        (z: ZObject, b: Bundle) =>
          readSubmissions(z, b, { ...params, stopWhen: () => visited >= 1000 }, () => visited++),
        { authData: authData({ baseUrl: `http://127.0.0.1:${port}` }) },
      );
      expect(read.complete).toBe(false);
      expect(await closed).toBe(true);
      // What was sent before the close reached the app: at most what the sockets' buffers hold past the stop.
      expect(written).toBeLessThan(total / 4);
    } finally {
      server.close();
    }
  });
});
