// `npm run bench:bounds [-- --rows 1,2,9]`: every answer within Zapier's limits whatever the service's records
// hold. A local service (in this process) holds events with descriptions of megabytes (and a public catalog of
// such events), orders of 4,000 line items, an agenda of 20,000 sessions, a floor plan of 100,000 booths, a
// registration with a 7 MiB answer and a webhook delivery of 5 MB, and writes its answers as a server does, in pieces, never holding them whole.
// Each row runs one operation alone in a fresh Node process on the compiled app, as one Zapier invocation
// (scripts/bench-bounds-child.cjs), and prints the answer's size (UTF-8 bytes of its JSON), the time from the
// invocation's start and the peak memory of the process, against Zapier's limits: 6 MiB, 256 MB, 30 s.
import { type Outcome, runChild } from './lib/childRun';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { paths } from '../src/connect';
import { EVENT_LIST_TRIGGER_KEY, FIND_REGISTRATION_KEY } from '../src/fields/keys';
import { SAMPLE_EVENT } from '../src/mappers/event';
import { SAMPLE_ORDER } from '../src/mappers/order';
import { SAMPLE_SUBMISSION } from '../src/mappers/submission';
import { SAMPLE_AGENDA } from '../src/mappers/agenda';
import { SAMPLE_FLOOR_PLAN } from '../src/mappers/floorPlan';
import { hookBundle, signedDelivery } from './lib/hookRequest';
import { meta } from './lib/app';
import { wireDeliveryBody, wireError, wireList, wireListFrame, wireObject } from '../sandbox/wire';

const ROOT = path.resolve(__dirname, '..');
const NODE = path.join(ROOT, 'node_modules', '.bin', 'node');
const OUT = path.join(ROOT, '.tmp', 'bench-bounds');
const MB = 1000 * 1000;
const MIB = 1024 * 1024;
const LIMITS = { answerBytes: 6 * MIB, rss: 256 * MB, ms: 30_000 };
const API_KEY = 'sk_bench_bounds';
const SECRET = 'whsec_bench_bounds';

/** What the local service holds for one row. */
interface Holdings {
  events?: { count: number; descriptionBytes: number; unknownBytes: number };
  /** A public catalog of this many pages of 100 other organizers' events, each as big as `events`'. */
  catalogPages?: number;
  widgetDescriptionBytes?: number;
  orders?: { count: number; lines: number };
  registrationAnswerBytes?: number;
  agendaSessions?: number;
  floorPlanBooths?: number;
}

interface Row {
  holds: string;
  operation: string;
  service: Holdings;
  group: 'triggers' | 'searches';
  key: string;
  inputData?: Record<string, unknown>;
  /** What Zapier's `bundle.meta` says besides the defaults (the dropdown's page). */
  meta?: Record<string, unknown>;
  /** A delivery of this many bytes of answer, handed to the instant trigger's `perform`. */
  deliveryBytes?: number;
}

const uuid = (i: number) => `${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`;
const at = (i: number) => new Date(Date.UTC(2026, 9, 1) + i * 60_000).toISOString();
const EMAIL = 'kim@example.com';

/** Text of `bytes` bytes: HTML with an image inlined as base64, as real descriptions are. */
const html = (bytes: number) => {
  const head = '<p>Three days of talks.</p><img src="data:image/png;base64,';
  return `${head}${'iVBORw0KGgo'.repeat(Math.ceil(bytes / 11)).slice(0, Math.max(0, bytes - head.length - 2))}">`;
};

