import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WebMercatorViewport } from '@deck.gl/core';
import { openPointCloud } from '@nuage/engine/readers/index.js';
import { tilePointCloud } from '@nuage/engine/tiler/tile-point-cloud.js';
import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import proj4 from 'proj4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ecefToGeodetic, geodeticToEcef } from '../glb-points.js';
import { mapPoints } from './map-points.js';
import { type SampledCloud, sampleTileset } from './tileset-sampler.js';

/** Serves a tileset folder as `https://tiles.test/<path>` to the sampler. */
function folderFetcher(dir: string): typeof fetch {
  return (async (input: string | URL) => {
    const url = new URL(String(input));
    return new Response(await readFile(path.join(dir, decodeURIComponent(url.pathname))), { status: 200 });
  }) as typeof fetch;
}

/** Longitude, latitude of a point `east`, `north` metres from `origin` (its tangent plane). */
function lonLatOf(origin: [number, number, number], east: number, north: number): [number, number] {
  const [lon, lat] = origin;
  const o = geodeticToEcef(lon, lat, origin[2]);
  const l = (lon * Math.PI) / 180;
  const p = (lat * Math.PI) / 180;
  const e = [-Math.sin(l), Math.cos(l), 0];
  const n = [-Math.sin(p) * Math.cos(l), -Math.sin(p) * Math.sin(l), Math.cos(p)];
  const [x, y] = ecefToGeodetic(
    o[0] + east * e[0]! + north * n[0]!,
    o[1] + east * e[1]! + north * n[1]!,
    o[2] + north * n[2]!,
  );
  return [x, y];
}

/**
 * The real WilliamsAZ file (heights above ground, NAVD88 made ellipsoidal by
 * the tiler: −25.6 to −2.8 m) tiled by the engine, sampled as the 2D map
 * does and laid on the map: its points cover the file's footprint and every
 * one is inside the clip volume of deck.gl's top-down map view over the
 * cloud (before, the map drew them at their heights and deck.gl's far plane,
 * 1 % of the camera distance below the map, cut all but the tallest trees).
 */
describe.runIf(hasRealData())('the 2D map lays a real cloud on the map', () => {
  const file = 'building_WilliamsAZ_Urban_normalized.laz';
  let dir = '';
  let sample: SampledCloud;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'nuage-map-points-'));
    await tilePointCloud(realFile(file), dir);
    sample = await sampleTileset('https://tiles.test/tileset.json', { fetcher: folderFetcher(dir) });
  }, 180_000);
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('covers the footprint of the file header, to 3 m', async () => {
    expect(sample.count).toBe(464_581);
    const reader = await openPointCloud(realFile(file));
    const { min, max } = reader.header;
    const crs = reader.crs!;
    await reader.close();
    const toFile = proj4('EPSG:4326', crs.proj4);
    const { origin, positions } = mapPoints(sample);
    let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
    for (let i = 0; i < sample.count; i++) {
      const [x, y] = toFile.forward(lonLatOf(origin, positions[i * 3]!, positions[i * 3 + 1]!));
      minX = Math.min(minX, x!);
      minY = Math.min(minY, y!);
      maxX = Math.max(maxX, x!);
      maxY = Math.max(maxY, y!);
    }
    const unit = crs.horizontalUnitToMetre;
    for (const [got, want] of [
      [minX, min[0]!],
      [minY, min[1]!],
      [maxX, max[0]!],
      [maxY, max[1]!],
    ] as const) {
      expect(Math.abs(got - want) * unit).toBeLessThan(3);
    }
  });

  it('keeps every point inside the clip volume of a top-down map view over the cloud', () => {
    const { origin, positions, heights, minHeight, maxHeight } = mapPoints(sample);
    // The ellipsoidal heights stay known for the Elevation colours.
    expect(minHeight).toBeLessThan(-20);
    expect(Math.min(...heights.subarray(0, 50_000))).toBeGreaterThanOrEqual(minHeight - 0.05);
    expect(Math.max(...heights.subarray(0, 50_000))).toBeLessThanOrEqual(maxHeight + 0.05);
    const box = sample.extras.bboxWgs84!;
    // The map fitted to the cloud, zoomed in twice more (a closer camera: a thinner slab between the planes).
    const fitted = new WebMercatorViewport({ width: 1280, height: 800 }).fitBounds(
      [
        [box.west, box.south],
        [box.east, box.north],
      ],
      { padding: 40 },
    );
    for (const zoom of [fitted.zoom, fitted.zoom + 2]) {
      const viewport = new WebMercatorViewport({
        width: 1280,
        height: 800,
        longitude: fitted.longitude,
        latitude: fitted.latitude,
        zoom,
        pitch: 0,
      });
      const clip = viewport.viewProjectionMatrix;
      let outside = 0;
      for (let i = 0; i < sample.count; i += 7) {
        // deck.gl's METER_OFFSETS: metres from `origin` in the viewport's common space.
        const [lon, lat] = lonLatOf(origin, positions[i * 3]!, positions[i * 3 + 1]!);
        const [x, y, z] = viewport.projectPosition([lon, lat, origin[2] + positions[i * 3 + 2]!]);
        const w = clip[3]! * x! + clip[7]! * y! + clip[11]! * z! + clip[15]!;
        const depth = (clip[2]! * x! + clip[6]! * y! + clip[10]! * z! + clip[14]!) / w;
        if (!(depth >= -1 && depth <= 1)) outside++;
      }
      expect(outside, `zoom ${zoom.toFixed(2)}`).toBe(0);
    }
  });
});
