import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, insertUser, json, login, PASSWORD, send } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/app.js';

let t: TestApp;
let admin: { id: string; token: string };

beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: 'true' });
  const id = await insertUser(t, { email: 'root@example.com', roles: ['admin', 'user'] });
  admin = { id, token: (await login(t, 'root@example.com')).token };
  for (const [i, name] of [
    'Zoe',
    'Yann',
    'Xavier',
    'Wanda',
    'Victor',
    'Ursula',
    'Tom',
    'Sara',
    'Remy',
    'Quinn',
  ].entries()) {
    await insertUser(t, {
      email: `${name.toLowerCase()}@survey-${i % 2 ? 'odd' : 'even'}.example.com`,
      firstname: name,
    });
  }
});
afterAll(() => t?.close());

const asAdmin = (init: RequestInit = {}): RequestInit => ({
  ...init,
  headers: { ...(init.headers as Record<string, string>), ...bearer(admin.token) },
});

describe('GET /api/users (table contract)', () => {
  it('pages, sorts and counts: default id DESC, limit and offset', async () => {
    const page = await json(await t.app.request('/api/users?limit=4&offset=0', asAdmin()));
    expect(page.count).toBe(11);
    expect(page.results).toHaveLength(4);
    const ids = page.results.map((u: { id: string }) => Number(u.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const last = await json(await t.app.request('/api/users?limit=4&offset=8', asAdmin()));
    expect(last.results).toHaveLength(3);
    expect(last.results.at(-1).email).toBe('root@example.com');
  });

  it('sorts by a column in either direction and searches', async () => {
    const asc = await json(await t.app.request('/api/users?sortBy=firstname&order=ASC&limit=3', asAdmin()));
    expect(asc.results.map((u: { firstname: string }) => u.firstname)).toEqual(['Ada', 'Quinn', 'Remy']);
    const desc = await json(await t.app.request('/api/users?sortBy=email&order=DESC&limit=1', asAdmin()));
    expect(desc.results[0].email).toBe('zoe@survey-even.example.com');
    const odd = await json(await t.app.request('/api/users?search=SURVEY-ODD&sortBy=email&order=ASC', asAdmin()));
    expect(odd.count).toBe(5);
    expect(odd.results.every((u: { email: string }) => u.email.endsWith('@survey-odd.example.com'))).toBe(true);
    const byName = await json(await t.app.request('/api/users?search=wand', asAdmin()));
    expect(byName.results.map((u: { firstname: string }) => u.firstname)).toEqual(['Wanda']);
    const literal = await json(await t.app.request(`/api/users?search=${encodeURIComponent('%')}`, asAdmin()));
    expect(literal.count).toBe(0);
    expect(literal.results[0]?.ownedProjectsCount ?? 0).toBe(0);
  });

  it('refuses unknown sort columns and out-of-range paging', async () => {
    for (const q of ['sortBy=password_hash', 'order=SIDEWAYS', 'limit=0', 'offset=-1', 'limit=abc']) {
      const res = await t.app.request(`/api/users?${q}`, asAdmin());
      expect({ q, status: res.status, code: (await json(res)).error.code }).toEqual({
        q,
        status: 400,
        code: 'FORM_INVALID',
      });
    }
  });
});

describe('owned projects', () => {
  it('counts the projects a user owns, and sorts by that count', async () => {
    const id = await insertUser(t, { email: 'surveyor@example.com', firstname: 'Sam' });
    await sql`INSERT INTO projects (owner_id, name) VALUES (${id}, 'Quarry north'), (${id}, 'Quarry south')`.execute(
      t.tdb.db,
    );
    const one = await json(await t.app.request(`/api/users/${id}`, asAdmin()));
    expect(one.ownedProjectsCount).toBe(2);
    const top = await json(await t.app.request('/api/users?sortBy=ownedProjectsCount&order=DESC&limit=1', asAdmin()));
    expect(top.results[0]).toMatchObject({ email: 'surveyor@example.com', ownedProjectsCount: 2 });
    await sql`DELETE FROM users WHERE id = ${id}`.execute(t.tdb.db);
  });
});

describe('GET /api/users/{id}', () => {
  it('answers one user, and NO_ACCOUNT for an id that does not exist', async () => {
    const one = await json(await t.app.request(`/api/users/${admin.id}`, asAdmin()));
    expect(one).toMatchObject({
      id: admin.id,
      email: 'root@example.com',
      roles: ['admin', 'user'],
      ownedProjectsCount: 0,
    });
    const missing = await t.app.request('/api/users/999999', asAdmin());
    expect(missing.status).toBe(404);
    expect((await json(missing)).error.code).toBe('NO_ACCOUNT');
    const malformed = await t.app.request('/api/users/abc', asAdmin());
    expect(malformed.status).toBe(400);
  });
});

describe('POST /api/users', () => {
  it('creates an active user with a role, who can log in at once', async () => {
    const res = await t.app.request(
      '/api/users',
      asAdmin(
        send('POST', { roles: ['admin'], userJwt: { username: 'New.Admin@Example.com', password: 'Fresh-Start-31' } }),
      ),
    );
    expect(res.status).toBe(201);
    expect(await json(res)).toMatchObject({
      email: 'new.admin@example.com',
      roles: ['admin', 'user'],
      activated: true,
    });
    const session = await login(t, 'new.admin@example.com', 'Fresh-Start-31');
    expect(session.body.user.roles).toEqual(['admin', 'user']);
  });

  it('says "this email already exists" and applies the email and password rules', async () => {
    const dup = await t.app.request(
      '/api/users',
      asAdmin(
        send('POST', {
          roles: ['user'],
          userJwt: { username: 'ZOE@survey-even.example.com', password: 'Fresh-Start-31' },
        }),
      ),
    );
    expect(dup.status).toBe(409);
    expect(await json(dup)).toEqual({ error: { code: 'ACCOUNT_EXISTS', message: 'this email already exists' } });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ roles: ['user'], userJwt: { username: 'a@trashmail.com', password: 'Fresh-Start-31' } }, 'DISPOSABLE_EMAIL'],
      [{ roles: ['user'], userJwt: { username: 'a@example.com', password: 'password' } }, 'WEAK_PASSWORD'],
      [{ roles: ['user'], userJwt: { username: 'a@example.com', password: 'Qwerty123!' } }, 'COMMON_PASSWORD'],
      [{ roles: ['root'], userJwt: { username: 'a@example.com', password: 'Fresh-Start-31' } }, 'FORM_INVALID'],
      [{ roles: [], userJwt: { username: 'a@example.com', password: 'Fresh-Start-31' } }, 'FORM_INVALID'],
    ];
    for (const [body, code] of cases) {
      const res = await t.app.request('/api/users', asAdmin(send('POST', body)));
      expect({ body, code: (await json(res)).error.code }).toEqual({ body, code });
    }
  });
});

