import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2e, launchBrowser, logIn, newContext, screenshot } from './support.js';

/**
 * A page of another origin on the same site (localhost, another port: the
 * SameSite=Lax session cookie is sent) posts to the API with the visitor's
 * cookie: the API refuses with 403 CROSS_SITE_REQUEST and nothing changes.
 */
describe('CSRF from a page on another origin, in a real browser', () => {
  let browser: Browser;
  let attacker: Server;
  let attackerUrl: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    attacker = createServer((req, res) => {
      const targets = JSON.parse(decodeURIComponent(new URL(req.url ?? '/', 'http://x').searchParams.get('t') ?? '[]'));
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html><body><h1>Win a prize!</h1><p id="out">sending…</p><script>
        (async () => {
          const out = [];
          for (const url of ${JSON.stringify(targets)}) {
            try { await fetch(url, { method: 'POST', credentials: 'include', mode: 'no-cors' }); out.push('sent'); }
            catch (e) { out.push('error'); }
          }
          document.getElementById('out').textContent = out.join(',');
          document.body.dataset.done = '1';
        })();
      </script></body></html>`);
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    attackerUrl = `http://localhost:${(attacker.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (attacker ? attacker.close(() => resolve()) : resolve()));
  });

  it('refuses share-token creation and log-out-everywhere posted with the cookie from another origin', async () => {
    const { baseUrl, adminEmail, adminPassword } = e2e();
    const api = async (path: string, init: RequestInit = {}, token?: string) =>
      fetch(`${baseUrl}${path}`, {
        ...init,
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(init.headers ?? {}),
        },
      });
    const login = await api('/api/auth-jwt/login', {
      method: 'POST',
      body: JSON.stringify({ username: adminEmail, password: adminPassword }),
    });
    const { token } = (await login.json()) as { token: string };
    const created = await api(
      '/api/projects',
      { method: 'POST', body: JSON.stringify({ name: `CSRF target ${Date.now().toString(36)}` }) },
      token,
    );
    expect(created.status).toBe(201);
    const project = (await created.json()) as { id: string };
    const share = await api(`/api/projects/${project.id}/share-token`, { method: 'POST' }, token);
    const { token: shareToken } = (await share.json()) as { token: string };

    const context = await newContext(browser, 'en-US');
    const page = await context.newPage();
    await logIn(page, adminEmail, adminPassword);

    const targets = [`${baseUrl}/api/projects/${project.id}/share-token`, `${baseUrl}/api/auth-jwt/logout-everywhere`];
    const answers = targets.map((url) =>
      page.waitForResponse((r) => r.url() === url && r.request().method() === 'POST'),
    );
    await page.goto(`${attackerUrl}/?t=${encodeURIComponent(JSON.stringify(targets))}`);
    await page.locator('body[data-done="1"]').waitFor();
    for (const answer of answers) {
      const res = await answer;
      // 403 (not 401 UNAUTHORIZED): the browser did send the session cookie, and the API refused the origin.
      // (The body of a no-cors answer is opaque, even to the browser's debugger.)
      expect([res.url(), res.status()]).toEqual([res.url(), 403]);
    }
    await screenshot(page, 'csrf-attacker-page');

    // No effect: the share link still works and the session is still alive.
    const view = await api(`/api/projects/from-share-token?token=${encodeURIComponent(shareToken)}`);
    expect(view.status).toBe(200);
    await page.goto(`${baseUrl}/`);
    await page.getByRole('heading', { name: 'My projects' }).waitFor();
    const current = await page.evaluate(async () => (await fetch('/api/users/current')).status);
    expect(current).toBe(200);
    // The app's own pages still write with the cookie (same origin).
    const own = await page.evaluate(
      async (id) => (await fetch(`/api/projects/${id}/share-token`, { method: 'POST' })).status,
      project.id,
    );
    expect(own).toBe(201);
    await context.close();
  });
});
