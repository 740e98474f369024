/**
 * `npm run bench:hooks`: time of an instant trigger's `perform` per delivery, for 1 KB, 10 KB and 1 MB
 * bodies. It calls the factory's real `perform` (New Registration) directly with a minimal `z` and bundle:
 * signature verification, parsing, the kind/event checks, mapping, the enrichment lookup (a warm cached
 * events list) and the delivery-id claim. `z.cache` is in memory here; on Zapier it is a network call,
 * which this does not measure. Every delivery has its own id, so none is dropped as a repeat.
 *
 * Target: verification and mapping under 1 ms for a 10 KB delivery.
 */
import { performance } from 'node:perf_hooks';
import type { Bundle, ZObject } from 'zapier-platform-core';
import { errors } from 'zapier-platform-core';
import { deliveryOf, verifySignature } from '../src/connect/testing';
import { SIGNATURE_HEADER, signatureOf, wireList } from '../sandbox/wire';
import { SAMPLE_EVENT } from '../src/mappers/event';
import { SAMPLE_SUBMISSION, eventContextOf, toSubmissionItem } from '../src/mappers/submission';
import newRegistration from '../src/triggers/newRegistration';
import { functionOf } from './lib/app';

const SECRET = 'whsec_bench_3c4d5e6f';
const TARGET_MS = 1;

/** An in-memory `z` with Zapier's cache semantics (JSON values) and one answer for the events list. */
const fakeZ = (): ZObject => {
  const store = new Map<string, string>();
  const eventsBody = JSON.stringify(wireList([SAMPLE_EVENT]));
  const hookBody = JSON.stringify({
    id: 'hook_bench',
    event: 'FORM_SUBMISSION',
    eventId: null,
    targetUrl: 'https://hooks.example/bench',
    secret: SECRET,
  });
  let requests = 0;
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
    request: async (options: { url?: string }) => {
      requests++;
      const isHook = String(options?.url ?? '').includes('/hooks/');
      return {
        status: 200,
        content: isHook ? hookBody : eventsBody,
        headers: new Headers({ 'content-type': 'application/json', date: new Date().toUTCString() }),
      };
    },
    get requests() {
      return requests;
    },
  };
  return z as unknown as ZObject;
};

/**
 * When the bench's deliveries were sent: a minute before the bench started, always well inside the replay
 * window (a fixed date would age past it and every delivery would be dropped as a replay).
 */
const DELIVERED_AT = new Date(Date.now() - 60_000).toISOString();

/** A FORM_SUBMISSION delivery body of about `bytes` bytes (mixed-script answer text pads it). */
const bodyOfSize = (bytes: number, id: string): string => {
  const base = (notes: string) =>
    JSON.stringify({
      id,
      type: 'FORM_SUBMISSION',
      createdAt: DELIVERED_AT,
      data: {
        ...SAMPLE_SUBMISSION,
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
  const requests = (z as unknown as { requests: number }).requests;
  console.log(
    `\nRequests to the service for ${sizes.reduce((n, s) => n + s[2], 200)} deliveries: ${requests} (the events list and the confirmation of the secret, each cached)`,
  );
  console.log(
    `Target: verification + mapping of a 10 KB delivery under ${TARGET_MS} ms → ${fmt(tenKbMean)} mean: ${tenKbMean < TARGET_MS ? 'met' : 'NOT met'}`,
  );
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
