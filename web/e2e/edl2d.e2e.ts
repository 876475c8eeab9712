import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, createReadyProject, launchWebGlBrowser, shareLinkOf } from './projects-helpers.js';
import { e2e, newContext } from './support.js';

/**
 * Eye-dome lighting on the 2D map: the real
 * `building_WilliamsAZ_Urban_normalized.laz` (464,581 points; Z is the height
 * above ground, so roofs and trees stand out of a flat ground) uploaded and
 * tiled by the real server, opened from its share link in 2D. Turning the
 * display setting on darkens the cloud's pixels at the foot of roofs and
 * trees (measured on screenshots, against the same view without it); a
 * stronger setting darkens more; turning it off gives the first picture back.
 */

function viewerTexts(lang: string) {
  return JSON.parse(readFileSync(new URL(`../public/locales/${lang}/viewer.json`, import.meta.url), 'utf8')) as {
    sceneModes: Record<string, string>;
    display: { edl: { label: string; strength: string } };
  };
}

/**
 * Console errors that are expected, each with the URL it comes from: a share-link visitor has no
 * session (the refresh probe answers 401); the project is tiled, not processed, so it has no DTM
 * and the 3D viewer's terrain probe answers 404 (it then keeps the ellipsoid, dtm-terrain.ts).
 */
const KNOWN_CONSOLE_ERRORS: Array<{ text: RegExp; url: RegExp }> = [
  { text: /status of 401/, url: /\/api\/auth-jwt\/refreshToken$/ },
  { text: /status of 404/, url: /\/api\/assets\/custom-tiler\/terrain-url-from-tiles-url\?/ },
];

/** The 2D map's background (map-viewer.ts). */
const MAP_BACKGROUND: [number, number, number] = [0x1f, 0x29, 0x33];

/** How a shaded picture differs from the flat one over the cloud's pixels (those that are not the map's background in the flat one). */
interface Shading {
  /** Pixels of the cloud. */
  cloud: number;
  /** Mean luminance (0..255) of the cloud's pixels, flat and shaded. */
  flatLuminance: number;
  shadedLuminance: number;
  /** Cloud pixels whose luminance fell by more than 30, and rose by more than 30. */
  darkened: number;
  lightened: number;
  /** Cloud pixels that differ at all (any channel by more than 8). */
  changed: number;
}

/** Compares two screenshots of the same size, decoded by the browser (canvas 2D). */
async function shadingOf(scratch: Page, flat: Buffer, shaded: Buffer): Promise<Shading> {
  return scratch.evaluate(
    async ({ a64, b64, bg }) => {
      async function pixels(b64: string) {
        const img = new Image();
        img.src = `data:image/png;base64,${b64}`;
        await img.decode();
        const canvas = document.createElement('canvas');
        canvas.width = img.width;
        canvas.height = img.height;
        const ctx = canvas.getContext('2d')!;
        ctx.drawImage(img, 0, 0);
        return ctx.getImageData(0, 0, img.width, img.height).data;
      }
      const [a, b] = await Promise.all([pixels(a64), pixels(b64)]);
      const lum = (d: Uint8ClampedArray, i: number) => 0.2126 * d[i]! + 0.7152 * d[i + 1]! + 0.0722 * d[i + 2]!;
      let cloud = 0;
      let sumA = 0;
      let sumB = 0;
      let darkened = 0;
      let lightened = 0;
      let changed = 0;
      for (let i = 0; i < a.length; i += 4) {
        const fromBg = Math.max(Math.abs(a[i]! - bg[0]), Math.abs(a[i + 1]! - bg[1]), Math.abs(a[i + 2]! - bg[2]));
        if (fromBg <= 6) continue;
        cloud++;
        const la = lum(a, i);
        const lb = lum(b, i);
        sumA += la;
        sumB += lb;
        if (lb < la - 30) darkened++;
        if (lb > la + 30) lightened++;
        if (Math.max(Math.abs(a[i]! - b[i]!), Math.abs(a[i + 1]! - b[i + 1]!), Math.abs(a[i + 2]! - b[i + 2]!)) > 8)
          changed++;
      }
      return {
        cloud,
        flatLuminance: cloud ? sumA / cloud : 0,
        shadedLuminance: cloud ? sumB / cloud : 0,
        darkened,
        lightened,
        changed,
      };
    },
    { a64: flat.toString('base64'), b64: shaded.toString('base64'), bg: MAP_BACKGROUND },
  );
}

