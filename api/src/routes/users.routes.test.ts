import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, insertUser, json, login, send } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { setStanding } from '../../test/subscriptions.js';

let t: TestApp;
let alice: { id: string; token: string; cookie: string };
let bob: { id: string; token: string };

beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: 'true' });
  const aliceId = await insertUser(t, { email: 'alice@example.com', firstname: 'Alice' });
  const bobId = await insertUser(t, { email: 'bob@example.com', firstname: 'Bob' });
  const a = await login(t, 'alice@example.com');
  alice = { id: aliceId, token: a.token, cookie: a.cookie };
  bob = { id: bobId, token: (await login(t, 'bob@example.com')).token };
});
afterAll(() => t?.close());

describe('GET /api/users/current', () => {
  it('answers the logged-in user with roles and owned projects, and 401 without a session', async () => {
    const res = await t.app.request('/api/users/current', { headers: bearer(alice.token) });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const me = await json(res);
    expect(me).toMatchObject({
      id: alice.id,
      email: 'alice@example.com',
      username: 'alice@example.com',
      firstname: 'Alice',
      roles: ['user'],
      preferLanguage: 'en-US',
      preferDarkTheme: false,
      enabled: true,
      activated: true,
      ownedProjectsCount: 0,
    });
    expect(me.lastLoginAt).not.toBeNull();
    expect(me).not.toHaveProperty('totalCredits');

    const anonymous = await t.app.request('/api/users/current');
    expect(anonymous.status).toBe(401);
    expect((await json(anonymous)).error.code).toBe('UNAUTHORIZED');
  });

  it('adds totalCredits when includes asks for it, and refuses unknown includes', async () => {
    const res = await t.app.request('/api/users/current?includes=totalCredits', { headers: bearer(alice.token) });
    // The default freemium template's credits (DEFAULT_CREDIT_HECTARES), nothing spent.
    expect((await json(res)).totalCredits).toBe(1000);
    const bad = await t.app.request('/api/users/current?includes=password', { headers: bearer(alice.token) });
    expect(bad.status).toBe(400);
    expect((await json(bad)).error.code).toBe('FORM_INVALID');
  });

  it('GET /api/users/totalCredits answers the credits left in hectares: the balance of the current subscription', async () => {
    const credits = async () =>
      json(await t.app.request('/api/users/totalCredits', { headers: { cookie: alice.cookie } }));
    expect(await credits()).toEqual({ totalCredits: 1000 });
    // Credits move through the ledger: an admin takes some off, a processing reserves some.
    await setStanding(t, alice.id, { credits: 987.25 });
    expect(await credits()).toEqual({ totalCredits: 987.25 });
    const view = await t.tdb.db
      .selectFrom('user_credit_totals')
      .selectAll()
      .where('user_id', '=', alice.id)
      .executeTakeFirstOrThrow();
    expect([view.credits, view.granted_hectares, view.charged_hectares]).toEqual([987.25, 1000, 0]);
    await setStanding(t, alice.id, { credits: 1000 });
  });
});

