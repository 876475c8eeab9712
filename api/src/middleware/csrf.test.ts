import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUser, json, login } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { createProject, testUser } from '../../test/projects.js';

let t: TestApp;
let cookie: string;
let token: string;
let projectId: string;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'http://localhost:8080' });
  await insertUser(t, { email: 'victim@example.com' });
  ({ cookie, token } = await login(t, 'victim@example.com'));
  const owner = { id: '', email: 'victim@example.com', token, auth: { authorization: `Bearer ${token}` } };
  projectId = (await createProject(t, owner, 'Target')).id;
});
afterAll(() => t?.close());

const shareToken = async () =>
  (await t.tdb.db.selectFrom('projects').select('share_token').where('id', '=', projectId).executeTakeFirstOrThrow())
    .share_token;

function withCookie(method: string, headers: Record<string, string>, body?: unknown): RequestInit {
  return {
    method,
    headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  };
}

describe('CSRF: cookie-authenticated writes must come from this origin', () => {
  const hostile: Array<[string, Record<string, string>]> = [
    ['another origin', { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }],
    ['a sibling port on the same host', { origin: 'http://localhost:8081', 'sec-fetch-site': 'same-site' }],
    ['an opaque origin (sandboxed frame, data: URL)', { origin: 'null', 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site cross-site without Origin', { 'sec-fetch-site': 'cross-site' }],
    ['a foreign Referer without Origin', { referer: 'https://evil.example/page.html' }],
  ];

  it.each(hostile)(
    'refuses share-token creation and log-out-everywhere from %s, with no effect',
    async (_, headers) => {
      const before = await shareToken();
      const share = await t.app.request(`/api/projects/${projectId}/share-token`, withCookie('POST', headers));
      expect(share.status).toBe(403);
      expect((await json(share)).error.code).toBe('CROSS_SITE_REQUEST');
      expect(await shareToken()).toBe(before);

      const everywhere = await t.app.request('/api/auth-jwt/logout-everywhere', withCookie('POST', headers));
      expect(everywhere.status).toBe(403);
      const still = await t.app.request('/api/users/current', withCookie('GET', {}));
      expect(still.status).toBe(200);

      for (const method of ['PATCH', 'PUT', 'DELETE']) {
        const res = await t.app.request(
          `/api/projects/${projectId}`,
          withCookie(method, headers, { name: 'Hijacked' }),
        );
        expect([method, res.status]).toEqual([method, 403]);
      }
      const project = await t.app.request(`/api/projects/${projectId}`, withCookie('GET', headers));
      expect(project.status).toBe(200);
      expect((await json(project)).name).toBe('Target');
    },
  );

  it('lets the app’s own pages through: same-origin, PUBLIC_URL, the request’s own origin, no browser headers', async () => {
    const ok: Array<Record<string, string>> = [
      { 'sec-fetch-site': 'same-origin', origin: 'http://localhost:8080' },
      { origin: 'http://localhost:8080' },
      { origin: 'http://localhost' }, // app.request's own origin
      { 'sec-fetch-site': 'same-origin' },
      {}, // curl with a cookie: no Origin, no Sec-Fetch-Site
    ];
    let previous = await shareToken();
    for (const headers of ok) {
      const res = await t.app.request(`/api/projects/${projectId}/share-token`, withCookie('POST', headers));
      expect([JSON.stringify(headers), res.status]).toEqual([JSON.stringify(headers), 201]);
      const now = await shareToken();
      expect(now).not.toBe(previous);
      previous = now;
    }
  });

  it('does not check bearer-token requests or requests without the session cookie', async () => {
    const evil = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
    const bearer = await t.app.request(`/api/projects/${projectId}/share-token`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, ...evil },
    });
    expect(bearer.status).toBe(201);
    const anonymous = await t.app.request('/api/auth-jwt/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...evil },
      body: JSON.stringify({ username: 'victim@example.com', password: 'wrong-Passw0rd!' }),
    });
    expect(anonymous.status).toBe(401);
  });

  it('lets a user log out everywhere from the app itself', async () => {
    const other = await testUser(t, 'leaver@example.com');
    const { cookie: leaverCookie } = await login(t, other.email);
    const res = await t.app.request('/api/auth-jwt/logout-everywhere', {
      method: 'POST',
      headers: { cookie: leaverCookie, origin: 'http://localhost:8080', 'sec-fetch-site': 'same-origin' },
    });
    expect(res.status).toBeLessThan(300);
    expect((await t.app.request('/api/users/current', { headers: { cookie: leaverCookie } })).status).toBe(401);
  });
});
