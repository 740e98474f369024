/**
 * `npm run simulate` against a service whose lists come in pages named by a `Link` header (`link-paging`),
 * with the app taught that dialect: it picks the newest registration among every page, following the pages
 * as the app follows them (src/connect's `followPages`), never among the first page alone.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type RunningSandbox, startSandbox } from '../../sandbox';
import { envLines } from '../../sandbox/cli';
import { simulate } from '../../scripts/simulate';
import type * as Dialects from '../../src/connect/dialect';

jest.mock('../../src/connect/dialect', () => {
  const actual = jest.requireActual<typeof Dialects>('../../src/connect/dialect');
  const list = { ...actual.DIALECT.list, next: { link: 'next' } };
  return { ...actual, DIALECT: { ...actual.DIALECT, list } };
});

let sandbox: RunningSandbox;
let dir: string;
let envFile: string;

beforeAll(async () => {
  sandbox = await startSandbox({ deviations: ['link-paging'], pageRecords: 2 });
  dir = mkdtempSync(path.join(os.tmpdir(), 'simulate-pages-'));
  envFile = path.join(dir, '.env');
  writeFileSync(envFile, `${envLines(sandbox.url, 1).join('\n')}\n`);
});

afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

const run = async (...args: string[]): Promise<string[]> => {
  const lines: string[] = [];
  await simulate(args, (line) => lines.push(line), envFile);
  return lines;
};

it('approves the newest pending registration, found on a page past the first one', async () => {
  const registered = await run('register', '--event', 'techweek', '--status', 'pending');
  const id = /: (sub_\w+) \(pending\)$/.exec(registered[0] ?? '')?.[1] as string;
  expect(id).toBeDefined();
  // Two newer ones fill the first page of 2 (newest first): the pending one is on the second.
  await run('register', '--event', 'techweek', '--status', 'approved');
  await run('register', '--event', 'techweek', '--status', 'approved');
  // The event's registrations run over several pages of 2, each naming the next in its Link header.
  const first = await fetch(
    `${sandbox.url}/api/v1/integrations/zapier/submissions?eventId=${(await techweekId()) ?? ''}&since=2000-01-01T00:00:00.000Z`,
    { headers: { 'X-API-KEY': sandbox.tenants[0].apiKey } },
  );
  expect(first.headers.get('link')).toMatch(/rel="next"/);
  expect(JSON.stringify(await first.json())).not.toContain(id);
  const approved = await run('approve', '--event', 'techweek');
  expect(approved[0]).toMatch(new RegExp(`^Approved .* \\(${id}\\): QR code `));
});

/** The id of the seed event TechWeek of the first tenant. */
const techweekId = async (): Promise<string | undefined> => {
  const answer = await fetch(`${sandbox.url}/api/v1/integrations/zapier/events?limit=100`, {
    headers: { 'X-API-KEY': sandbox.tenants[0].apiKey },
  });
  const events = ((await answer.json()) as { data: Array<{ id: string; slug: string }> }).data;
  return events.find((event) => event.slug.startsWith('techweek'))?.id;
};