const events100 = (descriptionBytes: number, unknownBytes = 0) => ({
  events: { count: 100, descriptionBytes, unknownBytes },
});
const ROWS: Row[] = [
  ...[
    ['100 events with 5 MB descriptions', events100(5 * MB)],
    ['100 events with 1 MB descriptions and an unknown 200 KB field', events100(MB, 200_000)],
  ].map(([holds, service]) => ({
    holds: holds as string,
    operation: 'the Event dropdown',
    service: service as Holdings,
    group: 'triggers' as const,
    key: EVENT_LIST_TRIGGER_KEY,
  })),
  {
    holds: 'the same',
    operation: 'New Event',
    service: events100(MB, 200_000),
    group: 'triggers',
    key: 'new_event',
  },
  {
    holds: 'the same (its page: a 1 MB description)',
    operation: 'Find Event',
    service: { ...events100(MB, 200_000), widgetDescriptionBytes: MB },
    group: 'searches',
    key: 'find_event',
    inputData: { query: 'techweek-7' },
  },
  ...[
    ["Find Event by a word of other organizers' titles", 'searches', 'find_event', { query: 'summit' }, {}],
    ["the Event dropdown's Load more (its page 2)", 'triggers', EVENT_LIST_TRIGGER_KEY, {}, { page: 1 }],
    ["Find Event by another organizer's exact slug", 'searches', 'find_event', { query: 'summit-10107' }, {}],
  ].map(([operation, group, key, inputData, meta]) => ({
    holds: 'the same, and a public catalog of 3 pages of such events',
    operation: operation as string,
    service: { ...events100(MB, 200_000), catalogPages: 3 },
    group: group as Row['group'],
    key: key as string,
    inputData: inputData as Record<string, unknown>,
    meta: meta as Record<string, unknown>,
  })),
  {
    holds: '100 orders of 4,000 line items',
    operation: 'New Order',
    service: { ...events100(1000), orders: { count: 100, lines: 4000 } },
    group: 'triggers',
    key: 'new_order',
  },
  {
    holds: "the same, one order an attendee's",
    operation: 'Find Order',
    service: { ...events100(1000), orders: { count: 100, lines: 4000 }, registrationAnswerBytes: 100 },
    group: 'searches',
    key: 'find_order',
    inputData: { email: EMAIL },
  },
  {
    holds: 'an agenda of 20,000 sessions',
    operation: 'Find Event Agenda',
    service: { ...events100(1000), agendaSessions: 20_000 },
    group: 'searches',
    key: 'find_agenda',
    inputData: { eventId: uuid(0) },
  },
  {
    holds: 'a floor plan of 100,000 booths',
    operation: 'Find Floor Plan',
    service: { ...events100(1000), floorPlanBooths: 100_000 },
    group: 'searches',
    key: 'find_floor_plan',
    inputData: { eventId: uuid(0), planId: SAMPLE_FLOOR_PLAN.id },
  },
  {
    holds: 'one registration with a 7 MiB answer',
    operation: 'Find Registration by its email',
    service: { ...events100(1000), registrationAnswerBytes: 7 * MIB },
    group: 'searches',
    key: FIND_REGISTRATION_KEY,
    inputData: { eventId: uuid(0), email: EMAIL },
  },
  {
    holds: 'the same',
    operation: 'New Form Submission',
    service: { ...events100(1000), registrationAnswerBytes: 7 * MIB },
    group: 'triggers',
    key: 'new_submission',
    inputData: { eventId: uuid(0) },
  },
  {
    holds: 'a webhook delivery of 5 MB',
    operation: 'New Registration',
    service: events100(1000),
    group: 'triggers',
    key: 'new_registration',
    deliveryBytes: 5 * MB,
  },
];

const eventAt = (
  i: number,
  holds: NonNullable<Holdings['events']>,
  description: string,
  unknown: string,
) => ({
  ...SAMPLE_EVENT,
  id: uuid(i),
  slug: `techweek-${i}`,
  title: `TechWeek ${i}`,
  createdAt: at(1000 - i),
  description,
  ...(holds.unknownBytes ? { sponsorsHtml: unknown } : {}),
});

const registration = (answerBytes: number) => ({
  ...SAMPLE_SUBMISSION,
  submissionId: 'sub_3',
  eventId: uuid(0),
  email: EMAIL,
  createdAt: new Date(Date.now() - 60_000).toISOString(),
  answers: [{ key: 'essay', label: 'Essay', value: 'a'.repeat(answerBytes) }],
});

/** What the service's list answers open and close with, around their records (sandbox/wire.ts). */
const LIST = wireListFrame();

/**
 * A JSON answer written in pieces of about 64 KB as the client reads them, never held whole: a list in the
 * service's envelope by default; each entry written as the service writes it (`ownId`: a registration's).
 */
const writeStreamed = async (
  response: http.ServerResponse,
  head: string,
  count: number,
  entry: (i: number) => unknown,
  tail = LIST.close,
  ownId?: string,
) => {
  response.writeHead(200, { 'Content-Type': 'application/json' });
  let piece = head;
  for (let i = 0; i < count; i++) {
    piece += `${i ? ',' : ''}${JSON.stringify(wireObject(entry(i) as object, ownId))}`;
    if (piece.length >= 64 * 1024) {
      if (!response.write(piece)) await new Promise((resolve) => response.once('drain', resolve));
      piece = '';
    }
  }
  response.end(`${piece}${tail}`);
};

/** The members a catalog page's envelope adds to a list (`page`, `limit`, `total`), as JSON after a comma. */
const pagingMembers = (page: number, total: number): string => {
  const plain = wireList([]) as Record<string, unknown>;
  const paged = wireList([], { page, limit: 100, total }) as Record<string, unknown>;
  return Object.keys(paged)
    .filter((key) => !(key in plain))
    .map((key) => `,${JSON.stringify(key)}:${JSON.stringify(paged[key])}`)
    .join('');
};

