import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, apiLogin, createReadyProject, processProject } from './projects-helpers.js';
import { e2e, launchBrowser, logIn, newContext, screenshot, waitForRoute } from './support.js';

/**
 * The admin monitor of classification-edit jobs (issue 23): a real project
 * (MixedConifer.laz, the smallest real file with a CRS) uploaded, tiled and
 * classified by the real server, one edit made through the API (its
 * vegetation over the whole area becomes class 6) and applied by its job;
 * the admin finds the job in the monitor from the side menu, with its state,
 * project and user, and opens its page.
 */

function adminTexts(lang: string) {
  return JSON.parse(readFileSync(new URL(`../public/locales/${lang}/admin.json`, import.meta.url), 'utf8')) as {
    classificationEdits: { listTitle: string; viewTitle: string };
  };
}

interface EditsAnswer {
  edits: Array<{ id: string; status: string; changed: { total: number } | null }>;
  job: { id: string; state: string; errorCode: string | null } | null;
}

interface JobRow {
  id: string;
  kind: string;
  projectId: string;
  projectName: string;
  status: string;
  percentage: number;
}

describe('admin: classification-edit jobs', () => {
  let browser: Browser;
  let token: string;
  let projectId: string;
  let jobId: string;
  const projectName = `Class edits monitor ${Date.now().toString(36)}`;

  beforeAll(async () => {
    token = await apiLogin();
    projectId = await createReadyProject(token, projectName, 'MixedConifer.laz');
    await processProject(token, projectId, { products: ['classify'] });
    // Every vegetation point of the area becomes a building: a polygon around the whole world.
    const queued = await apiCall<{ jobId: string }>(token, 'POST', `/projects/${projectId}/classification-edits`, {
      region: {
        kind: 'map',
        polygon: [
          [-179, -80],
          [179, -80],
          [179, 80],
          [-179, 80],
        ],
      },
      fromClasses: [3, 4, 5],
      toClass: 6,
    });
    jobId = queued.jobId;
    const deadline = Date.now() + 300_000;
    for (;;) {
      const answer = await apiCall<EditsAnswer>(token, 'GET', `/projects/${projectId}/classification-edits`);
      if (answer.job?.id === jobId && answer.job.state === 'SUCCESS') break;
      if (answer.job?.state === 'ERROR') throw new Error(`the edit job failed: ${answer.job.errorCode}`);
      if (Date.now() > deadline) throw new Error(`the edit job is still ${answer.job?.state}`);
      await new Promise((r) => setTimeout(r, 1000));
    }
    browser = await launchBrowser();
  }, 900_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('lists the edit job with its state, project and user, and opens its page', async () => {
    const texts = adminTexts('en-US');
    // The API's view of the monitor: the job, a success, of this project.
    const page1 = await apiCall<{ count: number; results: JobRow[] }>(
      token,
      'GET',
      '/admin/classification-edits?limit=100&sortBy=id&order=DESC',
    );
    const job = page1.results.find((j) => j.id === jobId);
    expect(job).toMatchObject({ kind: 'CLASSIFICATION_EDIT', projectId, projectName, status: 'SUCCESS' });

    const context = await newContext(browser, 'en-US');
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await logIn(page, e2e().adminEmail, e2e().adminPassword);
    await page.getByRole('link', { name: 'Administration' }).click();
    await waitForRoute(page, '/admin/projects/list');
    await page.getByRole('menuitem', { name: texts.classificationEdits.listTitle }).click();
    await waitForRoute(page, '/admin/classification-edits/list');
    await page.getByRole('heading', { name: texts.classificationEdits.listTitle, level: 1 }).waitFor();

    const table = page.locator('[data-table="admin-classification-edits"]');
    const row = table.locator('tbody tr', { hasText: projectName });
    await row.getByText('Success').waitFor();
    await row.getByText('100 %').waitFor();
    await row.getByText(e2e().adminEmail).waitFor();
    expect(await table.locator('thead th').allInnerTexts()).toEqual(
      expect.arrayContaining(['ID', 'Status', 'Progress', 'Project', 'User']),
    );
    await screenshot(page, 'admin-class-edits-list');

    await row.getByRole('link', { name: jobId, exact: true }).click();
    await waitForRoute(page, `/admin/classification-edits/view/${projectId}/${jobId}`);
    const title = texts.classificationEdits.viewTitle.replace('{{ref}}', `${projectId} / ${jobId}`);
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    await page.getByText(e2e().adminEmail).first().waitFor();
    await screenshot(page, 'admin-class-edits-view');
    // The breadcrumb leads back to the monitor.
    await page.getByRole('link', { name: texts.classificationEdits.listTitle }).first().click();
    await waitForRoute(page, '/admin/classification-edits/list');
    expect(errors).toEqual([]);
    await context.close();
  }, 300_000);
});
