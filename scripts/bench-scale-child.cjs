// One operation of bench:scale alone, in a fresh Node process running the compiled app as Zapier runs it
// (or, for `bare`, a plain download of the same answer and one JSON.parse of it). Started by
// scripts/bench-scale.ts with: <compiled app folder> <operation> <base URL> <event id> <API key> <email>
// <company id>.
// Prints `RESULT {json}`: wall time of the operation, the CPU time this process spent on it (the sandbox's
// is not in it), what it returned, the process memory before it (app loaded) and the peak memory of the
// whole process.
// The attendee operations (`attendee-…`) read the orders to look up from the JSON file named by
// BENCH_ATTENDEE_ORDERS, and resolve the attendee fields through the app's hydrator, with a `z.cache` that
// honours `nx` and TTL as Zapier's does (the test runner's cache honours neither).
const http = require('node:http');
const path = require('node:path');

const [appDir, operation, baseUrl, eventId, apiKey, email, companyId] = process.argv.slice(2);
const ALL_TIME = '2000-01-01T00:00:00.000Z';

// zapier-platform-core prints a memory line on every run outside of tests.
console.log = () => undefined;

const meta = (overrides) => ({
  isLoadingSample: false,
  isFillingDynamicDropdown: false,
  isPopulatingDedupe: false,
  isTestingAuth: false,
  isBulkRead: false,
  limit: -1,
  page: 0,
  timezone: 'Europe/Paris',
  ...overrides,
});

/** The registrations of the event as one buffer, its text, then JSON.parse: the plain way to read it. */
const bare = () =>
  new Promise((resolve, reject) => {
    const url = new URL('/api/v1/integrations/zapier/submissions', baseUrl);
    url.searchParams.set('eventId', eventId);
    url.searchParams.set('since', ALL_TIME);
    http
      .get(url, { headers: { 'X-API-KEY': apiKey, Accept: 'application/json' } }, (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve(JSON.parse(text).data);
        });
      })
      .on('error', reject);
  });

/** `z.cache` as Zapier's: JSON values that expire after their TTL, and `nx` that stores only a free key. */
const zapierLikeCache = () => {
  const store = new Map();
  const live = (key) => {
    const entry = store.get(key);
    if (entry && entry.expires <= Date.now()) store.delete(key);
    return store.get(key);
  };
  return {
    get: async (key) => {
      const entry = live(key);
      return entry ? JSON.parse(entry.json) : null;
    },
    set: async (key, value, ttl = null, scope = null, nx = null) => {
      void scope; // every key of the app is already scoped to its account
      if (nx && live(key)) return false;
      store.set(key, { json: JSON.stringify(value), expires: ttl ? Date.now() + ttl * 1000 : Infinity });
      return true;
    },
    delete: async (key) => store.delete(key),
  };
};

const ATTENDEE_FIELDS = [
  'attendeeFound',
  'attendeeFirstName',
  'attendeeLastName',
  'attendeeFullName',
  'attendeeEmail',
  'attendeeNote',
];

/** The attendee operations: which orders, and which fields of each, resolved all at once. */
const attendeeRun = (tester, App) => {
  const orders = JSON.parse(require('node:fs').readFileSync(process.env.BENCH_ATTENDEE_ORDERS, 'utf8'));
  const { hydrateAttendee } = require(path.resolve(appDir, 'src', 'account', 'attendee.js'));
  if (App.hydrators.attendee !== hydrateAttendee) throw new Error('the app does not register the hydrator');
  const authData = { apiKey, baseUrl, companyId };
  const asked = {
    'attendee-recent': [orders.recent].map((order) => [order, 'attendeeEmail']),
    'attendee-middle': [orders.middle].map((order) => [order, 'attendeeEmail']),
    'attendee-six': ATTENDEE_FIELDS.map((field) => [orders.middle, field]),
    'attendee-hundred': orders.hundred.map((order) => [order, 'attendeeEmail']),
  }[operation];
  if (!asked) throw new Error(`unknown operation ${operation}`);
  const cache = zapierLikeCache();
  const hydrate = (order, field) =>
    tester(
      (z, bundle) => {
        z.cache = cache;
        return hydrateAttendee(z, bundle);
      },
      {
        authData,
        inputData: {
          orderId: order.id,
          eventId: order.eventId,
          submissionId: order.submissionId,
          orderCreatedAt: order.createdAt,
          field,
        },
      },
    );
  return async () => {
    const values = await Promise.all(asked.map(([order, field]) => hydrate(order, field)));
    // Every attendee is there: its note is empty, every other field set.
    const wrong = values.filter((value, i) => (asked[i][1] === 'attendeeNote' ? value !== '' : !value));
    if (wrong.length > 0) throw new Error(`attendees not found: ${JSON.stringify(wrong.slice(0, 3))}`);
    return values;
  };
};

