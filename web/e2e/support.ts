import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { inject, onTestFailed } from 'vitest';

/** Generous waits: the machine runs the server, its worker, PostGIS and chromium on 2 cores. */
export const UI_TIMEOUT = 30_000;

/** Addresses and accounts of the running test server (see harness.ts). */
export function e2e() {
  return inject('e2e');
}

/** Starts Debian's chromium (never a downloaded browser). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
    ],
  });
}

/** A fresh browser profile (no cookies, no storage) with a language and a desktop window. */
export async function newContext(browser: Browser, locale = 'en-US'): Promise<BrowserContext> {
  const context = await browser.newContext({
    locale,
    viewport: { width: 1280, height: 800 },
    baseURL: e2e().baseUrl,
  });
  context.setDefaultTimeout(UI_TIMEOUT);
  context.setDefaultNavigationTimeout(60_000);
  // A failed test leaves a picture of every page it had open.
  onTestFailed(async ({ task }) => {
    const name = task.name.replace(/[^A-Za-z0-9]+/g, '-').slice(0, 60);
    for (const [i, page] of context.pages().entries()) {
      await page.screenshot({ path: path.join(e2e().screenshotDir, `FAILED-${name}-${i}.png`) }).catch(() => {});
    }
  });
  return context;
}

/** Saves a full-page screenshot under the harness's screenshot folder; returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const file = path.join(e2e().screenshotDir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** The path and query of the hash route the page shows (`/auth/login?x=1`). */
export function hashRoute(page: Page): string {
  return new URL(page.url()).hash.replace(/^#/, '') || '/';
}

/** Waits until the hash route starts with `prefix`. */
export async function waitForRoute(page: Page, prefix: string): Promise<void> {
  await page.waitForFunction((p) => window.location.hash.replace(/^#/, '').startsWith(p), prefix, {
    timeout: UI_TIMEOUT,
  });
}

interface MaildevMail {
  id: string;
  subject: string;
  html?: string;
  text?: string;
  to: Array<{ address: string }>;
  date: string;
}

/** Waits for a mail to `to` whose subject matches, newer than `since`; returns it. */
export async function waitForMail(to: string, subject: RegExp, since = 0, ms = 60_000): Promise<MaildevMail> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const res = await fetch(`${e2e().maildevUrl}/email`);
    const mails = (await res.json()) as MaildevMail[];
    const found = mails
      .filter((m) => m.to.some((a) => a.address.toLowerCase() === to.toLowerCase()))
      .filter((m) => subject.test(m.subject) && new Date(m.date).getTime() >= since)
      .at(-1);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`no mail to ${to} matching ${subject} within ${ms} ms`);
}

/** The first link of a mail that opens the given hash route of the app. */
export function linkIn(mail: MaildevMail, hashRoutePath: string): string {
  const body = `${mail.html ?? ''}\n${mail.text ?? ''}`;
  const escaped = hashRoutePath.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const m = body.match(new RegExp(`https?://[^\\s"'<>]*#${escaped}\\?token=[^\\s"'<>]+`));
  if (!m) throw new Error(`no ${hashRoutePath} link in the mail "${mail.subject}"`);
  return m[0].replace(/&amp;/g, '&');
}

/** Logs in through the login form (English or French labels) and waits to leave the login page. */
export async function logIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${e2e().baseUrl}/#/auth/login`);
  const form = page.locator('form').first();
  await form.locator('input[name="username"]').fill(email);
  await form.locator('input[name="password"]').fill(password);
  await form.locator('button[type="submit"]').click();
  await page.waitForFunction(() => !window.location.hash.startsWith('#/auth/login'), undefined, {
    timeout: UI_TIMEOUT,
  });
}

/** A unique address for a test account. */
export function uniqueEmail(prefix: string): string {
  return `${prefix}.${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}@example.com`;
}
