import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  e2e,
  hashRoute,
  launchBrowser,
  linkIn,
  logIn,
  newContext,
  screenshot,
  uniqueEmail,
  waitForMail,
  waitForRoute,
} from './support.js';

const PASSWORD = 'Cartography-42!';

describe('account journeys', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('register → activation mail → activate → log in → French → dark theme → log out', async () => {
    const email = uniqueEmail('ada');
    const context = await newContext(browser, 'en-US');
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));

    // Sign-up, with the client-side rules first.
    await page.goto(`${e2e().baseUrl}/#/auth/register`);
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    await page.getByLabel('Email').fill('ada@mailinator.com');
    await page.locator('input[name="password"]').fill('short');
    await page.getByRole('button', { name: 'Create my account' }).click();
    await page.getByText('Disposable email addresses are not allowed.').waitFor();
    await page.getByText('At least 8 characters.').waitFor();
    await page.getByText('Choose a country.').waitFor();
    await screenshot(page, 'register-errors');

    await page.getByLabel('Email').fill(email);
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByLabel('Company (optional)').fill('Analytical Engines');
    await page.getByLabel('Country').selectOption('GB');
    await page.locator('input[name="password"]').fill(PASSWORD);
    await page.locator('input[name="confirmPassword"]').fill(PASSWORD);
    const sent = Date.now() - 1000;
    await page.getByRole('button', { name: 'Create my account' }).click();
    await page.getByRole('heading', { name: 'Check your mailbox' }).waitFor();
    expect(await page.getByText(`We sent an activation link to ${email}`).isVisible()).toBe(true);

    // The account cannot log in before activation.
    await logInExpectingError(page, email, PASSWORD, 'This account is not activated yet');

    // The activation mail's link activates the account.
    const mail = await waitForMail(email, /activate/i, sent);
    const link = linkIn(mail, '/registration-token');
    expect(link.startsWith(`${e2e().baseUrl}/#/registration-token?token=`)).toBe(true);
    await page.goto(link);
    await page.getByText(`Your account ${email} is active. You can log in.`).waitFor();
    await screenshot(page, 'activation-done');
    // The countdown leads to the login page by itself.
    await waitForRoute(page, '/auth/login');

    await logIn(page, email, PASSWORD);
    expect(hashRoute(page)).toBe('/user');
    await page.getByRole('heading', { name: 'My projects', level: 1 }).waitFor();
    await page.getByTestId('user-menu').getByText('Ada Lovelace').waitFor();
    await screenshot(page, 'user-page');

    // French, stored on the user.
    await page.getByTestId('language-select').selectOption('fr');
    await page.getByRole('link', { name: 'Mes projets' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');

    // Dark theme, stored on the user.
    await page.getByRole('button', { name: 'Passer au thème sombre' }).click();
    await page.waitForFunction(() => document.body.classList.contains('bp6-dark'));
    await page.getByRole('button', { name: 'Passer au thème clair' }).waitFor();
    await page.goto(`${e2e().baseUrl}/#/user/settings`);
    await page.getByRole('heading', { name: 'Paramètres du compte' }).waitFor();
    expect(await page.getByLabel('Thème sombre').isChecked()).toBe(true);
    await screenshot(page, 'settings-dark-fr');

    // A new browser profile (no local storage) gets both preferences from the account.
    const other = await newContext(browser, 'en-US');
    const page2 = await other.newPage();
    await logIn(page2, email, PASSWORD);
    await page2.getByRole('link', { name: 'Mes projets' }).waitFor();
    expect(await page2.evaluate(() => document.body.classList.contains('bp6-dark'))).toBe(true);
    await other.close();

    // Log out: the session ends and the browser returns to the origin, then the login page.
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Se déconnecter' }).click();
    await page.getByRole('heading', { name: 'Connexion à Nuage' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await page.goto(`${e2e().baseUrl}/#/user/settings`);
    await waitForRoute(page, '/auth/login');
    const stillLoggedIn = await page.evaluate(async () => (await fetch('/api/users/current')).status);
    expect(stillLoggedIn).toBe(401);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('forgotten password → reset link → new password → log in', async () => {
    const email = uniqueEmail('grace');
    // An account made by the admin through the API, so this journey stands alone.
    const admin = await apiLogin(e2e().adminEmail, e2e().adminPassword);
    const created = await fetch(`${e2e().baseUrl}/api/users`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${admin}` },
      body: JSON.stringify({ roles: ['user'], userJwt: { username: email, password: PASSWORD } }),
    });
    expect(created.status).toBe(201);

    const context = await newContext(browser, 'en-US');
    const page = await context.newPage();
    await page.goto(`${e2e().baseUrl}/#/auth/login`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Forgotten password' }).waitFor();
    await page.getByLabel('Email').fill(email);
    const sent = Date.now() - 1000;
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByText(`If an account exists for ${email}`).waitFor();
    // The resend button counts down before it can be used again.
    await page.getByRole('button', { name: /Send again in \d+ seconds?/ }).waitFor();
    await screenshot(page, 'forgot-sent');

    // An invalid link is refused before any form.
    await page.goto(`${e2e().baseUrl}/#/reset-password-token?token=not-a-real-token`);
    await page.getByText('This link cannot be used').waitFor();
    await screenshot(page, 'reset-invalid');

    const mail = await waitForMail(email, /reset/i, sent);
    await page.goto(linkIn(mail, '/reset-password-token'));
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await page.getByText(`New password for ${email}.`).waitFor();
    const NEW_PASSWORD = 'Triangulation-77?';
    await page.locator('input[name="password"]').fill(NEW_PASSWORD);
    await page.locator('input[name="confirmPassword"]').fill('Triangulation-78?');
    await page.getByRole('button', { name: 'Save the new password' }).click();
    await page.getByText('The passwords do not match.').waitFor();
    await page.locator('input[name="confirmPassword"]').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Save the new password' }).click();
    await page.getByText('Your password has been changed.').waitFor();
    await page.getByText(/You will be taken to the login page in \d+ seconds?/).waitFor();
    await screenshot(page, 'reset-done');
    await waitForRoute(page, '/auth/login');

    // The old password no longer works; the new one does.
    await logInExpectingError(page, email, PASSWORD, 'Invalid email or password.');
    await logIn(page, email, NEW_PASSWORD);
    expect(hashRoute(page)).toBe('/user');
    await context.close();
  });

  it('a browser set to fr-CA gets French', async () => {
    const context = await newContext(browser, 'fr-CA');
    const page = await context.newPage();
    await page.goto(`${e2e().baseUrl}/`);
    await page.getByRole('heading', { name: 'Connexion à Nuage' }).waitFor();
    expect(await page.getByLabel('Adresse e-mail').isVisible()).toBe(true);
    expect(await page.getByLabel(/^Mot de passe/).isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');
    // A wrong password is explained in French, translated from the API's code.
    await page.getByLabel('Adresse e-mail').fill('nobody@example.com');
    await page.getByLabel(/^Mot de passe/).fill('Wrong-passw0rd');
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.getByText('Adresse e-mail ou mot de passe incorrect.').waitFor();
    await screenshot(page, 'login-fr-ca');
    // After login the account's language (en-US for the admin) replaces the browser's.
    await page.getByLabel('Adresse e-mail').fill(e2e().adminEmail);
    await page.getByLabel(/^Mot de passe/).fill(e2e().adminPassword);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.getByRole('link', { name: 'My projects' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en-US');
    await context.close();

    const us = await newContext(browser, 'de-DE');
    const page2 = await us.newPage();
    await page2.goto(`${e2e().baseUrl}/`);
    await page2.getByRole('heading', { name: 'Log in to Nuage' }).waitFor();
    await us.close();
  });
});

/** Submits the login form and waits for the given error text. */
async function logInExpectingError(
  page: import('playwright-core').Page,
  email: string,
  password: string,
  text: string,
): Promise<void> {
  await page.goto(`${e2e().baseUrl}/#/auth/login`);
  await page.locator('input[name="username"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.locator('form button[type="submit"]').click();
  await page.getByRole('alert').filter({ hasText: text }).waitFor();
}

/** A bearer token for API calls made by the test itself. */
async function apiLogin(email: string, password: string): Promise<string> {
  const res = await fetch(`${e2e().baseUrl}/api/auth-jwt/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: email, password }),
  });
  if (!res.ok) throw new Error(`login of ${email} failed: HTTP ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}
