import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { orthophoto } from '@nuage/engine/raster/test-orthophoto.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  apiLogin,
  createReadyProject,
  launchWebGlBrowser,
  pixelsOfColour,
  waitForTilesLoaded,
} from './projects-helpers.js';
import { e2e, logIn, screenshot, UI_TIMEOUT } from './support.js';

/** A colour no LiDAR scene shows: the classified points drawn in it came from the orthophoto. */
const MAGENTA = [255, 0, 255] as const;

interface ProjectBody {
  layers?: Array<{ type: string; assets: Array<{ type: string; status: string; errorCode?: string | null }> }>;
  jobs?: { processing?: { state: string; errorMessage?: string | null } };
}

/**
 * Colorization from imagery (issue 22 item 6): the processing dialog uploads
 * an orthophoto (a magenta GeoTIFF in EPSG:4326 over fusa.laz, EPSG:32754),
 * the classified cloud is processed with it and the viewer's RGB mode draws
 * it magenta; the form's texts in en-US and fr.
 */
describe('colours from an orthophoto', () => {
  let browser: Browser;
  let token: string;
  let projectId: string;
  let ortho: string;

  beforeAll(async () => {
    browser = await launchWebGlBrowser();
    token = await apiLogin();
    projectId = await createReadyProject(token, 'Orthophoto e2e (fusa)', 'fusa.laz');
    ortho = orthophoto(
      mkdtempSync(path.join(tmpdir(), 'nuage-e2e-ortho-')),
      'magenta',
      138.5639,
      -35.0156,
      740,
      560,
      8,
      MAGENTA,
    );
  }, 420_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('uploads the orthophoto from the processing dialog and draws the classified cloud in its colours', async () => {
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(UI_TIMEOUT);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await logIn(page, e2e().adminEmail, e2e().adminPassword);
    await page.goto(`${e2e().baseUrl}/#/user/projects/${projectId}`);
    await page.getByRole('button', { name: 'Process again…' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Orthophoto for colours (GeoTIFF)').waitFor();
    // Only the classified cloud (quicker): untick every product, then tick it.
    const boxes = dialog.getByTestId('processing-products').getByRole('checkbox');
    for (const b of await boxes.all()) if (await b.isChecked()) await b.setChecked(false, { force: true });
    await dialog
      .getByRole('checkbox', { name: 'Classified point cloud', exact: true })
      .setChecked(true, { force: true });
    await dialog.locator('#field-orthophoto').setInputFiles(ortho);
    await dialog.getByText('magenta.tif').waitFor();
    await dialog.locator('#field-orthophoto').scrollIntoViewIfNeeded();
    await screenshot(page, 'orthophoto-dialog-en');
    await page.getByTestId('language-select').selectOption('fr');
    await dialog.getByText('Orthophoto pour les couleurs (GeoTIFF)').waitFor();
    await dialog.locator('#field-orthophoto').scrollIntoViewIfNeeded();
    await screenshot(page, 'orthophoto-dialog-fr');
    await page.getByTestId('language-select').selectOption('en-US');
    await dialog.getByRole('button', { name: 'Start processing' }).click();
    await dialog.waitFor({ state: 'detached', timeout: 120_000 });

    const deadline = Date.now() + 300_000;
    let project: ProjectBody;
    for (;;) {
      project = await apiCall<ProjectBody>(token, 'GET', `/projects/${projectId}`);
      const state = project.jobs?.processing?.state;
      if (state === 'SUCCESS') break;
      if (state === 'FAILURE') throw new Error(`processing failed: ${project.jobs?.processing?.errorMessage}`);
      if (Date.now() > deadline) throw new Error(`processing still ${state}`);
      await page.waitForTimeout(1000);
    }
    const assets = project.layers!.flatMap((l) => l.assets);
    expect(assets.find((a) => a.type === 'ORTHOPHOTO')?.status).toBe('UPLOADED');
    expect(assets.find((a) => a.type === 'CLASSIFIED_POINT_CLOUD')?.status).toBe('READY');

    // The classified cloud alone, in RGB mode: magenta points.
    await page.reload();
    await waitForTilesLoaded(page);
    await page.getByRole('checkbox', { name: 'Point cloud', exact: true }).setChecked(false, { force: true });
    await page.getByRole('checkbox', { name: 'Classified point cloud', exact: true }).setChecked(true, { force: true });
    await page.getByRole('radio', { name: 'RGB', exact: true }).click();
    const stage = page.locator('.nu-viewer__stage');
    const until = Date.now() + 120_000;
    let magenta: Array<[number, number]> = [];
    while (Date.now() < until) {
      const png = await page.screenshot({ clip: (await stage.boundingBox())! });
      magenta = await pixelsOfColour(page, png, MAGENTA, 40, 2);
      if (magenta.length > 500) break;
      await page.waitForTimeout(1000);
    }
    await screenshot(page, 'orthophoto-viewer-rgb');
    expect(magenta.length).toBeGreaterThan(500);
    expect(errors).toEqual([]);
    await context.close();
  });
});
