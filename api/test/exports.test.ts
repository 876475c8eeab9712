import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gdal, hasGdal } from '@nuage/engine/products/test-gdal.js';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ExportEvent, exportEvents } from '../src/services/exports.service.js';
import type { WorkerHandle } from '../src/worker/runner.js';
import { json } from './accounts.js';
import { createTestApp, type TestApp } from './app.js';
import { as, getProject, type TestUser, testUser, testWorker, uploadRealFile, waitFor } from './projects.js';

/** The path and query of an absolute URL (the app is called in process). */
const local = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies
const assetsOf = (p: any): any[] => p.layers.flatMap((l: { assets: unknown[] }) => l.assets);

/** fusa.laz is in WGS 84 / UTM zone 54S. */
const FUSA_EPSG = 32754;
const PRODUCTS = ['classify', 'grid', 'contours', 'buildings', 'tree-tops'];

/** Processes the project's point cloud with a few products and waits for the job to end. */
async function processProject(t: TestApp, user: TestUser, projectId: string, assetId: string | null) {
  const before = assetId ? null : (await getProject(t, user, projectId)).jobs.processing?.id;
  const res = assetId
    ? await t.app.request(
        '/api/assets/start-tiling',
        as(user, 'POST', { assetId, processingOptions: { products: PRODUCTS, gridResolutionCm: 1000 } }),
      )
    : await t.app.request(
        `/api/projects/${projectId}/processing`,
        as(user, 'POST', { options: { products: ['tree-tops'], gridResolutionCm: 1000 } }),
      );
  expect(res.status, await res.clone().text()).toBe(assetId ? 200 : 202);
  return waitFor(
    async () => {
      const p = await getProject(t, user, projectId);
      const job = p.jobs.processing;
      if (!job || job.id === before) return null;
      if (job.state === 'FAILURE') throw new Error(`processing failed: ${job.errorMessage}`);
      return job.state === 'SUCCESS' ? p : null;
    },
    300_000,
    'processing SUCCESS',
  );
}

