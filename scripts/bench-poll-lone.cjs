// One poll of a rush play alone, in a fresh Node process running the compiled app as Zapier runs it, over
// the cache as the play left it before that poll (saved by scripts/bench-poll-rush.cjs; its values stay in
// their file until the poll reads one, as Zapier's cache keeps them elsewhere), reading the play's service
// over HTTP from a second process (this script again, `serve`): the poll's memory is its own and the app's,
// not the play's nor the service's. Started by scripts/lib/pollRushes.ts with the compiled folder, the
// scenario (JSON), the poll's time and the saved cache's file (empty: the cache was lost just before the
// poll); prints `RESULT {json}` with the process memory before the poll (app loaded, collected) and its peaks.
const { spawn } = require('node:child_process');
const path = require('node:path');

const [outDir, scenario, at, file, role] = process.argv.slice(2);
const { playClock } = require(path.resolve(outDir, 'scripts', 'lib', 'pollPlay.js'));
const { replayPoll, serveService } = require(path.resolve(outDir, 'scripts', 'lib', 'pollReplay.js'));

/** The service's process: serves the play's service at the poll's time until its parent ends it. */
const serve = async () => {
  const { url } = await serveService(JSON.parse(scenario), Number(at));
  process.stdout.write(`SERVING ${url}\n`);
};

/** Starts the service's process; resolves with it and its address. */
const startService = () =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [__filename, outDir, scenario, at, file, 'serve']);
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk.toString();
      const url = /^SERVING (\S+)$/m.exec(out)?.[1];
      if (url) resolve({ child, url });
    });
    child.on('exit', (code) => reject(new Error(`the service's process ended (${code})`)));
  });

if (role === 'serve') {
  serve();
  return;
}
console.log = () => undefined;
const App = require(path.resolve(outDir, 'index.js')).default;
const { FakeCache } = require(path.resolve(outDir, 'scripts', 'lib', 'fakeCache.js'));
const { newSubmissionTrigger } = require(path.resolve(outDir, 'src', 'triggers', 'newSubmission.js'));
const { pollTimings } = require(path.resolve(outDir, 'src', 'polling', 'index.js'));

const main = async () => {
  void App;
  const service = await startService();
  const trigger = newSubmissionTrigger({ timings: pollTimings(), clock: playClock() });
  const cacheOf = (now) => (file ? FakeCache.fromFile(file, now) : new FakeCache(now));
  global.gc?.();
  const before = process.memoryUsage();
  let peakHeap = before.heapUsed;
  const sampler = setInterval(() => {
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  }, 2);
  const started = process.hrtime.bigint();
  const perform = trigger.operation.perform;
  const poll = await replayPoll(JSON.parse(scenario), Number(at), cacheOf, perform, service.url).finally(() =>
    service.child.kill(),
  );
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
