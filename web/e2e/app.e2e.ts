import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2e, hashRoute, launchBrowser, newContext, screenshot, waitForRoute } from './support.js';

describe('the built app', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('loads at / and shows the login page', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));

    const res = await page.goto(`${e2e().baseUrl}/`);
    expect(res?.status()).toBe(200);
    // `/` leads to the user page, whose guard sends a visitor to the login route.
    await waitForRoute(page, '/auth/login');
    await page.getByRole('heading', { name: 'Log in to Nuage' }).waitFor();
    expect(await page.title()).toBe('Log in to Nuage · Nuage');
    expect(hashRoute(page)).toBe('/auth/login');
    await expect(page.getByLabel('Email').isVisible()).resolves.toBe(true);
    await expect(page.getByLabel(/^Password/).isVisible()).resolves.toBe(true);
    await expect(
      page.getByRole('form', { name: 'Log in to Nuage' }).getByRole('button', { name: 'Log in' }).isEnabled(),
    ).resolves.toBe(true);
    await expect(page.getByRole('radio', { name: '30 days' }).isChecked()).resolves.toBe(true);
    await screenshot(page, 'login');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('logs in with the keyboard alone, and / then leads to the user page', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${e2e().baseUrl}/`);
    await page.getByRole('heading', { name: 'Log in to Nuage' }).waitFor();
    // The email field has the focus; Tab reaches the password, Enter submits.
    await page.keyboard.type(e2e().adminEmail);
    await page.keyboard.press('Tab');
    await page.keyboard.type(e2e().adminPassword);
    await page.keyboard.press('Enter');
    await waitForRoute(page, '/user');
    await page.goto(`${e2e().baseUrl}/`);
    await waitForRoute(page, '/user');
    expect(hashRoute(page)).toBe('/user');
    await context.close();
  });

  it('shows the not-found page for an unknown route', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${e2e().baseUrl}/#/no/such/page`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(await page.getByText('There is no page at /no/such/page.').isVisible()).toBe(true);
    await context.close();
  });
});
