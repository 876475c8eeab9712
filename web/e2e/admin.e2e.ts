import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2e, hashRoute, launchBrowser, logIn, newContext, screenshot, uniqueEmail, waitForRoute } from './support.js';

describe('admin users', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('the admin creates a user and changes its role', async () => {
    const context = await newContext(browser, 'en-US');
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await logIn(page, e2e().adminEmail, e2e().adminPassword);

    // The admin area opens on the projects list; its menu leads to the users.
    await page.getByRole('link', { name: 'Administration' }).click();
    await waitForRoute(page, '/admin/projects/list');
    await page.getByRole('menuitem', { name: 'Users' }).click();
    await waitForRoute(page, '/admin/users/list');
    const table = page.locator('[data-table="admin-users"]');
    await table.getByRole('link', { name: e2e().adminEmail }).waitFor();

    // The only admin sees the last-admin warning on their own page and cannot drop the role.
    await table.getByRole('link', { name: e2e().adminEmail }).click();
    await waitForRoute(page, '/admin/users/view/');
    await page.getByText('This is the last administrator.').waitFor();
    expect(await page.getByRole('radio', { name: 'User' }).isDisabled()).toBe(true);
    await screenshot(page, 'admin-last-admin');
    await page.getByRole('menuitem', { name: 'Users' }).click();
    await waitForRoute(page, '/admin/users/list');

    // Create a user: a taken email is refused, then a new one is created.
    const email = uniqueEmail('hopper');
    await page.getByRole('button', { name: 'Create a user' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.locator('input[name="username"]').fill(e2e().adminEmail);
    await dialog.locator('input[name="password"]').fill('Compiler-1952!');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await dialog.getByText('An account already exists with this email.').first().waitFor();
    await screenshot(page, 'admin-create-exists');
    await dialog.locator('input[name="username"]').fill(email);
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await waitForRoute(page, '/admin/users/view/');
    await page.getByRole('heading', { name: email, level: 1 }).waitFor();
    await page.getByText(`User ${email} created`).waitFor();

    // Make them an admin: success message, then the tag.
    await page.locator('label.bp6-radio', { hasText: 'Admin' }).click();
    await page.getByRole('button', { name: 'Save the role' }).click();
    await page.getByText('User role updated successfully').waitFor();
    await page.locator('.nu-page__actions').getByText('Admin').waitFor();
    await screenshot(page, 'admin-user-view');

    // Back to user, through the confirmation an admin's demotion asks for.
    await page.locator('label.bp6-radio', { hasText: 'User' }).click();
    await page.getByRole('button', { name: 'Save the role' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Save the role' }).click();
    await page.locator('.nu-page__actions').getByText('User').waitFor();

    // The list finds them, sorts, expands a row, and keeps its state in the query values.
    await page.getByRole('menuitem', { name: 'Users' }).click();
    await waitForRoute(page, '/admin/users/list');
    await table.getByRole('searchbox').fill(email.slice(0, 12));
    await table.getByRole('link', { name: email }).waitFor();
    await page.waitForFunction(() => window.location.hash.includes('search='));
    await expect.poll(() => table.locator('tbody tr').count(), { timeout: 30_000 }).toBe(1);
    await table.getByRole('button', { name: 'Show details' }).click();
    await table.getByText('Email confirmed').waitFor();
    await table.getByRole('searchbox').fill('');
    // The cleared search reaches the query values (50 ms debounce) and the full list is back.
    await page.waitForFunction(() => !window.location.hash.includes('search='));
    await expect.poll(() => table.locator('tbody tr').count(), { timeout: 30_000 }).toBeGreaterThan(1);
    await table.getByRole('button', { name: 'Email', exact: true }).click();
    await page.waitForFunction(() => window.location.hash.includes('sortBy=email'));
    const route = hashRoute(page);
    expect(route).toContain('tableUrlId=admin-users');
    expect(route).toContain('descending=false');
    await screenshot(page, 'admin-users-list');
    // The same rows as a spreadsheet (columns) and as lines; the view is a query value too.
    await table.getByRole('button', { name: 'Columns view' }).click();
    await table.locator('.bp6-table-container').waitFor();
    await page.waitForFunction(() => window.location.hash.includes('view=columns'));
    await screenshot(page, 'admin-users-columns');
    await table.getByRole('button', { name: 'Line view' }).click();
    await table.locator('.nu-table__line').first().waitFor();
    await screenshot(page, 'admin-users-lines');
    await table.getByRole('button', { name: 'Table view' }).click();
    await table.locator('tbody tr').first().waitFor();
    // Leaving and coming back by the menu re-applies the query values.
    await page.getByRole('menuitem', { name: 'Projects' }).click();
    await waitForRoute(page, '/admin/projects/list');
    await page.getByRole('menuitem', { name: 'Users' }).click();
    await page.waitForFunction(() => window.location.hash.includes('sortBy=email'));
    await table.locator('tbody tr').first().waitFor();
    // The table follows the dark theme.
    await page.getByRole('button', { name: 'Switch to the dark theme' }).click();
    await page.waitForFunction(() => document.body.classList.contains('bp6-dark'));
    await screenshot(page, 'admin-users-dark');
    await page.getByRole('button', { name: 'Switch to the light theme' }).click();
    expect(errors).toEqual([]);
    await context.close();

    // The demoted user logs in with the user role: the admin area sends them to the login page.
    const reset = await fetch(`${e2e().baseUrl}/api/auth-jwt/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: email, password: 'Compiler-1952!' }),
    });
    expect(reset.status).toBe(200);
    const userContext = await newContext(browser, 'en-US');
    const userPage = await userContext.newPage();
    await logIn(userPage, email, 'Compiler-1952!');
    expect(await userPage.getByRole('link', { name: 'Administration' }).count()).toBe(0);
    await userPage.goto(`${e2e().baseUrl}/#/admin/users/list`);
    await waitForRoute(userPage, '/auth/login?reason=forbidden');
    await userPage.getByText('Your account cannot open that page.').waitFor();
    await userContext.close();
  });

  it('keeps the purchase path for after the login', async () => {
    const context = await newContext(browser, 'en-US');
    const page = await context.newPage();
    await page.goto(`${e2e().baseUrl}/#/user/subscription/buy`);
    await waitForRoute(page, '/auth/login?goBackToRouteFullPath=');
    expect(hashRoute(page)).toBe('/auth/login?goBackToRouteFullPath=%2Fuser%2Fsubscription%2Fbuy');
    await page.locator('input[name="username"]').fill(e2e().adminEmail);
    await page.locator('input[name="password"]').fill(e2e().adminPassword);
    await page.locator('form button[type="submit"]').click();
    await waitForRoute(page, '/user/subscription/buy');
    await page.getByRole('heading', { name: 'Buy', level: 1 }).waitFor();
    await context.close();
  });
});
