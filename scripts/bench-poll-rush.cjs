// One rush scenario of `npm run bench:poll`, alone in a fresh Node process running the compiled app as
// Zapier runs it (its resident set is the figure). Started by scripts/bench-poll.ts with the compiled
// folder and the scenario (JSON); prints `RESULT {json}`. Garbage is collected between polls (each poll is
// an invocation of its own at Zapier, and the resident set is then the poll's own), unless a third argument
// `gc-as-v8-chooses` says otherwise: then a poll's garbage is collected whenever V8 decides, in whichever
// poll, as in a warm Zapier worker (its CPU per poll is then what Zapier pays). A fourth argument
// `{"dir", "polls"}` plays the scenario again only to save the cache as it is before each of those polls
// (`<dir>/<poll>.cache`, for scripts/bench-poll-lone.cjs), and stops after the last of them. A scenario with
// `freshWorkers` plays every poll as in a worker that remembers no decoding of an earlier poll.
const path = require('node:path');

const [outDir, scenario, collect, saving] = process.argv.slice(2);
console.log = () => undefined;
const App = require(path.resolve(outDir, 'index.js')).default;
const { playClock, playRush } = require(path.resolve(outDir, 'scripts', 'lib', 'pollPlay.js'));

const { newSubmissionTrigger } = require(path.resolve(outDir, 'src', 'triggers', 'newSubmission.js'));
const { pollTimings } = require(path.resolve(outDir, 'src', 'polling', 'index.js'));

const main = async () => {
  // The app's trigger with the app's own timings, on the play's clock: real time never moves it (a poll's
  // waits for a lease do), so the play replays exactly on any machine and a slow one never reaches the run's
  // limit; its answers are App's (the same declaration).
  void App;
  const scene = JSON.parse(scenario);
  const timings = scene.freshWorkers ? { ...pollTimings(), decodedHeldBytes: 0 } : pollTimings();
  const trigger = newSubmissionTrigger({ timings, clock: playClock() });
  const perform = trigger.operation.perform;
  const tell = (line) => process.stderr.write(`PROGRESS ${line}\n`);
  const collecting = collect === 'gc-as-v8-chooses' ? () => undefined : () => global.gc?.();
  const save = saving ? JSON.parse(saving) : null;
  const last = save ? Math.max(...save.polls) : Infinity;
  const between = (cache, poll) => {
    collecting();
    if (save?.polls.includes(poll)) cache.save(path.join(save.dir, `${poll}.cache`));
    if (poll >= last) throw new Saved();
  };
  try {
    const played = await playRush(scene, perform, between, tell, !save);
    process.stdout.write(`RESULT ${JSON.stringify(played)}\n`);
  } catch (error) {
    if (!(error instanceof Saved)) throw error;
    process.stdout.write(`RESULT ${JSON.stringify({ saved: save.polls })}\n`);
  }
};

/** Ends a play once the cache is saved before its last chosen poll. */
class Saved extends Error {}

main().catch((error) => {
  process.stderr.write(`${error && error.stack ? error.stack : error}\n`);
  process.exit(1);
});
