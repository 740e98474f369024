/**
 * The embed codes in a real browser. The app's Generate Embed Code makes the HTML for the floor-plan map and
 * the agenda against the sandbox; a page of another origin (the organizer's site) holds it as pasted; headless
 * Chromium shows the booths and the session titles; a booth booked (and the plan published) in the service
 * shows as booked once the page is loaded again. Screenshots go to reports/.
 */
import { existsSync, statSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { startSandbox, type RunningSandbox } from '../../sandbox';
import {
  launchChromium,
  openPage,
  organizerPage,
  readEmbeds,
  screenshotEmbeds,
  startOrganizerSite,
  type OrganizerSite,
} from '../../scripts/browser';
import generateEmbedCode from '../../src/creates/embedCode';
import { functionOf } from '../../scripts/lib/app';
import { describeChromium, findChromium, type FoundChromium } from '../../scripts/lib/chromium';
import { appTester } from '../support/app';
import { NORTHWIND, simulate } from '../support/sandbox';
import { useGenerousTimeLimits } from '../support/limits';
import { inAppNames, recordsOf } from '../../src/connect/testing';

useGenerousTimeLimits();

interface PlanJson {
  id: string;
  version: number;
  booths: { id: string; label: string; status: string }[];
}

let sandbox: RunningSandbox;
let site: OrganizerSite;
let browser: Browser;
let eventId: string;
let slug: string;
let found: FoundChromium;

const AVAILABLE_FILL = 'rgb(47, 158, 91)';
const BOOKED_FILL = 'rgb(200, 69, 59)';

beforeAll(async () => {
  // CHROMIUM_PATH, else a system Chromium, else the npm package's: on a machine with only npm, the last.
  found = await findChromium();
  sandbox = await startSandbox();
  const events = await simulate(sandbox, NORTHWIND, 'GET', '/api/v1/integrations/zapier/events?limit=100');
  const techweek = recordsOf<{ id: string; slug: string }>('event', events).find(
    (e) => e.slug === 'techweek-paris-2026',
  );
  if (!techweek) throw new Error('the seed has no TechWeek event');
  eventId = techweek.id;
  slug = techweek.slug;

  // The organizer runs Generate Embed Code twice and pastes both results into their own page.
  const authData = {
    apiKey: NORTHWIND.apiKey,
    baseUrl: sandbox.url,
    frontUrl: sandbox.url,
    embedUrl: sandbox.url,
  };
  const perform = functionOf('creates', generateEmbedCode.key);
  const map = (await appTester(perform, {
    authData,
    inputData: { embedType: 'map', eventId, planId: 'plan_main' },
  })) as { html: string };
  const agenda = (await appTester(perform, {
    authData,
    inputData: { embedType: 'agenda', eventId, theme: 'dark', language: 'fr' },
  })) as { html: string };
  site = await startOrganizerSite(
    organizerPage('Northwind Events — TechWeek Paris', [map.html, agenda.html]),
  );
  browser = await launchChromium(found);
  console.log(`The browser test runs in ${describeChromium(found, browser.version())}.`);
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await sandbox?.close();
});

/** The published plan as the app reads it (its names and the spellings of its booths' statuses). */
const plan = async (): Promise<PlanJson> =>
  inAppNames(
    'floorPlan',
    await simulate(sandbox, NORTHWIND, 'GET', `/connect/v1/events/${eventId}/floor-plans/plan_main`),
  ) as unknown as PlanJson;

it('shows the floor plan and the agenda on a page of another origin, and a booking once published', async () => {
  expect(new URL(site.url).origin).not.toBe(new URL(sandbox.url).origin);
  const published = await plan();
  const agendaJson = await (await fetch(`${sandbox.url}/widgets/event/${slug}/agenda`)).json();
  const expectedTitles = (agendaJson as { sessions: { title: string }[] }).sessions.map((s) => s.title);

  const page = await openPage(browser, site.url);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  const seen = await readEmbeds(page);
  const shots = await screenshotEmbeds(page, 'embeds');

  // The map: every booth of the published plan drawn, coloured by status, within the 720 px frame.
  expect(seen.frameHeight).toBeGreaterThanOrEqual(720);
  expect(seen.booths.map((b) => [b.id, b.status])).toEqual(published.booths.map((b) => [b.id, b.status]));
  expect(seen.booths.filter((b) => !b.visible)).toEqual([]);
  expect(seen.listRows).toBe(published.booths.length);
  const available = published.booths.find((b) => b.status === 'available');
  if (!available) throw new Error('no available booth to book');
  expect(seen.booths.find((b) => b.id === available.id)?.fill).toBe(AVAILABLE_FILL);

  // The agenda: every session title visible, in the chosen theme and language.
  expect(expectedTitles.length).toBeGreaterThan(0);
  expect(seen.sessionTitles).toEqual(expectedTitles);
  expect(seen.agendaHeading).toBe('Programme — TechWeek Paris 2026');
  expect(seen.agendaLang).toBe('fr');
  expect(seen.agendaBackground).toBe('rgb(20, 24, 33)');

  for (const file of Object.values(shots)) expect(statSync(file).size).toBeGreaterThan(5_000);

  // An exhibitor books the booth in the service; the organizer publishes the plan; a visitor reloads.
  const path = `/_sandbox/events/${eventId}/floor-plans/plan_main`;
  await simulate(sandbox, NORTHWIND, 'POST', `${path}/booths/${available.id}`, { status: 'booked' });
  await simulate(sandbox, NORTHWIND, 'POST', `${path}/publish`);
  await page.reload({ waitUntil: 'load', timeout: 300_000 });
  const after = await readEmbeds(page);
  const booked = after.booths.find((b) => b.id === available.id);
  expect(booked).toEqual({ id: available.id, status: 'booked', fill: BOOKED_FILL, visible: true });
  const afterShots = await screenshotEmbeds(page, 'embeds-booked');
  expect(existsSync(afterShots.map)).toBe(true);
  expect(errors).toEqual([]);
  await page.close();
});
