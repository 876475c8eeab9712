import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, send, tokenFromMail } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { renderMail } from './mail.templates.js';

describe('mail without SMTP_URL (outbox)', () => {
  let t: TestApp;
  const logged: Array<Record<string, unknown>> = [];
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'true' });
    // Capture what the mailer logs (the links a fresh install needs).
    const info = t.deps.log.info.bind(t.deps.log);
    t.deps.log.info = ((obj: unknown, ...rest: unknown[]) => {
      if (obj && typeof obj === 'object') logged.push(obj as Record<string, unknown>);
      return (info as (...a: unknown[]) => void)(obj, ...rest);
    }) as typeof t.deps.log.info;
  });
  afterAll(() => t?.close());

  it('writes each mail as an .eml file in <DATA_DIR>/outbox and logs its link, which then works', async () => {
    const res = await t.app.request(
      '/api/auth-jwt/register',
      send('POST', {
        username: 'offline@example.com',
        password: 'Quiet-Install-5',
        firstname: 'Olga',
        lastname: 'Offline',
        country: 'DE',
      }),
    );
    expect(res.status).toBe(201);
    expect((await json(res)).activationMailSent).toBe(true);
    const dir = path.join(t.dataDir, 'outbox');
    const files = (await readdir(dir)).filter((f) => f.endsWith('.eml'));
    expect(files).toHaveLength(1);
    const eml = await readFile(path.join(dir, files[0]!), 'utf8');
    expect(eml).toMatch(/^To: offline@example\.com$/m);
    expect(eml).toMatch(/^Subject: Activate your Nuage account$/m);
    const entry = logged.find((l) => Array.isArray(l.links));
    expect(entry?.file).toBe(path.join(dir, files[0]!));
    const link = (entry!.links as string[])[0]!;
    expect(link).toMatch(/^http:\/\/localhost:8080\/#\/registration-token\?token=/);
    const act = await t.app.request('/api/auth-jwt/activate-from-mail', send('POST', { token: tokenFromMail(link) }));
    expect(act.status).toBe(200);
  });
});

describe('mail templates', () => {
  it('renders each mail in en-US and French, with the link in text and HTML and names escaped', () => {
    const link = 'http://localhost:8080/#/reset-password-token?token=abc';
    const en = renderMail({ id: 'password-reset', name: '<b>Ada</b>', link, minutes: 60 }, 'en-US');
    const fr = renderMail({ id: 'password-reset', name: 'Ada', link, minutes: 60 }, 'fr');
    expect(en.subject).toBe('Reset your Nuage password');
    expect(fr.subject).toBe('Réinitialisez votre mot de passe Nuage');
    expect(en.text).toContain(link);
    expect(en.html).toContain('href="http://localhost:8080/#/reset-password-token?token=abc"');
    expect(en.html).not.toContain('<b>Ada</b>');
    expect(en.html).toContain('&#60;b&#62;Ada');
    expect(en.links).toEqual([link]);
    const none = renderMail(
      { id: 'reset-no-account', email: 'x@example.com', registerLink: 'http://l/#/auth/register' },
      'fr',
    );
    expect(none.text).toContain("aucun compte n'existe avec cette adresse");
    expect(none.links).toEqual([]);
  });
});
