import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ProductResult } from '@nuage/engine/core/product.js';
import { crsFromEpsg } from '@nuage/engine/crs/index.js';
import { hillshade } from '@nuage/engine/products/hillshade.product.js';
import { writeRasterTileSource } from '@nuage/engine/products/raster-tiles.product.js';
import { fileByteSource } from '@nuage/engine/raster/byte-source.js';
import { createRaster } from '@nuage/engine/raster/raster.js';
import { openRasterTileSource, renderRasterTile } from '@nuage/engine/raster/tile-render.js';
import { writeGeoTiff } from '@nuage/engine/writers/geotiff.writer.js';
import { analyticSurface } from '@nuage/fixtures/synthetic/terrain-scene.js';
import { assetKey, readAll } from '@nuage/tiles-cache';
import proj4 from 'proj4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { as, createProject, type TestUser, testUser } from '../../test/projects.js';
import { ensureLayer } from '../db/queries/assets.queries.js';
import { insertJob, type JobRow } from '../db/queries/jobs.queries.js';
import { storeOutput } from './processing.task.js';

const L93 = crsFromEpsg(2154);
const HALF = Math.PI * 6378137;

/** The path and query of an absolute URL (the app is driven with app.request). */
const local = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

/** The zoom-z tile over a Lambert-93 point. */
function tileOf(x: number, y: number, z: number): { z: number; x: number; y: number } {
  const [mx, my] = proj4(L93.proj4, 'EPSG:3857').forward([x, y]) as [number, number];
  const size = (2 * HALF) / 2 ** z;
  return { z, x: Math.floor((mx + HALF) / size), y: Math.floor((HALF - my) / size) };
}

/**
 * A raster product's COG is stored once per run: the download and the tile
 * renderer read the same object (processing.task.ts storeOutput).
 */
