// `npm run bench:catalog -- [events] [pageDelayMs]`: an account's events past the newest 100, on a
// platform whose public catalog holds `events` published events (100,000 by default) of many organizers. A
// local service on 127.0.0.1 answers the contract: the account's newest 100 with a key, catalog pages of 100
// made on the fly (each after `pageDelayMs`, 0 by default; try 150 for a distant service), one event in
// fifty of the account's (every 50th), one in a hundred a "meetup" of another organizer, and the keyed
// registrations read (404 for another organizer's event). Prints, for Find Event (a title that is nowhere, a
// title near the catalog's end, a word matching other organizers' events), the Event dropdown's page 500 and
// the lookup of an older event by ID (Find Event Agenda): the time from the invocation's start, catalog
// pages read, keyed ownership reads, the answer's size, and the process's peak RSS and heap.
import { fork } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAppTester } from 'zapier-platform-core';
import type { Bundle, ZObject } from 'zapier-platform-core';
import App from '../index';
import { functionOf } from './lib/app';
import { wireError, wireList, wireObject } from '../sandbox/wire';

const ARGS = process.argv[2] === '--serve' ? process.argv.slice(3) : process.argv.slice(2);
const TOTAL = Number(ARGS[0] ?? 100_000);
const PAGE_DELAY_MS = Number(ARGS[1] ?? 0);
const KEY = 'sk_bench_catalog';
const LIMIT = 100;

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
/** Catalog position n (1-based): every 50th is the account's; every 100th (offset 7) another's "meetup". */
const isOwn = (n: number) => n % 50 === 0;
const eventAt = (n: number) => {
  const own = isOwn(n);
  const title = own ? `Agency Session ${n}` : n % 100 === 7 ? `Community Meetup ${n}` : `Platform Event ${n}`;
  const ms = Date.UTC(2024, 0, 1) + n * 60_000;
  return {
    id: uuid(n),
    slug: title.toLowerCase().replace(/\s+/g, '-'),
    title,
    status: 'published',
    startsAt: new Date(ms + 30 * 86_400_000).toISOString(),
    endsAt: new Date(ms + 30 * 86_400_000 + 3_600_000).toISOString(),
    timezone: 'Europe/Paris',
    venueName: 'Hall',
    url: `https://front.example/e/${title.toLowerCase().replace(/\s+/g, '-')}`,
    createdAt: new Date(ms).toISOString(),
    updatedAt: new Date(ms).toISOString(),
  };
};

/** What the service answered since the last reset (kept by the service's process, asked over HTTP). */
const counts = { pages: 0, owners: 0 };
const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  const send = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', date: new Date().toUTCString() });
    res.end(JSON.stringify(body));
  };
  if (url.pathname === '/_counts') {
    send(200, counts);
    counts.pages = 0;
    counts.owners = 0;
    return;
  }
  if (url.pathname === '/api/v1/public/events') {
    counts.pages++;
    const page = Math.max(1, Number(url.searchParams.get('page') ?? 1));
    const first = (page - 1) * LIMIT + 1;
    const data: Array<ReturnType<typeof eventAt>> = [];
    for (let n = first; n < first + LIMIT && n <= TOTAL; n++) data.push(eventAt(n));
    setTimeout(() => send(200, wireList(data, { page, limit: LIMIT, total: TOTAL })), PAGE_DELAY_MS);
    return;
  }
  const slug = /^\/widgets\/event\/([^/]+)$/.exec(url.pathname)?.[1];
  if (slug) {
    const n = Number(/-(\d+)$/.exec(slug)?.[1] ?? 0);
    const event = n >= 1 && n <= TOTAL ? eventAt(n) : null;
    return event && event.slug === slug
      ? send(200, wireObject({ ...event, description: 'About it', coverImageUrl: null }))
      : send(404, wireError('NOT_FOUND', 'Event not found'));
  }
  if (req.headers['x-api-key'] !== KEY) return send(401, wireError('INVALID_API_KEY', 'no'));
  if (url.pathname === '/api/v1/integrations/zapier/events') {
    // The account's newest 100: made after every catalog event, titled apart.
    const data = Array.from({ length: LIMIT }, (_, i) => ({
      ...eventAt(TOTAL + 1 + i),
      id: uuid(10_000_000 + i),
      title: `Newest ${i}`,
      slug: `newest-${i}`,
    }));
    return send(200, wireList(data));
  }
  if (url.pathname === '/api/v1/integrations/zapier/submissions') {
    counts.owners++;
    const n = Number((url.searchParams.get('eventId') ?? '').slice(-12));
    return isOwn(n) || n >= 10_000_000
      ? send(200, wireList([]))
      : send(404, wireError('NOT_FOUND', 'Event not found'));
  }
  return send(404, wireError('NOT_FOUND', 'Not found'));
});

