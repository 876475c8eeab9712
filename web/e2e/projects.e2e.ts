import { realFile } from '@nuage/fixtures/real-data.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchWebGlBrowser, waitForTilesLoaded } from './projects-helpers.js';
import { e2e, screenshot, UI_TIMEOUT, waitForRoute } from './support.js';

/**
 * The projects journey (issue 6): log in, create a project from a real LAS
 * file (the browser checks its header, uploads it with progress), watch its
 * progress, open the viewer, share it, and open the share link in a fresh
 * browser without an account.
 */
describe('projects', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchWebGlBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('creates a project from a LAS file, watches it, opens the viewer and shares it', async () => {
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(UI_TIMEOUT);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));

    // Log in.
    await page.goto(`${e2e().baseUrl}/#/auth/login`);
    await page.getByLabel('Email').fill(e2e().adminEmail);
    await page.getByLabel('Password', { exact: true }).fill(e2e().adminPassword);
    await page.getByRole('form', { name: 'Log in to Nuage' }).getByRole('button', { name: 'Log in' }).click();
    await waitForRoute(page, '/user');
    await page.getByRole('heading', { name: 'My projects', level: 1 }).waitFor();

    // A file that is not LAS is refused by the browser before any upload.
    await page.getByTestId('new-project').first().click();
    await waitForRoute(page, '/user/projects/new');
    await page.locator('#field-file').setInputFiles({
      name: 'notes.las',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from('x,y,z\n'.repeat(100)),
    });
    await page.getByText('LAS must have a header').waitFor();

    // The real file: its header is read and summarised, the name proposed.
    await page.locator('#field-file').setInputFiles(realFile('autzen_trim.las'));
    const summary = page.getByTestId('las-summary');
    await summary.waitFor();
    expect(await summary.textContent()).toContain('110,000');
    expect(await summary.textContent()).toContain('LAS 1.2');
    await expect(page.getByLabel(/Project name/).inputValue()).resolves.toBe('autzen_trim');
    await page.getByLabel(/Project name/).fill('Autzen stadium');

    // The processing form refuses a major contour interval not above the minor one.
    await page.getByLabel('Major contour interval').fill('40');
    await page.getByTestId('create-submit').click();
    await page.getByText('The major interval must be greater than the minor one.').waitFor();
    await page.getByLabel('Major contour interval').fill('250');
    await screenshot(page, 'projects-create');

    // Create: upload, then the viewer route shows the progress until the project is ready.
    await page.getByTestId('create-submit').click();
    await page.waitForFunction(() => /^#\/user\/projects\/\d+$/.test(window.location.hash), null, {
      timeout: 120_000,
    });
    const projectPath = new URL(page.url()).hash.slice(1);
    expect(projectPath).toMatch(/^\/user\/projects\/\d+$/);
    await waitForTilesLoaded(page);
    await page.getByRole('heading', { name: 'Autzen stadium', level: 1 }).waitFor();
    await expect(page.getByRole('checkbox', { name: 'Point cloud', exact: true }).isChecked()).resolves.toBe(true);
    await screenshot(page, 'projects-viewer');

    // My projects lists it with its status.
    await page.goto(`${e2e().baseUrl}/#/user`);
    const row = page.getByTestId('project-row').filter({ hasText: 'Autzen stadium' });
    await row.waitFor();
    await row.locator('[data-status="READY"]').waitFor();
    expect(await row.textContent()).toContain('110,000');
    await screenshot(page, 'projects-list');

    // Share: create the link and copy it.
    await page.goto(`${e2e().baseUrl}/#${projectPath}`);
    await waitForTilesLoaded(page);
    await page.getByRole('button', { name: 'Share' }).click();
    await page.getByRole('button', { name: 'Create a share link' }).click();
    const linkField = page.getByTestId('share-link');
    await linkField.waitFor();
    const link = await linkField.inputValue();
    expect(link).toMatch(/#\/project-from-share-token\?token=[\w-]+/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await screenshot(page, 'projects-share');
    expect(errors).toEqual([]);
    await context.close();

    // The link opens the project read-only in a fresh browser, without an account.
    const visitor = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
    visitor.setDefaultTimeout(UI_TIMEOUT);
    const guest = await visitor.newPage();
    const guestErrors: string[] = [];
    guest.on('pageerror', (err) => guestErrors.push(err.message));
    await guest.goto(link);
    await waitForTilesLoaded(guest);
    await guest.getByText('Shared project: read-only view.').waitFor();
    await guest.getByRole('heading', { name: 'Autzen stadium', level: 1 }).waitFor();
    await expect(guest.getByRole('button', { name: 'Share' }).count()).resolves.toBe(0);
    await screenshot(guest, 'projects-shared-visitor');
    expect(guestErrors).toEqual([]);
    await visitor.close();
  });
});
