import { mkdtemp, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type ServerType, serve } from '@hono/node-server';
import { crsFromEpsg } from '@nuage/engine/crs/index.js';
import {
  RASTER_TILE_DESCRIPTION,
  rasterTileDescriptionSchema,
  writeRasterTileSource,
} from '@nuage/engine/products/raster-tiles.product.js';
import { fileByteSource } from '@nuage/engine/raster/byte-source.js';
import { createRaster } from '@nuage/engine/raster/raster.js';
import { openRasterTileSource, renderRasterTile } from '@nuage/engine/raster/tile-render.js';
import { writeGeoTiff } from '@nuage/engine/writers/geotiff.writer.js';
import { analyticSurface } from '@nuage/fixtures/synthetic/terrain-scene.js';
import proj4 from 'proj4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { as, createProject, type TestUser, testUser } from '../../test/projects.js';
import { ensureLayer } from '../db/queries/assets.queries.js';
import { uploadFolder } from '../jobs/store-io.js';

const L93 = crsFromEpsg(2154);
const HALF = Math.PI * 6378137;

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

/** The zoom-z tile holding a Lambert-93 point. */
function tileOf(x: number, y: number, z: number): { z: number; x: number; y: number } {
  const [mx, my] = proj4(L93.proj4, 'EPSG:3857').forward([x, y]) as [number, number];
  const size = (2 * HALF) / 2 ** z;
  return { z, x: Math.floor((mx + HALF) / size), y: Math.floor((HALF - my) / size) };
}

/**
 * Raster tiles are rendered off the API's main thread (services/tile-render.pool.ts):
 * while a burst of uncached tiles renders, a cheap request is still answered at once.
 */
describe('a burst of uncached raster tiles leaves the main thread free', () => {
  let t: TestApp;
  let server: ServerType;
  let base: string;
  let ada: TestUser;
  let assetId: string;
  let cogPath: string;
  let tilesDir: string;
  // 1 km × 800 m at 0.5 m near Paris.
  const dtm = createRaster(2000, 1600, 650_000, 6_862_000, 0.5, { epsg: 2154 });
  dtm.data.set(analyticSurface(2000, 1600, 0.5));

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp({ PUBLIC_URL: base });
    server = serve({ fetch: t.app.fetch, port, hostname: '127.0.0.1' });
    ada = await testUser(t, 'ada@example.com');
    const project = await createProject(t, ada, 'Burst');
    const db = t.tdb.db;
    const layer = await ensureLayer(db, project.id, 'RASTER', 'Rasters');
    const asset = await db
      .insertInto('assets')
      .values({ project_id: project.id, layer_id: layer.id, type: 'IMAGERY_DTM', name: 'dtm imagery' })
      .returning('id')
      .executeTakeFirstOrThrow();
    assetId = asset.id;
    const dir = await mkdtemp(path.join(tmpdir(), 'nuage-tile-burst-'));
    cogPath = path.join(dir, 'dtm.tif');
    await writeGeoTiff(cogPath, dtm, { deflate: true });
    tilesDir = (await writeRasterTileSource(cogPath, dtm, L93, 'elevation', dir)).path;
    const prefix = `projects/${project.id}/assets/${assetId}/t9/`;
    await uploadFolder(t.deps.storage.objects, tilesDir, prefix);
    await db.updateTable('assets').set({ status: 'READY', tiles_prefix: prefix }).where('id', '=', assetId).execute();
    await db.updateTable('projects').set({ status: 'READY' }).where('id', '=', project.id).execute();
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await t?.close();
  });

  it('answers /api/health while 40 tiles render, and each tile has the bytes of a lone render', async () => {
    const res = await t.app.request(`/api/assets/custom-tiler/tiles-supplier-url?id=${assetId}`, as(ada, 'GET'));
    const template: string = (await json(res)).url;
    // 40 distinct zoom-19 tiles (about 50 m a side here), all inside the raster: none is cached yet.
    const tiles: { z: number; x: number; y: number }[] = [];
    for (let row = 0; tiles.length < 40; row++) {
      for (let col = 0; col < 8 && tiles.length < 40; col++) {
        tiles.push(tileOf(650_000 + 100 + col * 100, 6_862_000 - 100 - row * 120, 19));
      }
    }
    expect(new Set(tiles.map((p) => `${p.x}/${p.y}`)).size).toBe(40);
    // Warm-up: one tile of another zoom, so the burst does not measure the process's first tile ever.
    const w = tileOf(650_500, 6_861_600, 15);
    const warm = await fetch(template.replace('{z}/{x}/{y}.png', `${w.z}/${w.x}/${w.y}.png`));
    expect(warm.status).toBe(200);
    await warm.arrayBuffer();

    const started = performance.now();
    let tilesDone = 0;
    let burstEnd = 0;
    const burst = Promise.all(
      tiles.map(async (p) => {
        const r = await fetch(template.replace('{z}/{x}/{y}.png', `${p.z}/${p.x}/${p.y}.png`));
        const bytes = Buffer.from(await r.arrayBuffer());
        tilesDone++;
        burstEnd = performance.now();
        return { status: r.status, source: r.headers.get('x-tile-source'), bytes };
      }),
    );
    // Meanwhile, one health request after another: each is answered while tiles are still pending.
    const health: { ms: number; tilesDone: number }[] = [];
    for (let k = 0; k < 3; k++) {
      const t0 = performance.now();
      const h = await fetch(`${base}/api/health`);
      expect(h.status).toBe(200);
      await h.json();
      health.push({ ms: performance.now() - t0, tilesDone });
    }
    const healthEnd = performance.now();
    const answered = await burst;
    const sorted = health.map((h) => h.ms).sort((a, b) => a - b);
    if (process.env.NUAGE_TILE_BURST_REPORT === '1') {
      process.stdout.write(
        `tile burst: 40 tiles in ${Math.round(burstEnd - started)} ms; health ms ${sorted.map(Math.round).join(', ')}; ` +
          `tiles done at each health answer ${health.map((h) => h.tilesDone).join(', ')}\n`,
      );
    }
    // Ordering, not a time limit: every health answer came back before the burst completed.
    expect(healthEnd, `health ${JSON.stringify(health)}`).toBeLessThan(burstEnd);
    expect(health.at(-1)!.tilesDone).toBeLessThan(tiles.length);

    // The same bytes as rendering each tile alone, on this thread, from the COG as the store holds it.
    const description = rasterTileDescriptionSchema.parse(
      JSON.parse(await readFile(path.join(tilesDir, RASTER_TILE_DESCRIPTION), 'utf8')),
    );
    const cog = await fileByteSource(cogPath);
    try {
      const source = await openRasterTileSource(cog, { proj4: description.proj4, range: description.range });
      for (const [i, p] of tiles.entries()) {
        const got = answered[i]!;
        expect(got.status).toBe(200);
        expect(got.source).toBe('rendered');
        const alone = await renderRasterTile(source, description.ramp, p.z, p.x, p.y);
        expect(got.bytes.equals(alone), `tile ${p.z}/${p.x}/${p.y}`).toBe(true);
      }
    } finally {
      await cog.close?.();
    }
  });
});
