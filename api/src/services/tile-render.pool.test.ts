import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { verticalReference } from '@nuage/engine/crs/geoid.js';
import { crsFromEpsg } from '@nuage/engine/crs/index.js';
import { bufferByteSource, fileByteSource } from '@nuage/engine/raster/byte-source.js';
import { openCog } from '@nuage/engine/raster/cog.reader.js';
import { createRaster } from '@nuage/engine/raster/raster.js';
import { openRasterTileSource, renderRasterTile } from '@nuage/engine/raster/tile-render.js';
import { writeGeoTiff } from '@nuage/engine/writers/geotiff.writer.js';
import { analyticSurface } from '@nuage/fixtures/synthetic/terrain-scene.js';
import proj4 from 'proj4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultPoolSize, TileRenderError, TileRenderPool } from './tile-render.pool.js';
import { encodeTerrainTile, type TileRenderTask, terrainSamples, terrainSource } from './tile-render.task.js';

// Node 20's V8 can abort the whole process when a worker's isolate is torn down (terminate, close) while one
// of its functions is being optimised on a background thread (`NodePlatform::ForIsolate ... Assertion failed:
// (data.first) != nullptr` from a concurrent compile job): this file stops threads right after they ran code,
// so this process optimises on the isolates' own threads. Seen in 2 of 30 runs of this file; the pool's
// threads in the API stop only when idle (close at shutdown).
setFlagsFromString('--no-concurrent-recompilation');

const L93 = crsFromEpsg(2154);
const HALF = Math.PI * 6378137;

function tileOf(x: number, y: number, z: number): { z: number; x: number; y: number } {
  const [mx, my] = proj4(L93.proj4, 'EPSG:3857').forward([x, y]) as [number, number];
  const size = (2 * HALF) / 2 ** z;
  return { z, x: Math.floor((mx + HALF) / size), y: Math.floor((HALF - my) / size) };
}

