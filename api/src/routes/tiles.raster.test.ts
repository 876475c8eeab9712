import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { inflateSync } from 'node:zlib';
import { type ServerType, serve } from '@hono/node-server';
import { crsFromEpsg } from '@nuage/engine/crs/index.js';
import { writeRasterTileSource } from '@nuage/engine/products/raster-tiles.product.js';
import { colourer, type Rgba } from '@nuage/engine/raster/colour-ramps.js';
import { createRaster, rasterRange, sampleBilinear } from '@nuage/engine/raster/raster.js';
import { EMPTY_TILE_PNG } from '@nuage/engine/raster/tile-render.js';
import { writeGeoTiff } from '@nuage/engine/writers/geotiff.writer.js';
import { analyticSurface } from '@nuage/fixtures/synthetic/terrain-scene.js';
import { rasterTileKey } from '@nuage/tiles-cache';
import proj4 from 'proj4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { as, createProject, type TestUser, testUser } from '../../test/projects.js';
import { ensureLayer } from '../db/queries/assets.queries.js';
import { uploadFolder } from '../jobs/store-io.js';

const run = promisify(execFile);
const L93 = crsFromEpsg(2154);
const HALF = Math.PI * 6378137;

/** The path and query of an absolute URL (the app is driven with app.request). */
const local = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** The zoom-z tile holding a Lambert-93 point, the RGBA offset of its pixel, and that pixel's centre in Lambert-93. */
function pixelOf(x: number, y: number, z: number) {
  const [mx, my] = proj4(L93.proj4, 'EPSG:3857').forward([x, y]) as [number, number];
  const size = (2 * HALF) / 2 ** z;
  const tx = Math.floor((mx + HALF) / size);
  const ty = Math.floor((HALF - my) / size);
  const px = Math.floor(((mx + HALF) / size - tx) * 256);
  const py = Math.floor(((HALF - my) / size - ty) * 256);
  const centre = proj4('EPSG:3857', L93.proj4).forward([
    -HALF + (tx + (px + 0.5) / 256) * size,
    HALF - (ty + (py + 0.5) / 256) * size,
  ]) as [number, number];
  return { path: `${z}/${tx}/${ty}.png`, z, tx, ty, at: (py * 256 + px) * 4, centre };
}

