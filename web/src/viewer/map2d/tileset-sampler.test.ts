import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { tilePointCloud } from '@nuage/engine/tiler/tile-point-cloud.js';
import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ecefToGeodetic } from '../glb-points.js';
import { sampleTileset } from './tileset-sampler.js';

/** Serves a tileset folder as `https://tiles.test/<path>` to the sampler. */
function folderFetcher(dir: string, seen: string[]): typeof fetch {
  return (async (input: string | URL) => {
    const url = new URL(String(input));
    seen.push(url.pathname);
    try {
      return new Response(await readFile(path.join(dir, decodeURIComponent(url.pathname))), { status: 200 });
    } catch {
      return new Response('missing', { status: 404 });
    }
  }) as typeof fetch;
}

/** The real Autzen file tiled by the engine, read back by the 2D map's sampler. */
describe.runIf(hasRealData())('sampleTileset on a real tileset', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'nuage-sampler-'));
    await tilePointCloud(realFile('autzen_trim.las'), dir);
  }, 120_000);
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('loads every point with its class, intensity and colour within the budget', async () => {
    const seen: string[] = [];
    const cloud = await sampleTileset('https://tiles.test/tileset.json', { fetcher: folderFetcher(dir, seen) });
    expect(cloud.count).toBe(110_000);
    expect(cloud.tilesLoaded).toBe(cloud.tilesTotal);
    const classes = new Map<number, number>();
    for (const c of cloud.classification) classes.set(c, (classes.get(c) ?? 0) + 1);
    expect(Object.fromEntries(classes)).toEqual({ 1: 83_893, 2: 26_107 });
    expect(cloud.rgb).toBeDefined();
    expect(cloud.extras.pointCount).toBe(110_000);
    // Every point lies in the tiler's WGS84 box (Autzen, Oregon).
    const box = cloud.extras.bboxWgs84!;
    for (let i = 0; i < cloud.count; i += 997) {
      const [lon, lat, h] = ecefToGeodetic(cloud.ecef[i * 3]!, cloud.ecef[i * 3 + 1]!, cloud.ecef[i * 3 + 2]!);
      expect(lon).toBeGreaterThanOrEqual(box.west - 1e-6);
      expect(lon).toBeLessThanOrEqual(box.east + 1e-6);
      expect(lat).toBeGreaterThanOrEqual(box.south - 1e-6);
      expect(lat).toBeLessThanOrEqual(box.north + 1e-6);
      expect(h).toBeGreaterThanOrEqual(box.minHeight - 0.05);
      expect(h).toBeLessThanOrEqual(box.maxHeight + 0.05);
    }
    expect(seen[0]).toBe('/tileset.json');
  });

  it('stops at the point budget, coarse tiles first', async () => {
    const cloud = await sampleTileset('https://tiles.test/tileset.json', {
      fetcher: folderFetcher(dir, []),
      budget: 1,
    });
    expect(cloud.tilesLoaded).toBe(1);
    expect(cloud.count).toBeGreaterThan(0);
    expect(cloud.count).toBeLessThan(110_000);
  });
});