describe('roles and enabled', () => {
  it('changes a role and ends the sessions of that user', async () => {
    const id = await insertUser(t, { email: 'promoted@example.com' });
    const before = await login(t, 'promoted@example.com');
    const res = await t.app.request(`/api/users/${id}/role`, asAdmin(send('PATCH', { roles: ['admin'] })));
    expect(res.status).toBe(200);
    expect((await json(res)).roles).toEqual(['admin', 'user']);
    const stale = await t.app.request('/api/users', { headers: bearer(before.token) });
    expect((await json(stale)).error.code).toBe('TOKEN_REVOKED');
    const fresh = await login(t, 'promoted@example.com');
    expect((await t.app.request('/api/users', { headers: bearer(fresh.token) })).status).toBe(200);
    // Demoted again: the admin routes close at once.
    await t.app.request(`/api/users/${id}/role`, asAdmin(send('PATCH', { roles: ['user'] })));
    expect((await t.app.request('/api/users', { headers: bearer(fresh.token) })).status).toBe(401);
    const again = await login(t, 'promoted@example.com');
    expect((await t.app.request('/api/users', { headers: bearer(again.token) })).status).toBe(403);
  });

  it('disables a user: sessions end and login says ACCOUNT_INACTIVE; enabling lets them back', async () => {
    const id = await insertUser(t, { email: 'leaving@example.com' });
    const session = await login(t, 'leaving@example.com');
    const off = await t.app.request(`/api/users/${id}/enabled`, asAdmin(send('PATCH', { enabled: false })));
    expect((await json(off)).enabled).toBe(false);
    expect((await t.app.request('/api/users/current', { headers: bearer(session.token) })).status).toBe(401);
    const denied = await t.app.request(
      '/api/auth-jwt/login',
      send('POST', { username: 'leaving@example.com', password: PASSWORD }),
    );
    expect((await json(denied)).error.code).toBe('ACCOUNT_INACTIVE');
    await t.app.request(`/api/users/${id}/enabled`, asAdmin(send('PATCH', { enabled: true })));
    await login(t, 'leaving@example.com');
  });
});

