/**
 * `npm run bench:hooks`: time of an instant trigger's `perform` per delivery, for 1 KB, 10 KB and 1 MB
 * bodies. It calls the factory's real `perform` (New Registration) directly with a minimal `z` and bundle:
 * signature verification, parsing, the kind/event checks, mapping, the enrichment lookup (a warm cached
 * events list) and the delivery-id claim. `z.cache` is in memory here; on Zapier it is a network call,
 * which this does not measure. Every delivery has its own id, so none is dropped as a repeat. It prints the
 * requests to the service per delivery, by path.
 *
 * Targets: verification and mapping under 1 ms for a 10 KB delivery; at most one read of the events list per
 * 10 minutes, whatever the number of deliveries.
 */
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import type { Bundle, ZObject } from 'zapier-platform-core';
import { errors } from 'zapier-platform-core';
import { paths } from '../src/connect';
import { deliveryOf, verifySignature } from '../src/connect/testing';
import { SIGNATURE_HEADER, signatureOf, wireList } from '../sandbox/wire';
import { SAMPLE_EVENT } from '../src/mappers/event';
import { SAMPLE_SUBMISSION, eventContextOf, toSubmissionItem } from '../src/mappers/submission';
import newRegistration from '../src/triggers/newRegistration';
import { functionOf } from './lib/app';

const SECRET = 'whsec_bench_3c4d5e6f';
const TARGET_MS = 1;

/**
 * An in-memory `z` with Zapier's cache semantics (JSON values) and one answer for the events list, answered
 * as `z.request` answers: with `raw: true` (a list read as a stream) the body unread, else its text. Requests
 * are counted by path.
 */
const fakeZ = (): ZObject => {
  const store = new Map<string, string>();
  const eventsBody = JSON.stringify(wireList([SAMPLE_EVENT]));
  // An event past the newest: the service holds it for the account, and the public catalog shows it.
  const ownedBody = JSON.stringify(wireList([]));
  const catalogBody = JSON.stringify(wireList([OLDER_EVENT], { page: 1, limit: 100, total: 1 }));
  const hookBody = JSON.stringify({
    id: 'hook_bench',
    event: 'FORM_SUBMISSION',
    eventId: null,
    targetUrl: 'https://hooks.example/bench',
    secret: SECRET,
  });
  const requests = new Map<string, number>();
  const z = {
    console: { log: () => undefined, error: () => undefined, warn: () => undefined },
    errors,
    cache: {
      get: async (key: string) => (store.has(key) ? JSON.parse(store.get(key)!) : null),
      set: async (key: string, value: unknown) => {
        store.set(key, JSON.stringify(value));
        return true;
      },
      delete: async (key: string) => store.delete(key),
    },
    // The events list, and the subscription (its current secret, read every few minutes to confirm it).
    request: async (options: { url?: string; raw?: boolean }) => {
      const path = new URL(String(options?.url ?? '')).pathname;
      requests.set(path, (requests.get(path) ?? 0) + 1);
      const content = path.includes('/hooks/')
        ? hookBody
        : path === paths.submissions()
          ? ownedBody
          : path === paths.publicEvents()
            ? catalogBody
            : eventsBody;
      const headers = new Headers({ 'content-type': 'application/json', date: new Date().toUTCString() });
      return options.raw
        ? { status: 200, headers, body: Readable.from([Buffer.from(content)]) }
        : { status: 200, headers, content };
    },
    requests,
  };
  return z as unknown as ZObject;
};

/**
 * When the bench's deliveries were sent: a minute before the bench started, always well inside the replay
 * window (a fixed date would age past it and every delivery would be dropped as a replay).
 */
const DELIVERED_AT = new Date(Date.now() - 60_000).toISOString();

/** A FORM_SUBMISSION delivery body of about `bytes` bytes (mixed-script answer text pads it). */
/** An event of the account that the events list does not answer (older than its newest). */
const OLDER_EVENT = {
  ...SAMPLE_EVENT,
  id: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
  slug: 'techweek-2024',
  title: 'TechWeek 2024',
};

const bodyOfSize = (bytes: number, id: string, eventId = SAMPLE_SUBMISSION.eventId): string => {
  const base = (notes: string) =>
    JSON.stringify({
      id,
      type: 'FORM_SUBMISSION',
      createdAt: DELIVERED_AT,
      data: {
        ...SAMPLE_SUBMISSION,
        eventId,
        answers: [...(SAMPLE_SUBMISSION.answers ?? []), { key: 'notes', label: 'Notes', value: notes }],
      },
    });
  const overhead = Buffer.byteLength(base(''));
  const unit = 'Zoë à Zürich, 東京 🎟️ — ';
  const unitBytes = Buffer.byteLength(unit);
  let notes = unit.repeat(Math.max(0, Math.floor((bytes - overhead) / unitBytes)));
  while (Buffer.byteLength(base(notes)) < bytes) notes += 'x';
  return base(notes);
};

