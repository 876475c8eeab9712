import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiLogin,
  comparePngs,
  createReadyProject,
  launchWebGlBrowser,
  processProject,
  shareLinkOf,
  waitForTilesLoaded,
} from './projects-helpers.js';
import { e2e, UI_TIMEOUT } from './support.js';

/** A terrain tile's heights (api/src/services/terrain.service.ts format: "NTH1", 65 × 65 float32). */
function tileHeights(bytes: Buffer): Float32Array {
  expect(bytes.subarray(0, 4).toString('latin1')).toBe('NTH1');
  const n = bytes.readUInt16LE(4) * bytes.readUInt16LE(6);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = bytes.readFloatLE(8 + i * 4);
  return out;
}

/**
 * Terrain from the DTM in the 3D viewer: a real project (fusa.laz, processed
 * with a DTM and its hillshade by the real server) opened from its share link;
 * the globe's terrain must come from the project's DTM tiles (ellipsoidal
 * heights: the DTM + the EGM96 undulation), and the hillshade is draped on it.
 */
describe('the 3D viewer on the project’s own terrain', () => {
  let browser: Browser;
  let shareLink: string;

  beforeAll(async () => {
    browser = await launchWebGlBrowser();
    const token = await apiLogin();
    const id = await createReadyProject(token, 'Terrain e2e (Fusa)', 'fusa.laz');
    await processProject(token, id, { products: ['dtm', 'hillshade'] }, 400_000);
    shareLink = await shareLinkOf(token, id);
  }, 900_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('loads DTM terrain tiles through the share link and drapes the hillshade on them', async () => {
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(UI_TIMEOUT);
    const page: Page = await context.newPage();
    const scratch = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    const terrainInfo: Array<{ status: number; body: Record<string, unknown> | null }> = [];
    const tiles: Array<{ url: string; status: number; heights: Float32Array | null }> = [];
    page.on('response', async (res) => {
      const url = res.url();
      if (url.includes('/api/assets/custom-tiler/terrain-url-from-tiles-url')) {
        terrainInfo.push({ status: res.status(), body: res.ok() ? await res.json().catch(() => null) : null });
      } else if (url.includes('/api/terrain/')) {
        const body = res.ok() ? await res.body().catch(() => null) : null;
        tiles.push({ url, status: res.status(), heights: body ? tileHeights(body) : null });
      }
    });
    await page.goto(shareLink);
    await waitForTilesLoaded(page);

    // The viewer asked for the project's terrain with the cloud's signed URL, and got it.
    await expect.poll(() => terrainInfo.length, { timeout: 60_000 }).toBeGreaterThan(0);
    expect(terrainInfo[0]!.status).toBe(200);
    const info = terrainInfo[0]!.body!;
    // fusa.laz: WGS 84 / UTM 54S near 35.02° S 138.57° E (PROJ); EGM96 N there ≈ −1.3 m.
    expect(Number(info.west)).toBeCloseTo(138.56, 1);
    expect(info.verticalReference).toMatchObject({ heights: 'orthometric', geoidModel: 'EGM96' });

    // Terrain tiles over the DTM come back with heights (the DTM + N), the rest is fallback.
    await expect
      .poll(() => tiles.filter((t) => t.status === 200 && t.heights?.some(Number.isFinite)).length, {
        timeout: 120_000,
      })
      .toBeGreaterThan(0);
    expect(tiles.every((t) => t.status === 200)).toBe(true);
    const withGround = tiles.find((t) => t.heights?.some(Number.isFinite))!;
    const finite = [...withGround.heights!].filter(Number.isFinite);
    expect(Math.min(...finite)).toBeGreaterThan(Number(info.minHeight) - 0.01);
    expect(Math.max(...finite)).toBeLessThan(Number(info.maxHeight) + 0.01);

    // The hillshade on the terrain, the points hidden: the ground's relief in grey.
    const stage = page.locator('.nu-viewer__stage');
    const before = await stage.screenshot();
    await page.getByRole('checkbox', { name: 'Hillshade', exact: true }).setChecked(true, { force: true });
    await page.getByRole('checkbox', { name: 'Point cloud', exact: true }).setChecked(false, { force: true });
    const deadline = Date.now() + 120_000;
    let shot = await stage.screenshot();
    while ((await comparePngs(scratch, before, shot)).changed < 3000 && Date.now() < deadline) {
      await scratch.waitForTimeout(1000);
      shot = await stage.screenshot();
    }
    // Let the finer terrain and imagery tiles arrive, then keep the picture.
    await scratch.waitForTimeout(5000);
    await page.screenshot({ path: path.join(e2e().screenshotDir, 'terrain-hillshade-3d.png') });
    const diff = await comparePngs(scratch, before, await stage.screenshot());
    expect(diff.changed).toBeGreaterThan(3000);
    expect(errors).toEqual([]);
    await context.close();
  }, 600_000);
});
