// The widest poll of New Form Submission (turning a Zap on: `isPopulatingDedupe`) alone, in a fresh Node
// process running the compiled app as Zapier runs it. Started by scripts/bench-poll.ts, which passes the
// compiled app's folder, the API address, the event, the key and the clock; prints `RESULT {json}` with the
// process memory before the poll (app loaded and warmed) and its peaks during the poll.
const path = require('node:path');
const { createAppTester } = require('zapier-platform-core');

const [appDir, baseUrl, eventId, apiKey, clock] = process.argv.slice(2);
const App = require(path.resolve(appDir, 'index.js')).default;
const realNow = Date.now.bind(Date);
const offset = Number(clock) - realNow();
Date.now = () => realNow() + offset;
// zapier-platform-core prints a memory line on every run outside of tests.
console.log = () => undefined;

const meta = {
  isLoadingSample: false,
  isFillingDynamicDropdown: false,
  isPopulatingDedupe: true,
  isTestingAuth: false,
  isBulkRead: false,
  limit: -1,
  page: 0,
  timezone: 'Europe/Paris',
};

const main = async () => {
  const tester = createAppTester(App);
  const perform = App.triggers.new_submission.operation.perform;
  const authData = { apiKey, baseUrl };
  // Warm the code path on an event without registrations first: the figures are those of the poll itself.
  await tester(perform, {
    authData,
    inputData: { eventId: '00000000-0000-4000-8000-000000000000' },
    meta,
  }).catch(() => undefined);
  if (global.gc) global.gc();
  const before = process.memoryUsage();
  let peakHeap = before.heapUsed;
  let peakRss = before.rss;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peakHeap = Math.max(peakHeap, now.heapUsed);
    peakRss = Math.max(peakRss, now.rss);
  }, 2);
  const started = process.hrtime.bigint();
  const items = await tester(perform, { authData, inputData: { eventId }, meta });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  clearInterval(sampler);
  const after = process.memoryUsage();
  const result = {
    items: items.length,
    ms,
    rssBefore: before.rss,
    heapBefore: before.heapUsed,
    peakRss: Math.max(peakRss, after.rss, process.resourceUsage().maxRSS * 1024),
    peakHeap: Math.max(peakHeap, after.heapUsed),
  };
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
};

main().catch((error) => {
  process.stderr.write(String((error && error.stack) || error));
  process.exit(1);
});
