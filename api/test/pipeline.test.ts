import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkerHandle } from '../src/worker/runner.js';
import { json } from './accounts.js';
import { createTestApp, type TestApp } from './app.js';
import {
  as,
  cloudAsset,
  getProject,
  type TestUser,
  testUser,
  testWorker,
  uploadRealFile,
  waitFor,
} from './projects.js';

/** The path and query of an absolute URL (the app is driven with app.request). */
const local = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

describe('end to end: create → upload fusa.laz → start-tiling → READY → tiles, share, download', () => {
  let t: TestApp;
  let worker: WorkerHandle;
  let ada: TestUser;
  let bob: TestUser;
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies
  let project: any;
  let assetId: string;
  let tilesetUrl: string;

  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'true' });
    [ada, bob] = await Promise.all([testUser(t, 'ada@example.com'), testUser(t, 'bob@example.com')]);
    worker = await testWorker(t);
  });
  afterAll(async () => {
    await worker?.stop();
    await t.close();
  });

  it('uploads: the asset is UPLOADED, the stored bytes are the file, the header is read back', async () => {
    ({ project, assetId } = await uploadRealFile(t, ada, 'Fusa', 'fusa.laz'));
    const p = await getProject(t, ada, project.id);
    expect(p.status).toBe('UPLOADED');
    expect(cloudAsset(p)).toMatchObject({
      id: assetId,
      status: 'UPLOADED',
      originalFilename: 'fusa.laz',
      files: [{ extension: 'laz', fileName: 'fusa.laz', size: 1_078_962 }],
    });
  });

  it('start-tiling runs metadata then tiling to READY, recording every step, within 2 s of the request', async () => {
    const res = await t.app.request('/api/assets/start-tiling', as(ada, 'POST', { assetId }));
    expect(res.status).toBe(200);
    const started = await json(res);
    expect(started.asset.status).toBe('EXTRACTING_METADATA');
    expect(started.inputFilePath).toMatch(
      new RegExp(`^projects/${project.id}/assets/${assetId}/u[0-9a-f]{12}/input\\.laz$`),
    );
    const ready = await waitFor(
      async () => {
        const p = await getProject(t, ada, project.id);
        if (p.status === 'ERROR') throw new Error(`project failed: ${JSON.stringify(p.jobs)}`);
        return p.status === 'READY' ? p : null;
      },
      120_000,
      'READY',
    );
    expect(ready).toMatchObject({
      lasName: 'fusa.laz',
      lidarPointCount: 277_573,
      lasVersion: '1.1',
      epsgCode: 32754,
      generatingSoftware: 'lasclassify (110920) unlicensed',
      systemId: 'LAStools (c) by Martin Isenburg',
      creationYear: 2010,
      creationDay: 40,
    });
    expect(ready.minElevation).toBeCloseTo(42.21, 2);
    expect(ready.maxElevation).toBeCloseTo(64.35, 2);
    // 250 m × 250 m tile, fully covered: 6.25 ha.
    expect(ready.area).toBeGreaterThan(6.0);
    expect(ready.area).toBeLessThanOrEqual(6.26);
    expect(ready.jobs.metadata).toMatchObject({ state: 'SUCCESS', step: 'complete', percentage: 100 });
    expect(ready.jobs.tiling).toMatchObject({ state: 'SUCCESS', step: 'tilingSuccess', percentage: 100 });
    const asset = cloudAsset(ready);
    expect(asset).toMatchObject({ status: 'READY', storage: 'CUSTOM_TILING', tilingType: 'PY3DTILES' });
    expect(asset.accessUrl).toMatch(
      /\/tiles\/s\/[A-Za-z0-9_-]{43}\/\d+\/projects\/\d+\/assets\/\d+\/t\d+\/tileset\.json$/,
    );
    tilesetUrl = asset.accessUrl;

    const jobs = await t.tdb.db
      .selectFrom('jobs')
      .selectAll()
      .where('project_id', '=', project.id)
      .orderBy('id')
      .execute();
    expect(jobs.map((j) => [j.kind, j.state, j.attempts, j.retry_count])).toEqual([
      ['METADATA', 'SUCCESS', 1, 0],
      ['TILING', 'SUCCESS', 1, 0],
    ]);
    for (const j of jobs) {
      const wait = new Date(j.started_at!).getTime() - new Date(j.queued_at!).getTime();
      expect(wait, `${j.kind} waited ${wait} ms`).toBeLessThan(2000);
      expect(j.finished_at).not.toBeNull();
    }
    expect((jobs[1]!.result as { pointCount: number }).pointCount).toBe(277_573);
  });

  it('serves tileset.json and its contents at the signed URL, with ETag, 304, gzip, immutable caching and CORS', async () => {
    const res = await t.app.request(local(tilesetUrl), { headers: { origin: 'https://gis.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cache-control')).toMatch(/^public, max-age=\d+, immutable$/);
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    const tileset = await json(res);
    expect(tileset.asset.version).toBe('1.1');
    expect(tileset.root.boundingVolume).toBeDefined();

    const again = await t.app.request(local(tilesetUrl), { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);

    const zipped = await t.app.request(local(tilesetUrl), { headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(JSON.parse(gunzipSync(Buffer.from(await zipped.arrayBuffer())).toString())).toEqual(tileset);

    // The first content URI is relative: it resolves under the same signed prefix.
    const findUri = (tile: { content?: { uri: string }; children?: unknown[] }): string | null =>
      tile.content?.uri ?? (tile.children ?? []).map((c) => findUri(c as typeof tile)).find((u) => u) ?? null;
    const uri = findUri(tileset.root)!;
    expect(uri).toMatch(/\.glb$/);
    const glb = await t.app.request(local(new URL(uri, tilesetUrl).toString()), {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(glb.status).toBe(200);
    expect(glb.headers.get('content-type')).toBe('model/gltf-binary');
    expect(glb.headers.get('content-encoding')).toBeNull();
    const bytes = new Uint8Array(await glb.arrayBuffer());
    expect(Buffer.from(bytes.subarray(0, 4)).toString('latin1')).toBe('glTF');
  });

  it('refuses an altered signature, another asset’s prefix and an expired URL, without asking the database', async () => {
    const u = new URL(tilesetUrl);
    const parts = u.pathname.split('/'); // ['', 'tiles', 's', sig, exp, 'projects', pid, 'assets', aid, run, 'tileset.json']
    const sig = parts[3]!;
    const forged = [...parts];
    forged[3] = `${sig.slice(0, -2)}${sig.endsWith('AA') ? 'AB' : 'AA'}`;
    let res = await t.app.request(forged.join('/'));
    expect(res.status).toBe(403);
    expect((await json(res)).error.code).toBe('TILE_URL_INVALID');
    const otherAsset = [...parts];
    otherAsset[8] = String(Number(parts[8]) + 1);
    res = await t.app.request(otherAsset.join('/'));
    expect((await json(res)).error.code).toBe('TILE_URL_INVALID');
    const later = [...parts];
    later[4] = String(Number(parts[4]) + 3600);
    res = await t.app.request(later.join('/'));
    expect((await json(res)).error.code).toBe('TILE_URL_INVALID');
    const { signedTilesBase } = await import('../src/services/tiles.service.js');
    const expired = await signedTilesBase(t.deps, `${parts.slice(5, 10).join('/')}/`, -10);
    res = await t.app.request(local(`${expired}tileset.json`));
    expect(res.status).toBe(403);
    expect((await json(res)).error.code).toBe('TILE_URL_EXPIRED');
  });

  it('hands out tile URLs to the owner, not to a stranger', async () => {
    const mine = await t.app.request(`/api/assets/custom-tiler/tiles-supplier-url?id=${assetId}`, as(ada, 'GET'));
    expect(mine.status).toBe(200);
    const { url } = await json(mine);
    expect((await t.app.request(local(url))).status).toBe(200);
    const base = await json(
      await t.app.request(`/api/assets/custom-tiler/tiles-supplier-url?id=${assetId}&isTiles=false`, as(ada, 'GET')),
    );
    expect(base.url.endsWith('/')).toBe(true);
    const noShade = await t.app.request(
      `/api/assets/custom-tiler/tiles-supplier-url?id=${assetId}&variant=hillshade`,
      as(ada, 'GET'),
    );
    expect(noShade.status).toBe(404);
    expect((await json(noShade)).error).toMatchObject({
      code: 'NO_TILES',
      message: 'terrain layer does not have a hillshade asset',
    });
    const his = await t.app.request(`/api/assets/custom-tiler/tiles-supplier-url?id=${assetId}`, as(bob, 'GET'));
    expect(his.status).toBe(404);
    expect((await json(his)).error.code).toBe('ASSET_NOT_FOUND');
    expect((await t.app.request(`/api/assets?id=${assetId}`, as(bob, 'GET'))).status).toBe(404);
  });

  it('shares read-only with a token: project, tiles and files; a stranger’s token does nothing; revoking ends it', async () => {
    const created = await t.app.request(`/api/projects/${project.id}/share-token`, as(ada, 'POST'));
    expect(created.status).toBe(201);
    const { token, url } = await json(created);
    expect(url).toContain(`#/project-from-share-token?token=${token}`);
    expect((await t.app.request(`/api/projects/${project.id}/share-token`, as(bob, 'POST'))).status).toBe(404);

    const shared = await t.app.request(`/api/projects/from-share-token?token=${token}`);
    expect(shared.status).toBe(200);
    const view = await json(shared);
    expect(view.id).toBe(project.id);
    expect(view.shareToken).toBeUndefined();
    expect((await t.app.request(local(cloudAsset(view).accessUrl))).status).toBe(200);

    const viaToken = await t.app.request(
      `/api/assets/custom-tiler/tiles-supplier-url-from-shared-token?id=${assetId}&token=${token}`,
    );
    expect(viaToken.status).toBe(200);
    const file = await t.app.request(
      `/api/assets/custom-tiler/file-supplier-url-from-shared-token?id=${assetId}&extension=laz&token=${token}`,
    );
    expect(file.status).toBe(200);

    // A token opens its own project only.
    const bobs = await json(await t.app.request('/api/projects', as(bob, 'POST', { name: 'Bob’s' })));
    const bobShare = await json(await t.app.request(`/api/projects/${bobs.id}/share-token`, as(bob, 'POST')));
    const cross = await t.app.request(
      `/api/assets/custom-tiler/tiles-supplier-url-from-shared-token?id=${assetId}&token=${bobShare.token}`,
    );
    expect(cross.status).toBe(404);
    expect((await json(cross)).error.code).toBe('ASSET_NOT_FOUND');
    const wrong = await t.app.request('/api/projects/from-share-token?token=not-a-real-token-at-all-xyz');
    expect((await json(wrong)).error.code).toBe('SHARE_TOKEN_INVALID');
    // A share token is not a session.
    expect(
      (await t.app.request(`/api/projects/${project.id}`, { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(401);

    expect((await t.app.request(`/api/projects/${project.id}/share-token`, as(ada, 'DELETE'))).status).toBe(204);
    const revoked = await t.app.request(`/api/projects/from-share-token?token=${token}`);
    expect(revoked.status).toBe(404);
    expect((await json(revoked)).error.code).toBe('SHARE_TOKEN_INVALID');
  });

  it('downloads the stored file with a signed URL, with Range and a Content-Disposition of the original name', async () => {
    const res = await t.app.request(
      `/api/assets/custom-tiler/file-supplier-url?id=${assetId}&extension=laz`,
      as(ada, 'GET'),
    );
    expect(res.status).toBe(200);
    const file = await json(res);
    expect(file).toMatchObject({ fileName: 'fusa.laz', totalSize: 1_078_962 });
    const head = await t.app.request(local(file.url), { headers: { range: 'bytes=0-3' } });
    expect(head.status).toBe(206);
    expect(head.headers.get('content-range')).toBe('bytes 0-3/1078962');
    expect(Buffer.from(await head.arrayBuffer()).toString('latin1')).toBe('LASF');
    expect(head.headers.get('content-disposition')).toContain("filename*=UTF-8''fusa.laz");
    const whole = await t.app.request(local(file.url));
    expect(Number(whole.headers.get('content-length'))).toBe(1_078_962);
    await whole.arrayBuffer();
    const bad = await t.app.request(local(file.url), { headers: { range: 'bytes=2000000-2000001' } });
    expect(bad.status).toBe(416);
    const renamed = local(file.url).replace('name=fusa.laz', 'name=evil.exe');
    expect((await t.app.request(renamed)).status).toBe(403);
    const missing = await t.app.request(
      `/api/assets/custom-tiler/file-supplier-url?id=${assetId}&extension=tif`,
      as(ada, 'GET'),
    );
    expect((await json(missing)).error.code).toBe('FILE_NOT_FOUND');
  });

  it('refuses processing when the area could not be calculated (AREA_NOT_COMPUTED)', async () => {
    await t.tdb.db.updateTable('projects').set({ area_hectares: null }).where('id', '=', project.id).execute();
    const res = await t.app.request(`/api/projects/${project.id}/processing`, as(ada, 'POST', { options: {} }));
    expect(res.status).toBe(409);
    expect((await json(res)).error.code).toBe('AREA_NOT_COMPUTED');
    await t.tdb.db.updateTable('projects').set({ area_hectares: 6.25 }).where('id', '=', project.id).execute();
  });

  it('shows the asset monitor with intensity range and normalisation', async () => {
    const res = await t.app.request(`/api/assets?id=${assetId}`, as(ada, 'GET'));
    expect(res.status).toBe(200);
    const m = await json(res);
    expect(m.metadata.pointCount).toBe(277_573);
    expect(m.metadata.intensityMin).toBeTypeOf('number');
    expect(m.metadata.intensityMax).toBeGreaterThanOrEqual(m.metadata.intensityMin);
    expect(m.intensityNormalisation).toBe(m.metadata.intensityMax > 255);
    expect(m.intensityNormalisationMin).toBe(m.metadata.intensityMin);
    expect(m.metadata.wkt).toBeUndefined();
  });

  it('deletes the project with every stored file', async () => {
    const before: string[] = [];
    for await (const o of t.deps.storage.objects.list(`projects/${project.id}/`)) before.push(o.key);
    expect(before.length).toBeGreaterThan(3);
    expect((await t.app.request(`/api/projects/${project.id}`, as(ada, 'DELETE'))).status).toBe(204);
    const after: string[] = [];
    for await (const o of t.deps.storage.objects.list(`projects/${project.id}/`)) after.push(o.key);
    expect(after).toEqual([]);
    expect((await t.app.request(local(tilesetUrl))).status).toBe(404);
  });
});
