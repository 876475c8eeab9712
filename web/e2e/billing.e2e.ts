import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, apiLogin } from './projects-helpers.js';
import { e2e, launchBrowser, logIn, newContext, screenshot, uniqueEmail, waitForRoute } from './support.js';

/**
 * Subscriptions, purchases and statistics (spec §2 purchase pages, admin
 * subscriptions and statistics) against the real server, whose Stripe client
 * talks to the harness's local Stripe-speaking server: its checkout page
 * takes the "payment" and sends the signed webhooks, like Stripe.
 */
describe('subscriptions, purchases and statistics', () => {
  let browser: Browser;
  let adminToken: string;
  const password = 'Surveyor-2026!';
  const errors: string[] = [];

  const newUser = async (prefix: string, preferLanguage = 'en-US') => {
    const email = uniqueEmail(prefix);
    await apiCall(adminToken, 'POST', '/users', {
      roles: ['user'],
      userJwt: { username: email, password },
      preferLanguage,
    });
    return email;
  };
  /** Logs in and waits for the landing page, so that a navigation right after is not undone by the login's own. */
  const enter = async (page: Page, email: string, pw: string) => {
    await logIn(page, email, pw);
    await waitForRoute(page, '/user');
  };
  const open = async (locale: string) => {
    const context = await newContext(browser, locale);
    const page = await context.newPage();
    page.on('pageerror', (err) => errors.push(err.message));
    return page;
  };

  beforeAll(async () => {
    browser = await launchBrowser();
    adminToken = await apiLogin();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('the admin creates PAID templates in the templates tab (limits in GB)', async () => {
    const page = await open('en-US');
    await enter(page, e2e().adminEmail, e2e().adminPassword);
    await page.goto(`${e2e().baseUrl}/#/admin/subscriptions?tab=templates`);
    const table = page.locator('[data-table="admin-templates"]');
    await table.getByText('Freemium').first().waitFor();

    await page.getByRole('button', { name: 'New template' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.locator('input[name="name"]').fill('Pro monthly');
    await dialog.locator('input[name="description"]').fill('For surveyors: 500 ha to start, 300 ha each month.');
    await dialog.locator('input[name="credits"]').fill('500');
    await dialog.locator('input[name="creditsAllowance"]').fill('300');
    await dialog.locator('select[name="allocationPeriod"]').selectOption('MONTH');
    await dialog.locator('input[name="maxProjects"]').fill('200');
    await dialog.locator('input[name="maxInputFileGb"]').fill('20');
    await dialog.locator('input[name="maxStorageGb"]').fill('500');
    await dialog.locator('input[name="price"]').fill('49');
    await dialog.locator('input[name="paymentProductId"]').fill(e2e().stripe.monthlyPrice);
    await dialog.locator('input[name="paymentProductReference"]').fill('pro-monthly');
    await dialog.getByText('Premium: may download the classified point cloud').click();
    await screenshot(page, 'billing-admin-template-form');
    await dialog.getByRole('button', { name: 'Create the template' }).click();
    await page.getByText('Template Pro monthly saved').waitFor();
    const row = table.locator('tr', { hasText: 'Pro monthly' });
    await row.getByText('20 GB').waitFor();
    await row.getByText('500 GB').waitFor();
    await expect(row.textContent()).resolves.toContain('PAID');

    // A pack, made through the API, and a deactivated plan that must not be offered.
    await apiCall(adminToken, 'POST', '/admin/subscription-templates', {
      name: 'Pack 1000 ha',
      category: 'PAID',
      credits: 1000,
      allocationPeriod: 'NONE',
      price: { amount: 9900, currency: 'eur' },
      paymentProductId: e2e().stripe.packPrice,
    });
    await apiCall(adminToken, 'POST', '/admin/subscription-templates', {
      name: 'Old plan',
      category: 'PAID',
      enabled: false,
      paymentProductId: e2e().stripe.monthlyPrice,
    });
    await page.reload();
    await table.getByText('Old plan').waitFor();
    await screenshot(page, 'billing-admin-templates');
  });

  it('buy → Stripe checkout → success: credits added, subscription ready, shown on the account page', async () => {
    const email = await newUser('buyer');
    const page = await open('en-US');
    await enter(page, email, password);
    await page.goto(`${e2e().baseUrl}/#/user/subscription/buy`);
    const offer = page.locator('.nu-offer', { hasText: 'Pro monthly' });
    await offer.waitFor();
    expect(await page.locator('.nu-offer', { hasText: 'Old plan' }).count()).toBe(0);
    await expect(offer.textContent()).resolves.toContain('€49.00');
    await expect(offer.textContent()).resolves.toContain('500 ha to start, then 300 ha every month');
    await screenshot(page, 'billing-buy-en');

    await offer.getByRole('button', { name: 'Subscribe' }).click();
    await page.waitForURL(/\/pay\/cs_test_/);
    await page.getByTestId('amount').waitFor();
    await screenshot(page, 'billing-stripe-checkout');
    await page.getByRole('button', { name: 'Pay' }).click();

    await waitForRoute(page, '/user/subscription/buy/success');
    const result = page.getByTestId('purchase-result');
    await result.getByText('Credits added: 500 ha.').waitFor();
    await result.getByText('Your subscription Pro monthly is ready: 1,500 ha available.').waitFor();
    await screenshot(page, 'billing-success-en');

    await page.getByRole('button', { name: 'Back to my subscription' }).click();
    await waitForRoute(page, '/user/subscription');
    await page.getByTestId('subscription-name').getByText('Pro monthly').waitFor();
    await page.getByTestId('credits').getByText('1,500 ha').waitFor();
    await page.locator('[data-table="my-credits"]').getByText('Credits allocated').first().waitFor();
    await page.getByTestId('limit-file').getByText('20 GB').waitFor();
    await screenshot(page, 'billing-subscription-en');

    await page.goto(`${e2e().baseUrl}/#/user/settings`);
    const card = page.getByTestId('account-subscription');
    await card.getByText('Pro monthly').waitFor();
    await card.getByText('Moved between subscriptions').first().waitFor();
    // Cancel: effective at the anniversary, active until then.
    await card.getByRole('button', { name: 'Cancel my subscription' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel the subscription' }).click();
    await page.getByTestId('cancel-pending').waitFor();
    await card.getByText('Cancellation pending').waitFor();
    await screenshot(page, 'billing-account-cancelled-en');
  });

  it('the cancel page in French: the purchase is cancelled', async () => {
    const email = await newUser('annule', 'fr');
    const page = await open('fr-FR');
    await enter(page, email, password);
    await page.goto(`${e2e().baseUrl}/#/user/subscription/buy`);
    const offer = page.locator('.nu-offer', { hasText: 'Pack 1000 ha' });
    await offer.waitFor();
    await expect(offer.textContent()).resolves.toContain('99,00');
    await screenshot(page, 'billing-buy-fr');
    await offer.getByRole('button', { name: 'Acheter' }).click();
    await page.waitForURL(/\/pay\/cs_test_/);
    await page.getByRole('link', { name: 'Back' }).click();
    await waitForRoute(page, '/user/subscription/buy/cancel');
    await page.getByText("L'achat est annulé.").waitFor();
    await screenshot(page, 'billing-cancel-fr');
    await page.goto(`${e2e().baseUrl}/#/user/subscription`);
    await page.getByTestId('subscription-name').getByText('Freemium').waitFor();
    await page.getByText('Abonnement en cours').first().waitFor();
    await screenshot(page, 'billing-subscription-fr');
  });

  it('the admin manages subscriptions: subscribed tab, view, suspend, reactivate, credits by hand, history', async () => {
    const page = await open('en-US');
    await enter(page, e2e().adminEmail, e2e().adminPassword);
    await page.goto(`${e2e().baseUrl}/#/admin/subscriptions?tab=subscribed`);
    const table = page.locator('[data-table="admin-subscribed"]');
    const row = table.locator('tr', { hasText: 'Pro monthly' }).first();
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain('Cancellation pending');
    await screenshot(page, 'billing-admin-subscribed');
    await row.getByRole('link', { name: /^\d+$/ }).click();
    await waitForRoute(page, '/admin/subscriptions/view/');
    await page.getByRole('button', { name: 'Suspend' }).click();
    await page.getByText('Subscription suspended').first().waitFor();
    await page.getByRole('button', { name: 'Reactivate' }).click();
    await page.getByText('Subscription reactivated').first().waitFor();
    await page.locator('#grant-hectares').fill('250');
    await page.locator('#grant-note').fill('Survey campaign');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('Done: 1,750 ha available.').waitFor();
    const history = page.getByTestId('history');
    await history.getByText('Credits granted').waitFor();
    await history.getByText('Reactivated').waitFor();
    await history.getByText(`by ${e2e().adminEmail}`).first().waitFor();
    await history.getByText('Cancellation requested').waitFor();
    await screenshot(page, 'billing-admin-subscription-view');
  });

  it('statistics: charts from real data, overview and subscriptions tabs, in English and French', async () => {
    // The admin's account language wins after login: French for the second round, back to English after
    // (one admin only: other journeys count on being the last one).
    const setLanguage = (preferLanguage: string) => apiCall(adminToken, 'PATCH', '/users/current', { preferLanguage });
    try {
      for (const [locale, tabs, language] of [
        ['en-US', ['Overview', 'Subscriptions'], 'en-US'],
        ['fr-FR', ["Vue d'ensemble", 'Abonnements'], 'fr'],
      ] as const) {
        await setLanguage(language);
        const page = await open(locale);
        await enter(page, e2e().adminEmail, e2e().adminPassword);
        // By month over the last 12 months in English, by day over the last 30 days in French.
        await page.goto(`${e2e().baseUrl}/#/admin/statistics?tab=overview${locale === 'fr-FR' ? '&interval=day' : ''}`);
        await page.getByTestId('chart-users').locator('.recharts-bar-rectangle').first().waitFor();
        const users = Number(await page.getByTestId('kpi-users').textContent());
        expect(users).toBeGreaterThanOrEqual(3);
        await page.getByTestId('chart-processing').waitFor();
        await screenshot(page, `billing-statistics-overview-${locale}`);
        await page.getByRole('tab', { name: tabs[1] }).click();
        await page.getByTestId('chart-templates').locator('.recharts-bar-rectangle').first().waitFor();
        await page.getByTestId('chart-revenue').locator('.recharts-bar-rectangle').first().waitFor();
        await expect(page.getByTestId('kpi-revenue-eur').textContent()).resolves.toMatch(/49[.,]00/);
        await screenshot(page, `billing-statistics-subscriptions-${locale}`);
        await page.getByRole('tab', { name: tabs[0] }).click();
        await page.getByTestId('chart-hectares').waitFor();
        await page.context().close();
      }
    } finally {
      await setLanguage('en-US');
    }
  });

  it('without Stripe keys the buy page says purchases are not configured', async () => {
    const email = await newUser('nokeys');
    const page: Page = await open('en-US');
    // The server of this run has keys: answer the offers as a server without them would.
    await page.route('**/api/billing/offers', async (route) => {
      const res = await route.fetch();
      const body = await res.json();
      await route.fulfill({ response: res, json: { ...body, paymentsConfigured: false } });
    });
    await enter(page, email, password);
    await page.goto(`${e2e().baseUrl}/#/user/subscription/buy`);
    await page
      .getByTestId('payments-not-configured')
      .getByText('Purchases are not configured on this server.')
      .waitFor();
    expect(await page.locator('.nu-offer button').first().isDisabled()).toBe(true);
    await screenshot(page, 'billing-not-configured');
    expect(errors).toEqual([]);
  });
});