const tester = createAppTester(App);

let baseUrl = '';
const serviceCounts = async () => (await (await fetch(`${baseUrl}/_counts`)).json()) as typeof counts;

const measure = async (what: string, key: string, inputData: Record<string, unknown>, meta = {}) => {
  await serviceCounts();
  const lines: string[] = [];
  const perform = functionOf(key.split('/')[0] as 'searches', key.split('/')[1] as string);
  global.gc?.();
  let peakRss = process.memoryUsage().rss;
  let peakHeap = process.memoryUsage().heapUsed;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  }, 20);
  const started = performance.now();
  let answer: unknown;
  try {
    answer = await tester(
      (z: ZObject, bundle: Bundle) =>
        perform(
          Object.assign(Object.create(z) as ZObject, {
            console: { ...z.console, log: (line: string) => lines.push(line) },
          }),
          bundle,
        ),
      { authData: { apiKey: KEY, baseUrl }, inputData, meta: { page: 0, ...meta } },
      true,
    );
  } catch (error) {
    answer = { error: (error as Error).message.slice(0, 200) };
  }
  const ms = performance.now() - started;
  clearInterval(sampler);
  const served = await serviceCounts();
  global.gc?.();
  const kept = process.memoryUsage().heapUsed;
  const items = Array.isArray(answer) ? answer.length : 1;
  const bytes = Buffer.byteLength(JSON.stringify(answer), 'utf8');
  console.log(
    `${what.padEnd(58)} ${(ms / 1000).toFixed(1).padStart(5)} s  pages ${String(served.pages).padStart(4)}  ownership reads ${String(served.owners).padStart(4)}  answer ${items} item(s), ${bytes} B  peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MB, heap ${(peakHeap / 2 ** 20).toFixed(0)} MB (${(kept / 2 ** 20).toFixed(0)} MB after it)`,
  );
  for (const line of lines.filter((l) => /catalog|time limit/.test(l))) console.log(`    log: ${line}`);
  return answer;
};

const main = async () => {
  // The service runs in a process of its own, so that the figures are the app's alone.
  const child = fork(__filename, ['--serve', String(TOTAL), String(PAGE_DELAY_MS)], { stdio: 'inherit' });
  const port = await new Promise<number>((resolve) => child.once('message', (m) => resolve(Number(m))));
  baseUrl = `http://127.0.0.1:${port}`;
  global.gc?.();
  const base = process.memoryUsage();
  console.log(
    `Before the runs (app and runtime loaded): RSS ${(base.rss / 2 ** 20).toFixed(0)} MB, heap ${(base.heapUsed / 2 ** 20).toFixed(0)} MB.`,
  );
  console.log(
    `Catalog of ${TOTAL.toLocaleString('en-US')} published events, ${PAGE_DELAY_MS} ms a page; the account holds every 50th.`,
  );
  const near = Math.floor(TOTAL / 50) * 50 - 50;
  await measure('Find Event "no such title anywhere"', 'searches/find_event', {
    query: 'no such title anywhere',
  });
  await measure(`Find Event "Agency Session ${near}" (near the end)`, 'searches/find_event', {
    query: `Agency Session ${near}`,
  });
  await measure('Find Event "community meetup" (others\' events only)', 'searches/find_event', {
    query: 'community meetup',
  });
  await measure(`Find Event "agency-session-${near}" (exact slug)`, 'searches/find_event', {
    query: `agency-session-${near}`,
  });
  await measure('Event dropdown, Load more page 500', 'triggers/event_list', {}, { page: 500 });
  await measure(`Find Event Agenda, event ID at catalog position ${near}`, 'searches/find_agenda', {
    eventId: uuid(near),
  });
  child.kill();
};

if (process.argv[2] === '--serve') {
  server.listen(0, '127.0.0.1', () => process.send?.((server.address() as AddressInfo).port));
} else void main();
