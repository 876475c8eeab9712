import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2e, launchBrowser, logIn, newContext, screenshot } from './support.js';

describe('personal access tokens for GIS tools', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('account settings → create a token → copy it once → it opens /ogc → revoke → it stops', async () => {
    const context = await newContext(browser, 'en-US');
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await logIn(page, e2e().adminEmail, e2e().adminPassword);
    // Once the login has landed on the projects page (it navigates there itself).
    await page.getByRole('heading', { name: 'My projects' }).waitFor();
    await page.goto(`${e2e().baseUrl}/#/user/settings`);
    const card = page.getByTestId('access-tokens');
    await card.getByRole('heading', { name: 'Access tokens for GIS tools' }).waitFor();
    await card.getByText(`${e2e().baseUrl}/ogc`).waitFor();

    const name = `QGIS ${Date.now().toString(36)}`;
    await card.getByLabel('Name').fill(name);
    await card.getByLabel('Valid').selectOption('30');
    await card.getByRole('button', { name: 'Create a token' }).click();
    const field = card.getByTestId('new-access-token');
    await field.waitFor();
    const token = await field.inputValue();
    expect(token).toMatch(/^nuage_pat_[A-Za-z0-9_-]{43}$/);
    await card.getByText('Copy it now: it will not be shown again.', { exact: false }).waitFor();
    await screenshot(page, 'access-token-created');

    // The token opens the OGC API (never the rest of the API).
    const ogc = await fetch(`${e2e().baseUrl}/ogc/collections`, { headers: { Authorization: `Bearer ${token}` } });
    expect(ogc.status).toBe(200);
    const api = await fetch(`${e2e().baseUrl}/api/users/current`, { headers: { Authorization: `Bearer ${token}` } });
    expect(api.status).toBe(401);

    // Once dismissed, the list shows its name and beginning, never the token.
    await card.getByRole('button', { name: 'I have copied it' }).click();
    const row = card.locator('tr', { hasText: name });
    await row.waitFor();
    expect(await card.textContent()).not.toContain(token);
    await row.getByText(`${token.slice(0, 16)}…`).waitFor();
    await screenshot(page, 'access-tokens-list');

    await row.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke' }).click();
    await page.getByText(`Token "${name}" revoked`).waitFor();
    await row.waitFor({ state: 'detached' });
    const after = await fetch(`${e2e().baseUrl}/ogc/collections`, { headers: { Authorization: `Bearer ${token}` } });
    expect(after.status).toBe(401);
    expect(errors).toEqual([]);
    await context.close();
  });
});
