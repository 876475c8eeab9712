import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, apiLogin, createReadyProject } from './projects-helpers.js';
import { e2e, launchBrowser, logIn, newContext, screenshot, waitForRoute } from './support.js';

interface Settings {
  pointSize: number;
  tilingParameters: string;
}
interface JobRow {
  id: string;
  projectId: string;
  projectName: string;
  status: string;
  percentage: number;
  lasName: string | null;
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
    expect(saved).toEqual({ pointSize: 3.5, tilingParameters: '--max-points 50000 --min-node-size 0.2' });
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
});
