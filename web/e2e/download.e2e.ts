import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, apiLogin, createReadyProject, launchWebGlBrowser, processProject } from './projects-helpers.js';
import { e2e, logIn, newContext, screenshot, uniqueEmail } from './support.js';

/**
 * The download dialog (spec §2, §7): a user without a premium subscription
 * opens their processed project (fusa.laz: classified cloud, grid, contours,
 * buildings, tree tops), downloads the tree tops as GeoJSON (mouse) and as a
 * Shapefile (keyboard) — the API makes each export on the first request —
 * and asks for the classified point cloud, which shows the upgrade prompt.
 */
describe('the download dialog', () => {
  let browser: Browser;
  let email: string;
  const password = 'Lidar-Downl0ads!';
  let projectId: string;

  beforeAll(async () => {
    browser = await launchWebGlBrowser();
    const admin = await apiLogin();
    email = uniqueEmail('downloads');
    await apiCall(admin, 'POST', '/users', { roles: ['user'], userJwt: { username: email, password } });
    const token = await apiLogin(email, password);
    projectId = await createReadyProject(token, 'Fusa downloads', 'fusa.laz');
    const project = await processProject(token, projectId, {
      products: ['classify', 'grid', 'contours', 'buildings', 'tree-tops'],
    });
    const tops = project.layers?.flatMap((l) => l.assets).find((a) => a.type === 'TREE_TOPS');
    expect(tops?.status).toBe('READY');
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
  });

  /** Clicks (or presses Enter on) a download button and waits for the browser's download. */
  async function downloadBy(page: Page, start: () => Promise<void>): Promise<{ download: Download; bytes: Buffer }> {
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), start()]);
    const file = await download.path();
    return { download, bytes: await readFile(file) };
  }

  it('downloads GeoJSON and Shapefile exports, and shows the upgrade prompt for the classified cloud', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await logIn(page, email, password);
    await page.goto(`${e2e().baseUrl}/#/user/projects/${projectId}`);
    await page.getByRole('button', { name: 'Download', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Download' }).waitFor();

    // Every READY product has its row; vectors offer the three formats.
    for (const [data, formats] of [
      ['Tree tops', ['GeoJSON', 'DXF', 'Shapefile']],
      ['Contour lines', ['GeoJSON', 'DXF', 'Shapefile']],
      ['Buildings', ['GeoJSON', 'DXF', 'Shapefile']],
      ['Point grid', ['GeoJSON', 'DXF', 'Shapefile']],
      ['Terrain model (DTM)', ['GeoTIFF']],
      ['Classified point cloud', ['LAS']],
    ] as const) {
      for (const format of formats) {
        await expect(
          dialog.getByRole('button', { name: `Download ${data} as ${format}`, exact: true }).count(),
          `${data} ${format}`,
        ).resolves.toBe(1);
      }
    }

    // GeoJSON with the mouse: the bytes are a FeatureCollection of tree tops in EPSG:4326. The
    // API's answer and the file are held back a little, so the progress shows long enough to be seen.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/assets/*/export?*', async (route) => {
      await held;
      await route.continue();
    });
    const geojson = await downloadBy(page, async () => {
      await dialog.getByRole('button', { name: 'Download Tree tops as GeoJSON', exact: true }).click();
      await dialog.getByText('Preparing Tree tops (GeoJSON)…').waitFor();
      await expect(dialog.getByRole('progressbar', { name: 'Download progress' }).count()).resolves.toBe(1);
      await dialog.screenshot({ path: path.join(e2e().screenshotDir, 'download-dialog-preparing.png') });
      release();
    });
    await page.unroute('**/api/assets/*/export?*');
    expect(geojson.download.suggestedFilename()).toBe('Fusa-downloads-tree_tops.geojson');
    const doc = JSON.parse(geojson.bytes.toString('utf8'));
    expect(doc.type).toBe('FeatureCollection');
    expect(doc.features.length).toBeGreaterThan(100);
    const [lon, lat] = doc.features[0].geometry.coordinates;
    expect(lon).toBeGreaterThan(138);
    expect(lon).toBeLessThan(139);
    expect(lat).toBeGreaterThan(-36);
    expect(lat).toBeLessThan(-34);
    await dialog.getByText('Fusa-downloads-tree_tops.geojson downloaded.').waitFor();

    // Shapefile with the keyboard: a zip (PK) holding the layer.
    const shapefileButton = dialog.getByRole('button', { name: 'Download Tree tops as Shapefile', exact: true });
    await shapefileButton.focus();
    const shapefile = await downloadBy(page, () => page.keyboard.press('Enter'));
    expect(shapefile.download.suggestedFilename()).toBe('Fusa-downloads-tree_tops.zip');
    expect(shapefile.bytes.subarray(0, 2).toString('latin1')).toBe('PK');
    expect(shapefile.bytes.includes(Buffer.from('Fusa-downloads-tree_tops.shp'))).toBe(true);
    await dialog.getByText('Fusa-downloads-tree_tops.zip downloaded.').waitFor();

    // The classified point cloud needs premium: the upgrade prompt, with the way to the buy page.
    await dialog.getByRole('button', { name: 'Download Classified point cloud as LAS', exact: true }).click();
    const prompt = dialog.getByTestId('upgrade-prompt');
    await prompt.waitFor();
    await expect(prompt.getAttribute('role')).resolves.toBe('alert');
    await expect(prompt.textContent()).resolves.toContain('Premium subscription needed');
    const upgrade = prompt.getByRole('link', { name: 'Upgrade my subscription' });
    await expect(upgrade.getAttribute('href')).resolves.toBe('#/user/subscription/buy');
    await screenshot(page, 'download-dialog-page');
    await dialog.screenshot({ path: path.join(e2e().screenshotDir, 'download-dialog.png') });

    // Escape closes the dialog.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
    await context.close();
  });
});
