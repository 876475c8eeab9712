import { readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, apiLogin, createReadyProject } from './projects-helpers.js';
import { e2e, launchBrowser, logIn, newContext, screenshot, waitForRoute } from './support.js';

interface Settings {
  pointSize: number;
  tilingParameters: string;
  globeOpacity: number;
  bingMapsKey: string;
  cesiumIonToken: string;
}
interface JobRow {
  id: string;
  projectId: string;
  projectName: string;
  status: string;
  percentage: number;
  retryCount: number;
  lasName: string | null;
}

interface ProjectAssets {
  layers: Array<{ assets: Array<{ id: string; type: string; status: string }> }>;
}

/** The smallest real file with a CRS: 37,657 points, EPSG:26912 (see shared/data/real/README.md). */
const FILE = 'MixedConifer.laz';

describe('admin settings and job monitors', () => {
  let browser: Browser;
  let token: string;
  let before: Settings;
  let projectId: string;
  const projectName = `Admin monitors ${Date.now().toString(36)}`;

  beforeAll(async () => {
    token = await apiLogin();
    before = await apiCall<Settings>(token, 'GET', '/globalParameters');
    // A real upload: its metadata extraction and tiling jobs show in the monitors, then a processing.
    projectId = await createReadyProject(token, projectName, FILE);
    await apiCall(token, 'POST', `/projects/${projectId}/processing`, { options: {} });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    // Other journeys share this server: give the settings back.
    if (token && before) await apiCall(token, 'PATCH', '/globalParameters', before);
  });

  it('the admin edits the settings, then follows the jobs of a real upload in the monitors', async () => {
    const context = await newContext(browser, 'en-US');
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await logIn(page, e2e().adminEmail, e2e().adminPassword);

    // Settings: the form shows what the server holds.
    await page.getByRole('link', { name: 'Administration' }).click();
    await waitForRoute(page, '/admin/projects/list');
    await page.getByRole('menuitem', { name: 'Settings' }).click();
    await waitForRoute(page, '/admin/settings');
    const pointSize = page.getByLabel('Point size');
    const tiling = page.getByLabel('Tiling parameters');
    await expect.poll(() => pointSize.inputValue()).toBe(String(before.pointSize));
    expect(await tiling.inputValue()).toBe(before.tilingParameters);

    // Out of range: refused in the browser, nothing sent.
    await pointSize.fill('80');
    await tiling.click();
    await page.getByText('Enter a point size from 0.5 to 50.').waitFor();

    // Valid values, submitted from the keyboard (Enter in the field).
    await pointSize.fill('3.5');
    await tiling.fill('--max-points 50000 --min-node-size 0.2');
    await pointSize.press('Enter');
    await page.getByText('Settings saved').waitFor();
    const saved = await apiCall<Settings>(token, 'GET', '/globalParameters');
    // The imagery fields were left alone: they keep their values (a fresh database's defaults).
    expect(saved).toEqual({
      pointSize: 3.5,
      tilingParameters: '--max-points 50000 --min-node-size 0.2',
      globeOpacity: before.globeOpacity,
      bingMapsKey: before.bingMapsKey,
      cesiumIonToken: before.cesiumIonToken,
    });
    const viewer = await apiCall<{ pointSize: number }>(null, 'GET', '/globalParameters/cesiumParameters');
    expect(viewer.pointSize).toBe(3.5);

    // An invalid option string: the server's parser names the faulty option under the field, nothing is saved.
    await tiling.fill('--max-points 50000 --bogus 7');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('The tiling parameters are not valid tiler options.').waitFor();
    await page.getByText('unknown option --bogus').waitFor();
    expect(await tiling.getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'admin-settings-invalid');
    expect((await apiCall<Settings>(token, 'GET', '/globalParameters')).tilingParameters).toBe(
      '--max-points 50000 --min-node-size 0.2',
    );
    // Undo brings back the saved text; a reload shows the saved values.
    await page.getByRole('button', { name: 'Undo changes' }).click();
    expect(await tiling.inputValue()).toBe('--max-points 50000 --min-node-size 0.2');
    await page.reload();
    await expect.poll(() => page.getByLabel('Point size').inputValue()).toBe('3.5');

    // Metadata monitor: the upload's extraction succeeded; its row opens the job view.
    const metadataJobs = await apiCall<{ count: number; results: JobRow[] }>(
      token,
      'GET',
      '/admin/metadata-processing?limit=100&sortBy=id&order=DESC',
    );
    const metadataJob = metadataJobs.results.find((j) => j.projectId === projectId);
    expect(metadataJob?.status).toBe('SUCCESS');
    await page.getByRole('menuitem', { name: 'Metadata extraction' }).click();
    await waitForRoute(page, '/admin/metadata-processing/list');
    const metadataTable = page.locator('[data-table="admin-metadata"]');
    const metadataRow = metadataTable.locator('tbody tr', { hasText: projectName });
    await metadataRow.getByText('Success').waitFor();
    await metadataRow.getByText(FILE).waitFor();
    expect(await metadataTable.locator('thead th').allInnerTexts()).toEqual(
      expect.arrayContaining(['Task ID', 'Status', 'Progress', 'LAS file', 'User', 'Area', 'Created', 'Updated']),
    );
    await screenshot(page, 'admin-metadata-list');
    await metadataRow.getByRole('link', { name: `job-${metadataJob!.id}` }).click();
    await waitForRoute(page, `/admin/metadata-processing/view/${projectId}/${metadataJob!.id}`);
    await page
      .getByRole('heading', { name: `Metadata extraction ${projectId} / ${metadataJob!.id}`, level: 1 })
      .waitFor();
    await page.getByText(e2e().adminEmail).first().waitFor();
    await page
      .getByText(`${Math.round(metadataJob!.percentage)} %`)
      .first()
      .waitFor();

    // Tiling monitor: the same upload, with its EPSG; the row expands to every field.
    await page.getByRole('menuitem', { name: 'Tiling jobs' }).click();
    await waitForRoute(page, '/admin/tiling/list');
    const tilingTable = page.locator('[data-table="admin-tiling"]');
    const tilingRow = tilingTable.locator('tbody tr', { hasText: projectName });
    await tilingRow.getByText('Success').waitFor();
    await tilingRow.getByText('EPSG:26912').waitFor();
    await tilingRow.getByRole('button', { name: 'Show details' }).click();
    await tilingTable.locator('.nu-table__expanded').getByText('Retries').waitFor();
    await screenshot(page, 'admin-tiling-list');

    // Processing monitor: the processing started above is there, whatever its state by now.
    await page.getByRole('menuitem', { name: 'Processing jobs' }).click();
    await waitForRoute(page, '/admin/process-data/list');
    const processTable = page.locator('[data-table="admin-process-data"]');
    const processRow = processTable.locator('tbody tr', { hasText: projectName });
    await processRow.waitFor();
    const state = await processRow.locator('[data-status]').first().getAttribute('data-status');
    expect(['PENDING', 'PROGRESS', 'SUCCESS', 'FAILURE']).toContain(state);
    if (state === 'PENDING' || state === 'PROGRESS') {
      // A running job shows a progress bar and the page refreshes itself.
      await processRow.getByTestId('job-progress').waitFor();
      await page.getByText('Refreshing while jobs run').waitFor();
    }
    // Sorting by state ascending keeps its state in the query values.
    await processTable.getByRole('button', { name: 'Status' }).click();
    await page.waitForFunction(() => window.location.hash.includes('sortBy=state'));
    await screenshot(page, 'admin-process-data-list');

    // Projects: search the admin list, then the project view shows owner, status, jobs and assets.
    await page.getByRole('menuitem', { name: 'Projects' }).click();
    await waitForRoute(page, '/admin/projects/list');
    const projectsTable = page.locator('[data-table="admin-projects"]');
    await projectsTable.getByRole('searchbox').fill(projectName);
    await expect.poll(() => projectsTable.locator('tbody tr').count(), { timeout: 30_000 }).toBe(1);
    await projectsTable.getByRole('link', { name: projectName }).click();
    await waitForRoute(page, `/admin/projects/view/${projectId}`);
    await page.getByRole('heading', { name: projectName, level: 1 }).waitFor();
    await page.getByText(e2e().adminEmail).first().waitFor();
    const assets = page.getByTestId('admin-project-assets');
    const cloudRow = assets.locator('tbody tr', { hasText: 'Point cloud' }).first();
    await cloudRow.getByText('Ready').waitFor();
    // The asset monitor (GET /assets?id=) opens under its row.
    await cloudRow.getByRole('button', { name: 'Show details' }).click();
    await assets.getByText('Intensity normalisation').waitFor();
    await screenshot(page, 'admin-project-view');

    // Both themes.
    await page.getByRole('button', { name: 'Switch to the dark theme' }).click();
    await page.waitForFunction(() => document.body.classList.contains('bp6-dark'));
    await screenshot(page, 'admin-project-view-dark');
    await page.getByRole('button', { name: 'Switch to the light theme' }).click();

    expect(errors).toEqual([]);
    await context.close();
  });

  it('the admin retries a failed processing from its monitor', async () => {
    // A processing that fails for real: the stored input of a second upload is overwritten with zeros
    // (a damaged file in the store), so every product's reader refuses it and the job ends in FAILURE.
    const name = `Admin retry ${Date.now().toString(36)}`;
    const id = await createReadyProject(token, name, FILE);
    // The harness's server keeps its files in <work>/data/files, beside its log (see harness.ts).
    const projectDir = path.join(path.dirname(e2e().serverLog), 'data', 'files', 'projects', id);
    const inputs = await findFiles(projectDir, /^input\.la[sz]$/);
    expect(inputs.length).toBe(1);
    await writeFile(inputs[0]!, Buffer.alloc((await stat(inputs[0]!)).size));
    const started = await apiCall<JobRow>(token, 'POST', `/projects/${id}/processing`, { options: {} });
    const failed = await waitForJob(token, started.id, (j) => j.status === 'FAILURE');
    expect(failed.retryCount).toBe(0);

    const context = await newContext(browser, 'en-US');
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await logIn(page, e2e().adminEmail, e2e().adminPassword);
    await page.getByRole('link', { name: 'Administration' }).click();
    await waitForRoute(page, '/admin/projects/list');
    await page.getByRole('menuitem', { name: 'Processing jobs' }).click();
    await waitForRoute(page, '/admin/process-data/list');
    const table = page.locator('[data-table="admin-process-data"]');
    const row = table.locator('tbody tr', { hasText: name });
    await row.getByText('Failure').waitFor();
    await screenshot(page, 'admin-process-data-failed');
    // The view tells why; its retry button is reached from the keyboard.
    await row.getByRole('link', { name: started.id, exact: true }).click();
    await waitForRoute(page, `/admin/process-data/view/${started.id}`);
    await page.getByText('The job failed').waitFor();
    await page.getByText('PROCESSING_FAILED').first().waitFor();
    const retry = page.getByRole('button', { name: `Retry processing job ${started.id}` });
    const badge = page.locator('.nu-page__actions [data-status]');

    // The three messages of spec §4. The request does not reach the server: error on retry.
    await page.route('**/api/admin/process-data/*/retry', (route) => route.abort());
    await retry.click();
    await page.getByText('Error on retry: The server cannot be reached.', { exact: false }).waitFor();
    await page.unroute('**/api/admin/process-data/*/retry');
    expect((await apiCall<JobRow>(token, 'GET', `/admin/process-data/${started.id}`)).retryCount).toBe(0);

    // From the keyboard: new attempt launched; the view follows the job until it fails again.
    await retry.focus();
    await page.keyboard.press('Enter');
    await page.getByText('New attempt launched').waitFor();
    await screenshot(page, 'admin-process-data-retry');
    await expect.poll(() => badge.getAttribute('data-status'), { timeout: 120_000 }).toBe('FAILURE');
    await page.getByText('Failure').first().waitFor();
    const again = await apiCall<JobRow>(token, 'GET', `/admin/process-data/${started.id}`);
    expect(again.status).toBe('FAILURE');
    expect(again.retryCount).toBe(1);

    // The point cloud is no longer ready (a new CRS re-extracts it): the server refuses, failed to launch.
    const project = await apiCall<ProjectAssets>(token, 'GET', `/projects/${id}`);
    const cloud = project.layers.flatMap((l) => l.assets).find((a) => a.type === 'POINT_CLOUD')!;
    await apiCall(token, 'PATCH', '/assets', { id: cloud.id, epsgCode: 32612 });
    await retry.click();
    await page.getByText('Failed to launch a new attempt: The point cloud of this project is not ready.').waitFor();
    await screenshot(page, 'admin-process-data-refused');
    expect((await apiCall<JobRow>(token, 'GET', `/admin/process-data/${started.id}`)).retryCount).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });
});

/** Files under `dir` whose name matches. */
async function findFiles(dir: string, name: RegExp): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile() && name.test(e.name)).map((e) => path.join(e.parentPath, e.name));
}

/** Polls an admin processing job until `done` holds. */
async function waitForJob(token: string, id: string, done: (j: JobRow) => boolean, ms = 180_000): Promise<JobRow> {
  const deadline = Date.now() + ms;
  for (;;) {
    const j = await apiCall<JobRow>(token, 'GET', `/admin/process-data/${id}`);
    if (done(j)) return j;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${j.status} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}
