import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page, type Request } from 'playwright-core';
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
  const trouble = watchApi(context);
  // A failed test leaves a picture of every page it had open, and says what the API answered badly or slowly.
  onTestFailed(async ({ task }) => {
    const name = task.name.replace(/[^A-Za-z0-9]+/g, '-').slice(0, 60);
    for (const [i, page] of context.pages().entries()) {
      await page.screenshot({ path: path.join(e2e().screenshotDir, `FAILED-${name}-${i}.png`) }).catch(() => {});
    }
    console.error(`[${task.name}] ${await trouble()}`);
  });
  return context;
}

/**
 * Records the API, tile and OGC requests of a browser context that failed (status ≥ 500,
 * no answer) or took more than 5 s; the returned function describes them with
 * the server log's last warnings, for a failure message.
 */
function watchApi(context: BrowserContext): () => Promise<string> {
  const seen: string[] = [];
  const started = new Map<Request, number>();
  const note = (line: string) => {
    seen.push(`${new Date().toISOString().slice(11, 23)} ${line}`);
    if (seen.length > 40) seen.shift();
  };
  context.on('request', (req) => {
    if (/\/(api|tiles|ogc)\//.test(new URL(req.url()).pathname)) started.set(req, Date.now());
  });
  context.on('requestfinished', async (req) => {
    const t0 = started.get(req);
    if (t0 === undefined) return;
    started.delete(req);
    const ms = Date.now() - t0;
    const status = (await req.response().catch(() => null))?.status() ?? 0;
    if (status >= 500 || ms > 5000) note(`${req.method()} ${req.url()} → ${status} in ${ms} ms`);
  });
  context.on('requestfailed', (req) => {
    const t0 = started.get(req);
    if (t0 === undefined) return;
    started.delete(req);
    note(`${req.method()} ${req.url()} failed after ${Date.now() - t0} ms: ${req.failure()?.errorText}`);
  });
  return async () => {
    const pending = [...started]
      .slice(0, 30)
      .map(([req, t0]) => `${req.method()} ${req.url()} waiting ${Date.now() - t0} ms`);
    const log = await readFile(e2e().serverLog, 'utf8').catch(() => '');
    const serverLines = log.trim().split('\n').slice(-15);
    return [
      `API requests failed or slow: ${seen.length ? `\n  ${seen.join('\n  ')}` : 'none'}`,
      `API requests unanswered: ${pending.length ? `\n  ${pending.join('\n  ')}` : 'none'}`,
      `server log (last lines):\n  ${serverLines.join('\n  ')}`,
    ].join('\n');
  };
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
  // The login page may navigate once more as it re-renders signed in (to the same landing page): a
  // page.goto() issued before that lands would be overridden by it. Wait until the route stays put.
  await settledRoute(page);
}

/** Waits until the hash route has not changed for 600 ms (at most UI_TIMEOUT). */
export async function settledRoute(page: Page): Promise<string> {
  const deadline = Date.now() + UI_TIMEOUT;
  let last = await page.evaluate(() => window.location.hash);
  let since = Date.now();
  while (Date.now() < deadline) {
    await page.waitForTimeout(150);
    const now = await page.evaluate(() => window.location.hash);
    if (now !== last) {
      last = now;
      since = Date.now();
    } else if (Date.now() - since >= 600) {
      return now;
    }
  }
  return last;
}

/**
 * Opens a hash route of the app and makes sure the app shows it: a navigation
 * the app had pending (a redirect after login) may replace it once, so it is
 * opened again until the route sticks.
 */
export async function openRoute(page: Page, route: string): Promise<void> {
  const target = `#${route}`;
  for (let attempt = 0; attempt < 3; attempt++) {
    await page.goto(`${e2e().baseUrl}/${target}`);
    if ((await settledRoute(page)).startsWith(target)) return;
  }
  throw new Error(`the app would not stay on ${route} (it shows ${await page.evaluate(() => window.location.hash)})`);
}

/** A unique address for a test account. */
export function uniqueEmail(prefix: string): string {
  return `${prefix}.${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}@example.com`;
}