const main = async () => {
  const started = { rss: 0, ms: 0 };
  let run;
  if (operation === 'bare') {
    run = bare;
  } else if (operation.startsWith('attendee-')) {
    const { createAppTester } = require('zapier-platform-core');
    const App = require(path.resolve(appDir, 'index.js')).default;
    const tester = createAppTester(App);
    // Warm the code path on an unknown event first (it reads nothing).
    await tester(
      (z, bundle) =>
        require(path.resolve(appDir, 'src', 'account', 'attendee.js')).hydrateAttendee(z, bundle),
      {
        authData: { apiKey, baseUrl, companyId },
        inputData: {
          orderId: 'ord_warm',
          eventId: '00000000-0000-4000-8000-000000000000',
          submissionId: 'sub_warm',
          field: 'attendeeFound',
        },
      },
    ).catch(() => undefined);
    run = attendeeRun(tester, App);
  } else {
    const { createAppTester } = require('zapier-platform-core');
    const App = require(path.resolve(appDir, 'index.js')).default;
    const tester = createAppTester(App);
    const authData = { apiKey, baseUrl, companyId };
    const operations = {
      'find-registration': [App.searches.find_registration, { eventId, email }, meta()],
      dropdown: [App.triggers.registration_list, { eventId }, meta({ isFillingDynamicDropdown: true })],
      'find-order': [App.searches.find_order, { email }, meta()],
      'turn-on': [App.triggers.new_submission, { eventId }, meta({ isPopulatingDedupe: true })],
      'cursor-lost': [App.triggers.new_submission, { eventId }, meta()],
    };
    const [definition, inputData, bundleMeta] = operations[operation] ?? [];
    if (!definition) throw new Error(`unknown operation ${operation}`);
    // Warm the code path first on an unknown event (an unknown order for Find Order), which reads almost
    // nothing: the figures are those of the run itself.
    const warm =
      operation === 'find-order'
        ? { orderIdText: 'ord_unknown' }
        : { ...inputData, eventId: '00000000-0000-4000-8000-000000000000' };
    await tester(definition.operation.perform, { authData, inputData: warm, meta: bundleMeta }).catch(
      () => undefined,
    );
    run = () => tester(definition.operation.perform, { authData, inputData, meta: bundleMeta });
  }
  if (global.gc) global.gc();
  // `memoryUsage.rss()`, not `memoryUsage()`: the latter walks the heap's spaces, which every 5 ms costs a
  // long operation a tenth of its time, and would weigh on the figure measured.
  started.rss = process.memoryUsage.rss();
  let peakRss = started.rss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }, 5);
  const cpuBefore = process.cpuUsage();
  started.ms = performance.now();
  const result = await run();
  const ms = performance.now() - started.ms;
  const cpu = process.cpuUsage(cpuBefore);
  clearInterval(sampler);
  const items = Array.isArray(result) ? result.length : 0;
  process.stdout.write(
    `RESULT ${JSON.stringify({
      operation,
      ms,
      cpuMs: (cpu.user + cpu.system) / 1000,
      items,
      rssBefore: started.rss,
      peakRss: Math.max(peakRss, process.resourceUsage().maxRSS * 1024),
    })}\n`,
  );
};

main().catch((error) => {
  process.stderr.write(String((error && error.stack) || error));
  process.exit(1);
});