describe('PATCH /api/users/current', () => {
  it('changes preferences and profile', async () => {
    const res = await t.app.request(
      '/api/users/current',
      send(
        'PATCH',
        { preferDarkTheme: true, preferLanguage: 'fr', company: 'Géomètres & Co', country: 'be' },
        bearer(alice.token),
      ),
    );
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({
      preferDarkTheme: true,
      preferLanguage: 'fr',
      company: 'Géomètres & Co',
      country: 'BE',
      firstname: 'Alice',
    });
    const again = await json(await t.app.request('/api/users/current', { headers: bearer(alice.token) }));
    expect(again.preferDarkTheme).toBe(true);
    const cleared = await json(
      await t.app.request('/api/users/current', send('PATCH', { company: '' }, { cookie: alice.cookie })),
    );
    expect(cleared.company).toBeNull();
  });

  it('refuses roles, enabled, credits and other fields with FIELD_NOT_EDITABLE, and changes nothing', async () => {
    for (const body of [
      { roles: ['admin'] },
      { enabled: false },
      { credits: 1000 },
      { totalCredits: 1000 },
      { email: 'mallory@example.com' },
      { password: 'Sneaky-Pass-99' },
      { preferDarkTheme: false, roles: ['admin', 'user'] },
    ]) {
      const res = await t.app.request('/api/users/current', send('PATCH', body, bearer(alice.token)));
      expect(res.status).toBe(400);
      const err = (await json(res)).error;
      expect({ body, code: err.code }).toEqual({ body, code: 'FIELD_NOT_EDITABLE' });
    }
    const me = await json(await t.app.request('/api/users/current', { headers: bearer(alice.token) }));
    expect(me).toMatchObject({ roles: ['user'], enabled: true, email: 'alice@example.com', preferDarkTheme: true });
  });

  it('validates the profile fields', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ country: 'ZZ' }, 'UNKNOWN_COUNTRY'],
      [{ firstname: '' }, 'FORM_INVALID'],
      [{ lastname: 'x'.repeat(255) }, 'FORM_INVALID'],
      [{ company: 'c'.repeat(201) }, 'FORM_INVALID'],
      [{ preferLanguage: 'de' }, 'FORM_INVALID'],
      [{ preferDarkTheme: 'yes' }, 'FORM_INVALID'],
    ];
    for (const [body, code] of cases) {
      const res = await t.app.request('/api/users/current', send('PATCH', body, bearer(alice.token)));
      expect({ body, code: (await json(res)).error.code }).toEqual({ body, code });
    }
  });
});

describe('a user can never read or change another user', () => {
  it('refuses the admin user routes to a plain user (403), whatever the target', async () => {
    const attempts: Array<[string, RequestInit]> = [
      ['/api/users', { headers: bearer(alice.token) }],
      [`/api/users/${bob.id}`, { headers: bearer(alice.token) }],
      [`/api/users/${alice.id}`, { headers: bearer(alice.token) }],
      [`/api/users/${bob.id}/role`, send('PATCH', { roles: ['user'] }, bearer(alice.token))],
      [`/api/users/${alice.id}/role`, send('PATCH', { roles: ['admin'] }, bearer(alice.token))],
      [`/api/users/${bob.id}/enabled`, send('PATCH', { enabled: false }, bearer(alice.token))],
      [
        '/api/users',
        send(
          'POST',
          { roles: ['admin'], userJwt: { username: 'x@example.com', password: 'Strong-Pass-77' } },
          bearer(alice.token),
        ),
      ],
    ];
    for (const [url, init] of attempts) {
      const res = await t.app.request(url, init);
      expect({ url, method: init.method, status: res.status }).toEqual({ url, method: init.method, status: 403 });
      expect((await json(res)).error.code).toBe('FORBIDDEN');
    }
    const bobNow = await json(await t.app.request('/api/users/current', { headers: bearer(bob.token) }));
    expect(bobNow).toMatchObject({ enabled: true, roles: ['user'] });
    const aliceNow = await json(await t.app.request('/api/users/current', { headers: bearer(alice.token) }));
    expect(aliceNow.roles).toEqual(['user']);
  });

  it("changes only the caller's own account through /users/current, whoever else is named", async () => {
    await t.app.request('/api/users/current', send('PATCH', { firstname: 'Robert' }, bearer(bob.token)));
    const aliceNow = await json(await t.app.request('/api/users/current', { headers: bearer(alice.token) }));
    expect(aliceNow.firstname).toBe('Alice');
    const withId = await t.app.request(
      '/api/users/current',
      send('PATCH', { id: alice.id, firstname: 'X' }, bearer(bob.token)),
    );
    expect((await json(withId)).error.code).toBe('FIELD_NOT_EDITABLE');
  });
});

describe('GET /api/users/register', () => {
  it('lists the 249 ISO countries named in the asked language, and the field rules', async () => {
    const fr = await json(await t.app.request('/api/users/register?lang=fr'));
    expect(fr.countries).toHaveLength(249);
    expect(fr.countries).toContainEqual({ code: 'DE', name: 'Allemagne' });
    expect(fr.rules).toMatchObject({ passwordMinLength: 8, passwordMaxLength: 255, companyMaxLength: 200 });
    const en = await json(await t.app.request('/api/users/register', { headers: { 'accept-language': 'en-GB' } }));
    expect(en.countries).toContainEqual({ code: 'DE', name: 'Germany' });
    expect(en.languages).toEqual(['en-US', 'fr']);
  });
});