describe('tile render pool', () => {
  let dir: string;
  let cog: string;
  let bytes: Buffer;
  const dtm = createRaster(800, 600, 650_000, 6_862_000, 0.5, { epsg: 2154 });
  dtm.data.set(analyticSurface(800, 600, 0.5));
  const range = { min: 0, max: 0 };
  const reference = verticalReference(L93);

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'nuage-tile-pool-'));
    cog = path.join(dir, 'dtm.tif');
    await writeGeoTiff(cog, dtm, { deflate: true });
    bytes = await readFile(cog);
    let min = Number.POSITIVE_INFINITY;
    let max = Number.NEGATIVE_INFINITY;
    for (const v of dtm.data) {
      min = Math.min(min, v);
      max = Math.max(max, v);
    }
    Object.assign(range, { min, max });
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const rasterTask = (p: { z: number; x: number; y: number }, source: TileRenderTask['source']): TileRenderTask => ({
    kind: 'raster',
    source,
    proj4: L93.proj4,
    range,
    cacheBytes: 4 * 1024 * 1024,
    ramp: 'elevation',
    ...p,
  });

  it('sizes the shared pool from the cores: at least 1, at most 4', () => {
    expect(defaultPoolSize(0)).toBe(1);
    expect(defaultPoolSize(1)).toBe(1);
    expect(defaultPoolSize(3)).toBe(3);
    expect(defaultPoolSize(32)).toBe(4);
  });

  it('renders the bytes the engine renders on this thread, from a file or through ranged reads made here', async () => {
    const pool = new TileRenderPool({ size: 2 });
    try {
      expect(pool.threadCount).toBe(0);
      const local = await fileByteSource(cog);
      const source = await openRasterTileSource(local, { proj4: L93.proj4, range });
      const tiles = [tileOf(650_100, 6_861_900, 19), tileOf(650_300, 6_861_800, 18), tileOf(650_200, 6_861_850, 14)];
      let reads = 0;
      const counted = bufferByteSource(bytes);
      const remote = {
        size: bytes.length,
        read(offset: number, length: number) {
          reads++;
          return counted.read(offset, length);
        },
      };
      for (const p of tiles) {
        const alone = await renderRasterTile(source, 'elevation', p.z, p.x, p.y);
        const fromFile = await pool.run(rasterTask(p, { id: 'file', size: bytes.length, path: cog }));
        const fromReads = await pool.run(rasterTask(p, { id: 'reads', size: bytes.length }), remote);
        expect(fromFile.kind).toBe('png');
        expect(Buffer.from((fromFile as { bytes: Uint8Array }).bytes).equals(alone)).toBe(true);
        expect(Buffer.from((fromReads as { bytes: Uint8Array }).bytes).equals(alone)).toBe(true);
      }
      expect(reads).toBeGreaterThan(0);
      // A tile away from the raster is empty, with the extent that tells the next ones apart.
      const far = await pool.run(rasterTask(tileOf(650_300, 6_872_000, 16), { id: 'file', size: 0, path: cog }));
      expect(far.kind).toBe('empty');
      await local.close?.();
    } finally {
      await pool.close();
    }
  });

  it('makes terrain tiles equal to the samples made on this thread', async () => {
    const pool = new TileRenderPool({ size: 1 });
    const local = await fileByteSource(cog);
    try {
      const d = terrainSource(await openCog(local), L93, reference);
      // Geographic scheme level 17 (about 1.4e-3° a tile) over the raster.
      const z = 17;
      const [lon, lat] = proj4(L93.proj4, 'EPSG:4326').forward([650_200, 6_861_850]) as [number, number];
      const width = 180 / 2 ** z;
      const x = Math.floor((lon + 180) / width);
      const y = Math.floor((90 - lat) / width);
      const alone = encodeTerrainTile(await terrainSamples(d, z, x, y));
      const got = await pool.run({
        kind: 'terrain',
        source: { id: 'dtm', size: bytes.length, path: cog },
        reference,
        z,
        x,
        y,
      });
      expect(got.kind).toBe('heights');
      const heights = Buffer.from((got as { bytes: Uint8Array }).bytes);
      expect(heights.equals(Buffer.from(alone))).toBe(true);
      // Samples over the raster, not the fallback.
      expect(Number.isFinite(heights.readFloatLE(8 + 4 * (32 * 65 + 32)))).toBe(true);
    } finally {
      await local.close?.();
      await pool.close();
    }
  });

  it('queues tasks beyond its threads, replaces a thread that dies, and refuses tasks once closed', async () => {
    const pool = new TileRenderPool({ size: 1, perThread: 1 });
    const source = { id: 'file', size: bytes.length, path: cog };
    const tiles = Array.from({ length: 6 }, (_, k) => tileOf(650_050 + k * 60, 6_861_950, 19));
    const all = Promise.all(tiles.map((p) => pool.run(rasterTask(p, source))));
    expect(pool.threadCount).toBe(1);
    expect(pool.waiting).toBe(5);
    const done = await all;
    expect(done.map((r) => r.kind)).toEqual(tiles.map(() => 'png'));
    expect(pool.waiting).toBe(0);

    const first = pool.workers[0]!.threadId;
    // A task whose bytes never come (its ranged reads are never answered): still running when the thread is
    // stopped, whatever the machine's speed (a tile the thread could answer at once might be done first).
    const never = { size: bytes.length, read: () => new Promise<Uint8Array>(() => undefined) };
    const lost = pool.run(rasterTask(tiles[2]!, { id: 'never', size: bytes.length }), never);
    await pool.workers[0]!.terminate();
    await expect(lost).rejects.toThrow(/thread exited/);
    expect(pool.threadCount).toBe(0);
    const after = await pool.run(rasterTask(tiles[0]!, source));
    expect(after.kind).toBe('png');
    expect(pool.workers[0]!.threadId).not.toBe(first);
    expect(
      Buffer.from((after as { bytes: Uint8Array }).bytes).equals(Buffer.from((done[0] as { bytes: Uint8Array }).bytes)),
    ).toBe(true);

    // A task that fails fails alone, with the thread's error; the thread goes on.
    const missing = pool.run(rasterTask(tiles[0]!, { id: 'gone', size: 10, path: path.join(dir, 'none.tif') }));
    await expect(missing).rejects.toBeInstanceOf(TileRenderError);
    expect((await pool.run(rasterTask(tiles[1]!, source))).kind).toBe('png');

    await pool.close();
    expect(pool.threadCount).toBe(0);
    await expect(pool.run(rasterTask(tiles[0]!, source))).rejects.toThrow(/closed/);
  });
});
