import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '@nuage/engine/cli.js';
import { ASSET_TYPES, LAYER_OF_ASSET, LAYER_ORDER } from '@nuage/engine/products/registry.js';
import { type Manifest, productClosure } from '@nuage/engine/products/run-products.js';
import { realFile } from '@nuage/fixtures/real-data.js';
import { readAll } from '@nuage/tiles-cache';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkerHandle } from '../src/worker/runner.js';
import { json } from './accounts.js';
import { createTestApp, type TestApp } from './app.js';
import { as, getProject, type TestUser, testUser, testWorker, uploadRealFile, waitFor } from './projects.js';

const local = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies
const assetsOf = (p: any): any[] => p.layers.flatMap((l: { assets: unknown[] }) => l.assets);

async function outbox(t: TestApp): Promise<string[]> {
  const dir = path.join(t.dataDir, 'outbox');
  const files = await readdir(dir).catch(() => [] as string[]);
  // Quoted-printable soft line breaks joined, so sentences can be searched.
  const mails = await Promise.all(files.sort().map((f) => readFile(path.join(dir, f), 'utf8')));
  return mails.map((m) => m.replace(/=\n/g, ''));
}

describe('processing: every registered product becomes an asset', () => {
  let t: TestApp;
  let worker: WorkerHandle;
  let ada: TestUser;
  let admin: TestUser;
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies
  let project: any;
  let assetId: string;

  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'true' });
    [ada, admin] = await Promise.all([
      testUser(t, 'ada@example.com'),
      testUser(t, 'root@example.com', ['admin', 'user']),
    ]);
    worker = await testWorker(t);
    ({ project, assetId } = await uploadRealFile(t, ada, 'Fusa', 'fusa.laz'));
  });
  afterAll(async () => {
    await worker?.stop();
    await t.close();
  });

  it('refuses options out of the §5 ranges, and processing before the upload', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ dtmResolutionCm: 19 }, 'dtmResolutionCm'],
      [{ dtmResolutionCm: 3001 }, 'dtmResolutionCm'],
      [{ contourMinorCm: 100, contourMajorCm: 100 }, 'contourMajorCm'],
      [{ contourMinorCm: 5 }, 'contourMinorCm'],
      [{ gridResolutionCm: 99 }, 'gridResolutionCm'],
      [{ powerLineBuffersCm: [100, 200, 300, 400] }, 'powerLineBuffersCm'],
      [{ powerLineBuffersCm: [50] }, 'powerLineBuffersCm.0'],
      [{ clearanceHeightCm: 10001 }, 'clearanceHeightCm'],
      [{ treeFallHeightBufferCm: 9 }, 'treeFallHeightBufferCm'],
      [{ crownShape: 'ROUND' }, ''],
      [{ buildingSimplification: 'CITY' }, ''],
      [{ unknownOption: 1 }, ''],
    ];
    for (const [options, field] of cases) {
      const res = await t.app.request(
        '/api/assets/start-tiling',
        as(ada, 'POST', { assetId, processingOptions: options }),
      );
      const body = await json(res);
      expect([res.status, body.error.code], JSON.stringify(options)).toEqual(
        res.status === 400 && body.error.code === 'FORM_INVALID'
          ? [400, 'FORM_INVALID']
          : [400, 'INVALID_PROCESSING_OPTIONS'],
      );
      if (body.error.code === 'INVALID_PROCESSING_OPTIONS') expect(body.error.message).toContain(field);
    }
    const empty = await json(await t.app.request('/api/projects', as(ada, 'POST', { name: 'Empty' })));
    const res = await t.app.request(`/api/projects/${empty.id}/processing`, as(ada, 'POST', { options: {} }));
    expect(res.status).toBe(409);
    expect((await json(res)).error.code).toBe('PROJECT_NOT_UPLOADED');
  });

  it('runs metadata → tiling → processing from start-tiling, every product READY in its layer, in spec order', async () => {
    const res = await t.app.request(
      '/api/assets/start-tiling',
      as(ada, 'POST', {
        assetId,
        processingOptions: {
          dtmResolutionCm: 100,
          contourMinorCm: 100,
          contourMajorCm: 500,
          gridResolutionCm: 1000,
        },
      }),
    );
    expect(res.status).toBe(200);
    const done = await waitFor(
      async () => {
        const p = await getProject(t, ada, project.id);
        const state = p.jobs.processing?.state;
        if (state === 'FAILURE') throw new Error(`processing failed: ${p.jobs.processing.errorMessage}`);
        return state === 'SUCCESS' ? p : null;
      },
      300_000,
      'processing SUCCESS',
    );
    expect(done.status).toBe('READY');
    // Every product of the registry is an asset in its layer, layers and assets in the spec §3 order.
    const expected = LAYER_ORDER.map((layer) => ASSET_TYPES.filter((type) => LAYER_OF_ASSET[type] === layer)).filter(
      (types) => types.length > 0,
    );
    expect(done.layers.map((l: { type: string }) => l.type)).toEqual(
      LAYER_ORDER.filter((layer) => ASSET_TYPES.some((type) => LAYER_OF_ASSET[type] === layer)),
    );
    const types = done.layers.map((l: { assets: Array<{ type: string }> }) => l.assets.map((a) => a.type));
    expect(types).toEqual(expected);
    expect(types.flat()).toEqual(expect.arrayContaining(['CLASSIFIED_POINT_CLOUD', 'DTM', 'HILLSHADE_DTM', 'GRID']));
    for (const a of assetsOf(done)) expect([a.type, a.status]).toEqual([a.type, 'READY']);
    const byType = Object.fromEntries(assetsOf(done).map((a) => [a.type, a]));
    expect(byType.CLASSIFIED_POINT_CLOUD.files).toEqual([
      { extension: 'las', fileName: 'fusa-classified.las', size: expect.any(Number) },
    ]);
    expect(byType.CLASSIFIED_POINT_CLOUD.accessUrl).toMatch(/tileset\.json$/);
    expect(byType.DTM.files[0]).toMatchObject({ extension: 'tif', fileName: 'fusa-dtm.tif' });
    expect(byType.HILLSHADE_DTM.accessUrl).toMatch(/\{z\}\/\{x\}\/\{y\}\.png$/);
    expect(byType.GRID.files[0]).toMatchObject({ extension: 'geojson', fileName: 'fusa-grid.geojson' });

    const job = await t.tdb.db
      .selectFrom('jobs')
      .selectAll()
      .where('kind', '=', 'PROCESSING')
      .executeTakeFirstOrThrow();
    expect(job).toMatchObject({ state: 'SUCCESS', step: 'done', percentage: 100, attempts: 1, retry_count: 0 });
    const result = job.result as { products: Array<{ id: string; status: string }>; chargedHectares: number };
    expect(result.products.map((p) => p.id)).toEqual(productClosure(undefined).map((p) => p.id));
    expect(result.products.map((p) => p.id).slice(0, 2)).toEqual(['classify', 'dtm']);
    expect(result.products.every((p) => p.status === 'READY')).toBe(true);
    expect(result.chargedHectares).toBeCloseTo(done.area, 6);
    // The request reserved the area; the success charged that reservation, once.
    const charges = await t.tdb.db.selectFrom('charges').selectAll().where('kind', '=', 'charge').execute();
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({
      charge_key: `charge:reserve:processing:${job.id}:1`,
      user_id: ada.id,
      hectares: done.area,
      job_id: job.id,
    });

    const mails = await waitFor(async () => {
      const m = (await outbox(t)).filter((x) => x.includes('is finished'));
      return m.length > 0 ? m : null;
    }, 10_000);
    expect(mails[0]).toContain('To: ada@example.com');
    expect(mails[0]).toContain('Subject: =?UTF-8?Q?Your_project_=22Fusa=22_is_processed?=');
    expect(mails[0]).toContain('CONTOUR_LINE_MAJOR');
  });

  it('makes the same products as `nuage process` with the same options (byte-identical files, same manifest)', async () => {
    const out = await mkdtemp(path.join(tmpdir(), 'nuage-cli-vs-job-'));
    const optionsFile = path.join(out, 'options.json');
    const options = { dtmResolutionCm: 100, contourMinorCm: 100, contourMajorCm: 500, gridResolutionCm: 1000 };
    await writeFile(optionsFile, JSON.stringify(options));
    const lines: string[] = [];
    const code = await runCli(['process', realFile('fusa.laz'), path.join(out, 'run'), '--options', optionsFile], {
      out: (l) => lines.push(l),
      err: (l) => lines.push(l),
    });
    expect(code, lines.join('\n')).toBe(0);
    const cli: Manifest = JSON.parse(await readFile(path.join(out, 'run', 'manifest.json'), 'utf8'));
    const job = await t.tdb.db
      .selectFrom('jobs')
      .selectAll()
      .where('kind', '=', 'PROCESSING')
      .executeTakeFirstOrThrow();
    const stored = (job.result as { manifest: Manifest }).manifest;
    expect(stored.options).toEqual(cli.options);
    expect(stored.input).toBe('fusa.laz');
    const shape = (m: Manifest) =>
      m.artifacts.map(({ type, path: p, format, epsg, count }) => ({ type, p, format, epsg, count }));
    expect(shape(stored)).toEqual(shape(cli));
    const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
    const p = await getProject(t, ada, project.id);
    let compared = 0;
    for (const a of cli.artifacts) {
      // Tiles are compared by count above; a PDF carries its creation date, so its page count is compared.
      if (a.format === 'XYZ' || a.format === '3DTiles' || a.format === 'PDF') continue;
      const asset = assetsOf(p).find((x) => x.type === a.type);
      const extension = path.extname(a.path).slice(1);
      const row = await t.tdb.db
        .selectFrom('asset_files')
        .selectAll()
        .where('asset_id', '=', asset.id)
        .where('extension', '=', extension)
        .executeTakeFirstOrThrow();
      const jobBytes = await readFile(t.deps.storage.localPath(row.key)!);
      const cliBytes = await readFile(path.join(out, 'run', a.path));
      expect(sha(jobBytes), `${a.type} ${a.path}`).toBe(sha(cliBytes));
      compared++;
    }
    // Every file: classified LAS, DTM, hillshade, slope, 3 contour files, grid, quality report... (not tiles).
    expect(compared).toBe(cli.artifacts.filter((a) => !['XYZ', '3DTiles', 'PDF'].includes(a.format)).length);
    expect(compared).toBeGreaterThanOrEqual(9);
  });

  it('serves the DTM as raster tiles at a signed URL, and the hillshade variant', async () => {
    const p = await getProject(t, ada, project.id);
    const dtm = assetsOf(p).find((a) => a.type === 'DTM');
    const imagery = assetsOf(p).find((a) => a.type === 'IMAGERY_DTM');
    const res = await t.app.request(
      `/api/assets/custom-tiler/tiles-supplier-url?id=${dtm.id}&variant=hillshade`,
      as(ada, 'GET'),
    );
    expect(res.status).toBe(200);
    const { url } = await json(res);
    expect(url).toMatch(/\/tiles\/raster\/.+\{z\}\/\{x\}\/\{y\}\.png$/);
    expect(imagery.accessUrl).toContain('/tiles/raster/');
    // The DTM itself has a GeoTIFF, no tiles; a product that failed is not served.
    const plain = await t.app.request(`/api/assets/custom-tiler/tiles-supplier-url?id=${dtm.id}`, as(ada, 'GET'));
    expect((await json(plain)).error.code).toBe('NO_TILES');
    await t.tdb.db.updateTable('assets').set({ status: 'ERROR' }).where('id', '=', imagery.id).execute();
    const failed = await t.app.request(`/api/assets/custom-tiler/tiles-supplier-url?id=${imagery.id}`, as(ada, 'GET'));
    expect(failed.status).toBe(409);
    expect((await json(failed)).error).toMatchObject({ code: 'ASSET_NOT_READY', details: { status: 'ERROR' } });
    await t.tdb.db.updateTable('assets').set({ status: 'READY' }).where('id', '=', imagery.id).execute();
    // The imagery prefix holds the DTM's COG and its description; the tile over the middle of the
    // project at the finest zoom is rendered from it on first request, then served from the store.
    const prefix = new URL(imagery.accessUrl).pathname.split('/').slice(5, 10).join('/');
    const described = await t.deps.storage.objects.get(`${prefix}/raster.json`);
    const description = JSON.parse((await readAll(described.body)).toString('utf8'));
    expect(description).toMatchObject({ ramp: 'elevation', source: 'source.tif' });
    expect(await t.deps.storage.objects.head(`${prefix}/source.tif`)).not.toBeNull();
    const [west, south, east, north] = description.bounds as number[];
    const z = description.maxZoom as number;
    const lat = (((south! + north!) / 2) * Math.PI) / 180;
    const x = Math.floor((((west! + east!) / 2 + 180) / 360) * 2 ** z);
    const y = Math.floor(((1 - Math.log(Math.tan(lat) + 1 / Math.cos(lat)) / Math.PI) / 2) * 2 ** z);
    const tileUrl = imagery.accessUrl.replace('{z}/{x}/{y}.png', `${z}/${x}/${y}.png`);
    const tile = await t.app.request(local(tileUrl));
    expect(tile.status).toBe(200);
    expect(tile.headers.get('content-type')).toBe('image/png');
    expect(tile.headers.get('x-tile-source')).toBe('rendered');
    expect(
      Buffer.from(await tile.arrayBuffer())
        .subarray(1, 4)
        .toString('latin1'),
    ).toBe('PNG');
    expect(await t.deps.storage.objects.head(`${prefix}/${z}/${x}/${y}.png`)).not.toBeNull();
    const again = await t.app.request(local(tileUrl));
    expect(again.headers.get('x-tile-source')).toBe('cache');
  });

  it('serves contours and the grid over OGC API Features with bbox paging and access rules', async () => {
    const list = await json(await t.app.request('/ogc/collections', as(ada, 'GET')));
    const ids = list.collections.map((c: { id: string }) => c.id);
    const p = await getProject(t, ada, project.id);
    const contours = assetsOf(p).find((a) => a.type === 'CONTOUR_LINE_MAJOR');
    expect(ids).toContain(contours.id);
    // One collection per asset with features (grid, the three contour assets, and later vector products).
    const withFeatures = await t.tdb.db.selectFrom('features').select('asset_id').distinct().execute();
    expect(list.collections).toHaveLength(withFeatures.length);
    expect(withFeatures.length).toBeGreaterThanOrEqual(4);
    const one = await json(await t.app.request(`/ogc/collections/${contours.id}`, as(ada, 'GET')));
    const [west, south, east, north] = one.extent.spatial.bbox[0];
    // fusa: UTM 54S, 222 km west of the 141°E meridian (138.6°E), 35°S.
    expect(west).toBeGreaterThan(138.5);
    expect(east).toBeLessThan(138.7);
    expect(south).toBeGreaterThan(-36);
    expect(north).toBeLessThan(-34);
    const page = await json(await t.app.request(`/ogc/collections/${contours.id}/items?limit=2`, as(ada, 'GET')));
    expect(page.type).toBe('FeatureCollection');
    expect(page.numberReturned).toBe(Math.min(2, page.numberMatched));
    expect(page.features[0].geometry.type).toBe('LineString');
    expect(page.features[0].properties.kind).toBe('major');
    if (page.numberMatched > 2) expect(page.links.map((l: { rel: string }) => l.rel)).toContain('next');
    const westHalf = `${west},${south},${(west + east) / 2},${north}`;
    const inBox = await json(
      await t.app.request(`/ogc/collections/${contours.id}/items?bbox=${westHalf}&limit=10000`, as(ada, 'GET')),
    );
    const all = await json(await t.app.request(`/ogc/collections/${contours.id}/items?limit=10000`, as(ada, 'GET')));
    expect(inBox.numberMatched).toBeLessThanOrEqual(all.numberMatched);
    expect(inBox.numberMatched).toBeGreaterThan(0);
    const bad = await t.app.request(`/ogc/collections/${contours.id}/items?bbox=1,2,3`, as(ada, 'GET'));
    expect((await json(bad)).error.code).toBe('INVALID_BBOX');
    // An anonymous client is asked for credentials (the OGC API's 401); ogc.test.ts covers strangers and tokens.
    expect((await t.app.request(`/ogc/collections/${contours.id}/items`)).status).toBe(401);
    expect((await t.app.request('/ogc/collections')).status).toBe(401);
    // The share token opens it.
    const { token } = await json(await t.app.request(`/api/projects/${project.id}/share-token`, as(ada, 'POST')));
    const shared = await t.app.request(`/ogc/collections/${contours.id}/items?limit=1&token=${token}`);
    expect(shared.status).toBe(200);
  });

  it('writes the contour and grid GeoJSON downloads in EPSG:4326 (RFC 7946), inside the WGS84 bbox of the cloud', async () => {
    const p = await getProject(t, ada, project.id);
    const cloud = assetsOf(p).find((a) => a.type === 'POINT_CLOUD');
    const monitor = await json(await t.app.request(`/api/assets?id=${cloud.id}`, as(ada, 'GET')));
    const box = monitor.metadata.bboxWgs84 as { west: number; south: number; east: number; north: number };
    // fusa: UTM 54S, around 138.6°E 35°S.
    expect(box.west).toBeGreaterThan(138.5);
    expect(box.north).toBeLessThan(-34);
    // Contours and grid points come from the DTM over the cloud: 1e-4° (about 10 m) of slack, more than a DTM cell.
    const slack = 1e-4;
    for (const type of ['CONTOUR_LINE', 'CONTOUR_LINE_MAJOR', 'CONTOUR_LINE_MINOR', 'GRID']) {
      const asset = assetsOf(p).find((a) => a.type === type);
      const supplied = await t.app.request(
        `/api/assets/custom-tiler/file-supplier-url?id=${asset.id}&extension=geojson`,
        as(ada, 'GET'),
      );
      expect(supplied.status).toBe(200);
      const file = await json(supplied);
      const res = await t.app.request(local(file.url));
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text.length).toBe(file.totalSize);
      const doc = JSON.parse(text);
      expect(doc.type).toBe('FeatureCollection');
      // RFC 7946 has no crs member: the coordinates are WGS84 longitude, latitude.
      expect(doc.crs, type).toBeUndefined();
      expect(doc.features.length, type).toBeGreaterThan(0);
      let positions = 0;
      let maxDecimals = 0;
      for (const f of doc.features) {
        const list: number[][] = f.geometry.type === 'Point' ? [f.geometry.coordinates] : f.geometry.coordinates;
        for (const [lon, lat] of list) {
          positions++;
          expect(lon, type).toBeGreaterThanOrEqual(box.west - slack);
          expect(lon, type).toBeLessThanOrEqual(box.east + slack);
          expect(lat, type).toBeGreaterThanOrEqual(box.south - slack);
          expect(lat, type).toBeLessThanOrEqual(box.north + slack);
          for (const v of [lon, lat]) maxDecimals = Math.max(maxDecimals, String(v).split('.')[1]?.length ?? 0);
        }
      }
      expect(positions, type).toBeGreaterThanOrEqual(doc.features.length);
      // About 1 cm: 7 decimals of a degree, no more.
      expect(maxDecimals, type).toBe(7);
      if (type === 'GRID') {
        const [, , z] = doc.features[0].geometry.coordinates;
        expect(z).toBe(doc.features[0].properties.elevation);
        expect(z).toBeGreaterThan(p.minElevation - 1);
        expect(z).toBeLessThan(p.maxElevation + 1);
      } else {
        expect(doc.features[0].geometry.type).toBe('LineString');
      }
    }
  });

  it('needs premium to download the classified cloud (PREMIUM_REQUIRED), and gives it to premium users', async () => {
    const p = await getProject(t, ada, project.id);
    const classified = assetsOf(p).find((a) => a.type === 'CLASSIFIED_POINT_CLOUD');
    const url = `/api/assets/custom-tiler/file-supplier-url?id=${classified.id}&extension=las`;
    const refused = await t.app.request(url, as(ada, 'GET'));
    expect(refused.status).toBe(403);
    expect((await json(refused)).error.code).toBe('PREMIUM_REQUIRED');
    await t.tdb.db.updateTable('users').set({ premium: true }).where('id', '=', ada.id).execute();
    const ok = await t.app.request(url, as(ada, 'GET'));
    expect(ok.status).toBe(200);
    const file = await json(ok);
    const bytes = await t.app.request(local(file.url), { headers: { range: 'bytes=0-3' } });
    expect(Buffer.from(await bytes.arrayBuffer()).toString('latin1')).toBe('LASF');
    // Other products need no premium.
    const dtm = assetsOf(p).find((a) => a.type === 'DTM');
    await t.tdb.db.updateTable('users').set({ premium: false }).where('id', '=', ada.id).execute();
    expect(
      (await t.app.request(`/api/assets/custom-tiler/file-supplier-url?id=${dtm.id}&extension=tif`, as(ada, 'GET')))
        .status,
    ).toBe(200);
  });

  it('records a failure with its message and the contact-support mail; the admin retry runs it again, charged once', async () => {
    const processing = await t.tdb.db
      .selectFrom('jobs')
      .selectAll()
      .where('kind', '=', 'PROCESSING')
      .executeTakeFirstOrThrow();
    const notFailed = await t.app.request(`/api/admin/process-data/${processing.id}/retry`, as(admin, 'POST'));
    expect(notFailed.status).toBe(409);
    expect((await json(notFailed)).error.code).toBe('JOB_NOT_FAILED');

    // A second processing with the stored input gone: a permanent failure, not retried.
    const input = await t.tdb.db
      .selectFrom('asset_files')
      .selectAll()
      .where('asset_id', '=', assetId)
      .executeTakeFirstOrThrow();
    const saved = await readFile(t.deps.storage.localPath(input.key)!);
    await t.deps.storage.objects.delete(input.key);
    const queued = await t.app.request(
      `/api/projects/${project.id}/processing`,
      as(ada, 'POST', { options: { dtmResolutionCm: 200 } }),
    );
    expect(queued.status).toBe(202);
    const job = await json(queued);
    expect(job).toMatchObject({ status: 'PENDING', dtmResolution: 200, kind: 'PROCESSING' });
    const twice = await t.app.request(`/api/projects/${project.id}/processing`, as(ada, 'POST', { options: {} }));
    expect(twice.status).toBe(409);
    expect((await json(twice)).error.code).toBe('PROCESSING_ALREADY_RUNNING');
    const failed = await waitFor(async () => {
      const j = await json(await t.app.request(`/api/admin/process-data/${job.id}`, as(admin, 'GET')));
      return j.status === 'FAILURE' ? j : null;
    }, 60_000);
    expect(failed).toMatchObject({ errorCode: 'INPUT_MISSING', attempts: 1, retryCount: 0, step: 'error' });
    expect(failed.errorMessage).toContain('missing');
    const mails = await waitFor(async () => {
      const m = (await outbox(t)).filter((x) => x.includes('Please contact support'));
      return m.length > 0 ? m : null;
    }, 10_000);
    expect(mails[0]).toContain('contact support');

    const list = await json(await t.app.request('/api/admin/process-data?state=FAILURE', as(admin, 'GET')));
    expect(list.results.map((j: { id: string }) => j.id)).toEqual([job.id]);
    expect((await t.app.request('/api/admin/process-data', as(ada, 'GET'))).status).toBe(403);

    await t.deps.storage.objects.put(input.key, saved);
    const retried = await t.app.request(`/api/admin/process-data/${job.id}/retry`, as(admin, 'POST'));
    expect(retried.status).toBe(202);
    expect(await json(retried)).toMatchObject({ status: 'PENDING', retryCount: 1 });
    const ok = await waitFor(async () => {
      const j = await json(await t.app.request(`/api/admin/process-data/${job.id}`, as(admin, 'GET')));
      if (j.status === 'FAILURE') throw new Error(j.errorMessage);
      return j.status === 'SUCCESS' ? j : null;
    }, 300_000);
    expect(ok).toMatchObject({ retryCount: 1, attempts: 1, errorCode: null });
    // The failure gave the reserved hectares back; the retry reserved them again and was charged once.
    const ledger = await t.tdb.db
      .selectFrom('charges')
      .select(['kind', 'charge_key'])
      .where('job_id', '=', job.id)
      .orderBy('id')
      .execute();
    expect(ledger.map((c) => [c.kind, c.charge_key])).toEqual([
      ['reservation', `reserve:processing:${job.id}:1`],
      ['release', `release:reserve:processing:${job.id}:1`],
      ['reservation', `reserve:processing:${job.id}:2`],
      ['charge', `charge:reserve:processing:${job.id}:2`],
    ]);
    const charges = await t.tdb.db
      .selectFrom('charges')
      .select(['charge_key'])
      .where('kind', '=', 'charge')
      .orderBy('id')
      .execute();
    expect(charges.map((c) => c.charge_key)).toEqual([
      `charge:reserve:processing:${processing.id}:1`,
      `charge:reserve:processing:${job.id}:2`,
    ]);
  });

  it('lists tiling and metadata jobs in their monitors, with views by project', async () => {
    for (const [path, kind] of [
      ['tiling', 'TILING'],
      ['metadata-processing', 'METADATA'],
    ] as const) {
      const page = await json(await t.app.request(`/api/admin/${path}?limit=10&sortBy=id&order=ASC`, as(admin, 'GET')));
      expect(page.count).toBe(1);
      const j = page.results[0];
      expect(j).toMatchObject({
        kind,
        status: 'SUCCESS',
        projectId: project.id,
        lasName: 'fusa.laz',
        user: 'ada@example.com',
      });
      expect(j.epsg).toBe(32754);
      const view = await t.app.request(`/api/admin/${path}/${project.id}/${j.id}`, as(admin, 'GET'));
      expect(view.status).toBe(200);
      const wrongProject = await t.app.request(
        `/api/admin/${path}/${Number(project.id) + 1}/${j.id}`,
        as(admin, 'GET'),
      );
      expect((await json(wrongProject)).error.code).toBe('JOB_NOT_FOUND');
    }
  });
});
