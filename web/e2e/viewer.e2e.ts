import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiLogin,
  comparePngs,
  createReadyProject,
  launchWebGlBrowser,
  shareLinkOf,
  waitForTilesLoaded,
} from './projects-helpers.js';
import { e2e, UI_TIMEOUT } from './support.js';

/** Pixels that must change for a scene to count as "points drawn" or "another colouring" (of 1280×800 minus the panel). */
const MIN_CHANGED = 3000;

/**
 * The 3D viewer on software WebGL (SwiftShader): a real project (autzen_trim.las,
 * uploaded and tiled by the real server) opened from its share link; the
 * points must be drawn in each of the four point modes, and differently.
 */
describe('the 3D viewer', () => {
  let browser: Browser;
  let shareLink: string;

  beforeAll(async () => {
    browser = await launchWebGlBrowser();
    const token = await apiLogin();
    const id = await createReadyProject(token, 'Viewer e2e (Autzen)', 'autzen_trim.las');
    shareLink = await shareLinkOf(token, id);
  }, 420_000);

  afterAll(async () => {
    await browser?.close();
  });

  /** Screenshots the scene until `accept` holds for it (Cesium renders when it likes); returns the last one. */
  async function shotUntil(
    page: Page,
    stage: Locator,
    scratch: Page,
    accept: (png: Buffer) => Promise<boolean>,
    what: string,
  ): Promise<Buffer> {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const png = await stage.screenshot();
      if (await accept(png)) return png;
      if (Date.now() > deadline) {
        await page.screenshot({ path: path.join(e2e().screenshotDir, `viewer-failed-${what}.png`) });
        throw new Error(`the scene never showed ${what}`);
      }
      await scratch.waitForTimeout(500);
    }
  }

  it('draws the points in RGB, Class, Intensity and Elevation, each differently', async () => {
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(UI_TIMEOUT);
    const page = await context.newPage();
    const scratch = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(shareLink);
    await waitForTilesLoaded(page);
    const stage = page.locator('.nu-viewer__stage');
    const cloud = page.getByRole('checkbox', { name: 'Point cloud', exact: true });
    const differs =
      (ref: Buffer, min = MIN_CHANGED) =>
      async (png: Buffer) =>
        (await comparePngs(scratch, ref, png)).changed >= min;

    // The scene with the points, then without them (the point cloud unticked in the layer tree).
    const first = await stage.screenshot();
    await cloud.setChecked(false, { force: true });
    const empty = await shotUntil(page, stage, scratch, differs(first), 'the empty scene');
    await cloud.setChecked(true, { force: true });
    const shots: Record<string, Buffer> = {};
    shots.RGB = await shotUntil(page, stage, scratch, differs(empty), 'the points in RGB');
    await page.screenshot({ path: path.join(e2e().screenshotDir, 'viewer-RGB.png') });

    let previous = shots.RGB;
    for (const [mode, label] of [
      ['CLASS', 'Class'],
      ['INTENSITY', 'Intensity'],
      ['ELEVATION', 'Elevation'],
    ] as const) {
      await page.getByRole('radio', { name: label, exact: true }).click();
      shots[mode] = await shotUntil(page, stage, scratch, differs(previous), `the points in ${label} mode`);
      await page.screenshot({ path: path.join(e2e().screenshotDir, `viewer-${mode}.png`) });
      previous = shots[mode];
    }

    // Every mode draws points (differs from the empty scene) and every pair of modes differs.
    const modes = Object.keys(shots);
    expect(modes).toEqual(['RGB', 'CLASS', 'INTENSITY', 'ELEVATION']);
    for (const m of modes) {
      const d = await comparePngs(scratch, empty, shots[m]!);
      expect(d.changed, `${m} against the empty scene`).toBeGreaterThan(MIN_CHANGED);
    }
    for (let i = 0; i < modes.length; i++) {
      for (let j = i + 1; j < modes.length; j++) {
        const d = await comparePngs(scratch, shots[modes[i]!]!, shots[modes[j]!]!);
        expect(d.changed, `${modes[i]} against ${modes[j]}`).toBeGreaterThan(MIN_CHANGED / 2);
      }
    }
    // The legend follows the mode: Elevation shows the project's lowest and highest points.
    await expect(page.getByRole('figure', { name: 'Elevation ramp' }).isVisible()).resolves.toBe(true);

    // The 2D map (MapLibre + deck.gl) draws the same cloud from above.
    await page.getByRole('radio', { name: '2D map', exact: true }).click();
    await page.locator('[data-scene-mode="2d"][data-viewer-state="tiles-loaded"]').waitFor({ timeout: 120_000 });
    const map2d = await shotUntil(page, stage, scratch, differs(empty), 'the points on the 2D map');
    await page.screenshot({ path: path.join(e2e().screenshotDir, 'viewer-2D.png') });
    expect((await comparePngs(scratch, shots.ELEVATION!, map2d)).changed).toBeGreaterThan(MIN_CHANGED);
    expect(errors).toEqual([]);
    await context.close();
  });
});
