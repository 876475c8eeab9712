import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { as, type TestUser, testUser } from '../../test/projects.js';
import { tilerOptionsForJobs } from '../services/global-parameters.service.js';

describe('global parameters: viewer point size and tiling parameters', () => {
  let t: TestApp;
  let admin: TestUser;
  let ada: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'true' });
    [admin, ada] = await Promise.all([
      testUser(t, 'root@example.com', ['admin', 'user']),
      testUser(t, 'ada@example.com'),
    ]);
  });
  afterAll(() => t.close());

  it('answers point size 2 by default, to anyone (shared projects have no account)', async () => {
    const res = await t.app.request('/api/globalParameters/cesiumParameters');
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ pointSize: 2, globeOpacity: 100, cesiumIonToken: '', bingMapsKey: '' });
  });

  it('lets an admin set the globe opacity (percent) and the world imagery keys, which the viewer reads', async () => {
    const set = await t.app.request(
      '/api/globalParameters',
      as(admin, 'PATCH', { globeOpacity: 60, cesiumIonToken: ' eyJion ', bingMapsKey: 'AkBing' }),
    );
    expect(set.status).toBe(200);
    expect(await json(set)).toMatchObject({ globeOpacity: 60, cesiumIonToken: 'eyJion', bingMapsKey: 'AkBing' });
    expect(await json(await t.app.request('/api/globalParameters/cesiumParameters'))).toMatchObject({
      globeOpacity: 60,
      cesiumIonToken: 'eyJion',
      bingMapsKey: 'AkBing',
    });
    for (const globeOpacity of [-1, 101, '50']) {
      const bad = await t.app.request('/api/globalParameters', as(admin, 'PATCH', { globeOpacity }));
      expect(bad.status, String(globeOpacity)).toBe(400);
      expect((await json(bad)).error.code).toBe('FORM_INVALID');
    }
    // Emptied: the imagery is no longer offered; the opacity back to fully opaque.
    const cleared = await t.app.request(
      '/api/globalParameters',
      as(admin, 'PATCH', { globeOpacity: 100, cesiumIonToken: '', bingMapsKey: '' }),
    );
    expect(await json(cleared)).toMatchObject({ globeOpacity: 100, cesiumIonToken: '', bingMapsKey: '' });
  });

  it('lets an admin set the point size and tiler options, validated by the engine’s parser', async () => {
    const set = await t.app.request(
      '/api/globalParameters',
      as(admin, 'PATCH', { pointSize: 3.5, tilingParameters: '--max-points 50000 --min-node-size 0.15' }),
    );
    expect(set.status).toBe(200);
    expect(await json(set)).toMatchObject({
      pointSize: 3.5,
      tilingParameters: '--max-points 50000 --min-node-size 0.15',
    });
    expect(await json(await t.app.request('/api/globalParameters/cesiumParameters'))).toMatchObject({
      pointSize: 3.5,
    });
    expect(await tilerOptionsForJobs(t.deps)).toMatchObject({ maxPoints: 50_000, minNodeSize: 0.15 });

    for (const text of ['--max-points 10', '--color red', 'max-points 5', '--grid 100']) {
      const bad = await t.app.request('/api/globalParameters', as(admin, 'PATCH', { tilingParameters: text }));
      expect(bad.status, text).toBe(400);
      expect((await json(bad)).error.code, text).toBe('INVALID_TILING_PARAMETERS');
    }
    const stillSet = await json(await t.app.request('/api/globalParameters', as(admin, 'GET')));
    expect(stillSet.tilingParameters).toBe('--max-points 50000 --min-node-size 0.15');
    const size = await t.app.request('/api/globalParameters', as(admin, 'PATCH', { pointSize: 0 }));
    expect((await json(size)).error.code).toBe('FORM_INVALID');
  });

  it('keeps the settings for admins only', async () => {
    expect((await t.app.request('/api/globalParameters', as(ada, 'GET'))).status).toBe(403);
    expect((await t.app.request('/api/globalParameters', as(ada, 'PATCH', { pointSize: 9 }))).status).toBe(403);
    expect((await t.app.request('/api/globalParameters')).status).toBe(401);
  });
});
