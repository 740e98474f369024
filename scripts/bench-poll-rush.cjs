// One rush scenario of `npm run bench:poll`, alone in a fresh Node process running the compiled app as
// Zapier runs it (its resident set is the figure). Started by scripts/bench-poll.ts with the compiled
// folder and the scenario (JSON); prints `RESULT {json}`. Garbage is collected between polls: each poll is
// an invocation of its own at Zapier.
const path = require('node:path');

const [outDir, scenario] = process.argv.slice(2);
console.log = () => undefined;
const App = require(path.resolve(outDir, 'index.js')).default;
const { playRush } = require(path.resolve(outDir, 'scripts', 'lib', 'pollPlay.js'));

const main = async () => {
  const perform = App.triggers.new_submission.operation.perform;
  const tell = (line) => process.stderr.write(`PROGRESS ${line}\n`);
  const played = await playRush(JSON.parse(scenario), perform, () => global.gc?.(), tell);
  process.stdout.write(`RESULT ${JSON.stringify(played)}\n`);
};

main().catch((error) => {
  process.stderr.write(`${error && error.stack ? error.stack : error}\n`);
  process.exit(1);
});