/** The answer of the local service to one request, for what it holds. */
const answer = async (holds: Holdings, url: URL, response: http.ServerResponse): Promise<void> => {
  const route = url.pathname;
  const events = holds.events ?? { count: 1, descriptionBytes: 100, unknownBytes: 0 };
  if (route === paths.events()) {
    const description = html(events.descriptionBytes);
    const unknown = 'z'.repeat(events.unknownBytes);
    return writeStreamed(response, LIST.open, events.count, (i) => eventAt(i, events, description, unknown));
  }
  if (route === paths.publicEvents() && holds.catalogPages) {
    // Other organizers' events (the ownership read of each answers not-found), as big as the account's.
    const page = Math.max(1, Number(url.searchParams.get('page')) || 1);
    const count = page <= holds.catalogPages ? 100 : 0;
    const description = html(events.descriptionBytes);
    const unknown = 'z'.repeat(events.unknownBytes);
    const tail = `${LIST.close.slice(0, -1)}${pagingMembers(page, holds.catalogPages * 100)}}`;
    return writeStreamed(
      response,
      LIST.open,
      count,
      (i) => {
        const n = 10_000 + page * 100 + i;
        return { ...eventAt(n, events, description, unknown), slug: `summit-${n}`, title: `Summit ${n}` };
      },
      tail,
    );
  }
  const widget = paths.eventWidget('SLUG').replace(/SLUG$/, '');
  if (
    route === paths.eventWidget('techweek-7') ||
    (holds.catalogPages && route.startsWith(`${widget}summit-`))
  ) {
    const slug = decodeURIComponent(route.slice(widget.length));
    const n = Number(slug.replace(/^\D+/, ''));
    const page = {
      ...eventAt(n, events, html(holds.widgetDescriptionBytes ?? 100), ''),
      ...(slug.startsWith('summit-') ? { slug, title: `Summit ${n}` } : {}),
      coverImageUrl: null,
    };
    response.writeHead(200, { 'Content-Type': 'application/json' });
    return void response.end(JSON.stringify(wireObject(page)));
  }
  if (route === paths.orders() && holds.orders) {
    const lines = Array.from({ length: holds.orders.lines }, (_, i) => ({
      name: `Ticket ${i}`,
      quantity: 1,
      unitAmount: 12900,
    }));
    return writeStreamed(response, LIST.open, holds.orders.count, (i) => ({
      ...SAMPLE_ORDER,
      id: `ord_${i}`,
      paymentId: `pay_${i}`,
      submissionId: `sub_${i}`,
      eventId: uuid(0),
      createdAt: at(1000 - i),
      items: lines,
    }));
  }
  if (route === paths.submissions() && holds.registrationAnswerBytes) {
    const one = registration(holds.registrationAnswerBytes);
    return writeStreamed(response, LIST.open, 1, () => one, LIST.close, 'submissionId');
  }
  if (route === paths.agendaWidget('techweek-0') && holds.agendaSessions) {
    const agenda = JSON.stringify(
      wireObject({ eventId: uuid(0), slug: 'techweek-0', timezone: 'Europe/Paris' }),
    );
    const head = `${agenda.slice(0, -1)},"sessions":[`;
    return writeStreamed(
      response,
      head,
      holds.agendaSessions,
      (i) => ({
        ...SAMPLE_AGENDA.sessions[0],
        id: `ses_${i}`,
        title: `Session ${i}`,
        startsAt: new Date(Date.UTC(2026, 11, 1, 8) + i * 60_000).toISOString(),
      }),
      ']}',
    );
  }
  if (route === paths.floorPlan(uuid(0), SAMPLE_FLOOR_PLAN.id) && holds.floorPlanBooths) {
    const { booths: _booths, ...plan } = SAMPLE_FLOOR_PLAN;
    const statuses = ['available', 'held', 'booked', 'booked'];
    return writeStreamed(
      response,
      `${JSON.stringify(wireObject(plan)).slice(0, -1)},"booths":[`,
      holds.floorPlanBooths,
      (i) => ({
        id: `B${i}`,
        label: `B${i}`,
        status: statuses[i % 4],
        x: i % 1000,
        y: Math.floor(i / 1000),
        w: 2,
        h: 2,
      }),
      ']}',
    );
  }
  const hooks = paths.hook('HOOK').replace(/HOOK$/, '');
  if (route.startsWith(hooks)) {
    response.writeHead(200, { 'Content-Type': 'application/json', Date: new Date().toUTCString() });
    const id = decodeURIComponent(route.slice(hooks.length));
    return void response.end(
      JSON.stringify(
        wireObject({ id, event: 'FORM_SUBMISSION', targetUrl: 'https://hooks.example/x', secret: SECRET }),
      ),
    );
  }
  response.writeHead(404, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify(wireError('NOT_FOUND', 'not held by this benchmark')));
};