const bundleFor = (body: string): Bundle =>
  ({
    authData: { apiKey: 'sk_bench', baseUrl: 'https://api.connect.test', companyId: 'cmp_42' },
    inputData: {},
    subscribeData: { id: 'hook_bench', secret: SECRET, kind: 'FORM_SUBMISSION', eventId: null },
    rawRequest: {
      method: 'POST',
      querystring: '',
      headers: {
        'Content-Type': 'application/json',
        [`Http-${SIGNATURE_HEADER}`]: signatureOf(body, SECRET),
      },
      content: body,
    },
  }) as unknown as Bundle;

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

const fmt = (ms: number): string => (ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(2)} ms`);

const time = (fn: () => void): number => {
  const start = performance.now();
  fn();
  return performance.now() - start;
};

const main = async () => {
  const started = performance.now();
  const perform = functionOf('triggers', newRegistration.key);
  const sizes: Array<[string, number, number]> = [
    ['1 KB', 1024, 2000],
    ['10 KB', 10 * 1024, 1000],
    ['1 MB', 1024 * 1024, 40],
  ];
  const z = fakeZ();
  // Warm the events cache and the JIT.
  for (let i = 0; i < 200; i++) await perform(z, bundleFor(bodyOfSize(2048, `dlv_warm_${i}`)));

  console.log(`Instant trigger perform (New Registration), per delivery; Node ${process.version}`);
  console.log('size    | perform mean | p50      | p95      | verify only | parse+map only');
  console.log('--------|--------------|----------|----------|-------------|---------------');
  let tenKbMean = NaN;
  for (const [label, bytes, runs] of sizes) {
    const bundles = Array.from({ length: runs }, (_, i) => bundleFor(bodyOfSize(bytes, `dlv_${label}_${i}`)));
    const durations: number[] = [];
    let produced = 0;
    for (const bundle of bundles) {
      const start = performance.now();
      const items = await perform(z, bundle);
      durations.push(performance.now() - start);
      produced += items.length;
    }
    if (produced !== runs) throw new Error(`expected ${runs} items for ${label}, got ${produced}`);
    const sorted = [...durations].sort((a, b) => a - b);
    const mean = durations.reduce((a, b) => a + b, 0) / durations.length;
    if (bytes === 10 * 1024) tenKbMean = mean;

    const sample = bundles[0]!.rawRequest!;
    const header = sample.headers![`Http-${SIGNATURE_HEADER}`];
    const verifyRuns = Math.min(runs, 500);
    const verify =
      time(() => {
        for (let i = 0; i < verifyRuns; i++) verifySignature(sample.content, header, [SECRET]);
      }) / verifyRuns;
    const mapOnly =
      time(() => {
        for (let i = 0; i < verifyRuns; i++) {
          const { data } = deliveryOf(sample.content!);
          toSubmissionItem(data as typeof SAMPLE_SUBMISSION, eventContextOf(SAMPLE_EVENT));
        }
      }) / verifyRuns;
    console.log(
      `${label.padEnd(7)} | ${fmt(mean).padEnd(12)} | ${fmt(percentile(sorted, 50)).padEnd(8)} | ${fmt(percentile(sorted, 95)).padEnd(8)} | ${fmt(verify).padEnd(11)} | ${fmt(mapOnly)}`,
    );
  }
  // Registrations of an event past the newest 100: its title and dates looked up once, for all of them.
  const OLDER_RUNS = 200;
  for (let i = 0; i < OLDER_RUNS; i++) {
    const [item] = await perform(z, bundleFor(bodyOfSize(2048, `dlv_older_${i}`, OLDER_EVENT.id)));
    if ((item as { eventTitle?: unknown })?.eventTitle !== OLDER_EVENT.title)
      throw new Error('a registration of an older event came without its title');
  }
  const requests = (z as unknown as { requests: Map<string, number> }).requests;
  const deliveries = sizes.reduce((n, s) => n + s[2], 200 + OLDER_RUNS);
  console.log(
    `\nRequests to the service for ${deliveries} deliveries, ${OLDER_RUNS} of them of an event past the newest 100, by path (each cached: the events list for 10 minutes, the confirmation of the secret for 5, an event's title and dates for 6 hours):`,
  );
  for (const [path, count] of [...requests].sort((a, b) => b[1] - a[1])) {
    console.log(`  ${path}: ${count} (${(count / deliveries).toFixed(4)} per delivery)`);
  }
  const eventsReads = requests.get(paths.events()) ?? 0;
  console.log(
    `Target: at most one read of the events list per 10 minutes for any number of deliveries → ${eventsReads} in ${((performance.now() - started) / 60_000).toFixed(1)} minutes: ${eventsReads <= 1 ? 'met' : 'NOT met'}`,
  );
  console.log(
    `Target: verification + mapping of a 10 KB delivery under ${TARGET_MS} ms → ${fmt(tenKbMean)} mean: ${tenKbMean < TARGET_MS ? 'met' : 'NOT met'}`,
  );
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
