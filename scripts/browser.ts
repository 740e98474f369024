/**
 * The embeds in a real browser: headless Chromium (CHROMIUM_PATH, a system one, else the npm package's: see
 * `lib/chromium.ts`), driven by playwright-core, opens a page of another origin
 * (the organizer's own site, served on `localhost` while the sandbox is on `127.0.0.1`) holding the HTML that
 * Generate Embed Code returned, waits for the floor plan and the agenda to render, reads what a visitor sees
 * and saves screenshots. Used by the browser test (`test/e2e/embeds.test.ts`) and `npm start`.
 */
import { mkdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import { createAppTester } from 'zapier-platform-core';
import App from '../index';
import { SEED_TENANTS, sandboxCall, startSandbox } from '../sandbox';
import { functionOf } from './lib/app';
import { describeChromium, findChromium, type FoundChromium } from './lib/chromium';
import { SHOWN_PLAN } from './lib/showcase';
import { paths } from '../src/connect';
import { recordsOf } from '../src/connect/testing';

export const REPORTS_DIR = path.resolve(__dirname, '..', 'reports');

/** Headless Chromium with the flags this machine needs (no sandboxing as root, no background network). */
export const launchChromium = async (found?: FoundChromium): Promise<Browser> => {
  const { executablePath } = found ?? (await findChromium());
  return chromium.launch({
    executablePath,
    headless: true,
    timeout: 120_000,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
};

export interface OrganizerSite {
  /** `http://localhost:<port>/`: another origin than the sandbox's `http://127.0.0.1:<port>`. */
  url: string;
  close(): Promise<void>;
}

/** The organizer's own web page, holding the embed codes pasted as they are. */
export const organizerPage = (title: string, embeds: string[]): string =>
  [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">',
    `<title>${title.replace(/[<&]/g, '')}</title>`,
    '<style>body{margin:0 auto;max-width:1180px;padding:24px;font:16px/1.5 Georgia,serif;color:#222}',
    'h1{font-size:28px}section{margin:32px 0}</style></head><body>',
    `<h1>${title.replace(/[<&]/g, '')}</h1>`,
    '<p>Our own website, with the floor plan and the agenda embedded from the event platform.</p>',
    ...embeds.map((html) => `<section>\n${html}\n</section>`),
    '</body></html>',
  ].join('\n');

export const startOrganizerSite = async (html: string): Promise<OrganizerSite> => {
  const server = http.createServer((req, res) => {
    if (req.url === '/' || req.url?.startsWith('/?')) {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
      res.end(html);
    } else if (req.url === '/favicon.ico') {
      res.writeHead(204).end();
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

export interface Booth {
  id: string;
  status: string;
  fill: string;
  /** Drawn with a size and entirely inside the frame's visible area. */
  visible: boolean;
}

export interface SeenEmbeds {
  frameHeight: number;
  booths: Booth[];
  listRows: number;
  sessionTitles: string[];
  agendaHeading: string;
  agendaBackground: string;
  agendaLang: string;
}

const WAIT = { timeout: 60_000 };

// What a visitor sees, read inside the page. Plain JavaScript text, so that no compiler helper ends up in
// code that runs in the browser.
const READ_BOOTHS = `Array.from(document.querySelectorAll('g.booth')).map((g) => {
  const rect = g.querySelector('rect');
  const box = (rect || g).getBoundingClientRect();
  return {
    id: g.getAttribute('data-booth') || '',
    status: g.getAttribute('data-status') || '',
    fill: rect ? getComputedStyle(rect).fill : '',
    visible: box.width > 0 && box.height > 0 && box.top >= 0 && box.left >= 0 &&
      box.bottom <= window.innerHeight && box.right <= window.innerWidth,
  };
})`;

const READ_AGENDA = `(() => {
  const el = document.querySelector('[data-service="agenda"]');
  const box = el.querySelector('.svc-agenda');
  return {
    sessionTitles: Array.from(el.querySelectorAll('.svc-title'))
      .filter((t) => { const r = t.getBoundingClientRect(); return r.width > 0 && r.height > 0; })
      .map((t) => t.textContent || ''),
    agendaHeading: (el.querySelector('h2') || {}).textContent || '',
    agendaBackground: box ? getComputedStyle(box).backgroundColor : '',
    agendaLang: box ? box.getAttribute('lang') || '' : '',
  };
})()`;

/** The map frame of the page (the iframe whose address is the front application's map). */
export const mapFrame = async (page: Page): Promise<Frame> => {
  const handle = await page.waitForSelector('iframe[src*="/embed/"]', WAIT);
  await handle.scrollIntoViewIfNeeded();
  const frame = await handle.contentFrame();
  if (!frame) throw new Error('the map frame has no document');
  await frame.waitForSelector('g.booth', { ...WAIT, state: 'attached' });
  return frame;
};

/** What a visitor sees of both embeds once they have rendered. */
export const readEmbeds = async (page: Page): Promise<SeenEmbeds> => {
  const frame = await mapFrame(page);
  const frameHeight = (await page.evaluate(
    `document.querySelector('iframe[src*="/embed/"]').getBoundingClientRect().height`,
  )) as number;
  const booths = (await frame.evaluate(READ_BOOTHS)) as Booth[];
  const listRows = (await frame.evaluate(
    `document.querySelectorAll('.list tr[data-booth]').length`,
  )) as number;
  await page.waitForSelector('[data-service="agenda"][data-service-ready="done"]', WAIT);
  const agenda = (await page.evaluate(READ_AGENDA)) as Omit<
    SeenEmbeds,
    'frameHeight' | 'booths' | 'listRows'
  >;
  return { frameHeight, booths, listRows, ...agenda };
};

export interface Screenshots {
  page: string;
  map: string;
  agenda: string;
}

/** Screenshots of the whole page and of each embed, under reports/ with the given prefix. */
export const screenshotEmbeds = async (page: Page, prefix: string): Promise<Screenshots> => {
  mkdirSync(REPORTS_DIR, { recursive: true });
  const shots = {
    page: path.join(REPORTS_DIR, `${prefix}-page.png`),
    map: path.join(REPORTS_DIR, `${prefix}-map.png`),
    agenda: path.join(REPORTS_DIR, `${prefix}-agenda.png`),
  };
  await page.screenshot({ path: shots.page, fullPage: true, timeout: 60_000 });
  await (await page.waitForSelector('iframe[src*="/embed/"]', WAIT)).screenshot({ path: shots.map, ...WAIT });
  await (
    await page.waitForSelector('[data-service="agenda"]', WAIT)
  ).screenshot({ path: shots.agenda, ...WAIT });
  return shots;
};

/** Opens `url` in a fresh page of `browser`, the size of a laptop screen. */
export const openPage = async (browser: Browser, url: string): Promise<Page> => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(60_000);
  await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
  return page;
};

/** What `npm start` shows at its end: the embed codes rendered in a real browser, and where the pictures are. */
export interface EmbedShow {
  shots: Screenshots;
  booths: number;
  sessions: number;
  /** Which Chromium drew them, e.g. "Chromium 153.0.8010.0 (the @sparticuz/chromium package's)". */
  chromium: string;
}

/**
 * Starts its own sandbox, has the app's Generate Embed Code make the map and agenda HTML for TechWeek, puts
 * both on a page of another origin, opens it in headless Chromium and saves screenshots under `prefix`.
 */
export const showEmbeds = async (prefix = 'journey-embeds'): Promise<EmbedShow> => {
  const sandbox = await startSandbox();
  let site: OrganizerSite | undefined;
  let browser: Browser | undefined;
  try {
    const tenant = SEED_TENANTS[0];
    const data = recordsOf<{ id: string; slug: string }>(
      'event',
      await sandboxCall<unknown>(sandbox.url, tenant.apiKey, 'GET', `${paths.events()}?limit=100`),
    );
    const event = data.find((e) => e.slug === SHOWN_PLAN.eventSlug);
    if (!event) throw new Error(`the sandbox has no event ${SHOWN_PLAN.eventSlug}`);
    const authData = {
      apiKey: tenant.apiKey,
      baseUrl: sandbox.url,
      frontUrl: sandbox.url,
      embedUrl: sandbox.url,
    };
    const perform = functionOf('creates', 'generate_embed_code');
    const tester = createAppTester(App);
    // The platform's own log lines (memory figures of each run) stay out of the output.
    const consoleLog = console.log;
    console.log = () => undefined;
    let map: { html: string };
    let agenda: { html: string };
    try {
      map = (await tester(perform, {
        authData,
        inputData: { embedType: 'map', eventId: event.id, planId: SHOWN_PLAN.planId },
      })) as { html: string };
      agenda = (await tester(perform, {
        authData,
        inputData: { embedType: 'agenda', eventId: event.id, theme: 'light', language: 'en' },
      })) as { html: string };
    } finally {
      console.log = consoleLog;
    }
    site = await startOrganizerSite(
      organizerPage(`${tenant.name} — TechWeek Paris`, [map.html, agenda.html]),
    );
    const found = await findChromium();
    browser = await launchChromium(found);
    const page = await openPage(browser, site.url);
    const seen = await readEmbeds(page);
    const shots = await screenshotEmbeds(page, prefix);
    return {
      shots,
      booths: seen.booths.filter((b) => b.visible).length,
      sessions: seen.sessionTitles.length,
      chromium: describeChromium(found, browser.version()),
    };
  } finally {
    await browser?.close();
    await site?.close();
    await sandbox.close();
  }
};