/** The local service: answers for what the current row holds. */
const startService = async () => {
  let holds: Holdings = {};
  const server = http.createServer((request, response) => {
    request.resume();
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    answer(holds, url, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hold: (next: Holdings) => (holds = next),
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
};

interface Measured {
  ms: number;
  answerBytes: number;
  items: number;
  peakRss: number;
  failure: string | null;
}

/** Runs `command` (at most 5 minutes) and collects its output. */
const run = (command: string, args: string[]): Promise<Outcome> => runChild(command, args, ROOT, 300_000);

/** The bundle of one row's invocation, as Zapier hands it. */
const bundleOf = (row: Row, baseUrl: string) => {
  const authData = { apiKey: API_KEY, baseUrl, companyId: 'cmp_42' };
  if (row.deliveryBytes === undefined)
    return { authData, inputData: row.inputData ?? {}, meta: meta(row.meta ?? {}) };
  const body = wireDeliveryBody({
    id: 'dlv_bench_bounds',
    type: 'FORM_SUBMISSION',
    createdAt: new Date().toISOString(),
    hookId: 'hook_1',
    data: registration(row.deliveryBytes),
  });
  return {
    ...hookBundle(signedDelivery(body, SECRET), {
      authData,
      subscribeData: { id: 'hook_1', secret: SECRET, kind: 'FORM_SUBMISSION', eventId: null },
    }),
    meta: meta(),
  };
};

const size = (bytes: number) =>
  bytes >= MIB ? `${(bytes / MIB).toFixed(2)} MiB` : `${(bytes / 1024).toFixed(0)} KiB`;
const mb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;

const rowsFlag = (() => {
  const i = process.argv.indexOf('--rows');
  const picked = (i >= 0 ? (process.argv[i + 1] ?? '') : '')
    .split(',')
    .map((n) => Math.floor(Number(n)))
    .filter((n) => n >= 1 && n <= ROWS.length);
  return picked.length ? picked : ROWS.map((_, n) => n + 1);
})();

const main = async () => {
  const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const compiled = await run(NODE, [tsc, '-p', 'tsconfig.build.json', '--outDir', OUT]);
  if (!existsSync(path.join(OUT, 'index.js')))
    throw new Error(`the app did not compile:\n${compiled.stdout}`);
  mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
  const service = await startService();
  const lines = [
    '| # | Service holds | Operation | Answer | Peak memory | Time | Within limits |',
    '|---|---|---|---|---|---|---|',
  ];
  let allMet = true;
  try {
    for (const n of rowsFlag) {
      const row = ROWS[n - 1]!;
      service.hold(row.service);
      const runFile = path.join(ROOT, '.tmp', `bench-bounds-${n}.json`);
      writeFileSync(
        runFile,
        JSON.stringify({ group: row.group, key: row.key, bundle: bundleOf(row, service.url) }),
      );
      const child = await run(NODE, [path.join(__dirname, 'bench-bounds-child.cjs'), OUT, runFile]);
      const line = child.stdout.split('\n').find((l) => l.startsWith('RESULT '));
      if (!line) {
        allMet = false;
        lines.push(
          `| ${n} | ${row.holds} | ${row.operation} | the process failed: ${child.stderr.slice(0, 200).replace(/\n/g, ' ')} | | | no |`,
        );
        continue;
      }
      const m = JSON.parse(line.slice('RESULT '.length)) as Measured;
      const met =
        !m.failure && m.answerBytes < LIMITS.answerBytes && m.peakRss <= LIMITS.rss && m.ms <= LIMITS.ms;
      allMet &&= met;
      const what = m.failure
        ? `failed: ${m.failure}`
        : `${size(m.answerBytes)} (${m.items} item${m.items === 1 ? '' : 's'})`;
      lines.push(
        `| ${n} | ${row.holds} | ${row.operation} | ${what} | ${mb(m.peakRss)} | ${(m.ms / 1000).toFixed(2)} s | ${met ? 'yes' : 'NO'} |`,
      );
      console.log(lines[lines.length - 1]);
    }
  } finally {
    service.close();
  }
  console.log(
    `\nLimits: answer under ${size(LIMITS.answerBytes)}, peak memory at most ${mb(LIMITS.rss)}, ${LIMITS.ms / 1000} s.\n`,
  );
  console.log(lines.join('\n'));
  console.log(allMet ? '\nEvery row within the limits.' : '\nSome row is NOT within the limits.');
  if (!allMet) process.exitCode = 1;
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
