// One poll of a rush play alone, in a fresh Node process running the compiled app as Zapier runs it, over
// the cache as the play left it before that poll (saved by scripts/bench-poll-rush.cjs; its values stay in
// their file until the poll reads one, as Zapier's cache keeps them elsewhere): the poll's memory is its own
// and the app's, not the play's. Started by scripts/lib/pollRushes.ts with the compiled folder, the scenario
// (JSON), the poll's time and the saved cache's file (empty: the cache was lost just before the poll);
// prints `RESULT {json}` with the process memory before the poll (app loaded, collected) and its peaks.
const path = require('node:path');

const [outDir, scenario, at, file] = process.argv.slice(2);
console.log = () => undefined;
const App = require(path.resolve(outDir, 'index.js')).default;
const { playClock, replayPoll } = require(path.resolve(outDir, 'scripts', 'lib', 'pollPlay.js'));
const { FakeCache } = require(path.resolve(outDir, 'scripts', 'lib', 'fakeCache.js'));
const { newSubmissionTrigger } = require(path.resolve(outDir, 'src', 'triggers', 'newSubmission.js'));
const { pollTimings } = require(path.resolve(outDir, 'src', 'polling', 'index.js'));

const main = async () => {
  void App;
  const trigger = newSubmissionTrigger({ timings: pollTimings(), clock: playClock() });
  const cacheOf = (now) => (file ? FakeCache.fromFile(file, now) : new FakeCache(now));
  global.gc?.();
  const before = process.memoryUsage();
  let peakHeap = before.heapUsed;
  const sampler = setInterval(() => {
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  }, 2);
  const started = process.hrtime.bigint();
  const poll = await replayPoll(JSON.parse(scenario), Number(at), cacheOf, trigger.operation.perform);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  clearInterval(sampler);
  const result = {
    ...poll,
    ms,
    rssBefore: before.rss,
    // The process's high-water mark: the poll's peak, or loading's if that was higher (then it overstates).
    peakRss: Math.max(process.memoryUsage().rss, process.resourceUsage().maxRSS * 1024),
    peakHeap: Math.max(peakHeap, process.memoryUsage().heapUsed),
  };
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
};

main().catch((error) => {
  process.stderr.write(`${error && error.stack ? error.stack : error}\n`);
  process.exit(1);
});
