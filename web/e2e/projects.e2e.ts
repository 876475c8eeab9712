import { readFileSync } from 'node:fs';
import { OPTION_FIELDS, OPTION_NAMES } from '@nuage/engine/products/options.js';
import { realFile } from '@nuage/fixtures/real-data.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCentimetres } from '../src/features/projects/processing-options.schema.js';
import { apiCall, launchWebGlBrowser, waitForTilesLoaded } from './projects-helpers.js';
import { e2e, screenshot, UI_TIMEOUT, waitForRoute } from './support.js';

/** The processing form's English texts (web/public/locales/en-US/projects.json). */
const TEXTS = JSON.parse(readFileSync(new URL('../public/locales/en-US/projects.json', import.meta.url), 'utf8'))
  .processing as {
  fields: Record<string, string>;
  choices: Record<string, Record<string, string>>;
  rangeHint: string;
  bufferZone: string;
};

/** "from 20 cm to 30 m" in English. */
function rangeHint(min: number, max: number): string {
  return TEXTS.rangeHint.replace('{{min}}', formatCentimetres(min)).replace('{{max}}', formatCentimetres(max));
}

/**
 * Checks the processing form shows every option of the engine's OPTION_FIELDS
 * with its label, default and range hint (choices with every value).
 */
async function expectEveryOption(page: Page): Promise<void> {
  for (const name of OPTION_NAMES) {
    const field = OPTION_FIELDS[name];
    switch (field.kind) {
      case 'centimetres': {
        const input = page.getByLabel(TEXTS.fields[name]!, { exact: true });
        await expect(input.inputValue(), name).resolves.toBe(String(field.default));
        expect(await input.getAttribute('id'), name).toBe(`field-${name}`);
        expect(await page.locator(`#field-${name}-hint`).textContent(), name).toContain(
          rangeHint(field.min, field.max),
        );
        break;
      }
      case 'centimetreList': {
        await page.locator(`[data-option="${name}"] legend`).getByText(TEXTS.fields[name]!, { exact: true }).waitFor();
        for (const [i, value] of field.default.entries()) {
          const input = page.getByLabel(TEXTS.bufferZone.replace('{{index}}', String(i + 1)), { exact: true });
          await expect(input.inputValue(), `${name}.${i}`).resolves.toBe(String(value));
          expect(await page.locator(`#field-${name}-${i}-hint`).textContent(), `${name}.${i}`).toContain(
            rangeHint(field.min, field.max),
          );
        }
        break;
      }
      case 'choice': {
        await page.getByText(TEXTS.fields[name]!, { exact: true }).waitFor();
        for (const value of field.choices) {
          const radio = page.getByRole('radio', { name: TEXTS.choices[name]![value]!, exact: true });
          await expect(radio.isChecked(), `${name}=${value}`).resolves.toBe(value === field.default);
        }
        break;
      }
    }
  }
}

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

    // The processing form shows every option of the engine's descriptors, with its default and range.
    await expectEveryOption(page);
    // An out-of-range DTM resolution shows the range, translated (en, then fr, then back to en).
    const dtm = page.getByLabel(TEXTS.fields.dtmResolutionCm!, { exact: true });
    await dtm.fill('10');
    await dtm.blur();
    await page.locator('#field-dtmResolutionCm-hint').getByText('Enter a value from 20 cm to 30 m.').waitFor();
    await page.getByTestId('language-select').selectOption('fr');
    await page.locator('#field-dtmResolutionCm-hint').getByText('Saisissez une valeur de 20 cm à 30 m.').waitFor();
    await page.getByLabel('Résolution du MNT', { exact: true }).waitFor();
    await screenshot(page, 'projects-create-fr');
    await page.getByTestId('language-select').selectOption('en-US');
    await page.locator('#field-dtmResolutionCm-hint').getByText('Enter a value from 20 cm to 30 m.').waitFor();
    await dtm.fill('50');
    await page.locator('#field-dtmResolutionCm-hint').getByText('= 50 cm · from 20 cm to 30 m').waitFor();

    // Buffer zones: the last can be removed and added again (1 to 3).
    await page.getByRole('button', { name: 'Remove the last zone' }).click();
    await expect(page.getByLabel('Buffer zone 3 radius', { exact: true }).count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Add a zone' }).click();
    await expect(page.getByLabel('Buffer zone 3 radius', { exact: true }).inputValue()).resolves.toBe('900');

    // Products to make: every product of the registry, ticked; unticking the DTM unticks what is made from
    // it, ticking the major contours ticks what they are made from again.
    const { results: products } = await apiCall<{ results: Array<{ id: string; needs: string[] }> }>(
      null,
      'GET',
      '/processing/products',
    );
    const productBoxes = page.getByTestId('processing-products').getByRole('checkbox');
    await expect(productBoxes.count()).resolves.toBe(products.length);
    const ticked = async () =>
      (await productBoxes.evaluateAll((boxes) => boxes.map((b) => (b as HTMLInputElement).checked))).filter(Boolean)
        .length;
    await expect(ticked()).resolves.toBe(products.length);
    const box = (label: string) =>
      page.getByTestId('processing-products').getByRole('checkbox', { name: label, exact: true });
    await box('Terrain model (DTM)').setChecked(false, { force: true });
    await expect(box('Contour lines').isChecked()).resolves.toBe(false);
    await expect(box('Hillshade').isChecked()).resolves.toBe(false);
    await expect(box('Classified point cloud').isChecked()).resolves.toBe(true);
    await box('Major contours').setChecked(true, { force: true });
    await expect(box('Terrain model (DTM)').isChecked()).resolves.toBe(true);
    await expect(box('Contour lines').isChecked()).resolves.toBe(true);
    await expect(box('Hillshade').isChecked()).resolves.toBe(false);
    await screenshot(page, 'projects-create-products');
    for (const b of await productBoxes.all()) if (!(await b.isChecked())) await b.setChecked(true, { force: true });
    await expect(ticked()).resolves.toBe(products.length);

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
