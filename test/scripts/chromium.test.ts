/**
 * Which Chromium the browser test and `npm start` use: CHROMIUM_PATH, then a system Chromium on PATH, then
 * the one the `@sparticuz/chromium` npm package ships. With no system Chromium in sight (PATH holding none),
 * the npm one is unpacked, whole even when two runs unpack it at once, and really renders a page.
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchChromium } from '../../scripts/browser';
import {
  NPM_CHROMIUM,
  describeChromium,
  findChromium,
  npmChromium,
  systemChromium,
} from '../../scripts/lib/chromium';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'chromium-finder-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const fakeBinary = (folder: string, name: string): string => {
  mkdirSync(folder, { recursive: true });
  const file = path.join(folder, name);
  writeFileSync(file, '#!/bin/sh\nexit 0\n');
  chmodSync(file, 0o755);
  return file;
};

describe('the order: CHROMIUM_PATH, then the system, then npm', () => {
  it('takes CHROMIUM_PATH over a system Chromium on PATH', async () => {
    const system = fakeBinary(path.join(dir, 'usr-bin'), 'chromium');
    const chosen = fakeBinary(path.join(dir, 'opt'), 'chrome');
    const found = await findChromium({ PATH: path.dirname(system), CHROMIUM_PATH: chosen });
    expect(found).toEqual({ executablePath: chosen, source: 'CHROMIUM_PATH' });
  });

  it('takes the first chromium or chromium-browser on PATH when CHROMIUM_PATH is not set', async () => {
    const empty = path.join(dir, 'empty');
    mkdirSync(empty, { recursive: true });
    const browser = fakeBinary(path.join(dir, 'ubuntu-bin'), 'chromium-browser');
    const env = { PATH: [empty, path.dirname(browser)].join(path.delimiter) };
    expect(systemChromium(env)).toBe(browser);
    expect(await findChromium(env)).toEqual({ executablePath: browser, source: 'system' });
  });

  it('passes over a file named chromium that cannot be run', () => {
    const folder = path.join(dir, 'not-executable');
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'chromium'), 'not a program');
    expect(systemChromium({ PATH: folder })).toBeNull();
  });

  it('says what is wrong when CHROMIUM_PATH names nothing runnable, instead of using another browser', async () => {
    const missing = path.join(dir, 'no-such-chrome');
    await expect(findChromium({ PATH: '', CHROMIUM_PATH: missing })).rejects.toThrow(
      `CHROMIUM_PATH names ${missing}, which is not an executable file: point it at a Chromium or Chrome binary, or unset it to use chromium on PATH or the ${NPM_CHROMIUM} one.`,
    );
  });
});

describe('with no system Chromium in sight', () => {
  it("unpacks the npm package's Chromium once, whole, even when two runs unpack at once, and it renders a page", async () => {
    const cache = path.join(dir, 'cache');
    const env = { PATH: path.join(dir, 'empty') };
    const [first, second] = await Promise.all([findChromium(env, cache), findChromium(env, cache)]);
    expect(first.source).toBe('npm');
    expect(second).toEqual(first);
    // One unpacked version, no half-unpacked folder left behind.
    expect(readdirSync(cache)).toEqual([path.basename(path.dirname(first.executablePath))]);
    // Found again without unpacking.
    expect(await npmChromium(cache)).toBe(first.executablePath);

    const browser = await launchChromium(first);
    try {
      expect(describeChromium(first, browser.version())).toMatch(
        new RegExp(`^Chromium ${path.basename(path.dirname(first.executablePath)).split('.')[0]}\\.`),
      );
      const page = await browser.newPage();
      await page.setContent('<h1 style="color: rgb(200, 69, 59)">Northwind</h1>');
      expect(await page.textContent('h1')).toBe('Northwind');
      expect(await page.evaluate(`getComputedStyle(document.querySelector('h1')).color`)).toBe(
        'rgb(200, 69, 59)',
      );
      expect((await page.screenshot()).length).toBeGreaterThan(1_000);
    } finally {
      await browser.close();
    }
  });
});
