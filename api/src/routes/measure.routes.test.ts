import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { as, createProject, type TestUser, testUser } from '../../test/projects.js';

/**
 * The measurement routes on the real app and PostGIS: who may call them
 * (owner, admin, share-token holder; a stranger gets 404), and their answers
 * on a project without a cloud (no CRS, no DTM). The DTM sampling itself runs
 * on a real processed project in web/e2e/measure.e2e.ts.
 */
describe('measure routes', () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let projectId: string;
  let share: string;
  beforeAll(async () => {
    t = await createTestApp();
    [ada, bob] = await Promise.all([testUser(t, 'ada@example.com'), testUser(t, 'bob@example.com')]);
    projectId = (await createProject(t, ada, 'Measured')).id;
    const res = await t.app.request(`/api/projects/${projectId}/share-token`, as(ada, 'POST'));
    share = ((await json(res)) as { token: string }).token;
  });
  afterAll(() => t.close());

  it('answers 409 CRS_REQUIRED for a project without a cloud, to the owner and the share link', async () => {
    for (const [path, init] of [
      [`/api/projects/${projectId}/measure/crs`, as(ada, 'GET')],
      [`/api/projects/${projectId}/measure/crs-from-shared-token?token=${share}`, {}],
    ] as const) {
      const res = await t.app.request(path, init);
      expect(res.status, path).toBe(409);
      expect(((await json(res)) as { error: { code: string } }).error.code).toBe('CRS_REQUIRED');
    }
  });

  it('answers 404 ASSET_NOT_FOUND when the project has no DTM', async () => {
    const res = await t.app.request(
      `/api/projects/${projectId}/measure/dtm-heights`,
      as(ada, 'POST', { points: [[500_000, 4_400_000]] }),
    );
    expect(res.status).toBe(404);
    expect(((await json(res)) as { error: { code: string } }).error.code).toBe('ASSET_NOT_FOUND');
  });

  it('hides the project from others, refuses a wrong share token and a bad body', async () => {
    const stranger = await t.app.request(`/api/projects/${projectId}/measure/crs`, as(bob, 'GET'));
    expect(stranger.status).toBe(404);
    expect(((await json(stranger)) as { error: { code: string } }).error.code).toBe('PROJECT_NOT_FOUND');
    const anonymous = await t.app.request(`/api/projects/${projectId}/measure/crs`);
    expect(anonymous.status).toBe(401);
    const wrong = await t.app.request(
      `/api/projects/${projectId}/measure/crs-from-shared-token?token=${'x'.repeat(30)}`,
    );
    expect(((await json(wrong)) as { error: { code: string } }).error.code).toBe('SHARE_TOKEN_INVALID');
    const bad = await t.app.request(
      `/api/projects/${projectId}/measure/dtm-heights`,
      as(ada, 'POST', { points: [['a', 1]] }),
    );
    expect(bad.status).toBe(400);
    const tooMany = await t.app.request(
      `/api/projects/${projectId}/measure/dtm-heights`,
      as(ada, 'POST', { points: Array.from({ length: 2001 }, () => [0, 0]) }),
    );
    expect(tooMany.status).toBe(400);
  });
});
