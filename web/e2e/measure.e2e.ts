import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createTransformer } from '@nuage/engine/crs/index.js';
import { openPointCloud } from '@nuage/engine/readers/index.js';
import { globeEcefTransform } from '@nuage/engine/tiler/geoid-ecef.js';
import { realFile } from '@nuage/fixtures/real-data.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ecefToGeodetic } from '../src/viewer/glb-points.js';
import type { PickedPosition } from '../src/viewer/measure/measure.types.js';
import {
  apiLogin,
  createReadyProject,
  launchWebGlBrowser,
  processProject,
  shareLinkOf,
  waitForTilesLoaded,
} from './projects-helpers.js';
import { e2e, UI_TIMEOUT } from './support.js';

/** A point of the file: its coordinates in the file (EPSG:26912, metres) and where the tiles put it. */
interface KnownPoint {
  x: number;
  y: number;
  z: number;
  classification: number;
  /** The position a click on it picks: the tiler's own transform (geoid included) to the globe. */
  picked: PickedPosition;
}

function measureTexts(lang: string) {
  return JSON.parse(readFileSync(new URL(`../public/locales/${lang}/viewer.json`, import.meta.url), 'utf8'))
    .measure as {
    tools: Record<string, string>;
    results: string;
    profile: { chart: string };
  };
}

/**
 * The measurement tools on a real project: MixedConifer.laz (EPSG:26912,
 * metres, NAVD88-like orthometric heights) uploaded, tiled and processed
 * (classified cloud and DTM) by the real server, opened from its share link.
 *
 * A click in the 3D scene on SwiftShader picks the depth of the pixel under
 * it, which cannot land on one exact LAS point; so the distance between two
 * known points of the file is measured by handing the tool the positions a
 * click on each point returns (the test hook `window.__nuageMeasure.pick`,
 * with the point's position computed by the tiler's own transform), and the
 * result must match the file's coordinates within 1 cm. Real clicks are
 * checked separately: a click on the cloud picks a position on it (3D depth
 * picking, and the nearest loaded point in 2D).
 */
