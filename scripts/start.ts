/**
 * `npm start`: the integration's main job on the embedded sandbox, narrated as a table, then the embed codes
 * rendered in a real browser (screenshots under reports/). Exits non-zero when any step fails.
 */
import path from 'node:path';
import { showEmbeds } from './browser';
import { runJourney } from './journey';
import { SHOWN_PLAN } from './lib/showcase';

const color = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
const line = (text: string) => void process.stdout.write(`${text}\n`);
const relative = (file: string) => path.relative(process.cwd(), file) || file;

/** The last word: the embeds as a visitor of the organizer's site sees them. */
const embeds = async (): Promise<boolean> => {
  line('');
  line('The embeds in a real browser (headless Chromium, a page of another origin holding the embed codes)');
  try {
    const { shots, booths, sessions, chromium } = await showEmbeds();
    line(
      `  ${booths} booths of ${SHOWN_PLAN.eventName}'s ${SHOWN_PLAN.name} (${SHOWN_PLAN.planId}, the plan of the map embed code above) and ${sessions} agenda sessions visible in ${chromium}. Screenshots:`,
    );
    for (const file of [shots.page, shots.map, shots.agenda]) line(`    ${relative(file)}`);
    return true;
  } catch (error) {
    line(`  ✘ the embeds did not render: ${error instanceof Error ? error.message : String(error)}`);
    return false;
  }
};

runJourney({ out: { line, color } })
  .then(async (result) => process.exit(result.ok && (await embeds()) ? 0 : 1))
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
