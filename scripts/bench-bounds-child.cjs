// One row of bench:bounds alone, in a fresh Node process running the compiled app as Zapier runs one
// invocation. Started by scripts/bench-bounds.ts with: <compiled app folder> <JSON file of the run>, the file
// holding { group, key, bundle }. Prints `RESULT {json}`: wall time from the invocation's start, the answer's
// size (UTF-8 bytes of its JSON), its items, and the peak memory of the whole process; or `FAILED message`.
const fs = require('node:fs');
const path = require('node:path');

const [appDir, runFile] = process.argv.slice(2);

// zapier-platform-core prints a memory line on every run outside of tests.
console.log = () => undefined;

const main = async () => {
  const started = performance.now();
  const { group, key, bundle } = JSON.parse(fs.readFileSync(runFile, 'utf8'));
  const { createAppTester } = require('zapier-platform-core');
  const App = require(path.resolve(appDir, 'index.js')).default;
  const definition = App[group] && App[group][key];
  if (!definition) throw new Error(`the app has no ${group}.${key}`);
  const tester = createAppTester(App);
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 5);
  let result;
  let failure = null;
  try {
    result = await tester(definition.operation.perform, bundle);
  } catch (error) {
    failure = String((error && error.message) || error).slice(0, 300);
  }
  const ms = performance.now() - started;
  clearInterval(sampler);
  const answerBytes = failure ? 0 : Buffer.byteLength(JSON.stringify(result) ?? '');
  process.stdout.write(
    `RESULT ${JSON.stringify({
      ms,
      answerBytes,
      items: Array.isArray(result) ? result.length : 0,
      peakRss: Math.max(peakRss, process.resourceUsage().maxRSS * 1024),
      failure,
    })}\n`,
  );
};

main().catch((error) => {
  process.stderr.write(String((error && error.stack) || error));
  process.exit(1);
});
