import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { as, createProject, type TestUser, testUser } from '../../test/projects.js';
import { writeUserLimits } from '../db/queries/limits.queries.js';

describe('projects of their owner', () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let admin: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'true' });
    [ada, bob, admin] = await Promise.all([
      testUser(t, 'ada@example.com'),
      testUser(t, 'bob@example.com'),
      testUser(t, 'root@example.com', ['admin', 'user']),
    ]);
  });
  afterAll(() => t.close());

  it('creates a project NONE with its point cloud layer, and lists it for its owner only', async () => {
    const p = await createProject(t, ada, 'Autzen stadium');
    expect(p).toMatchObject({
      name: 'Autzen stadium',
      status: 'NONE',
      creatorEmail: 'ada@example.com',
      shareToken: null,
    });
    expect(p.layers).toEqual([{ id: expect.any(String), name: 'Point cloud', type: 'POINT_CLOUD', assets: [] }]);
    const mine = await json(
      await t.app.request('/api/projects?limit=10&offset=0&sortBy=id&order=DESC', as(ada, 'GET')),
    );
    expect(mine.count).toBe(1);
    expect(mine.results[0].id).toBe(p.id);
    const his = await json(await t.app.request('/api/projects', as(bob, 'GET')));
    expect(his).toEqual({ count: 0, results: [] });
  });

  it('refuses a duplicate name per owner (case-insensitive) with DUPLICATE_PROJECT_NAME, but not across owners', async () => {
    await createProject(t, ada, 'Fusa');
    const dup = await t.app.request('/api/projects', as(ada, 'POST', { name: 'fusa' }));
    expect(dup.status).toBe(409);
    expect((await json(dup)).error.code).toBe('DUPLICATE_PROJECT_NAME');
    expect((await t.app.request('/api/projects', as(bob, 'POST', { name: 'Fusa' }))).status).toBe(201);
  });

  it('applies the name rules of spec §5: required, under 255, no slash', async () => {
    const cases: Array<[unknown, string]> = [
      ['', 'PROJECT_NAME_REQUIRED'],
      ['   ', 'PROJECT_NAME_REQUIRED'],
      ['x'.repeat(255), 'PROJECT_NAME_TOO_LONG'],
      ['a/b', 'PROJECT_NAME_SLASH'],
      [42, 'FORM_INVALID'],
    ];
    for (const [name, code] of cases) {
      const res = await t.app.request('/api/projects', as(ada, 'POST', { name }));
      expect(res.status, String(name)).toBe(400);
      expect((await json(res)).error.code, String(name)).toBe(code);
    }
    expect((await t.app.request('/api/projects', as(ada, 'POST', { name: 'y'.repeat(254) }))).status).toBe(201);
  });

  it('renames with PATCH (same rules), and a stranger gets 404 on read, rename and delete', async () => {
    const p = await createProject(t, ada, 'Old name');
    const renamed = await t.app.request(`/api/projects/${p.id}`, as(ada, 'PATCH', { name: 'New name' }));
    expect(renamed.status).toBe(200);
    expect((await json(renamed)).name).toBe('New name');
    const clash = await t.app.request(`/api/projects/${p.id}`, as(ada, 'PATCH', { name: 'Fusa' }));
    expect((await json(clash)).error.code).toBe('DUPLICATE_PROJECT_NAME');
    const other = await t.app.request(`/api/projects/${p.id}`, as(ada, 'PATCH', { name: 'x', status: 'READY' }));
    expect((await json(other)).error.code).toBe('FIELD_NOT_EDITABLE');
    for (const [method, body] of [['GET'], ['PATCH', { name: 'mine now' }], ['DELETE']] as const) {
      const res = await t.app.request(`/api/projects/${p.id}`, as(bob, method, body));
      expect(res.status, method).toBe(404);
      expect((await json(res)).error.code).toBe('PROJECT_NOT_FOUND');
    }
    expect((await t.app.request(`/api/projects/${p.id}`, as(ada, 'GET'))).status).toBe(200);
  });

  it('needs a session', async () => {
    const res = await t.app.request('/api/projects');
    expect(res.status).toBe(401);
  });

  it('deletes a project (and its files), after which it is gone', async () => {
    const p = await createProject(t, ada, 'Short-lived');
    await t.deps.storage.objects.put(`projects/${p.id}/assets/1/t1/tileset.json`, '{}');
    const res = await t.app.request(`/api/projects/${p.id}`, as(ada, 'DELETE'));
    expect(res.status).toBe(204);
    expect((await t.app.request(`/api/projects/${p.id}`, as(ada, 'GET'))).status).toBe(404);
    expect(await t.deps.storage.objects.head(`projects/${p.id}/assets/1/t1/tileset.json`)).toBeNull();
  });

  it('lets an admin list and view every project, and a user not', async () => {
    const all = await json(
      await t.app.request('/api/admin/projects?limit=100&sortBy=name&order=ASC', as(admin, 'GET')),
    );
    const emails = new Set(all.results.map((p: { creatorEmail: string }) => p.creatorEmail));
    expect(emails).toEqual(new Set(['ada@example.com', 'bob@example.com']));
    const names = all.results.map((p: { name: string }) => p.name.toLowerCase());
    expect(names).toEqual([...names].sort());
    const one = all.results[0];
    expect((await t.app.request(`/api/admin/projects/${one.id}`, as(admin, 'GET'))).status).toBe(200);
    expect((await t.app.request('/api/admin/projects', as(ada, 'GET'))).status).toBe(403);
  });

  it('pages with limit and offset, and sorts', async () => {
    const page1 = await json(
      await t.app.request('/api/projects?limit=2&offset=0&sortBy=name&order=ASC', as(ada, 'GET')),
    );
    const page2 = await json(
      await t.app.request('/api/projects?limit=2&offset=2&sortBy=name&order=ASC', as(ada, 'GET')),
    );
    expect(page1.count).toBe(page2.count);
    expect(page1.results).toHaveLength(2);
    const names = [...page1.results, ...page2.results].map((p: { name: string }) => p.name.toLowerCase());
    expect(names).toEqual([...names].sort());
  });

  it('counts owned projects in the user object', async () => {
    const me = await json(await t.app.request('/api/users/current', as(ada, 'GET')));
    const mine = await json(await t.app.request('/api/projects', as(ada, 'GET')));
    expect(me.ownedProjectsCount).toBe(mine.count);
  });
});

describe('project limits (spec §8)', () => {
  let t: TestApp;
  let ada: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'true', DEFAULT_MAX_PROJECTS: '2' });
    ada = await testUser(t, 'ada@example.com');
  });
  afterAll(() => t.close());

  it('stops at the maximum number of projects (default, then the user’s own limit)', async () => {
    await createProject(t, ada, 'one');
    await createProject(t, ada, 'two');
    const third = await t.app.request('/api/projects', as(ada, 'POST', { name: 'three' }));
    expect(third.status).toBe(403);
    const body = await json(third);
    expect(body.error).toMatchObject({ code: 'MAX_PROJECTS_REACHED', details: { limit: 2, current: 2 } });
    await writeUserLimits(t.tdb.db, ada.id, { maxProjects: 3 });
    expect((await t.app.request('/api/projects', as(ada, 'POST', { name: 'three' }))).status).toBe(201);
  });
});
