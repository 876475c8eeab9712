import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, apiLogin, createReadyProject, launchWebGlBrowser } from './projects-helpers.js';
import { e2e, logIn, newContext, screenshot, uniqueEmail, waitForRoute } from './support.js';

const PASSWORD = 'Tables-Passw0rd!';
/** A 254-character name without a single space: the worst case for a table cell. */
const LONG_NAME = `Willow${'w'.repeat(248)}`;
/** Names of the user's projects besides the READY one (Conifer) and the long one. */
const NAMES = [
  'Alder',
  'Birch',
  'Cedar',
  'Elm',
  'Fir',
  'Hemlock',
  'Juniper',
  'Larch',
  'Maple',
  'Oak',
  'Pine',
  'Spruce',
];
const ALL_NAMES = [...NAMES, 'Conifer', LONG_NAME].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));

/**
 * The reusable table of spec §2 on My projects (issue 22 item 8): sort by a
 * column both ways, search (50 ms debounce, in the URL), page size "all",
 * the line/columns/table views, a row expanded into the project's metadata, a
 * 254-character name that leaves the New project button on screen, and the
 * viewer's project information panel; in English and French.
 */
describe('tables and project information', () => {
  let browser: Browser;
  let email: string;
  let token: string;
  let coniferId: string;

  beforeAll(async () => {
    browser = await launchWebGlBrowser();
    const admin = await apiLogin();
    email = uniqueEmail('tables');
    await apiCall(admin, 'POST', '/users', { roles: ['user'], userJwt: { username: email, password: PASSWORD } });
    token = await apiLogin(email, PASSWORD);
    coniferId = await createReadyProject(token, 'Conifer', 'MixedConifer.laz');
    for (const name of [...NAMES, LONG_NAME]) await apiCall(token, 'POST', '/projects', { name });
  }, 420_000);

  afterAll(async () => {
    await browser?.close();
  });

  const query = (page: Page) => new URLSearchParams(new URL(page.url()).hash.split('?')[1] ?? '');
  const rowNames = (page: Page) => page.getByTestId('project-name').allTextContents();
  /** Waits until the rows shown are exactly `names`, in order. */
  /** Requests of each page opened by openMyProjects, oldest first. */
  const traffic = new WeakMap<Page, string[]>();

  async function expectRows(page: Page, names: string[]): Promise<void> {
    try {
      await page.waitForFunction(
        (expected) =>
          JSON.stringify([...document.querySelectorAll('[data-testid="project-name"]')].map((e) => e.textContent)) ===
          JSON.stringify(expected),
        names,
        { timeout: 30_000 },
      );
    } catch (err) {
      // A timeout alone says nothing of what the screen showed: name the rows, the search box and the URL.
      const box = await page
        .getByRole('searchbox')
        .inputValue({ timeout: 2000 })
        .catch(() => '?');
      const notices = await page
        .locator('.bp6-callout, [role="alert"]')
        .allInnerTexts()
        .catch(() => []);
      throw new Error(
        `rows ${JSON.stringify(await rowNames(page))} instead of ${JSON.stringify(names)}; ` +
          `search box "${box}", URL ${page.url()}, notices ${JSON.stringify(notices)}, ` +
          `last requests ${JSON.stringify((traffic.get(page) ?? []).slice(-12))}: ${(err as Error).message}`,
      );
    }
    expect(await rowNames(page)).toEqual(names);
  }

  async function openMyProjects(locale: string): Promise<Page> {
    const context = await newContext(browser, locale);
    const page = await context.newPage();
    // The page's requests and their answers, named when rows do not come (which query left, which came back).
    const log: string[] = [];
    traffic.set(page, log);
    const t0 = Date.now();
    const short = (u: string) => u.replace(e2e().baseUrl, '');
    page.on('request', (r) => log.push(`${Date.now() - t0} ms > ${r.method()} ${short(r.url())}`));
    page.on('response', (r) => log.push(`${Date.now() - t0} ms < ${r.status()} ${short(r.url())}`));
    page.on('requestfailed', (r) => log.push(`${Date.now() - t0} ms ! ${short(r.url())} ${r.failure()?.errorText}`));
    await logIn(page, email, PASSWORD);
    await waitForRoute(page, '/user');
    await page.goto(`${e2e().baseUrl}/#/user`);
    await page.getByTestId('project-row').first().waitFor();
    return page;
  }

  /** The New project button and the table stay inside a 1280×800 window, whatever the names. */
  async function expectInsideViewport(page: Page): Promise<void> {
    const box = await page.getByTestId('new-project').boundingBox();
    expect(box).not.toBeNull();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(1280);
    expect(box!.y + box!.height).toBeLessThanOrEqual(800);
    const table = await page.locator('[data-table="projects"]').boundingBox();
    expect(table!.x + table!.width).toBeLessThanOrEqual(1280);
    const widths = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      inner: window.innerWidth,
    }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
  }

  it('sorts, searches, pages, switches views and expands rows on My projects (English)', async () => {
    const page = await openMyProjects('en-US');
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));

    // Sort by name: ascending, then descending; the URL keeps it.
    await page.getByRole('button', { name: 'Project name', exact: true }).click();
    await expectRows(page, ALL_NAMES.slice(0, 10));
    expect(Object.fromEntries(query(page))).toMatchObject({
      tableUrlId: 'projects',
      sortBy: 'name',
      descending: 'false',
      page: '1',
    });
    await expect(page.locator('th[data-column="name"]').getAttribute('aria-sort')).resolves.toBe('ascending');
    await page.getByRole('button', { name: 'Project name', exact: true }).click();
    await expectRows(page, [...ALL_NAMES].reverse().slice(0, 10));
    expect(query(page).get('descending')).toBe('true');

    // The 254-character name is cut with an ellipsis; the New project button stays on screen.
    const long = page.getByTestId('project-name').filter({ hasText: 'Willow' });
    const cell = await long.evaluate((a) => {
      const box = a.closest('.nu-table__truncate') as HTMLElement;
      return {
        width: box.getBoundingClientRect().width,
        clipped: box.scrollWidth > box.clientWidth,
        ellipsis: getComputedStyle(box).textOverflow,
      };
    });
    expect(cell.width).toBeLessThanOrEqual(361);
    expect(cell.clipped).toBe(true);
    expect(cell.ellipsis).toBe('ellipsis');
    await expectInsideViewport(page);
    await long.hover();
    await page.locator('.nu-table__tooltip').filter({ hasText: LONG_NAME }).waitFor();
    await screenshot(page, 'tables-long-name-en');
    await page.mouse.move(0, 0);

    // Search: one request after the typing stops; the URL carries it.
    await page.getByRole('searchbox').fill('ar');
    await expectRows(page, ['Larch', 'Cedar']);
    expect(query(page).get('search')).toBe('ar');
    expect(query(page).get('page')).toBe('1');
    await page.getByRole('searchbox').fill('');
    await expectRows(page, [...ALL_NAMES].reverse().slice(0, 10));

    // A search whose request fails (the server answers 500) leaves the old rows with a warning saying so;
    // "Try again" once the server answers brings the searched rows.
    const failing = (url: URL) => url.pathname.endsWith('/projects') && url.searchParams.get('search') === 'ced';
    let failedAnswers = 0;
    await page.route(failing, (route) => {
      failedAnswers++;
      return route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: '{"code":"INTERNAL","message":"boom"}',
      });
    });
    await page.getByRole('searchbox').fill('ced');
    const stale = page.getByTestId('table-stale-error');
    await stale.getByText('The table could not be refreshed').waitFor();
    expect(await rowNames(page)).toEqual([...ALL_NAMES].reverse().slice(0, 10));
    await screenshot(page, 'tables-stale-error-en');
    // "Try again" asks at once (the server still fails: the warning and the old rows stay).
    const asked = failedAnswers;
    await stale.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => failedAnswers, { timeout: 5000 }).toBeGreaterThan(asked);
    await stale.getByText('The table could not be refreshed').waitFor();
    await page.unroute(failing);
    // Once the server answers, the searched rows come: by "Try again", or by the table's own retry if it is first.
    await stale
      .getByRole('button', { name: 'Try again' })
      .click({ timeout: 3000 })
      .catch(() => undefined);
    await expectRows(page, ['Cedar']);
    await stale.waitFor({ state: 'detached' });
    await page.getByRole('searchbox').fill('');
    await expectRows(page, [...ALL_NAMES].reverse().slice(0, 10));

    // Page size "all": every project on one page.
    await page.getByLabel('Rows per page').selectOption('all');
    await expectRows(page, [...ALL_NAMES].reverse());
    expect(query(page).get('rowsPerPage')).toBe('all');
    await page.getByText(`1–${ALL_NAMES.length} of ${ALL_NAMES.length}`).waitFor();

    // Views: line, columns, then the table again.
    await page.getByRole('button', { name: 'Line view' }).click();
    await page.locator('.nu-table__lines').waitFor();
    expect(query(page).get('view')).toBe('line');
    await expect(page.locator('.nu-table__line').count()).resolves.toBe(ALL_NAMES.length);
    await expectInsideViewport(page);
    await screenshot(page, 'tables-line-view-en');
    await page.getByRole('button', { name: 'Columns view' }).click();
    await page.locator('.nu-table__grid .bp6-table-container').waitFor();
    expect(query(page).get('view')).toBe('columns');
    await screenshot(page, 'tables-columns-view-en');
    await page.getByRole('button', { name: 'Table view' }).click();
    await page.locator('table.nu-table__table').waitFor();
    expect(query(page).get('view')).toBeNull();

    // A reload shows the same rows (state in the URL).
    await page.reload();
    await expectRows(page, [...ALL_NAMES].reverse());

    // Expand the READY project: its LAS metadata (MixedConifer.laz header, data README).
    const row = page.locator(`[data-testid="project-row"][data-project-id="${coniferId}"]`);
    await row.getByRole('button', { name: 'Show details' }).click();
    const details = page.getByTestId('project-metadata');
    await details.waitFor();
    const field = (id: string) => details.locator(`[data-field="${id}"] dd`).textContent();
    await expect(field('lasVersion')).resolves.toBe('1.2');
    await expect(field('pointCount')).resolves.toBe('37,657');
    await expect(field('software')).resolves.toBe('las2las (version 171231)');
    await expect(field('systemId')).resolves.toBe('LAStools (c) by rapidlasso GmbH');
    await expect(field('crs')).resolves.toBe('EPSG:26912');
    await expect(field('maxElevation')).resolves.toBe('32.07 m');
    await expect(field('minElevation')).resolves.toBe('0 m');
    await expect(field('fileCreation')).resolves.toBe('2017');
    await expect(field('lasName')).resolves.toBe('MixedConifer.laz');
    await expect(field('memory')).resolves.toMatch(/^26\d(\.\d)? kB$/);
    await expect(field('area')).resolves.toMatch(/^\d+(\.\d+)? ha$/);
    // Points and area read as figures: right-aligned under their headers.
    await expect(
      row
        .locator('td.nu-table__num')
        .first()
        .evaluate((td) => getComputedStyle(td).textAlign),
    ).resolves.toBe('right');
    await screenshot(page, 'tables-expanded-en');

    // Selection: every row of the page, then the bulk action asks for confirmation (cancelled here).
    await page.getByLabel('Select all rows of the page').check({ force: true });
    await page.getByText(`${ALL_NAMES.length} selected`).waitFor();
    await page.getByRole('button', { name: `Delete ${ALL_NAMES.length} projects` }).click();
    await page.getByText(`Delete these ${ALL_NAMES.length} projects and every file produced from them?`).waitFor();
    await screenshot(page, 'tables-selection-en');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByLabel('Select all rows of the page').uncheck({ force: true });
    await expect(page.getByText(`${ALL_NAMES.length} selected`).count()).resolves.toBe(0);

    // The viewer's project information panel shows the same metadata.
    await page.goto(`${e2e().baseUrl}/#/user/projects/${coniferId}`);
    await page.getByTestId('project-info-button').click();
    const panel = page.getByTestId('project-info');
    await panel.waitFor();
    await page.getByRole('heading', { name: 'Project information' }).waitFor();
    const info = (id: string) => panel.locator(`[data-field="${id}"] dd`).textContent();
    await expect(info('name')).resolves.toBe('Conifer');
    await expect(info('lasVersion')).resolves.toBe('1.2');
    await expect(info('pointCount')).resolves.toBe('37,657');
    await expect(info('crs')).resolves.toBe('EPSG:26912');
    await expect(info('maxElevation')).resolves.toBe('32.07 m');
    await expect(info('software')).resolves.toBe('las2las (version 171231)');
    await expect(info('creatorEmail')).resolves.toBe(email);
    await screenshot(page, 'tables-viewer-info-en');
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
    await page.context().close();
  }, 300_000);

  it('searches, sorts and truncates on the admin lists (projects, tiling jobs)', async () => {
    const context = await newContext(browser, 'en-US');
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await logIn(page, e2e().adminEmail, e2e().adminPassword);
    await page.goto(`${e2e().baseUrl}/#/admin/projects/list`);
    const table = page.locator('[data-table="admin-projects"]');
    await table.locator('tbody tr').first().waitFor();
    await table.getByRole('searchbox').fill(email);
    await page.waitForFunction(() => new URLSearchParams(window.location.hash.split('?')[1]).get('search') !== null);
    await table.getByRole('button', { name: 'Name', exact: true }).click();
    await page
      .waitForFunction(
        (expected) =>
          JSON.stringify(
            [...document.querySelectorAll('[data-table="admin-projects"] tbody tr td:nth-child(3)')].map(
              (td) => td.textContent,
            ),
          ) === JSON.stringify(expected),
        ALL_NAMES.slice(0, 10),
        { timeout: 30_000 },
      )
      .catch(async (err: unknown) => {
        // What was on screen instead, to tell a wrong order from a wrong filter or a request that failed.
        await screenshot(page, 'tables-admin-projects-failed');
        const shown = await table.locator('tbody tr td:nth-child(3)').allTextContents();
        const text = (await table.textContent())?.slice(0, 400);
        throw new Error(
          `admin projects sorted by name: url ${page.url()}, names ${JSON.stringify(shown)}, table ${text}`,
          {
            cause: err,
          },
        );
      });
    expect(await table.locator('tbody tr td:nth-child(3)').allTextContents()).toEqual(ALL_NAMES.slice(0, 10));
    const box = await table.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(1280);
    await screenshot(page, 'tables-admin-projects-en');

    // The tiling monitor searches too (project name, file, email or job id).
    await page.goto(`${e2e().baseUrl}/#/admin/tiling/list`);
    const jobs = page.locator('[data-table="admin-tiling"]');
    // The monitor's first rows first, as on the projects list: the search then applies to a settled table.
    await jobs.locator('tbody tr').first().waitFor();
    // A search that matches no job empties the table (the search reaches the server).
    await jobs.getByRole('searchbox').fill('no-such-file-zq');
    await jobs.getByText('No data available').waitFor();
    expect(await jobs.locator('tbody tr').count()).toBe(0);
    await jobs.getByRole('searchbox').fill('MixedConifer');
    await page.waitForFunction(
      () => new URLSearchParams(window.location.hash.split('?')[1]).get('search') === 'MixedConifer',
    );
    await page
      .waitForFunction(() => {
        const rows = [...document.querySelectorAll('[data-table="admin-tiling"] tbody tr')];
        return rows.length > 0 && rows.every((r) => r.textContent?.includes('MixedConifer'));
      })
      .catch(async (err: unknown) => {
        // What was on screen instead: rows of other files, an error, or the unfiltered list.
        await screenshot(page, 'tables-admin-tiling-failed');
        const rows = await jobs.locator('tbody tr').allTextContents();
        throw new Error(`tiling monitor searched for MixedConifer: url ${page.url()}, rows ${JSON.stringify(rows)}`, {
          cause: err,
        });
      });
    await screenshot(page, 'tables-admin-tiling-en');
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it('shows the same table and panel in French', async () => {
    await apiCall(token, 'PATCH', '/users/current', { preferLanguage: 'fr' });
    const page = await openMyProjects('fr');
    await page.getByRole('columnheader', { name: 'Nom du projet' }).waitFor();
    await page.getByRole('button', { name: 'Nom du projet', exact: true }).click();
    await expectRows(page, ALL_NAMES.slice(0, 10));
    await expectInsideViewport(page);
    const row = page.locator(`[data-testid="project-row"][data-project-id="${coniferId}"]`);
    await row.getByRole('button', { name: 'Afficher les détails' }).click();
    const details = page.getByTestId('project-metadata');
    await details.getByText('Version LAS').waitFor();
    await expect(details.locator('[data-field="pointCount"] dd').textContent()).resolves.toMatch(/^37\s657$/);
    await screenshot(page, 'tables-expanded-fr');
    await page.goto(`${e2e().baseUrl}/#/user/projects/${coniferId}`);
    await page.getByRole('button', { name: 'Informations du projet' }).click();
    await page.getByRole('heading', { name: 'Informations du projet' }).waitFor();
    await page.getByTestId('project-info').getByText('Altitude maximale').waitFor();
    await screenshot(page, 'tables-viewer-info-fr');
    await page.context().close();
  }, 300_000);
});