describe('the last admin', () => {
  it('can neither lose the admin role nor be disabled', async () => {
    const solo = await createTestApp();
    try {
      const id = await insertUser(solo, { email: 'only-admin@example.com', roles: ['admin', 'user'] });
      const { token } = await login(solo, 'only-admin@example.com');
      for (const [path, body] of [
        ['role', { roles: ['user'] }],
        ['enabled', { enabled: false }],
      ] as const) {
        const res = await solo.app.request(`/api/users/${id}/${path}`, send('PATCH', body, bearer(token)));
        expect(res.status).toBe(409);
        expect((await json(res)).error.code).toBe('LAST_ADMIN');
      }
      // A no-op keeps the session.
      const same = await solo.app.request(`/api/users/${id}/role`, send('PATCH', { roles: ['admin'] }, bearer(token)));
      expect(same.status).toBe(200);
      expect((await solo.app.request('/api/users', { headers: bearer(token) })).status).toBe(200);
    } finally {
      await solo.close();
    }
  });

  it('survives two demotions at the same moment: exactly one succeeds, one admin remains', async () => {
    const race = await createTestApp();
    const blocker = new pg.Client({ connectionString: race.tdb.url });
    try {
      const a = await insertUser(race, { email: 'admin-a@example.com', roles: ['admin', 'user'] });
      const b = await insertUser(race, { email: 'admin-b@example.com', roles: ['admin', 'user'] });
      const tokenA = (await login(race, 'admin-a@example.com')).token;
      const tokenB = (await login(race, 'admin-b@example.com')).token;

      // Hold the admin rows so that both requests are inside their transaction, waiting, when the race starts.
      await blocker.connect();
      await blocker.query('BEGIN');
      await blocker.query("SELECT id FROM users WHERE 'admin' = ANY (roles) FOR UPDATE");
      const demoteB = race.app.request(`/api/users/${b}/role`, send('PATCH', { roles: ['user'] }, bearer(tokenA)));
      const demoteA = race.app.request(`/api/users/${a}/role`, send('PATCH', { roles: ['user'] }, bearer(tokenB)));
      const deadline = Date.now() + 30_000;
      for (;;) {
        // Outside the blocker's transaction: pg_stat_activity is a snapshot per transaction.
        const { rows } = await race.tdb.pool.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        );
        if (rows[0]!.n >= 2) break;
        if (Date.now() > deadline) throw new Error('the two demotions never waited on the admin rows');
        await new Promise((r) => setTimeout(r, 25));
      }
      await blocker.query('COMMIT');

      const results = await Promise.all([demoteB, demoteA]);
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 409]);
      const refused = results.find((r) => r.status === 409)!;
      expect((await json(refused)).error.code).toBe('LAST_ADMIN');
      const admins = await race.tdb.db
        .selectFrom('users')
        .select('email')
        .where(({ eb, val }) => eb(val('admin'), '=', eb.fn.any('roles')))
        .where('enabled', '=', true)
        .execute();
      expect(admins).toHaveLength(1);
    } finally {
      await blocker.end();
      await race.close();
    }
  });
});
