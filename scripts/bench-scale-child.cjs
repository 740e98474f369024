// One operation of bench:scale alone, in a fresh Node process running the compiled app as Zapier runs it
// (or, for `bare`, a plain download of the same answer and one JSON.parse of it). Started by
// scripts/bench-scale.ts with: <compiled app folder> <operation> <base URL> <event id> <API key> <email>
// <company id>.
// Prints `RESULT {json}`: wall time of the operation, what it returned, the process memory before it (app
// loaded) and the peak memory of the whole process.
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

const main = async () => {
  const started = { rss: 0, ms: 0 };
  let run;
  if (operation === 'bare') {
    run = bare;
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
  started.rss = process.memoryUsage().rss;
  let peakRss = started.rss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 5);
  started.ms = performance.now();
  const result = await run();
  const ms = performance.now() - started.ms;
  clearInterval(sampler);
  const items = Array.isArray(result) ? result.length : 0;
  process.stdout.write(
    `RESULT ${JSON.stringify({
      operation,
      ms,
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
