import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  freshIp,
  insertUser,
  json,
  linkFromMail,
  login,
  PASSWORD,
  send,
  sessionCookie,
  tokenFromMail,
} from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { startMailServer, type TestMailServer } from '../../test/mail-server.js';

let t: TestApp;
let mail: TestMailServer;

beforeAll(async () => {
  mail = await startMailServer();
  t = await createTestApp({ SMTP_URL: mail.smtpUrl, TRUST_PROXY: 'true', PUBLIC_URL: 'http://localhost:8080' });
});
afterAll(async () => {
  await t?.close();
  await mail?.close();
});

const registration = (email: string, extra: Record<string, unknown> = {}) => ({
  username: email,
  password: 'Grand-Canyon-42',
  firstname: 'Grace',
  lastname: 'Hopper',
  country: 'fr',
  ...extra,
});

describe('registration and activation through the mail', () => {
  it('registers, mails an activation link, refuses login until it is followed, then activates once', async () => {
    const res = await t.app.request('/api/auth-jwt/register', send('POST', registration('grace@example.com')));
    expect(res.status).toBe(201);
    const body = await json(res);
    expect(body.activationMailSent).toBe(true);
    expect(body.user).toMatchObject({
      email: 'grace@example.com',
      username: 'grace@example.com',
      country: 'FR',
      roles: ['user'],
      activated: false,
      enabled: true,
      ownedProjectsCount: 0,
    });
    expect(body.user).not.toHaveProperty('password_hash');
    const stored = await t.tdb.db
      .selectFrom('users')
      .select('password_hash')
      .where('email', '=', 'grace@example.com')
      .executeTakeFirstOrThrow();
    expect(stored.password_hash).toMatch(/^\$argon2id\$/);

    const m = await mail.next('grace@example.com');
    expect(m.subject).toBe('Activate your Nuage account');
    const link = linkFromMail(m.text);
    expect(link.startsWith('http://localhost:8080/#/registration-token?token=')).toBe(true);
    const token = tokenFromMail(link);

    // Only the hash of the token is stored.
    const tokens = await t.tdb.db.selectFrom('user_tokens').select('token_hash').execute();
    expect(tokens.map((r) => r.token_hash)).not.toContain(token);

    const early = await t.app.request(
      '/api/auth-jwt/login',
      send('POST', { username: 'grace@example.com', password: 'Grand-Canyon-42' }),
    );
    expect(early.status).toBe(403);
    expect((await json(early)).error.code).toBe('ACCOUNT_NOT_ACTIVATED');

    const check = await t.app.request(`/api/users/from-reset-password-token?token=${token}`);
    expect(check.status).toBe(200);
    expect(await json(check)).toMatchObject({ username: 'grace@example.com', purpose: 'activation' });

    const act = await t.app.request('/api/auth-jwt/activate-from-mail', send('POST', { token }));
    expect(act.status).toBe(200);
    expect(await json(act)).toEqual({ username: 'grace@example.com', activated: true });

    const again = await t.app.request('/api/auth-jwt/activate-from-mail', send('POST', { token }));
    expect(again.status).toBe(400);
    expect((await json(again)).error.code).toBe('INVALID_ACTIVATION_LINK');

    const ok = await login(t, 'grace@example.com', 'Grand-Canyon-42');
    expect(ok.body.user.activated).toBe(true);
  });

  it('needs the token: a username alone activates nothing', async () => {
    await t.app.request('/api/auth-jwt/register', send('POST', registration('nobody-clicks@example.com')));
    await mail.next('nobody-clicks@example.com');
    const res = await t.app.request(
      '/api/auth-jwt/activate-from-mail',
      send('POST', { username: 'nobody-clicks@example.com' }),
    );
    expect(res.status).toBe(400);
    expect((await json(res)).error.code).toBe('INVALID_ACTIVATION_LINK');
    const forged = await t.app.request(
      '/api/auth-jwt/activate-from-mail',
      send('POST', { username: 'nobody-clicks@example.com', token: 'A'.repeat(43) }),
    );
    expect((await json(forged)).error.code).toBe('INVALID_ACTIVATION_LINK');
  });

  it('PATCH /users/registration-token answers 202 without any token and mails a new link; the old one stops working', async () => {
    await t.app.request('/api/auth-jwt/register', send('POST', registration('resend@example.com')));
    const first = tokenFromMail((await mail.next('resend@example.com')).text);
    const res = await t.app.request(
      '/api/users/registration-token',
      send('PATCH', { username: 'resend@example.com', activateUserUrl: 'http://localhost:8080/#/registration-token' }),
    );
    expect(res.status).toBe(202);
    const text = await res.text();
    expect(text).toBe('{"accepted":true}');
    const second = tokenFromMail((await mail.next('resend@example.com')).text);
    expect(second).not.toBe(first);
    const stale = await t.app.request('/api/auth-jwt/activate-from-mail', send('POST', { token: first }));
    expect((await json(stale)).error.code).toBe('INVALID_ACTIVATION_LINK');
    const fresh = await t.app.request(
      '/api/auth-jwt/activate-from-mail',
      send('POST', { token: second, username: 'resend@example.com' }),
    );
    expect(fresh.status).toBe(200);
  });

  it('answers registration-mail for an active or unknown address the same way, by mail only', async () => {
    await insertUser(t, { email: 'already-active@example.com' });
    const a = await t.app.request(
      '/api/auth-jwt/registration-mail',
      send('POST', { username: 'already-active@example.com' }),
    );
    const b = await t.app.request(
      '/api/auth-jwt/registration-mail',
      send('POST', { username: 'never-seen@example.com' }),
    );
    expect([a.status, b.status]).toEqual([202, 202]);
    expect(await a.text()).toBe(await b.text());
    expect((await mail.next('already-active@example.com')).text).toContain('no account with this email is waiting');
    expect((await mail.next('never-seen@example.com')).text).toContain('no account with this email is waiting');
  });

  it('refuses an existing email, disposable domains, bad emails, weak and common passwords and unknown countries', async () => {
    await insertUser(t, { email: 'taken@example.com' });
    const cases: Array<[Record<string, unknown>, string, string?]> = [
      [registration('TAKEN@example.com'), 'ACCOUNT_EXISTS'],
      [registration('someone@mailinator.com'), 'DISPOSABLE_EMAIL', 'username'],
      [registration('someone@inbox.yopmail.com'), 'DISPOSABLE_EMAIL', 'username'],
      [registration('someone@example.c'), 'INVALID_EMAIL', 'username'],
      [registration('not-an-email'), 'INVALID_EMAIL', 'username'],
      [registration('weak@example.com', { password: 'short1!' }), 'WEAK_PASSWORD', 'password'],
      [registration('weak@example.com', { password: 'nouppercase1!' }), 'WEAK_PASSWORD', 'password'],
      [registration('weak@example.com', { password: 'NoDigitsHere!' }), 'WEAK_PASSWORD', 'password'],
      [registration('weak@example.com', { password: 'NoSpecial123' }), 'WEAK_PASSWORD', 'password'],
      [registration('weak@example.com', { password: `Aa1!${'x'.repeat(252)}` }), 'WEAK_PASSWORD', 'password'],
      [registration('common@example.com', { password: 'P@ssw0rd!' }), 'COMMON_PASSWORD', 'password'],
      [registration('common@example.com', { password: 'Monkey2024!' }), 'COMMON_PASSWORD', 'password'],
      [registration('country@example.com', { country: 'XX' }), 'UNKNOWN_COUNTRY', 'country'],
      [registration('names@example.com', { firstname: 'x'.repeat(255) }), 'FORM_INVALID', 'firstname'],
      [registration('names@example.com', { company: 'c'.repeat(201) }), 'FORM_INVALID', 'company'],
      [registration('names@example.com', { lastname: '' }), 'FORM_INVALID', 'lastname'],
      [
        registration('link@example.com', { activateUserUrl: 'https://evil.example/#/registration-token' }),
        'INVALID_LINK_URL',
      ],
    ];
    for (const [body, code, field] of cases) {
      const res = await t.app.request('/api/auth-jwt/register', send('POST', body));
      const out = await json(res);
      expect({ body, code: out.error?.code }).toEqual({ body, code });
      expect(res.status).toBe(code === 'ACCOUNT_EXISTS' ? 409 : 400);
      if (field) expect(out.error.details.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    const accepted = await t.app.request(
      '/api/auth-jwt/register',
      send('POST', registration('long-company@example.com', { company: 'c'.repeat(200), firstname: 'n'.repeat(254) })),
    );
    expect(accepted.status).toBe(201);
    expect(await mail.next('long-company@example.com')).toBeTruthy();
  });

  it('refuses a body that is not JSON with its own code', async () => {
    const res = await t.app.request('/api/auth-jwt/register', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect(res.status).toBe(415);
    expect((await json(res)).error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const broken = await t.app.request('/api/auth-jwt/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"username":',
    });
    expect(broken.status).toBe(400);
    expect((await json(broken)).error.code).toBe('FORM_INVALID');
  });

  it('sends the activation mail in French for a French browser', async () => {
    const res = await t.app.request(
      '/api/auth-jwt/register',
      send('POST', registration('francoise@example.fr'), { 'accept-language': 'fr-CA,fr;q=0.9' }),
    );
    expect((await json(res)).user.preferLanguage).toBe('fr');
    const m = await mail.next('francoise@example.fr');
    expect(m.subject).toBe('Activez votre compte Nuage');
    expect(m.text).toContain('Bonjour Grace');
  });
});

describe('login, sessions and tokens', () => {
  beforeAll(async () => {
    await insertUser(t, { email: 'ada@example.com' });
  });

  it('answers the session user object, sets an HttpOnly SameSite=Lax cookie and accepts both cookie and bearer', async () => {
    const { token, cookie, body, res } = await login(t, 'ADA@example.com');
    expect(body).toMatchObject({
      loggedIn: true,
      rememberDays: 30,
      user: { email: 'ada@example.com', roles: ['user'] },
    });
    expect(new Date(body.loginDate).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(token.split('.')).toHaveLength(3);
    const set = res.headers.getSetCookie()[0]!;
    expect(set).toMatch(/HttpOnly/);
    expect(set).toMatch(/SameSite=Lax/);
    expect(set).toMatch(/Path=\//);
    expect(set).toMatch(/Max-Age=259\d{4}/); // 30 days = 2,592,000 s
    expect(set).not.toMatch(/Secure/); // PUBLIC_URL is http here
    expect(res.headers.get('cache-control')).toBe('no-store');

    const viaCookie = await t.app.request('/api/users/current', { headers: { cookie } });
    expect((await json(viaCookie)).email).toBe('ada@example.com');
    const viaBearer = await t.app.request('/api/users/current', { headers: bearer(token) });
    expect((await json(viaBearer)).email).toBe('ada@example.com');
  });

  it('keeps the session 7 or 90 days with remember-me, and refuses other lengths', async () => {
    const week = await login(t, 'ada@example.com', PASSWORD, { rememberMe: 7 });
    expect(week.res.headers.getSetCookie()[0]).toMatch(/Max-Age=60\d{4}/); // 604,800 s
    const quarter = await login(t, 'ada@example.com', PASSWORD, { rememberMe: 90 });
    const days = (new Date(quarter.body.expiresAt).getTime() - new Date(quarter.body.loginDate).getTime()) / 86_400_000;
    expect(days).toBe(90);
    const bad = await t.app.request(
      '/api/auth-jwt/login',
      send('POST', { username: 'ada@example.com', password: PASSWORD, rememberMe: 365 }),
    );
    expect((await json(bad)).error.code).toBe('FORM_INVALID');
  });

  it('answers unknown emails exactly like wrong passwords', async () => {
    const wrong = await t.app.request(
      '/api/auth-jwt/login',
      send('POST', { username: 'ada@example.com', password: 'Nope-nope-1!' }),
    );
    const unknown = await t.app.request(
      '/api/auth-jwt/login',
      send('POST', { username: 'ghost@example.com', password: 'Nope-nope-1!' }),
    );
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await wrong.text()).toBe(await unknown.text());
  });

  it('tells an inactive account only to someone who knows its password', async () => {
    await insertUser(t, { email: 'disabled@example.com', enabled: false });
    const wrong = await t.app.request(
      '/api/auth-jwt/login',
      send('POST', { username: 'disabled@example.com', password: 'Nope-nope-1!' }),
    );
    expect((await json(wrong)).error.code).toBe('INVALID_CREDENTIALS');
    const right = await t.app.request(
      '/api/auth-jwt/login',
      send('POST', { username: 'disabled@example.com', password: PASSWORD }),
    );
    expect(right.status).toBe(403);
    expect((await json(right)).error.code).toBe('ACCOUNT_INACTIVE');
  });

  it('renews a token: the web cookie gets a new cookie and no token in the body, an API client gets the token', async () => {
    const { token, cookie } = await login(t, 'ada@example.com', PASSWORD, { rememberMe: 7 });
    const web = await t.app.request('/api/auth-jwt/refreshToken', { method: 'POST', headers: { cookie } });
    expect(web.status).toBe(200);
    const webBody = await json(web);
    expect(webBody.token).toBeNull();
    expect(webBody.rememberDays).toBe(7);
    expect(sessionCookie(web)).not.toBe(cookie);

    const api = await t.app.request('/api/auth-jwt/refreshToken', send('POST', { token }));
    const apiBody = await json(api);
    expect(apiBody.token).toMatch(/^ey/);
    expect(api.headers.getSetCookie()).toEqual([]);
    const me = await t.app.request('/api/users/current', { headers: bearer(apiBody.token) });
    expect(me.status).toBe(200);

    const none = await t.app.request('/api/auth-jwt/refreshToken', { method: 'POST' });
    expect((await json(none)).error.code).toBe('UNAUTHORIZED');
  });

  it('refuses forged, tampered, alg:none, wrong-key and expired tokens', async () => {
    const { token } = await login(t, 'ada@example.com');
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const { SignJWT } = await import('jose');

    const tampered = `${header}.${b64({ ...claims, sub: '1' })}.${signature}`;
    const algNone = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`;
    const wrongKey = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('x'.repeat(48)));
    const expired = await new SignJWT({ ...claims, exp: Math.floor(Date.now() / 1000) - 10 })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(await storedSecret()));
    const hs512 = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS512' })
      .sign(new TextEncoder().encode(await storedSecret()));

    const cases: Array<[string, string]> = [
      ['garbage', 'TOKEN_INVALID'],
      [tampered, 'TOKEN_INVALID'],
      [algNone, 'TOKEN_INVALID'],
      [wrongKey, 'TOKEN_INVALID'],
      [hs512, 'TOKEN_INVALID'],
      [expired, 'TOKEN_EXPIRED'],
    ];
    for (const [bad, code] of cases) {
      const res = await t.app.request('/api/users/current', { headers: bearer(bad) });
      expect({ bad, status: res.status, code: (await json(res)).error.code }).toEqual({ bad, status: 401, code });
      const viaCookie = await t.app.request('/api/users/current', { headers: { cookie: `nuage_session=${bad}` } });
      expect(viaCookie.status).toBe(401);
    }
    // The untouched token still works, signed with the secret kept in the settings table.
    expect((await t.app.request('/api/users/current', { headers: bearer(token) })).status).toBe(200);
  });

  it('a token stops working after logout, with every renewal of it; other sessions go on', async () => {
    const first = await login(t, 'ada@example.com');
    const other = await login(t, 'ada@example.com');
    const renewed = await json(await t.app.request('/api/auth-jwt/refreshToken', send('POST', { token: first.token })));
    const out = await t.app.request('/api/auth-jwt/logout', { method: 'POST', headers: { cookie: first.cookie } });
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie()[0]).toMatch(/^nuage_session=;.*Max-Age=0/);
    for (const token of [first.token, renewed.token]) {
      const res = await t.app.request('/api/users/current', { headers: bearer(token) });
      expect(res.status).toBe(401);
      expect((await json(res)).error.code).toBe('TOKEN_REVOKED');
    }
    const refresh = await t.app.request('/api/auth-jwt/refreshToken', send('POST', { token: first.token }));
    expect((await json(refresh)).error.code).toBe('TOKEN_REVOKED');
    expect((await t.app.request('/api/users/current', { headers: bearer(other.token) })).status).toBe(200);
    // A logout without a session is still a clean 204.
    expect((await t.app.request('/api/auth-jwt/logout', { method: 'POST' })).status).toBe(204);
  });

  it('logout-everywhere ends every session of the user', async () => {
    await insertUser(t, { email: 'everywhere@example.com' });
    const a = await login(t, 'everywhere@example.com');
    const b = await login(t, 'everywhere@example.com');
    const res = await t.app.request('/api/auth-jwt/logout-everywhere', { method: 'POST', headers: bearer(a.token) });
    expect(res.status).toBe(204);
    for (const s of [a, b]) {
      expect((await t.app.request('/api/users/current', { headers: bearer(s.token) })).status).toBe(401);
    }
    expect((await t.app.request('/api/auth-jwt/logout-everywhere', { method: 'POST' })).status).toBe(401);
  });
});

describe('password reset through the mail', () => {
  beforeAll(async () => {
    await insertUser(t, { email: 'reset-me@example.com', firstname: 'Rosalind' });
    await insertUser(t, { email: 'reset-fr@example.com', preferLanguage: 'fr' });
  });

  it('mails a one-hour link; the new password works, the old one and every old token stop working, the link works once', async () => {
    const session = await login(t, 'reset-me@example.com');
    const res = await t.app.request(
      '/api/auth-jwt/password-forgot',
      send('POST', {
        username: 'Reset-Me@example.com',
        resetPasswordUrl: 'http://localhost:8080/#/reset-password-token',
      }),
    );
    expect(res.status).toBe(202);
    expect(await res.text()).toBe('{"accepted":true}');
    const m = await mail.next('reset-me@example.com');
    expect(m.subject).toBe('Reset your Nuage password');
    expect(m.text).toContain('Hello Rosalind');
    expect(m.text).toContain('expires in 60 minutes');
    const link = linkFromMail(m.text);
    expect(link).toMatch(/^http:\/\/localhost:8080\/#\/reset-password-token\?token=/);
    const token = tokenFromMail(link);

    const check = await json(await t.app.request(`/api/users/from-reset-password-token?token=${token}`));
    expect(check.purpose).toBe('password_reset');
    const minutesLeft = (new Date(check.expiresAt).getTime() - Date.now()) / 60_000;
    expect(minutesLeft).toBeGreaterThan(58);
    expect(minutesLeft).toBeLessThanOrEqual(60);

    const wrongUser = await t.app.request(
      '/api/auth-jwt/recuperation',
      send('POST', { username: 'ada@example.com', password: 'New-Horizon-77', token }),
    );
    expect((await json(wrongUser)).error.code).toBe('INVALID_RESET_LINK');

    const weak = await t.app.request(
      '/api/auth-jwt/recuperation',
      send('POST', { username: 'reset-me@example.com', password: 'weak', token }),
    );
    expect((await json(weak)).error.code).toBe('WEAK_PASSWORD');

    const done = await t.app.request(
      '/api/auth-jwt/recuperation',
      send('POST', { username: 'reset-me@example.com', password: 'New-Horizon-77', token }),
    );
    expect(done.status).toBe(200);
    expect(await json(done)).toEqual({ username: 'reset-me@example.com' });

    expect((await t.app.request('/api/users/current', { headers: bearer(session.token) })).status).toBe(401);
    const old = await t.app.request(
      '/api/auth-jwt/login',
      send('POST', { username: 'reset-me@example.com', password: PASSWORD }),
    );
    expect(old.status).toBe(401);
    await login(t, 'reset-me@example.com', 'New-Horizon-77');

    const reuse = await t.app.request(
      '/api/users/choosePasswordAfterReset',
      send('PATCH', { password: 'Another-Horizon-88', token }),
    );
    expect((await json(reuse)).error.code).toBe('INVALID_RESET_LINK');
    expect((await t.app.request(`/api/users/from-reset-password-token?token=${token}`)).status).toBe(400);
  });

  it('answers INVALID_RESET_LINK for a link without a token or with a made-up one', async () => {
    for (const url of ['/api/users/from-reset-password-token', '/api/users/from-reset-password-token?token=']) {
      const res = await t.app.request(url);
      expect({ url, status: res.status, code: (await json(res)).error.code }).toEqual({
        url,
        status: 400,
        code: 'INVALID_RESET_LINK',
      });
    }
    const made = await t.app.request(
      '/api/users/choosePasswordAfterReset',
      send('PATCH', { password: 'Made-Up-Token-5' }),
    );
    expect((await json(made)).error.code).toBe('INVALID_RESET_LINK');
    const forged = await t.app.request(
      '/api/users/choosePasswordAfterReset',
      send('PATCH', { password: 'Made-Up-Token-5', token: 'x'.repeat(43) }),
    );
    expect((await json(forged)).error.code).toBe('INVALID_RESET_LINK');
  });

  it('refuses a reset link after its hour', async () => {
    await t.app.request('/api/users/resetPassword-token', send('PATCH', { username: 'reset-me@example.com' }));
    const token = tokenFromMail((await mail.next('reset-me@example.com')).text);
    await t.tdb.db
      .updateTable('user_tokens')
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where('used_at', 'is', null)
      .where('purpose', '=', 'password_reset')
      .execute();
    const res = await t.app.request(
      '/api/users/choosePasswordAfterReset',
      send('PATCH', { password: 'Late-Comer-99', token }),
    );
    expect(res.status).toBe(400);
    expect((await json(res)).error.code).toBe('INVALID_RESET_LINK');
  });

  it('PATCH /users/resetPassword-token never returns the token, and the French user gets a French mail', async () => {
    const res = await t.app.request(
      '/api/users/resetPassword-token',
      send('PATCH', { username: 'reset-fr@example.com' }),
    );
    expect(res.status).toBe(202);
    expect(await json(res)).toEqual({ accepted: true });
    const m = await mail.next('reset-fr@example.com');
    expect(m.subject).toBe('Réinitialisez votre mot de passe Nuage');
    expect(m.text).toContain('expire dans 60 minutes');
  });

  it('answers unknown emails like known ones; their owner learns by mail that there is no account', async () => {
    const known = await t.app.request(
      '/api/auth-jwt/password-forgot',
      send('POST', { username: 'reset-fr@example.com' }),
    );
    const unknown = await t.app.request(
      '/api/auth-jwt/password-forgot',
      send('POST', { username: 'nobody@example.org' }),
    );
    expect(unknown.status).toBe(known.status);
    expect(await unknown.text()).toBe(await known.text());
    await mail.next('reset-fr@example.com');
    const m = await mail.next('nobody@example.org');
    expect(m.text).toContain('there is no account with this email');
    expect(m.text).not.toMatch(/token=/);
  });

  it('refuses reset links that point outside PUBLIC_URL', async () => {
    for (const url of [
      'https://evil.example/#/reset-password-token',
      'http://localhost:8081/#/reset-password-token',
      'http://localhost:8080@evil.example/',
      'javascript:alert(1)',
      'not a url',
    ]) {
      const res = await t.app.request(
        '/api/auth-jwt/password-forgot',
        send('POST', { username: 'reset-me@example.com', resetPasswordUrl: url }),
      );
      expect({ url, code: (await json(res)).error.code }).toEqual({ url, code: 'INVALID_LINK_URL' });
    }
  });

  it('limits reset mails to 5 per address per hour, whether the account exists or not', async () => {
    for (const email of ['limit-known@example.com', 'limit-unknown@example.com']) {
      if (email.includes('known@')) await insertUser(t, { email });
      for (let i = 0; i < 5; i++) {
        expect((await t.app.request('/api/auth-jwt/password-forgot', send('POST', { username: email }))).status).toBe(
          202,
        );
      }
      const sixth = await t.app.request('/api/auth-jwt/password-forgot', send('POST', { username: email }));
      expect(sixth.status).toBe(429);
      expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(3500);
      expect((await json(sixth)).error.code).toBe('TOO_MANY_ATTEMPTS');
    }
  });
});

describe('brute force', () => {
  const from = (ip: string, username: string, password: string) =>
    t.app.request('/api/auth-jwt/login', send('POST', { username, password }, { 'x-forwarded-for': ip }));

  it('an attacker failing 1,000 times from one client never stops the owner logging in from another', async () => {
    await insertUser(t, { email: 'target@example.com' });
    const attacker = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 1000; i++) {
      statuses.push((await from(attacker, 'target@example.com', `Wrong-guess-${i}!`)).status);
    }
    // 5 free failures, then the attacker's client waits (back-off), whatever it sends.
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(990);
    const stillBlocked = await from(attacker, 'target@example.com', PASSWORD);
    expect(stillBlocked.status).toBe(429);
    expect(Number(stillBlocked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await json(stillBlocked)).error.code).toBe('TOO_MANY_ATTEMPTS');

    // Now 1,000 counted failures from that client, as if it had waited out each back-off.
    await t.tdb.db
      .insertInto('auth_attempts')
      .values(
        Array.from({ length: 1000 }, () => [
          { bucket: 'login-pair', subject: `target@example.com ${attacker}` },
          { bucket: 'login-ip', subject: attacker },
          { bucket: 'login-account', subject: 'target@example.com' },
        ]).flat(),
      )
      .execute();
    const owner = await from(freshIp(), 'target@example.com', PASSWORD);
    expect(owner.status).toBe(200);
    const back = await from(attacker, 'target@example.com', PASSWORD);
    expect(back.status).toBe(429);
    expect(Number(back.headers.get('retry-after'))).toBeGreaterThan(800);
  });

  it('backs off exponentially per (account, client): 1 s, 2 s, 4 s … after 5 failures; a success clears it', async () => {
    await insertUser(t, { email: 'typo@example.com' });
    const ip = freshIp();
    for (let i = 0; i < 5; i++) expect((await from(ip, 'typo@example.com', `Typo-${i}!`)).status).toBe(401);
    const waits: number[] = [];
    for (let k = 0; k < 3; k++) {
      const blocked = await from(ip, 'typo@example.com', PASSWORD);
      expect(blocked.status).toBe(429);
      waits.push(Number(blocked.headers.get('retry-after')));
      // Age the pair's failures past the wait, then fail once more.
      await t.tdb.db
        .updateTable('auth_attempts')
        .set({ created_at: sql<Date>`created_at - make_interval(secs => ${2 ** k + 1})` })
        .where('subject', 'in', [`typo@example.com ${ip}`, ip, 'typo@example.com'])
        .execute();
      expect((await from(ip, 'typo@example.com', `Typo-again-${k}!`)).status).toBe(401);
    }
    expect(waits).toEqual([1, 2, 4]);
    // Another client is not slowed down at all; once the wait is over, the owner logs in and the pair is forgotten.
    expect((await from(freshIp(), 'typo@example.com', PASSWORD)).status).toBe(200);
    await t.tdb.db
      .updateTable('auth_attempts')
      .set({ created_at: sql<Date>`created_at - interval '10 seconds'` })
      .where('subject', '=', `typo@example.com ${ip}`)
      .execute();
    expect((await from(ip, 'typo@example.com', PASSWORD)).status).toBe(200);
    expect((await from(ip, 'typo@example.com', 'Typo-after!')).status).toBe(401);
  });

  it('counts concurrent failures exactly: 15 parallel wrong guesses from one client give 5 × 401 and 10 × 429', async () => {
    const ip = freshIp();
    const results = await Promise.all(
      Array.from({ length: 15 }, (_, i) => from(ip, 'parallel@example.com', `Guess-${i}-x!`)),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
  });

  it('mails the owner once when an account is under attack (10 failures), in their language', async () => {
    await insertUser(t, { email: 'attacked@example.com', firstname: 'Zoé', preferLanguage: 'fr' });
    // A distributed attack: 12 clients, one guess each; none is slowed down by the others.
    for (let i = 0; i < 12; i++) expect((await from(freshIp(), 'attacked@example.com', `Dist-${i}!`)).status).toBe(401);
    const m = await mail.next('attacked@example.com');
    expect(m.subject).toBe('Échecs de connexion à votre compte Nuage');
    expect(m.text).toContain('Bonjour Zoé');
    expect(m.text).toMatch(/1[0-2] tentatives de connexion échouées/);
    expect(m.text).toContain('http://localhost:8080/#/auth/forgotPwd');
    // Under attack, a client that already failed on the account waits; a new one does not; the owner still logs in.
    const ip = freshIp();
    expect((await from(ip, 'attacked@example.com', 'One-more!')).status).toBe(401);
    expect((await from(ip, 'attacked@example.com', 'Two-more!')).status).toBe(429);
    expect((await from(freshIp(), 'attacked@example.com', PASSWORD)).status).toBe(200);
    // One mail an hour at most.
    for (let i = 0; i < 3; i++) await from(freshIp(), 'attacked@example.com', `Late-${i}!`);
    await new Promise((r) => setTimeout(r, 300));
    expect((await mail.all()).filter((x) => x.to.some((a) => a.address === 'attacked@example.com'))).toHaveLength(1);
    // Unknown emails get no mail (there is nobody to tell).
    for (let i = 0; i < 11; i++) await from(freshIp(), 'ghost@example.com', `Ghost-${i}!`);
    await new Promise((r) => setTimeout(r, 300));
    expect((await mail.all()).some((x) => x.to.some((a) => a.address === 'ghost@example.com'))).toBe(false);
  });

  it('limits failed logins per IP (50 per 15 minutes) across accounts', async () => {
    const ip = freshIp();
    const attempt = (i: number) =>
      t.app.request(
        '/api/auth-jwt/login',
        send('POST', { username: `spray-${i}@example.com`, password: 'Spray-and-pray1!' }, { 'x-forwarded-for': ip }),
      );
    for (let i = 0; i < 50; i++) expect((await attempt(i)).status).toBe(401);
    const blocked = await attempt(50);
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toBeTruthy();
    // Another IP is not affected.
    expect(
      (await t.app.request('/api/auth-jwt/login', send('POST', { username: 'spray-0@example.com', password: 'x' })))
        .status,
    ).toBe(401);
  });

  it('limits registrations (20 per hour) and mail requests (20 per hour) per IP', async () => {
    await insertUser(t, { email: 'taken-by-ip@example.com' });
    const ip = freshIp();
    for (let i = 0; i < 20; i++) {
      const res = await t.app.request(
        '/api/auth-jwt/register',
        send('POST', registration('taken-by-ip@example.com'), { 'x-forwarded-for': ip }),
      );
      expect(res.status).toBe(409);
    }
    const res = await t.app.request(
      '/api/auth-jwt/register',
      send('POST', registration('taken-by-ip@example.com'), { 'x-forwarded-for': ip }),
    );
    expect(res.status).toBe(429);

    const mailIp = freshIp();
    await t.tdb.db
      .insertInto('auth_attempts')
      .values(Array.from({ length: 20 }, () => ({ bucket: 'mail-ip', subject: mailIp })))
      .execute();
    const forgot = await t.app.request(
      '/api/auth-jwt/password-forgot',
      send('POST', { username: 'anyone@example.com' }, { 'x-forwarded-for': mailIp }),
    );
    expect(forgot.status).toBe(429);
  });
});

describe('mail failures', () => {
  it('answers RESET_MAIL_FAILED with Retry-After when the SMTP server is down, for known and unknown emails alike', async () => {
    const down = await createTestApp({ SMTP_URL: 'smtp://127.0.0.1:9', TRUST_PROXY: 'true' });
    try {
      await insertUser(down, { email: 'known@example.com' });
      for (const email of ['known@example.com', 'unknown@example.com']) {
        const res = await down.app.request('/api/auth-jwt/password-forgot', send('POST', { username: email }));
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBe('60');
        expect((await json(res)).error.code).toBe('RESET_MAIL_FAILED');
      }
      const act = await down.app.request(
        '/api/auth-jwt/registration-mail',
        send('POST', { username: 'known@example.com' }),
      );
      expect((await json(act)).error.code).toBe('ACTIVATION_MAIL_FAILED');
      // Failed sends do not use up the address's 5 tries.
      const attempts = await down.tdb.db.selectFrom('auth_attempts').selectAll().execute();
      expect(attempts).toEqual([]);
      // Registration still creates the account and says the mail did not go.
      const reg = await down.app.request('/api/auth-jwt/register', send('POST', registration('offline@example.com')));
      expect(reg.status).toBe(201);
      expect((await json(reg)).activationMailSent).toBe(false);
    } finally {
      await down.close();
    }
  });
});

async function storedSecret(): Promise<string> {
  const row = await t.tdb.db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', 'auth.jwt_secret')
    .executeTakeFirstOrThrow();
  return row.value as string;
}