function decodePng(png: Buffer): Uint8Array {
  let p = 8;
  const idat: Buffer[] = [];
  while (p < png.length) {
    const len = png.readUInt32BE(p);
    if (png.toString('latin1', p + 4, p + 8) === 'IDAT') idat.push(png.subarray(p + 8, p + 8 + len));
    p += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const out = new Uint8Array(256 * 256 * 4);
  for (let r = 0; r < 256; r++) out.set(raw.subarray(r * 1025 + 1, r * 1025 + 1025), r * 1024);
  return out;
}

describe('raster tiles rendered on demand from the stored COG, and COG downloads with range requests', () => {
  let t: TestApp;
  let server: ServerType;
  let base: string;
  let ada: TestUser;
  let projectId: string;
  let assetId: string;
  let prefix: string;
  let fileKey: string;
  let cogBytes: Buffer;
  /** Method and Range header of the requests the loopback server got. */
  const requests: { method: string; range: string | null }[] = [];
  // 600 m × 450 m at 0.5 m near Paris, with a hole of nodata.
  const dtm = createRaster(1200, 900, 650_000, 6_862_000, 0.5, { epsg: 2154 });
  dtm.data.set(analyticSurface(1200, 900, 0.5));
  for (let row = 400; row < 480; row++) for (let c = 600; c < 680; c++) dtm.data[row * 1200 + c] = dtm.nodata;

  /** The asset's XYZ template as its owner gets it. */
  async function template(): Promise<string> {
    const res = await t.app.request(`/api/assets/custom-tiler/tiles-supplier-url?id=${assetId}`, as(ada, 'GET'));
    expect(res.status).toBe(200);
    return (await json(res)).url;
  }

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp({ PUBLIC_URL: base });
    server = serve({
      fetch: (req: Request) => {
        requests.push({ method: req.method, range: req.headers.get('range') });
        return t.app.fetch(req);
      },
      port,
      hostname: '127.0.0.1',
    });
    ada = await testUser(t, 'ada@example.com');
    const project = await createProject(t, ada, 'Rasters');
    projectId = project.id;
    const db = t.tdb.db;
    const layer = await ensureLayer(db, projectId, 'RASTER', 'Rasters');
    const asset = await db
      .insertInto('assets')
      .values({ project_id: projectId, layer_id: layer.id, type: 'IMAGERY_DTM', name: 'dtm imagery' })
      .returning('id')
      .executeTakeFirstOrThrow();
    assetId = asset.id;
    // What the processing job stores for a raster product: the COG as a download, the tiles folder under the run's prefix.
    const dir = await mkdtemp(path.join(tmpdir(), 'nuage-raster-tiles-'));
    const cog = path.join(dir, 'dtm.tif');
    await writeGeoTiff(cog, dtm, { deflate: true });
    cogBytes = await readFile(cog);
    const tiles = await writeRasterTileSource(cog, dtm, L93, 'elevation', dir);
    prefix = `projects/${projectId}/assets/${assetId}/t7/`;
    await uploadFolder(t.deps.storage.objects, tiles.path, prefix);
    fileKey = `projects/${projectId}/assets/${assetId}/r7/${assetId}.tif`;
    await t.deps.storage.objects.put(fileKey, cogBytes);
    await db
      .insertInto('asset_files')
      .values({
        asset_id: assetId,
        extension: 'tif',
        key: fileKey,
        file_name: 'rasters-dtm.tif',
        size: cogBytes.length,
        content_type: 'image/tiff',
      })
      .execute();
    await db.updateTable('assets').set({ status: 'READY', tiles_prefix: prefix }).where('id', '=', assetId).execute();
    await db.updateTable('projects').set({ status: 'READY' }).where('id', '=', projectId).execute();
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await t?.close();
  });

  it('renders a tile from the COG on first request, then serves it from the tiles store with its ETag', async () => {
    const url = await template();
    expect(url).toMatch(/\/tiles\/raster\/.+\/t7\/\{z\}\/\{x\}\/\{y\}\.png$/);
    const p = pixelOf(650_000 + 150.25, 6_862_000 - 100.25, 19);
    const first = await t.app.request(local(url.replace('{z}/{x}/{y}.png', p.path)));
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('image/png');
    expect(first.headers.get('x-tile-source')).toBe('rendered');
    expect(first.headers.get('cache-control')).toMatch(/^public, max-age=\d+, immutable$/);
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    const png = Buffer.from(await first.arrayBuffer());
    // The pixel over a known point has the ramp colour of the DTM there.
    const rgba = decodePng(png);
    const expected: Rgba = [0, 0, 0, 0];
    colourer('elevation', rasterRange(dtm))(sampleBilinear(dtm, p.centre[0], p.centre[1]), expected);
    for (let k = 0; k < 3; k++) expect(Math.abs(rgba[p.at + k]! - expected[k]!)).toBeLessThanOrEqual(1);
    expect(rgba[p.at + 3]).toBe(255);
    // Cached in the tiles store under the run's key.
    expect(await t.deps.storage.objects.head(rasterTileKey(prefix, p.z, p.tx, p.ty))).not.toBeNull();

    const second = await t.app.request(local(url.replace('{z}/{x}/{y}.png', p.path)));
    expect(second.headers.get('x-tile-source')).toBe('cache');
    expect(second.headers.get('etag')).toBe(etag);
    expect(Buffer.from(await second.arrayBuffer()).equals(png)).toBe(true);
    const revalidated = await t.app.request(local(url.replace('{z}/{x}/{y}.png', p.path)), {
      headers: { 'if-none-match': etag! },
    });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.arrayBuffer()).toHaveProperty('byteLength', 0);
  });

  it('answers a transparent tile outside the data, 404 outside the tile matrix, 403 to a bad signature', async () => {
    const url = await template();
    const far = pixelOf(650_300, 6_862_000 + 10_000, 16);
    const empty = await t.app.request(local(url.replace('{z}/{x}/{y}.png', far.path)));
    expect(empty.status).toBe(200);
    expect(empty.headers.get('x-tile-source')).toBe('empty');
    expect(Buffer.from(await empty.arrayBuffer()).equals(EMPTY_TILE_PNG)).toBe(true);
    expect(await t.deps.storage.objects.head(rasterTileKey(prefix, far.z, far.tx, far.ty))).toBeNull();
    const again = await t.app.request(local(url.replace('{z}/{x}/{y}.png', far.path)), {
      headers: { 'if-none-match': empty.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
    for (const bad of ['25/0/0.png', '3/8/0.png']) {
      const res = await t.app.request(local(url.replace('{z}/{x}/{y}.png', bad)));
      expect(res.status, bad).toBe(404);
    }
    const forged = url
      .replace(/\/tiles\/raster\/[^/]+\//, '/tiles/raster/forged/')
      .replace('{z}/{x}/{y}.png', far.path);
    expect((await t.app.request(local(forged))).status).toBe(403);
  });

  it('serves raster tiles at a share link’s URL until the share is revoked', async () => {
    const { token } = await json(await t.app.request(`/api/projects/${projectId}/share-token`, as(ada, 'POST')));
    const res = await t.app.request(
      `/api/assets/custom-tiler/tiles-supplier-url-from-shared-token?id=${assetId}&token=${token}`,
    );
    const url: string = (await json(res)).url;
    expect(url).toContain(`/g/${projectId}.`);
    const p = pixelOf(650_000 + 400, 6_862_000 - 300, 18);
    const tile = await t.app.request(local(url.replace('{z}/{x}/{y}.png', p.path)));
    expect(tile.status).toBe(200);
    expect(tile.headers.get('cache-control')).toBe('private, max-age=60');
    expect((await t.app.request(`/api/projects/${projectId}/share-token`, as(ada, 'DELETE'))).status).toBe(204);
    const revoked = await t.app.request(local(url.replace('{z}/{x}/{y}.png', p.path)));
    expect(revoked.status).toBe(403);
  });

  it('answers range requests on the download URL (206 with Content-Range, 416 outside)', async () => {
    const res = await t.app.request(
      `/api/assets/custom-tiler/file-supplier-url?id=${assetId}&extension=tif`,
      as(ada, 'GET'),
    );
    expect(res.status).toBe(200);
    const { url } = await json(res);
    const head = await t.app.request(local(url), { headers: { range: 'bytes=0-15' } });
    expect(head.status).toBe(206);
    expect(head.headers.get('content-range')).toBe(`bytes 0-15/${cogBytes.length}`);
    expect(head.headers.get('accept-ranges')).toBe('bytes');
    expect(Buffer.from(await head.arrayBuffer()).equals(cogBytes.subarray(0, 16))).toBe(true);
    const tail = await t.app.request(local(url), { headers: { range: 'bytes=-100' } });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(cogBytes.subarray(cogBytes.length - 100))).toBe(true);
    const outside = await t.app.request(local(url), { headers: { range: `bytes=${cogBytes.length}-` } });
    expect(outside.status).toBe(416);
    expect(outside.headers.get('content-range')).toBe(`bytes */${cogBytes.length}`);
  });

  it('is read by GDAL through /vsicurl/ at the signed download URL, with range requests only', async () => {
    const res = await t.app.request(
      `/api/assets/custom-tiler/file-supplier-url?id=${assetId}&extension=tif`,
      as(ada, 'GET'),
    );
    const { url } = await json(res);
    expect(url.startsWith(base)).toBe(true);
    requests.length = 0;
    const { stdout } = await run('gdalinfo', ['-json', `/vsicurl/${url}`], {
      env: { ...process.env, GDAL_DISABLE_READDIR_ON_OPEN: 'EMPTY_DIR', CPL_VSIL_CURL_CACHE_SIZE: '0' },
    });
    const info = JSON.parse(stdout);
    expect(info.size).toEqual([1200, 900]);
    expect(info.metadata.IMAGE_STRUCTURE.LAYOUT).toBe('COG');
    expect(info.bands[0].noDataValue).toBe(-9999);
    expect(info.stac['proj:epsg']).toBe(2154);
    const gets = requests.filter((r) => r.method === 'GET');
    expect(gets.length).toBeGreaterThan(0);
    expect(gets.filter((r) => !r.range)).toEqual([]);
    // One value read over HTTP: GDAL fetches the blocks it needs by range.
    const { stdout: value } = await run('gdallocationinfo', ['-valonly', `/vsicurl/${url}`, '300', '200'], {
      env: { ...process.env, GDAL_DISABLE_READDIR_ON_OPEN: 'EMPTY_DIR' },
    });
    expect(Number(value.trim())).toBeCloseTo(dtm.data[200 * 1200 + 300]!, 3);
  });
});