describe('storeOutput stores a raster product’s COG once', () => {
  let t: TestApp;
  let ada: TestUser;
  let work: string;
  // 300 m × 200 m at 0.5 m near Paris: a hillshade, as the HILLSHADE_DTM product writes it.
  const dtm = createRaster(600, 400, 650_000, 6_862_000, 0.5, { epsg: 2154 });
  dtm.data.set(analyticSurface(600, 400, 0.5));
  const shade = hillshade(dtm);

  beforeAll(async () => {
    t = await createTestApp();
    ada = await testUser(t, 'ada@example.com');
    work = await mkdtemp(path.join(tmpdir(), 'nuage-raster-once-'));
  });
  afterAll(async () => {
    await t?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  /** A hillshade product's output in `dir`: its COG as a file and the tiles folder naming it. */
  async function hillshadeOutput(dir: string, tilesCog: 'link' | 'copy' | 'other'): Promise<ProductResult> {
    await mkdir(dir, { recursive: true });
    const file = path.join(dir, 'hillshade.tif');
    await writeGeoTiff(file, shade, { sampleType: 'uint8', deflate: true });
    const tiles = await writeRasterTileSource(file, shade, L93, 'shade', dir);
    const inFolder = path.join(tiles.path, 'source.tif');
    // The hard link may fall back to a copy (another file system); or the folder's COG is another file.
    if (tilesCog === 'copy') await rm(inFolder).then(() => copyFile(file, inFolder));
    if (tilesCog === 'other') {
      await rm(inFolder);
      await writeGeoTiff(inFolder, shade, { sampleType: 'float32', deflate: true });
    }
    return {
      files: [{ path: file, format: 'GTiff', extension: 'tif', epsg: 2154, count: shade.width * shade.height }],
      tiles: { dir: tiles.path, format: 'XYZ', epsg: 3857, count: 0 },
    };
  }

  /** A project of its own (one asset per type), its hillshade's output stored by a processing job. */
  async function storeRun(name: string, tilesCog: 'link' | 'copy' | 'other') {
    const projectId: string = (await createProject(t, ada, name)).id;
    const layerId = (await ensureLayer(t.tdb.db, projectId, 'RASTER', 'Rasters')).id;
    await t.tdb.db.updateTable('projects').set({ status: 'READY' }).where('id', '=', projectId).execute();
    const asset = await t.tdb.db
      .insertInto('assets')
      .values({ project_id: projectId, layer_id: layerId, type: 'HILLSHADE_DTM', name })
      .returning('id')
      .executeTakeFirstOrThrow();
    const job: JobRow = await insertJob(t.tdb.db, {
      kind: 'PROCESSING',
      projectId,
      assetId: null,
      userId: ada.id,
      state: 'PROGRESS',
    });
    const dir = path.join(work, name);
    const output = await hillshadeOutput(dir, tilesCog);
    await storeOutput(t.deps, job, asset.id, projectId, 'once', output);
    const keys: string[] = [];
    for await (const o of t.deps.storage.objects.list(assetKey(projectId, asset.id))) keys.push(o.key);
    return { assetId: asset.id, keys: keys.sort(), cog: await readFile(path.join(dir, 'hillshade.tif')) };
  }

  /** The download's bytes and one rendered tile, through the signed URLs the owner gets. */
  async function downloadAndTile(assetId: string) {
    const file = await json(
      await t.app.request(`/api/assets/custom-tiler/file-supplier-url?id=${assetId}&extension=tif`, as(ada, 'GET')),
    );
    const download = await t.app.request(local(file.url));
    expect(download.status).toBe(200);
    const template: string = (
      await json(await t.app.request(`/api/assets/custom-tiler/tiles-supplier-url?id=${assetId}`, as(ada, 'GET')))
    ).url;
    const p = tileOf(650_150, 6_861_900, 19);
    const tile = await t.app.request(local(template.replace('{z}/{x}/{y}.png', `${p.z}/${p.x}/${p.y}.png`)));
    expect(tile.status).toBe(200);
    expect(tile.headers.get('x-tile-source')).toBe('rendered');
    return { bytes: Buffer.from(await download.arrayBuffer()), tile: Buffer.from(await tile.arrayBuffer()), p };
  }

  for (const how of ['link', 'copy'] as const) {
    it(`keeps one COG object per run when the tiles folder’s COG is the product’s file (${how})`, async () => {
      const run = await storeRun(`shade-${how}`, how);
      const tifs = run.keys.filter((k) => k.endsWith('.tif'));
      expect(tifs, run.keys.join(', ')).toHaveLength(1);
      expect(tifs[0]).toMatch(new RegExp(`/r\\d+/${run.assetId}\\.tif$`));
      // raster.json names the download's key.
      const described = run.keys.find((k) => k.endsWith('/raster.json'))!;
      const description = JSON.parse(
        (await readAll((await t.deps.storage.objects.get(described)).body)).toString('utf8'),
      );
      expect(description).toMatchObject({ ramp: 'shade', source: tifs[0] });
      // The download is the COG; the tile is what rendering that COG gives.
      const got = await downloadAndTile(run.assetId);
      expect(got.bytes.equals(run.cog)).toBe(true);
      const cog = await fileByteSource(path.join(work, `shade-${how}`, 'hillshade.tif'));
      try {
        const source = await openRasterTileSource(cog, { proj4: description.proj4, range: description.range });
        expect(got.tile.equals(await renderRasterTile(source, 'shade', got.p.z, got.p.x, got.p.y))).toBe(true);
      } finally {
        await cog.close?.();
      }
      // The asset's stored bytes count the COG once.
      const asset = await t.tdb.db
        .selectFrom('assets')
        .select('stored_bytes')
        .where('id', '=', run.assetId)
        .executeTakeFirstOrThrow();
      expect(Number(asset.stored_bytes)).toBeLessThan(2 * run.cog.length);
      expect(Number(asset.stored_bytes)).toBeGreaterThan(run.cog.length);
    });
  }

  it('stores the tiles folder’s COG beside raster.json when it is not one of the product’s files', async () => {
    const run = await storeRun('shade-other', 'other');
    const tifs = run.keys.filter((k) => k.endsWith('.tif'));
    expect(tifs).toHaveLength(2);
    expect(tifs.some((k) => k.endsWith('/source.tif'))).toBe(true);
    const described = run.keys.find((k) => k.endsWith('/raster.json'))!;
    const description = JSON.parse((await readAll((await t.deps.storage.objects.get(described)).body)).toString());
    expect(description.source).toBe('source.tif');
    const got = await downloadAndTile(run.assetId);
    expect(got.bytes.equals(run.cog)).toBe(true);
    expect(got.tile.subarray(1, 4).toString('latin1')).toBe('PNG');
  });
});
