import { describe, expect, it, vi } from 'vitest';
import { createApiClient, RENEWAL_THRESHOLD_MS, type SessionPort } from './api-client.js';
import { ApiError } from './api-error.js';

interface Call {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/** A fake fetch answering from a table of `METHOD path` → [status, body]. */
function fakeFetch(routes: Record<string, [number, unknown]>) {
  const calls: Call[] = [];
  const fn = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    const u = new URL(String(url), 'http://app.test');
    const method = init?.method ?? 'GET';
    calls.push({
      method,
      url: `${u.pathname}${u.search}`,
      headers: (init?.headers ?? {}) as Record<string, string>,
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
    });
    const hit = routes[`${method} ${u.pathname}`];
    if (!hit)
      return new Response(JSON.stringify({ error: { code: 'NOT_FOUND', message: 'no route' } }), { status: 404 });
    const [status, body] = hit;
    return new Response(body === undefined ? null : JSON.stringify(body), { status });
  });
  return { fn: fn as unknown as typeof fetch, calls };
}

/** A session that logged in at `loginDate` and counts renewals and expiries. */
function fakeSession(loginDate: number, renew: () => Promise<void> = async () => {}) {
  const state = { loginDate, renewals: 0, expired: [] as string[], loggedIn: true };
  const port: SessionPort = {
    current: () => (state.loggedIn ? { token: null, loginDate: state.loginDate } : null),
    renew: async () => {
      state.renewals++;
      await renew();
      state.loginDate = now;
    },
    expire: (reason) => {
      state.expired.push(reason);
      state.loggedIn = false;
    },
  };
  return { port, state };
}

const now = 1_000_000_000;

describe('api client', () => {
  it('sends JSON, reads JSON and builds the query', async () => {
    const { fn, calls } = fakeFetch({ 'POST /api/things': [201, { id: 7 }] });
    const api = createApiClient({ baseUrl: '/api/', fetch: fn });
    const r = await api.post<{ id: number }>('/things', { body: { a: 1 }, query: { x: 'y z', n: 3, skip: undefined } });
    expect(r).toEqual({ id: 7 });
    expect(calls[0]).toMatchObject({ method: 'POST', url: '/api/things?x=y+z&n=3', body: { a: 1 } });
    expect(calls[0]!.headers['Content-Type']).toBe('application/json');
  });

  it('turns error bodies into ApiError with code, message and details', async () => {
    const { fn } = fakeFetch({
      'POST /api/auth-jwt/login': [
        429,
        { error: { code: 'TOO_MANY_ATTEMPTS', message: 'wait', details: { retryAfterSeconds: 60 } } },
      ],
      'GET /api/broken': [502, undefined],
    });
    const api = createApiClient({ baseUrl: '/api', fetch: fn });
    const err = await api.post('/auth-jwt/login', { body: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({
      status: 429,
      code: 'TOO_MANY_ATTEMPTS',
      message: 'wait',
      details: { retryAfterSeconds: 60 },
    });
    await expect(api.get('/broken')).rejects.toMatchObject({ status: 502, code: 'INTERNAL' });
  });

  it('reports an unreachable server as NETWORK_ERROR', async () => {
    const api = createApiClient({
      baseUrl: '/api',
      fetch: (async () => {
        throw new TypeError('Failed to fetch');
      }) as unknown as typeof fetch,
    });
    await expect(api.get('/x')).rejects.toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
  });

  it('renews once, before the request, when the login is 30 minutes old', async () => {
    const { fn, calls } = fakeFetch({ 'GET /api/projects': [200, []] });
    const { port, state } = fakeSession(now - RENEWAL_THRESHOLD_MS);
    const api = createApiClient({ baseUrl: '/api', fetch: fn, session: port, now: () => now });
    await Promise.all([api.get('/projects'), api.get('/projects'), api.get('/projects')]);
    expect(state.renewals).toBe(1);
    expect(calls).toHaveLength(3);
    await api.get('/projects');
    expect(state.renewals).toBe(1);
  });

  it('does not renew a younger login, nor on the session paths, nor for OPTIONS', async () => {
    const { fn } = fakeFetch({
      'GET /api/projects': [200, []],
      'POST /api/auth-jwt/refreshToken': [200, {}],
      'GET /api/users/current': [200, {}],
      'POST /api/auth-jwt/login': [200, {}],
      'OPTIONS /api/projects': [204, undefined],
      'GET /api/subscriptions/current': [200, {}],
    });
    const young = fakeSession(now - RENEWAL_THRESHOLD_MS + 1000);
    await createApiClient({ baseUrl: '/api', fetch: fn, session: young.port, now: () => now }).get('/projects');
    expect(young.state.renewals).toBe(0);
    const old = fakeSession(now - 2 * RENEWAL_THRESHOLD_MS);
    const api = createApiClient({ baseUrl: '/api', fetch: fn, session: old.port, now: () => now });
    await api.post('/auth-jwt/refreshToken');
    await api.get('/users/current');
    await api.post('/auth-jwt/login');
    await api.request('OPTIONS', '/projects');
    await api.get('/subscriptions/current');
    expect(old.state.renewals).toBe(0);
  });

  it('logs out when the renewal fails, without sending the request', async () => {
    const { fn, calls } = fakeFetch({ 'GET /api/projects': [200, []] });
    const { port, state } = fakeSession(now - RENEWAL_THRESHOLD_MS, async () => {
      throw new ApiError(401, 'TOKEN_REVOKED', 'revoked');
    });
    const api = createApiClient({ baseUrl: '/api', fetch: fn, session: port, now: () => now });
    await expect(api.get('/projects')).rejects.toMatchObject({ code: 'SESSION_EXPIRED' });
    expect(state.expired).toEqual(['renewal-failed']);
    expect(calls).toHaveLength(0);
  });

  it('logs out on a 401, except from /users/current and /subscriptions/current', async () => {
    const unauthorized: [number, unknown] = [401, { error: { code: 'TOKEN_EXPIRED', message: 'expired' } }];
    const { fn } = fakeFetch({
      'GET /api/users/current': unauthorized,
      'GET /api/subscriptions/current': unauthorized,
      'GET /api/projects': unauthorized,
    });
    const { port, state } = fakeSession(now);
    const api = createApiClient({ baseUrl: '/api', fetch: fn, session: port, now: () => now });
    await expect(api.get('/users/current')).rejects.toMatchObject({ status: 401 });
    await expect(api.get('/subscriptions/current')).rejects.toMatchObject({ status: 401 });
    expect(state.expired).toEqual([]);
    await expect(api.get('/projects')).rejects.toMatchObject({ code: 'TOKEN_EXPIRED' });
    expect(state.expired).toEqual(['unauthorized']);
  });

  it('sends a bearer token only when the session has one', async () => {
    const { fn, calls } = fakeFetch({ 'GET /api/x': [200, {}] });
    const { port } = fakeSession(now);
    const api = createApiClient({ baseUrl: '/api', fetch: fn, session: port, now: () => now });
    await api.get('/x');
    expect(calls[0]!.headers.Authorization).toBeUndefined();
    api.setSession({ ...port, current: () => ({ token: 'abc', loginDate: now }) });
    await api.get('/x');
    expect(calls[1]!.headers.Authorization).toBe('Bearer abc');
  });
});
