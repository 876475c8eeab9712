import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VECTOR_STYLES } from '../src/features/viewer/viewer-scene.js';
import {
  apiLogin,
  comparePngs,
  createReadyProject,
  launchWebGlBrowser,
  pixelsOfColour,
  processProject,
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

/** The viewer's texts in a language (web/public/locales/<lang>/viewer.json). */
function viewerTexts(lang: string) {
  return JSON.parse(readFileSync(new URL(`../public/locales/${lang}/viewer.json`, import.meta.url), 'utf8')) as {
    sceneModes: Record<string, string>;
    attributes: Record<string, string>;
    inspector: { title: string };
    actions: { close: string };
  };
}

/** The error messages of a language (web/public/locales/<lang>/errors.json). */
function errorTexts(lang: string): Record<string, string> {
  return JSON.parse(readFileSync(new URL(`../public/locales/${lang}/errors.json`, import.meta.url), 'utf8'));
}

function rgbOf(css: string): [number, number, number] {
  const v = Number.parseInt(css.slice(1), 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

const TOP_COLOUR = rgbOf(VECTOR_STYLES.TREE_TOPS!.color);
const CROWN_COLOUR = rgbOf(VECTOR_STYLES.TREE_CROWNS!.color);

/** The densest 8-pixel cell of `pixels` (the middle of a drawn dot), as its centroid. */
function densest(pixels: Array<[number, number]>): [number, number] {
  const cells = new Map<string, Array<[number, number]>>();
  for (const p of pixels) {
    const key = `${Math.floor(p[0] / 8)}:${Math.floor(p[1] / 8)}`;
    cells.set(key, [...(cells.get(key) ?? []), p]);
  }
  const best = [...cells.values()].sort((a, b) => b.length - a.length)[0]!;
  return [
    Math.round(best.reduce((s, p) => s + p[0], 0) / best.length),
    Math.round(best.reduce((s, p) => s + p[1], 0) / best.length),
  ];
}

/**
 * Forestry products on the viewer: MixedConifer.laz (37,657 points) uploaded,
 * tiled and processed by the real server (every product of the registry),
 * then opened from its share link in English and in French. Every layer is
 * ticked and unticked three times in 3D and in 2D without an error page (a
 * contour layer unticked used to destroy one Cesium material twice); tree
 * tops show with their height labels, a click on one shows its attributes,
 * and the 2D map draws the crowns.
 */
describe('forestry layers in the viewer', () => {
  let browser: Browser;
  let shareLink: string;
  let topsUrl: string;
  let token: string;

  beforeAll(async () => {
    browser = await launchWebGlBrowser();
    token = await apiLogin();
    const id = await createReadyProject(token, 'Viewer e2e (MixedConifer)', 'MixedConifer.laz');
    const project = await processProject(token, id);
    const tops = project.layers?.flatMap((l) => l.assets).find((a) => a.type === 'TREE_TOPS');
    expect(tops?.status).toBe('READY');
    const failed = project.layers?.flatMap((l) => l.assets).filter((a) => a.status !== 'READY');
    if (failed?.length) console.info('products not READY:', JSON.stringify(failed));
    topsUrl = `${e2e().baseUrl}/ogc/collections/${tops!.id}/items?limit=10000`;
    shareLink = await shareLinkOf(token, id);
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
  });

  /** The height of a tree top as the OGC API serves it. */
  async function heightOfTree(treeId: number): Promise<number> {
    const res = await fetch(topsUrl, { headers: { Authorization: `Bearer ${token}` } });
    const body = (await res.json()) as { features: Array<{ properties: { treeId: number; height: number } }> };
    const tree = body.features.find((f) => f.properties.treeId === treeId);
    if (!tree) throw new Error(`no tree ${treeId} in ${topsUrl}`);
    return tree.properties.height;
  }

  /** The page still shows the viewer (no error page of the router), and nothing was thrown. */
  async function expectNoErrorPage(page: Page, errors: string[], what: string): Promise<void> {
    expect(errors, what).toEqual([]);
    await expect(page.locator('.nu-viewer__stage').count(), what).resolves.toBe(1);
    await expect(page.getByText('This object was destroyed').count(), what).resolves.toBe(0);
  }

  /**
   * Ticks and unticks every tickable layer `times` times (once at once, then
   * giving the layer time to load and draw), back to how it was; returns the
   * asset types toggled.
   */
  async function toggleEveryLayer(page: Page, errors: string[], mode: string, times = 3): Promise<string[]> {
    const rows = page.locator('.nu-layer-tree__asset');
    const toggled: string[] = [];
    for (let i = 0; i < (await rows.count()); i++) {
      const row = rows.nth(i);
      const box = row.locator('input[type="checkbox"]');
      if ((await box.count()) === 0 || (await box.isDisabled())) continue;
      const type = (await row.getAttribute('data-asset-type')) ?? `row ${i}`;
      const initial = await box.isChecked();
      for (let k = 0; k < times; k++) {
        const settle = k === 0 ? 0 : 1200;
        await box.setChecked(!initial, { force: true });
        await page.waitForTimeout(initial ? 150 : settle);
        await box.setChecked(initial, { force: true });
        await page.waitForTimeout(initial ? settle : 150);
      }
      await expectNoErrorPage(page, errors, `${mode}: ${type} ticked and unticked ${times} times`);
      toggled.push(type);
    }
    return toggled;
  }

  /** Rows of layers the viewer could not load (failed products aside): their type and message. */
  async function layersInWarning(page: Page): Promise<string[]> {
    return page
      .locator('.nu-layer-tree__asset[data-warning]:not([data-asset-status="ERROR"])')
      .evaluateAll((rows) => rows.map((r) => `${r.getAttribute('data-asset-type')}: ${r.textContent}`));
  }

  /** Screenshots the scene until `accept` holds for it; returns the last one. */
  async function shotUntil(page: Page, accept: (png: Buffer) => Promise<boolean>, what: string): Promise<Buffer> {
    const stage = page.locator('.nu-viewer__stage');
    const deadline = Date.now() + 90_000;
    for (;;) {
      const png = await stage.screenshot();
      if (await accept(png)) return png;
      if (Date.now() > deadline) {
        await page.screenshot({ path: path.join(e2e().screenshotDir, `forest-failed-${what}.png`) });
        throw new Error(`the scene never showed ${what}`);
      }
      await page.waitForTimeout(500);
    }
  }

  for (const lang of ['en-US', 'fr'] as const) {
    it(`toggles every layer, labels and inspects tree tops in 3D, draws crowns in 2D (${lang})`, async () => {
      const texts = viewerTexts(lang);
      const tag = lang === 'fr' ? 'fr' : 'en';
      const context = await browser.newContext({ locale: lang, viewport: { width: 1280, height: 800 } });
      context.setDefaultTimeout(UI_TIMEOUT);
      const page = await context.newPage();
      const scratch = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(err.message));
      await page.goto(shareLink);
      await waitForTilesLoaded(page);
      const stage = page.locator('.nu-viewer__stage');
      const row = (type: string) => page.locator(`.nu-layer-tree__asset[data-asset-type="${type}"]`);
      const tick = (type: string, on = true) =>
        row(type).locator('input[type="checkbox"]').setChecked(on, { force: true });

      // 3D: every layer ticked and unticked three times, the page still there, no layer in warning.
      const toggled3d = await toggleEveryLayer(page, errors, '3D');
      expect(toggled3d).toEqual(
        expect.arrayContaining(['POINT_CLOUD', 'CONTOUR_LINE', 'TREE_TOPS', 'TREE_CROWNS', 'CHM', 'DSM']),
      );
      await expect(layersInWarning(page), 'layers in warning after the 3D toggles').resolves.toEqual([]);

      // Tree tops with their height labels.
      const before = await stage.screenshot();
      await tick('TREE_TOPS');
      const tops = await shotUntil(
        page,
        async (png) => (await pixelsOfColour(scratch, png, TOP_COLOUR, 10)).length > 200,
        'the tree tops',
      );
      expect((await comparePngs(scratch, before, tops)).changed).toBeGreaterThan(1000);
      await page.screenshot({ path: path.join(e2e().screenshotDir, `forest-3d-tops-${tag}.png`) });

      // A click on a tree top shows its attributes: its height as the API has it, in metres to 2 decimals.
      const [x, y] = densest(await pixelsOfColour(scratch, tops, TOP_COLOUR, 10));
      const box = (await stage.boundingBox())!;
      await page.mouse.click(box.x + x, box.y + y);
      const inspector = page.getByRole('region', { name: texts.inspector.title });
      await inspector.waitFor();
      const treeId = Number(await inspector.locator('tr[data-attribute="treeId"] td').textContent());
      expect(await inspector.locator('tr[data-attribute="treeId"] th').textContent()).toBe(texts.attributes.treeId);
      expect(await inspector.locator('tr[data-attribute="height"] th').textContent()).toBe(texts.attributes.height);
      const height = await heightOfTree(treeId);
      const shown = await inspector.locator('tr[data-attribute="height"] td').textContent();
      const expected = `${height.toFixed(2)} m`;
      expect(shown).toBe(lang === 'fr' ? expected.replace('.', ',') : expected);
      await page.screenshot({ path: path.join(e2e().screenshotDir, `forest-3d-inspect-${tag}.png`) });
      await page.keyboard.press('Escape');
      await inspector.waitFor({ state: 'detached' });

      // Crowns in 3D, around and under the tops.
      await tick('TREE_CROWNS');
      await shotUntil(
        page,
        async (png) => (await pixelsOfColour(scratch, png, CROWN_COLOUR, 10)).length > 300,
        'the crowns in 3D',
      );
      await page.screenshot({ path: path.join(e2e().screenshotDir, `forest-3d-crowns-${tag}.png`) });

      // 2D: the crowns and tops on the map; a click inside a crown shows its area, the close button hides it.
      await page.getByRole('radio', { name: texts.sceneModes['2d'], exact: true }).click();
      await page.locator('[data-scene-mode="2d"][data-viewer-state="tiles-loaded"]').waitFor({ timeout: 120_000 });
      const map = await shotUntil(
        page,
        async (png) =>
          (await pixelsOfColour(scratch, png, CROWN_COLOUR, 10)).length > 500 &&
          (await pixelsOfColour(scratch, png, TOP_COLOUR, 10)).length > 200,
        'the crowns and tops on the 2D map',
      );
      await page.screenshot({ path: path.join(e2e().screenshotDir, `forest-2d-crowns-${tag}.png`) });
      const [tx, ty] = densest(await pixelsOfColour(scratch, map, TOP_COLOUR, 10));
      const mapBox = (await stage.boundingBox())!;
      // Below a top (labels are above it), off its dot but inside its crown.
      await page.mouse.click(mapBox.x + tx, mapBox.y + ty + 9);
      await inspector.waitFor();
      expect(await inspector.locator('tr[data-attribute="crownArea"] th').textContent()).toBe(
        texts.attributes.crownArea,
      );
      expect(await inspector.locator('tr[data-attribute="crownArea"] td').textContent()).toMatch(/^\d+[.,]\d m²$/);
      await page.screenshot({ path: path.join(e2e().screenshotDir, `forest-2d-inspect-${tag}.png`) });
      await inspector.getByRole('button', { name: texts.actions.close }).click();
      await inspector.waitFor({ state: 'detached' });

      // 2D: every layer ticked and unticked three times.
      const toggled2d = await toggleEveryLayer(page, errors, '2D');
      expect(toggled2d).toEqual(toggled3d);
      await expect(layersInWarning(page), 'layers in warning after the 2D toggles').resolves.toEqual([]);
      await expectNoErrorPage(page, errors, 'the end');

      // Failed products (simulated: the server's answer is changed on its way) are listed, cannot be
      // ticked, and show a warning with their reason: the translated error code, else the server's message.
      const failing = await context.newPage();
      failing.on('pageerror', (err) => errors.push(err.message));
      await failing.route('**/api/projects/from-share-token**', async (route) => {
        const res = await route.fetch();
        const body = (await res.json()) as { layers: Array<{ assets: Array<Record<string, unknown>> }> };
        for (const a of body.layers.flatMap((l) => l.assets)) {
          if (a.type === 'DSM') {
            Object.assign(a, { status: 'ERROR', accessUrl: null, errorCode: 'DEPENDENCY_FAILED', errorMessage: 'x' });
          }
          if (a.type === 'QUALITY_REPORT') {
            Object.assign(a, { status: 'ERROR', errorCode: 'NOT_A_CODE_WE_KNOW', errorMessage: 'the disk is full' });
          }
        }
        await route.fulfill({ response: res, json: body });
      });
      await failing.goto(shareLink);
      const dsm = failing.locator('.nu-layer-tree__asset[data-asset-type="DSM"]');
      await dsm.waitFor();
      expect(await dsm.getAttribute('data-asset-status')).toBe('ERROR');
      expect(await dsm.locator('input[type="checkbox"]').isDisabled()).toBe(true);
      expect(await dsm.locator('input[type="checkbox"]').isChecked()).toBe(false);
      await expect(dsm.locator('.nu-layer-tree__warning').count()).resolves.toBe(1);
      expect(await dsm.locator('.nu-layer-tree__reason').textContent()).toBe(errorTexts(lang).DEPENDENCY_FAILED);
      const quality = failing.locator('.nu-layer-tree__asset[data-asset-type="QUALITY_REPORT"]');
      await expect(quality.locator('.nu-layer-tree__warning').count()).resolves.toBe(1);
      expect(await quality.locator('.nu-layer-tree__reason').textContent()).toBe('the disk is full');
      await failing.locator('.nu-viewer__panel').screenshot({
        path: path.join(e2e().screenshotDir, `forest-failed-products-${tag}.png`),
      });
      expect(errors).toEqual([]);
      await context.close();
    }, 600_000);
  }
});