describe('measurement tools', () => {
  let browser: Browser;
  let shareLink: string;
  let top: KnownPoint;
  let ground: KnownPoint;
  let bounds: { minX: number; maxX: number; minY: number; maxY: number; minZ: number; maxZ: number };

  beforeAll(async () => {
    browser = await launchWebGlBrowser();
    const token = await apiLogin();
    const id = await createReadyProject(token, 'Measure e2e (MixedConifer)', 'MixedConifer.laz');
    const project = await processProject(token, id, { products: ['classify', 'dtm'] });
    const dtm = project.layers?.flatMap((l) => l.assets).find((a) => a.type === 'DTM');
    expect(dtm?.status).toBe('READY');
    shareLink = await shareLinkOf(token, id);

    // Two known points of the file: its highest point (a tree top) and the ground point farthest from it.
    const reader = await openPointCloud(realFile('MixedConifer.laz'));
    const crs = reader.crs!;
    const all: Array<{ x: number; y: number; z: number; c: number }> = [];
    for await (const chunk of reader.read()) {
      for (let i = 0; i < chunk.count; i++) {
        all.push({ x: chunk.x[i]!, y: chunk.y[i]!, z: chunk.z[i]!, c: chunk.classification![i]! });
      }
    }
    await reader.close();
    const h = reader.header;
    bounds = { minX: h.min[0], maxX: h.max[0], minY: h.min[1], maxY: h.max[1], minZ: h.min[2], maxZ: h.max[2] };
    const highest = all.reduce((a, b) => (b.z > a.z ? b : a));
    const farGround = all
      .filter((p) => p.c === 2)
      .reduce((a, b) =>
        Math.hypot(b.x - highest.x, b.y - highest.y) > Math.hypot(a.x - highest.x, a.y - highest.y) ? b : a,
      );
    const toGlobe = globeEcefTransform(crs, createTransformer);
    const known = (p: { x: number; y: number; z: number; c: number }): KnownPoint => {
      const x = new Float64Array([p.x]);
      const y = new Float64Array([p.y]);
      const z = new Float64Array([p.z]);
      toGlobe.forward(x, y, z, 1);
      const [lon, lat, height] = ecefToGeodetic(x[0]!, y[0]!, z[0]!);
      return { x: p.x, y: p.y, z: p.z, classification: p.c, picked: { lon, lat, height, source: 'cloud' } };
    };
    top = known(highest);
    ground = known(farGround);
  }, 900_000);

  afterAll(async () => {
    await browser?.close();
  });

  /** Hands the tool the position a click would pick. */
  async function pick(page: Page, p: PickedPosition): Promise<void> {
    await page.evaluate(async (position) => {
      const hook = window.__nuageMeasure;
      if (!hook) throw new Error('the measure tools are not on the page');
      await hook.pick(position);
    }, p);
  }

  /** The tool reaches the scene a moment after its button: the scene shows a crosshair cursor once clicks measure. */
  async function waitArmed(page: Page): Promise<void> {
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('.nu-viewer__stage *')].some(
          (e) => (e as HTMLElement).style?.cursor === 'crosshair',
        ),
      undefined,
      { timeout: 30_000 },
    );
  }

  /** The raw value of a result row of the last card of a kind. */
  async function resultOf(page: Page, kind: string, key: string): Promise<number> {
    const row = page
      .locator(`[data-measure-kind="${kind}"][data-draft="false"]`)
      .last()
      .locator(`[data-measure-value="${key}"]`);
    await row.waitFor();
    return Number(await row.getAttribute('data-value'));
  }

  async function openViewer(
    lang: 'en-US' | 'fr',
  ): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
    const context = await browser.newContext({ locale: lang, viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(UI_TIMEOUT);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(shareLink);
    await waitForTilesLoaded(page);
    return { page, errors, close: () => context.close() };
  }

  it('measures a distance between two known points of the file within 1 cm, heights above the DTM, a profile; Esc cancels (en)', async () => {
    const { page, errors, close } = await openViewer('en-US');
    const texts = measureTexts('en-US');
    const tools = page.getByRole('toolbar', { name: 'Measure' });
    const button = (tool: string) => page.getByRole('button', { name: texts.tools[tool], exact: true });
    await tools.waitFor();

    // A real click on the cloud (the middle of the scene, where the home view puts it) picks a point of it.
    await button('coordinates').click();
    await waitArmed(page);
    const stage = page.locator('.nu-viewer__stage');
    const box = (await stage.boundingBox())!;
    // Points have gaps between them: pixels around the middle are tried until one is on a point.
    let onCloud = false;
    for (let k = 0; k < 12 && !onCloud; k++) {
      const before = await page.locator('[data-measure-kind="coordinates"]').count();
      const angle = k * 2.4;
      const r = k * 6;
      await page.mouse.click(box.x + box.width / 2 + r * Math.cos(angle), box.y + box.height / 2 + r * Math.sin(angle));
      try {
        await expect
          .poll(() => page.locator('[data-measure-kind="coordinates"]').count(), { timeout: 20_000 })
          .toBe(before + 1);
      } catch (err) {
        const panel = await page
          .locator('[data-testid="measure-panel"]')
          .textContent()
          .catch(() => 'no panel');
        await page.screenshot({ path: path.join(e2e().screenshotDir, 'measure-failed-click.png') });
        throw new Error(`a click in the scene gave no position; the panel says: ${panel}`, { cause: err });
      }
      onCloud =
        (await page.locator('[data-measure-kind="coordinates"]').last().getAttribute('data-pick-source')) === 'cloud';
    }
    expect(onCloud, 'a click on the middle of the scene picks a point of the cloud').toBe(true);
    const x = await resultOf(page, 'coordinates', 'x');
    const y = await resultOf(page, 'coordinates', 'y');
    const z = await resultOf(page, 'coordinates', 'z');
    expect(x).toBeGreaterThan(bounds.minX - 1);
    expect(x).toBeLessThan(bounds.maxX + 1);
    expect(y).toBeGreaterThan(bounds.minY - 1);
    expect(y).toBeLessThan(bounds.maxY + 1);
    expect(z).toBeGreaterThan(bounds.minZ - 0.3);
    expect(z).toBeLessThan(bounds.maxZ + 0.3);
    await expect(page.locator('[data-measure-value="crs"] td').last().textContent()).resolves.toBe('EPSG:26912');

    // Esc leaves the tool.
    await page.keyboard.press('Escape');
    await expect(page.locator('[data-measure-tool=""]').count()).resolves.toBe(1);

    // The distance between the two known points, against their coordinates in the file.
    await button('distance').click();
    await pick(page, top.picked);
    await pick(page, ground.picked);
    await page.keyboard.press('Enter');
    const horizontal = Math.hypot(top.x - ground.x, top.y - ground.y);
    const vertical = ground.z - top.z;
    const d3 = Math.hypot(horizontal, vertical);
    const measured = {
      d3: await resultOf(page, 'distance', 'distance3d'),
      horizontal: await resultOf(page, 'distance', 'horizontal'),
      vertical: await resultOf(page, 'distance', 'vertical'),
    };
    console.info('distance between the known points', { expected: { d3, horizontal, vertical }, measured });
    expect(Math.abs(measured.d3 - d3)).toBeLessThan(0.01);
    expect(Math.abs(measured.horizontal - horizontal)).toBeLessThan(0.01);
    expect(Math.abs(measured.vertical - vertical)).toBeLessThan(0.01);

    // Esc cancels the measure being drawn: its first vertex goes, and the tool with it.
    await pick(page, top.picked);
    await page.locator('[data-measure-kind="distance"][data-draft="true"]').waitFor();
    await page.keyboard.press('Escape');
    await expect(page.locator('[data-measure-kind="distance"][data-draft="true"]').count()).resolves.toBe(0);
    await expect(page.locator('[data-measure-tool=""]').count()).resolves.toBe(1);
    await expect(page.locator('[data-measure-kind="distance"]').count()).resolves.toBe(1);

    // Height above ground of the tree top: its Z minus the DTM there.
    await button('height').click();
    await pick(page, top.picked);
    const pointZ = await resultOf(page, 'height', 'pointZ');
    const groundZ = await resultOf(page, 'height', 'groundZ');
    const hag = await resultOf(page, 'height', 'heightAboveGround');
    expect(Math.abs(pointZ - top.z)).toBeLessThan(0.01);
    expect(groundZ).toBeGreaterThan(bounds.minZ - 1);
    expect(groundZ).toBeLessThan(top.z - 2);
    expect(hag).toBeCloseTo(pointZ - groundZ, 6);
    await page.keyboard.press('Escape');

    // The elevation profile between the two points: the chart of the points in a 2 m corridor.
    await button('profile').click();
    await pick(page, top.picked);
    await pick(page, ground.picked);
    const profile = page.locator('[data-profile-status="ready"]');
    await profile.waitFor({ timeout: 120_000 });
    const count = Number(await profile.getAttribute('data-point-count'));
    console.info('profile points in the corridor', count);
    expect(count).toBeGreaterThan(0);
    await page.getByRole('figure', { name: texts.profile.chart }).locator('.recharts-surface').waitFor();
    await expect(page.locator('.recharts-surface circle').count()).resolves.toBeGreaterThan(0);
    await page.keyboard.press('Escape');
    await page.waitForTimeout(1500);
    await page.screenshot({ path: path.join(e2e().screenshotDir, 'measure-3d-en.png') });

    // 2D: the measures are drawn on the map; a click takes the nearest loaded point.
    await page.getByRole('radio', { name: '2D map', exact: true }).click();
    await page.locator('[data-scene-mode="2d"][data-viewer-state="tiles-loaded"]').waitFor({ timeout: 120_000 });
    await button('coordinates').click();
    await waitArmed(page);
    const box2 = (await stage.boundingBox())!;
    const before2d = await page.locator('[data-measure-kind="coordinates"]').count();
    await page.mouse.click(box2.x + box2.width / 2, box2.y + box2.height / 2);
    await expect
      .poll(async () => page.locator('[data-measure-kind="coordinates"]').count(), { timeout: 30_000 })
      .toBe(before2d + 1);
    const z2 = await resultOf(page, 'coordinates', 'z');
    expect(z2).toBeGreaterThan(bounds.minZ - 0.3);
    expect(z2).toBeLessThan(bounds.maxZ + 0.3);
    await page.keyboard.press('Escape');
    await page.waitForTimeout(1500);
    await page.screenshot({ path: path.join(e2e().screenshotDir, 'measure-2d-en.png') });

    // Clear all empties the panel.
    await page.getByRole('button', { name: 'Clear all measurements' }).click();
    await expect(page.locator('[data-measure-kind]').count()).resolves.toBe(0);
    expect(errors).toEqual([]);
    await close();
  });

  it('measures and draws a profile in French', async () => {
    const { page, errors, close } = await openViewer('fr');
    const texts = measureTexts('fr');
    const button = (tool: string) => page.getByRole('button', { name: texts.tools[tool], exact: true });
    await button('distance').click();
    await pick(page, top.picked);
    await pick(page, ground.picked);
    await page.keyboard.press('Enter');
    const d3 = Math.hypot(top.x - ground.x, top.y - ground.y, top.z - ground.z);
    expect(Math.abs((await resultOf(page, 'distance', 'distance3d')) - d3)).toBeLessThan(0.01);
    // French numbers in the panel: a decimal comma.
    const text = await page
      .locator('[data-measure-kind="distance"] [data-measure-value="distance3d"] td')
      .textContent();
    expect(text).toMatch(/^\d[\d\s\u202f]*,\d\d m$/);
    await button('profile').click();
    await pick(page, top.picked);
    await pick(page, ground.picked);
    await page.locator('[data-profile-status="ready"]').waitFor({ timeout: 120_000 });
    await page.getByRole('figure', { name: texts.profile.chart }).locator('.recharts-surface').waitFor();
    await expect(page.getByText('Largeur du couloir (m)').count()).resolves.toBe(1);
    await page.keyboard.press('Escape');
    await page.waitForTimeout(1500);
    await page.screenshot({ path: path.join(e2e().screenshotDir, 'measure-3d-fr.png') });
    expect(errors).toEqual([]);
    await close();
  });
});