describe('vector exports: GET /api/assets/{id}/export?format=geojson|dxf|shp', () => {
  let t: TestApp;
  let worker: WorkerHandle;
  let ada: TestUser;
  let bob: TestUser;
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies
  let project: any;
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies
  let byType: Record<string, any>;
  let scratch: string;
  const made: ExportEvent[] = [];
  const listener = (e: ExportEvent) => made.push(e);

  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'true' });
    [ada, bob] = await Promise.all([testUser(t, 'ada@example.com'), testUser(t, 'bob@example.com')]);
    worker = await testWorker(t);
    scratch = await mkdtemp(path.join(tmpdir(), 'nuage-export-test-'));
    exportEvents.add(listener);
    const up = await uploadRealFile(t, ada, 'Forêt de Fusa : 2024', 'fusa.laz');
    project = await processProject(t, ada, up.project.id, up.assetId);
    byType = Object.fromEntries(assetsOf(project).map((a) => [a.type, a]));
  }, 400_000);

  afterAll(async () => {
    exportEvents.delete(listener);
    await worker?.stop();
    await t?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  const exportOf = (user: TestUser, assetId: string, format: string) =>
    t.app.request(`/api/assets/${assetId}/export?format=${encodeURIComponent(format)}`, as(user, 'GET'));

  /** Downloads a signed URL through the app; the file's bytes and the response. */
  async function download(url: string): Promise<{ res: Response; bytes: Buffer }> {
    const res = await t.app.request(local(url));
    expect(res.status).toBe(200);
    return { res, bytes: Buffer.from(await res.arrayBuffer()) };
  }

  /** The features GDAL reads from an export (DXF label texts left out), optionally reprojected. */
  function ogrFeatures(file: string, layer: string | null, o: { sSrs?: number; tSrs?: number } = {}) {
    const out = path.join(scratch, `read-${Math.random().toString(36).slice(2)}.geojson`);
    const args = ['-f', 'GeoJSON', '-lco', 'RFC7946=NO', '-lco', 'COORDINATE_PRECISION=9'];
    if (o.sSrs) args.push('-s_srs', `EPSG:${o.sSrs}`);
    if (o.tSrs) args.push('-t_srs', `EPSG:${o.tSrs}`);
    gdal('ogr2ogr', [...args, out, file, ...(layer ? [layer] : [])]);
    return readFile(out, 'utf8').then((text) =>
      (
        JSON.parse(text).features as Array<{
          properties: Record<string, unknown>;
          geometry: { type: string; coordinates: number[] };
        }>
      ).filter((f) => f.geometry && !String(f.properties.SubClasses ?? '').includes('AcDbText')),
    );
  }

  /** The tree tops as PostGIS keeps them (EPSG:4326) and in the project CRS (PostGIS's own PROJ). */
  async function postgisTops(assetId: string) {
    const r = await sql<{ lon: number; lat: number; x: number; y: number; tree_id: number }>`
      SELECT ST_X(geom) AS lon, ST_Y(geom) AS lat,
             ST_X(ST_Transform(geom, ${sql.lit(FUSA_EPSG)})) AS x, ST_Y(ST_Transform(geom, ${sql.lit(FUSA_EPSG)})) AS y,
             (properties->>'treeId')::int AS tree_id
      FROM features WHERE asset_id = ${assetId} ORDER BY id`.execute(t.tdb.db);
    return r.rows;
  }

  /** Largest distance (m) from each expected point to the nearest exported one. */
  function worstGap(expected: Array<[number, number]>, got: Array<[number, number]>, metresPer = [1, 1]) {
    let worst = 0;
    for (const [ex, ey] of expected) {
      let best = Number.POSITIVE_INFINITY;
      for (const [gx, gy] of got)
        best = Math.min(best, Math.hypot((gx - ex) * metresPer[0]!, (gy - ey) * metresPer[1]!));
      worst = Math.max(worst, best);
    }
    return worst;
  }

  it('makes every vector product READY with its GeoJSON', () => {
    for (const type of ['GRID', 'CONTOUR_LINE', 'BUILDINGS', 'TREE_TOPS']) {
      expect([type, byType[type]?.status]).toEqual([type, 'READY']);
      expect(byType[type].files.map((f: { extension: string }) => f.extension)).toEqual(['geojson']);
    }
  });

  it.runIf(hasGdal())(
    'answers a signed URL per format whose bytes GDAL opens with the right CRS, count and coordinates (1 cm of PostGIS)',
    async () => {
      const tops = byType.TREE_TOPS;
      const pg = await postgisTops(tops.id);
      expect(pg.length).toBeGreaterThan(100);
      const lat0 = (pg[0]!.lat * Math.PI) / 180;
      const metresPerDegree = [111_320 * Math.cos(lat0), 110_574];
      const expectedNames = {
        geojson: ['Foret-de-Fusa-2024-tree_tops.geojson', 'application/geo+json'],
        dxf: ['Foret-de-Fusa-2024-tree_tops.dxf', 'image/vnd.dxf'],
        shp: ['Foret-de-Fusa-2024-tree_tops.zip', 'application/zip'],
      } as const;
      for (const format of ['geojson', 'dxf', 'shp'] as const) {
        const res = await exportOf(ada, tops.id, format);
        expect(res.status, await res.clone().text()).toBe(200);
        const body = await json(res);
        expect(Object.keys(body).sort()).toEqual(['fileName', 'totalSize', 'url']);
        expect(body.fileName).toBe(expectedNames[format][0]);
        expect(body.url).toMatch(/^http:\/\/localhost:8080\/tiles\/files\/[^/]+\/\d+\/projects\//);
        const { res: file, bytes } = await download(body.url);
        expect(bytes.byteLength).toBe(body.totalSize);
        expect(file.headers.get('content-type')).toBe(expectedNames[format][1]);
        expect(file.headers.get('content-disposition')).toContain(`filename="${expectedNames[format][0]}"`);
        const local = path.join(scratch, expectedNames[format][0]);
        await writeFile(local, bytes);

        if (format === 'geojson') {
          // WGS 84 (GDAL names 3D GeoJSON coordinates EPSG:4979, WGS 84 with ellipsoidal heights).
          expect(gdal('ogrinfo', ['-ro', '-so', '-al', local])).toMatch(/ID\["EPSG",(4326|4979)\]\]/);
          const doc = JSON.parse(bytes.toString('utf8'));
          expect(doc.type).toBe('FeatureCollection');
          const got = await ogrFeatures(local, null);
          expect(got).toHaveLength(pg.length);
          // The same tree, property for property, within 1 cm.
          const first = got.find((f) => f.properties.treeId === pg[0]!.tree_id)!;
          expect(
            Math.hypot(
              (first.geometry.coordinates[0]! - pg[0]!.lon) * metresPerDegree[0]!,
              (first.geometry.coordinates[1]! - pg[0]!.lat) * metresPerDegree[1]!,
            ),
          ).toBeLessThan(0.01);
          const gap = worstGap(
            pg.map((p) => [p.lon, p.lat]),
            got.map((f) => [f.geometry.coordinates[0]!, f.geometry.coordinates[1]!]),
            metresPerDegree,
          );
          expect(gap).toBeLessThan(0.01);
        }
        if (format === 'shp') {
          expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
          const info = gdal('ogrinfo', ['-ro', '-so', '-al', `/vsizip/${local}`]);
          expect(info).toMatch(new RegExp(`ID\\["EPSG",${FUSA_EPSG}\\]\\]`));
          expect(info).toMatch(new RegExp(`Feature Count: ${pg.length}\\b`));
          expect(info).toMatch(/Geometry: 3D Point/);
          // In the project CRS, against PostGIS's own transformation (PROJ), within 1 cm.
          const got = await ogrFeatures(`/vsizip/${local}`, null);
          const first = got.find((f) => f.properties.treeId === pg[0]!.tree_id)!;
          expect(
            Math.hypot(first.geometry.coordinates[0]! - pg[0]!.x, first.geometry.coordinates[1]! - pg[0]!.y),
          ).toBeLessThan(0.01);
          expect(
            worstGap(
              pg.map((p) => [p.x, p.y]),
              got.map((f) => [f.geometry.coordinates[0]!, f.geometry.coordinates[1]!]),
            ),
          ).toBeLessThan(0.01);
          // And back to EPSG:4326 by GDAL: the round trip PostGIS → Shapefile → WGS 84.
          const back = await ogrFeatures(`/vsizip/${local}`, null, { tSrs: 4326 });
          const again = back.find((f) => f.properties.treeId === pg[0]!.tree_id)!;
          expect(
            Math.hypot(
              (again.geometry.coordinates[0]! - pg[0]!.lon) * metresPerDegree[0]!,
              (again.geometry.coordinates[1]! - pg[0]!.lat) * metresPerDegree[1]!,
            ),
          ).toBeLessThan(0.01);
        }
        if (format === 'dxf') {
          expect(bytes.subarray(0, 64).toString('latin1')).toMatch(/SECTION/);
          // DXF carries no CRS: its coordinates are the project CRS's (EPSG:32754), as PostGIS transforms them.
          const got = (await ogrFeatures(local, null)).filter((f) => f.geometry.type === 'Point');
          expect(got).toHaveLength(pg.length);
          expect(
            worstGap(
              pg.map((p) => [p.x, p.y]),
              got.map((f) => [f.geometry.coordinates[0]!, f.geometry.coordinates[1]!]),
            ),
          ).toBeLessThan(0.01);
          const back = (await ogrFeatures(local, null, { sSrs: FUSA_EPSG, tSrs: 4326 })).filter(
            (f) => f.geometry.type === 'Point',
          );
          expect(
            worstGap(
              pg.map((p) => [p.lon, p.lat]),
              back.map((f) => [f.geometry.coordinates[0]!, f.geometry.coordinates[1]!]),
              metresPerDegree,
            ),
          ).toBeLessThan(0.01);
        }
      }
    },
    120_000,
  );

  it.runIf(hasGdal())('exports lines and polygons too (contours, buildings, grid), counts as in PostGIS', async () => {
    for (const type of ['CONTOUR_LINE', 'BUILDINGS', 'GRID']) {
      const asset = byType[type];
      const count = await t.tdb.db
        .selectFrom('features')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('asset_id', '=', asset.id)
        .executeTakeFirstOrThrow();
      for (const format of ['geojson', 'shp'] as const) {
        const body = await json(await exportOf(ada, asset.id, format));
        const { bytes } = await download(body.url);
        const file = path.join(scratch, body.fileName);
        await writeFile(file, bytes);
        const info = gdal('ogrinfo', ['-ro', '-so', '-al', format === 'shp' ? `/vsizip/${file}` : file]);
        expect(info, `${type} ${format}`).toMatch(new RegExp(`Feature Count: ${count.n}\\b`));
        expect(info).toMatch(new RegExp(`ID\\["EPSG",${format === 'shp' ? FUSA_EPSG : '(4326|4979)'}\\]\\]`));
      }
    }
  });

  it('serves the second request from the cache: same key, no export made, the stored file untouched', async () => {
    const grid = byType.GRID;
    const first = await json(await exportOf(ada, grid.id, 'dxf'));
    const key = new URL(first.url).pathname.replace(/^\/tiles\/files\/[^/]+\/\d+\//, '');
    const file = t.deps.storage.localPath(decodeURIComponent(key))!;
    const mtime = (await stat(file)).mtimeMs;
    const count = made.length;
    const started = performance.now();
    const second = await json(await exportOf(ada, grid.id, 'dxf'));
    const ms = performance.now() - started;
    expect(made.length).toBe(count);
    expect(second.url.replace(/\/tiles\/files\/[^/]+\/\d+\//, '')).toBe(
      first.url.replace(/\/tiles\/files\/[^/]+\/\d+\//, ''),
    );
    expect(second.totalSize).toBe(first.totalSize);
    expect((await stat(file)).mtimeMs).toBe(mtime);
    expect(ms).toBeLessThan(1000);
    // Recorded as the asset's file, under the GeoJSON's run prefix.
    const rows = await t.tdb.db.selectFrom('asset_files').selectAll().where('asset_id', '=', grid.id).execute();
    const geojson = rows.find((r) => r.extension === 'geojson')!;
    const dxf = rows.find((r) => r.extension === 'expdxf')!;
    expect(dxf).toMatchObject({ content_type: 'image/vnd.dxf', size: String(first.totalSize) });
    expect(dxf.key.slice(0, dxf.key.lastIndexOf('/'))).toBe(geojson.key.slice(0, geojson.key.lastIndexOf('/')));
    // Concurrent first requests make one export.
    const before = made.length;
    const both = await Promise.all([exportOf(ada, grid.id, 'shp'), exportOf(ada, grid.id, 'shp')]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(made.length - before).toBeLessThanOrEqual(1);
  });

  it('refuses: not READY (409), another user (404), unknown format (400), a raster (400), no session (401)', async () => {
    const tops = byType.TREE_TOPS;
    await t.tdb.db.updateTable('assets').set({ status: 'PROCESSING' }).where('id', '=', tops.id).execute();
    try {
      const res = await exportOf(ada, tops.id, 'shp');
      expect(res.status).toBe(409);
      const body = await json(res);
      expect(body.error).toMatchObject({ code: 'ASSET_NOT_READY', details: { status: 'PROCESSING' } });
      expect(body.error.message).toMatch(/not ready \(PROCESSING\)/);
    } finally {
      await t.tdb.db.updateTable('assets').set({ status: 'READY' }).where('id', '=', tops.id).execute();
    }
    const other = await exportOf(bob, tops.id, 'geojson');
    expect(other.status).toBe(404);
    expect((await json(other)).error.code).toBe('ASSET_NOT_FOUND');
    const none = await exportOf(ada, '999999', 'geojson');
    expect(none.status).toBe(404);

    const unknown = await exportOf(ada, tops.id, 'kml');
    expect(unknown.status).toBe(400);
    const u = await json(unknown);
    expect(u.error).toMatchObject({ code: 'EXPORT_FORMAT_UNKNOWN', details: { parameter: 'format' } });
    expect(u.error.message).toMatch(/^format: "kml"/);
    const missing = await t.app.request(`/api/assets/${tops.id}/export`, as(ada, 'GET'));
    expect(missing.status).toBe(400);
    expect((await json(missing)).error.details.fields[0].field).toBe('format');

    const raster = await exportOf(ada, byType.DTM.id, 'geojson');
    expect(raster.status).toBe(400);
    expect((await json(raster)).error.code).toBe('EXPORT_NOT_VECTOR');

    const anonymous = await t.app.request(`/api/assets/${tops.id}/export?format=geojson`);
    expect(anonymous.status).toBe(401);
  });

  it('works through a share token (the URL carries the share grant), and refuses a wrong token', async () => {
    const res = await t.app.request(`/api/projects/${project.id}/share-token`, as(ada, 'POST'));
    const { token } = await json(res);
    const tops = byType.TREE_TOPS;
    const shared = await t.app.request(`/api/assets/${tops.id}/export-from-shared-token?format=shp&token=${token}`);
    expect(shared.status).toBe(200);
    const body = await json(shared);
    expect(body.url).toMatch(/\/tiles\/files\/[^/]+\/\d+\/g\//);
    const { bytes } = await download(body.url);
    expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
    const wrong = await t.app.request(
      `/api/assets/${tops.id}/export-from-shared-token?format=shp&token=${'x'.repeat(32)}`,
    );
    expect(wrong.status).toBe(404);
    expect((await json(wrong)).error.code).toBe('SHARE_TOKEN_INVALID');
  });

  it('keeps the classified point cloud for premium users: 403 PREMIUM_REQUIRED, then the LAS once premium', async () => {
    const cloud = byType.CLASSIFIED_POINT_CLOUD;
    const url = `/api/assets/custom-tiler/file-supplier-url?id=${cloud.id}&extension=las`;
    const refused = await t.app.request(url, as(ada, 'GET'));
    expect(refused.status).toBe(403);
    expect((await json(refused)).error.code).toBe('PREMIUM_REQUIRED');
    await t.tdb.db.updateTable('users').set({ premium: true }).where('id', '=', ada.id).execute();
    const ok = await t.app.request(url, as(ada, 'GET'));
    expect(ok.status).toBe(200);
    expect(await json(ok)).toMatchObject({ fileName: 'fusa-classified.las', totalSize: expect.any(Number) });
  });

  it('drops the cached exports with the run: a new processing replaces them, the next request makes a new one', async () => {
    const tops = byType.TREE_TOPS;
    const before = await t.tdb.db
      .selectFrom('asset_files')
      .selectAll()
      .where('asset_id', '=', tops.id)
      .where('extension', 'like', 'exp%')
      .execute();
    expect(before.map((r) => r.extension).sort()).toEqual(['expdxf', 'expgeojson', 'expshp']);
    await processProject(t, ada, project.id, null);
    const after = await t.tdb.db.selectFrom('asset_files').selectAll().where('asset_id', '=', tops.id).execute();
    expect(after.map((r) => r.extension)).toEqual(['geojson']);
    for (const r of before) {
      await expect(stat(t.deps.storage.localPath(r.key)!)).rejects.toThrow();
    }
    const count = made.length;
    const res = await exportOf(ada, tops.id, 'shp');
    expect(res.status).toBe(200);
    expect(made.length).toBe(count + 1);
    const fresh = await t.tdb.db
      .selectFrom('asset_files')
      .selectAll()
      .where('asset_id', '=', tops.id)
      .where('extension', '=', 'expshp')
      .executeTakeFirstOrThrow();
    expect(fresh.key).not.toBe(before.find((r) => r.extension === 'expshp')!.key);
    expect(fresh.key.split('/')[4]).toBe(after[0]!.key.split('/')[4]);
  }, 300_000);
});
