// Runs several command lines of the `zapier-platform` tool in one process, one after the other, through the
// tool's own entry (oclif's `run` on the tool's folder, as its `bin/run` does), so a document's commands
// cost one start of the tool instead of one each. Each command gets what a process of its own would:
// - its own stdout and stderr (the process's streams are taken over while it runs);
// - its exit code: 0, or the code the tool's error handler would exit with (1 unless the error says);
// - a freshly loaded app: the modules of the app's folder (the working directory) are dropped from the
//   module cache after each command, so no command sees what an earlier one left in the app.
// Usage: node [--require guard] invokeMany.cjs <cli bin/run> <commands.json> <results.json>, where
// commands.json holds an array of argument arrays, and results.json receives [{ code, stdout, stderr }].
const fs = require('node:fs');
const path = require('node:path');

const [bin, commandsFile, resultsFile] = process.argv.slice(2);

const dropAppModules = (folder) => {
  for (const file of Object.keys(require.cache)) {
    if (file.startsWith(folder + path.sep) && !file.includes(`${path.sep}node_modules${path.sep}`))
      delete require.cache[file];
  }
};

const runOne = async (oclif, args) => {
  const out = [];
  const err = [];
  const writeOut = process.stdout.write;
  const writeErr = process.stderr.write;
  const keep = (chunks) => (chunk, encoding, callback) => {
    chunks.push(Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk));
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') done();
    return true;
  };
  process.stdout.write = keep(out);
  process.stderr.write = keep(err);
  process.exitCode = undefined;
  let code = 0;
  try {
    await oclif.run(args, path.dirname(bin));
    await oclif.flush();
  } catch (error) {
    // What the tool's handler prints and exits with (`oclif.handle`), without exiting this process.
    const exit = error && error.oclif && typeof error.oclif.exit === 'number' ? error.oclif.exit : 1;
    code = exit;
    if (exit !== 0) err.push(`${error && error.stack ? error.stack : String(error)}\n`);
  } finally {
    process.stdout.write = writeOut;
    process.stderr.write = writeErr;
  }
  if (code === 0 && typeof process.exitCode === 'number') code = process.exitCode;
  process.exitCode = undefined;
  dropAppModules(process.cwd());
  return { code, stdout: out.join(''), stderr: err.join('') };
};

const main = async () => {
  const oclif = await import(require.resolve('@oclif/core', { paths: [path.dirname(bin)] }));
  const commands = JSON.parse(fs.readFileSync(commandsFile, 'utf8'));
  const results = [];
  for (const args of commands) results.push(await runOne(oclif, args));
  fs.writeFileSync(resultsFile, JSON.stringify(results));
};

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`${error && error.stack ? error.stack : String(error)}\n`);
    process.exit(2);
  },
);