describe('eye-dome lighting on the 2D map', () => {
  let browser: Browser;
  let shareLink: string;

  beforeAll(async () => {
    browser = await launchWebGlBrowser();
    const token = await apiLogin();
    const id = await createReadyProject(token, 'EDL 2D e2e (WilliamsAZ)', 'building_WilliamsAZ_Urban_normalized.laz');
    shareLink = await shareLinkOf(token, id);
  }, 420_000);

  afterAll(async () => {
    await browser?.close();
  });

  /** The scene as a clip of the page (a frame may take SwiftShader seconds on a busy machine). */
  async function shotOf(page: Page): Promise<Buffer> {
    return page.screenshot({ clip: (await page.locator('.nu-viewer__stage').boundingBox())!, timeout: 90_000 });
  }

  /**
   * Frames per second of the page while the map pans (arrow keys, back and
   * forth, for `ms`): how much a frame costs, relative between two settings
   * of the same run.
   */
  async function framesPerSecondPanning(page: Page, ms = 4000): Promise<number> {
    await page.locator('.maplibregl-canvas').focus();
    await page.evaluate(() => {
      const w = window as unknown as { nuFrames: number; nuCounting: boolean };
      w.nuFrames = 0;
      w.nuCounting = true;
      const tick = () => {
        if (!w.nuCounting) return;
        w.nuFrames++;
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    const started = Date.now();
    for (let i = 0; Date.now() - started < ms; i++) {
      await page.keyboard.press(i % 2 === 0 ? 'ArrowRight' : 'ArrowLeft');
      await page.waitForTimeout(250);
    }
    const frames = await page.evaluate(() => {
      const w = window as unknown as { nuFrames: number; nuCounting: boolean };
      w.nuCounting = false;
      return w.nuFrames;
    });
    return (frames * 1000) / (Date.now() - started);
  }

  /** Screenshots the scene until `accept` holds (deck.gl draws when it likes); returns the last one. */
  async function shotUntil(page: Page, accept: (png: Buffer) => Promise<boolean>, what: string): Promise<Buffer> {
    const deadline = Date.now() + 90_000;
    for (;;) {
      const png = await shotOf(page);
      if (await accept(png)) return png;
      if (Date.now() > deadline) {
        await page.screenshot({
          path: path.join(e2e().screenshotDir, `edl2d-failed-${what.replace(/\W+/g, '-')}.png`),
        });
        throw new Error(`the map never showed ${what}`);
      }
      await page.waitForTimeout(500);
    }
  }

  it('shades the cloud from the points’ heights when turned on, more with a stronger setting, and not once off', async () => {
    const texts = viewerTexts('en-US');
    const context = await newContext(browser, 'en-US');
    const page = await context.newPage();
    const scratch = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    page.on('console', (m) => {
      const url = m.location().url ?? '';
      if (m.type() === 'error' && !KNOWN_CONSOLE_ERRORS.some((k) => k.text.test(m.text()) && k.url.test(url)))
        errors.push(`console: ${m.text()} (${url})`);
    });
    await page.goto(shareLink);
    await page.locator('[data-viewer-state="tiles-loaded"]').waitFor({ timeout: 240_000 });
    await page.getByRole('radio', { name: texts.sceneModes['2d'], exact: true }).click();
    await page.locator('[data-scene-mode="2d"][data-viewer-state="tiles-loaded"]').waitFor({ timeout: 120_000 });
    // The mode button keeps no focus ring over the map (the pictures are compared pixel by pixel).
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.mouse.move(150, 780);

    // The flat picture: the cloud drawn and still (two screenshots alike).
    let previous = await shotOf(page);
    const flat = await shotUntil(
      page,
      async (png) => {
        const s = await shadingOf(scratch, previous, png);
        previous = png;
        return s.cloud > 50_000 && s.changed < 50;
      },
      'the cloud, still',
    );
    await page.screenshot({ path: path.join(e2e().screenshotDir, 'edl2d-off.png') });

    // On: the cloud's pixels darken at the foot of roofs and trees, none lightens.
    const edl = page.getByRole('checkbox', { name: texts.display.edl.label });
    await edl.check({ force: true });
    const shaded = await shotUntil(
      page,
      async (png) => (await shadingOf(scratch, flat, png)).darkened > 2000,
      'the eye-dome shading',
    );
    await page.waitForTimeout(1000);
    const on = await shadingOf(scratch, flat, await shotOf(page));
    await page.screenshot({ path: path.join(e2e().screenshotDir, 'edl2d-on.png') });
    console.info(`2D eye-dome lighting on (strength 1, radius 1): ${JSON.stringify(on)}`);
    expect(on.darkened / on.cloud).toBeGreaterThan(0.03);
    expect(on.lightened).toBeLessThan(on.cloud * 0.002);
    expect(on.shadedLuminance).toBeLessThan(on.flatLuminance * 0.97);
    expect((await shadingOf(scratch, flat, shaded)).darkened).toBeGreaterThan(2000);

    // Stronger (1 → 3, twenty steps of 0.1): darker still.
    const strength = page.getByRole('slider', { name: texts.display.edl.strength });
    await strength.focus();
    for (let i = 0; i < 20; i++) {
      await page.keyboard.press('ArrowRight');
      await page.waitForTimeout(100);
    }
    await page.waitForFunction(
      () => Number(document.querySelector('.nu-viewer__edl [role="slider"]')?.getAttribute('aria-valuenow')) > 2.95,
    );
    const stronger = await shotUntil(
      page,
      async (png) => (await shadingOf(scratch, flat, png)).darkened > on.darkened * 1.2,
      'a stronger shading',
    );
    await page.waitForTimeout(1000);
    const strong = await shadingOf(scratch, flat, await shotOf(page));
    await page.screenshot({ path: path.join(e2e().screenshotDir, 'edl2d-stronger.png') });
    console.info(`2D eye-dome lighting stronger (strength 3): ${JSON.stringify(strong)}`);
    expect(strong.shadedLuminance).toBeLessThan(on.shadedLuminance - 2);
    expect((await shadingOf(scratch, flat, stronger)).darkened).toBeGreaterThan(on.darkened);

    // Off: the flat picture again.
    await edl.uncheck({ force: true });
    const restored = await shotUntil(
      page,
      async (png) => (await shadingOf(scratch, flat, png)).darkened < 50,
      'the flat picture again',
    );
    const off = await shadingOf(scratch, flat, restored);
    await page.screenshot({ path: path.join(e2e().screenshotDir, 'edl2d-off-again.png') });
    console.info(`2D eye-dome lighting off again: ${JSON.stringify(off)}`);
    expect(off.changed).toBeLessThan(off.cloud * 0.002);
    expect(Math.abs(off.shadedLuminance - off.flatLuminance)).toBeLessThan(0.5);

    // What a frame costs with it (figures for the note; SwiftShader on a shared machine is noisy).
    const fpsOff = await framesPerSecondPanning(page);
    await edl.check({ force: true });
    await shotUntil(page, async (png) => (await shadingOf(scratch, flat, png)).darkened > 2000, 'the shading again');
    const fpsOn = await framesPerSecondPanning(page);
    console.info(
      `2D frames per second while panning: ${fpsOff.toFixed(1)} without, ${fpsOn.toFixed(1)} with eye-dome lighting`,
    );
    expect(fpsOff).toBeGreaterThan(0);
    expect(fpsOn).toBeGreaterThan(0);
    await edl.uncheck({ force: true });
    expect(errors).toEqual([]);
    await context.close();
  }, 600_000);
});
