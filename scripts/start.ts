/**
 * `npm start`: the integration's main job on the embedded sandbox, narrated as a table. Exits non-zero when
 * any step fails.
 */
import { runJourney } from './journey';

const color = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;

runJourney({ out: { line: (text) => process.stdout.write(`${text}\n`), color } })
  .then((result) => process.exit(result.ok ? 0 : 1))
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
