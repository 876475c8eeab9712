import { describe, expect, it } from 'vitest';
import { createApiClient, RENEWAL_THRESHOLD_MS } from '../shared/api/api-client.js';
import type { User } from '../shared/api/types.js';
import { hasAnyRole, SessionStore } from './session-store.js';

const user: User = {
  id: '1',
  username: 'ada@example.com',
  email: 'ada@example.com',
  firstname: 'Ada',
  lastname: 'Lovelace',
  company: null,
  country: 'GB',
  roles: ['user'],
  preferLanguage: 'fr',
  preferDarkTheme: true,
  enabled: true,
  activated: true,
  premium: false,
  createdAt: '2025-01-01T00:00:00Z',
  lastLoginAt: null,
  ownedProjectsCount: 0,
};

const session = (u: User = user) => ({
  token: null,
  loginDate: '2025-01-01T00:00:00Z',
  expiresAt: '2025-01-31T00:00:00Z',
  rememberDays: 30,
  user: u,
  loggedIn: true,
});

/** A fake server: which paths answer what, and the requests it saw. */
function server(answers: Record<string, () => [number, unknown]>) {
  const seen: Array<{ path: string; body: unknown }> = [];
  const fetch = (async (url: string, init?: RequestInit) => {
    const path = new URL(url, 'http://app.test').pathname.replace(/^\/api/, '');
    seen.push({ path, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    const answer = answers[path];
    const [status, body] = answer ? answer() : [404, { error: { code: 'NOT_FOUND', message: '' } }];
    return new Response(body === undefined ? null : JSON.stringify(body), { status });
  }) as unknown as typeof globalThis.fetch;
  return { fetch, seen };
}

describe('session store', () => {
  it('renews the session from the cookie at start-up', async () => {
    const s = server({ '/auth-jwt/refreshToken': () => [200, session()] });
    const store = new SessionStore(createApiClient({ baseUrl: '/api', fetch: s.fetch }), { leave: () => {} });
    expect(store.getSnapshot()).toEqual({ status: 'starting', user: null });
    await store.start();
    expect(store.getSnapshot()).toEqual({ status: 'ready', user });
    expect(s.seen).toEqual([{ path: '/auth-jwt/refreshToken', body: {} }]);
  });

  it('starts logged out when there is no session', async () => {
    const s = server({ '/auth-jwt/refreshToken': () => [401, { error: { code: 'UNAUTHORIZED', message: '' } }] });
    let left = 0;
    const store = new SessionStore(createApiClient({ baseUrl: '/api', fetch: s.fetch }), { leave: () => left++ });
    await store.start();
    expect(store.getSnapshot()).toEqual({ status: 'ready', user: null });
    expect(left).toBe(0);
  });

  it('logs in with remember-me, keeps no token and notifies listeners', async () => {
    const s = server({ '/auth-jwt/login': () => [200, { ...session(), token: 'secret' }] });
    const store = new SessionStore(createApiClient({ baseUrl: '/api', fetch: s.fetch }), { now: () => 42 });
    let notified = 0;
    store.subscribe(() => notified++);
    await store.login('ada@example.com', 'pw', 90);
    expect(s.seen[0]).toEqual({
      path: '/auth-jwt/login',
      body: { username: 'ada@example.com', password: 'pw', rememberMe: 90 },
    });
    expect(store.current()).toEqual({ token: null, loginDate: 42 });
    expect(notified).toBeGreaterThan(0);
  });

  it('renews before a request once the login is 30 minutes old, and logs out when that fails', async () => {
    let clock = 0;
    let refreshOk = true;
    let left = 0;
    const s = server({
      '/auth-jwt/login': () => [200, session()],
      '/auth-jwt/refreshToken': () =>
        refreshOk ? [200, session()] : [401, { error: { code: 'TOKEN_REVOKED', message: '' } }],
      '/auth-jwt/logout': () => [204, undefined],
      '/projects': () => [200, []],
    });
    const api = createApiClient({ baseUrl: '/api', fetch: s.fetch, now: () => clock });
    const store = new SessionStore(api, { now: () => clock, leave: () => left++ });
    await store.login('ada@example.com', 'pw', 30);
    clock = RENEWAL_THRESHOLD_MS - 1;
    await api.get('/projects');
    expect(s.seen.map((x) => x.path)).toEqual(['/auth-jwt/login', '/projects']);
    clock = RENEWAL_THRESHOLD_MS;
    await api.get('/projects');
    expect(s.seen.map((x) => x.path).slice(2)).toEqual(['/auth-jwt/refreshToken', '/projects']);
    expect(store.current()?.loginDate).toBe(RENEWAL_THRESHOLD_MS);
    clock = 3 * RENEWAL_THRESHOLD_MS;
    refreshOk = false;
    await expect(api.get('/projects')).rejects.toMatchObject({ code: 'SESSION_EXPIRED' });
    await new Promise((r) => setTimeout(r, 0));
    expect(store.getSnapshot().user).toBeNull();
    expect(s.seen.at(-1)?.path).toBe('/auth-jwt/logout');
    expect(left).toBe(1);
  });

  it('logs out on a 401 of another request and returns to the origin', async () => {
    let left = 0;
    const s = server({
      '/auth-jwt/refreshToken': () => [200, session()],
      '/projects': () => [401, { error: { code: 'TOKEN_EXPIRED', message: '' } }],
      '/auth-jwt/logout': () => [204, undefined],
    });
    const api = createApiClient({ baseUrl: '/api', fetch: s.fetch });
    const store = new SessionStore(api, { leave: () => left++ });
    await store.start();
    await expect(api.get('/projects')).rejects.toMatchObject({ status: 401 });
    await new Promise((r) => setTimeout(r, 0));
    expect(store.getSnapshot().user).toBeNull();
    expect(left).toBe(1);
  });

  it('checks roles', () => {
    expect(hasAnyRole(null, ['user'])).toBe(false);
    expect(hasAnyRole(user, undefined)).toBe(true);
    expect(hasAnyRole(user, ['user', 'admin'])).toBe(true);
    expect(hasAnyRole(user, ['admin'])).toBe(false);
    expect(hasAnyRole({ ...user, roles: ['admin', 'user'] }, ['admin'])).toBe(true);
  });
});
