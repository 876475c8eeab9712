import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { geoidUndulation, verticalReference } from '@nuage/engine/crs/geoid.js';
import { openPointCloud } from '@nuage/engine/readers/index.js';
import { tilePointCloud } from '@nuage/engine/tiler/tile-point-cloud.js';
import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boxesMeet, tileBox } from './corridor-points.js';
import { measureSegment } from './measure-geometry.js';
import { loadProfile } from './profile-loader.js';
import { createProjectCrs, type ProjectCrs, type ProjectPoint } from './project-crs.js';

/** Serves a tileset folder as `https://tiles.test/<path>`, counting the tile requests. */
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

describe('tile boxes', () => {
  it('bounds an oriented box by its half axes and meets overlapping boxes only', () => {
    const b = tileBox({ boundingVolume: { box: [10, 20, 30, 2, 1, 0, 0, 3, 0, 0, 0, 4] } })!;
    expect(b).toEqual({ min: [8, 16, 26], max: [12, 24, 34] });
    expect(boxesMeet(b, { min: [12, 24, 34], max: [20, 30, 40] })).toBe(true);
    expect(boxesMeet(b, { min: [12.01, 0, 0], max: [20, 30, 40] })).toBe(false);
    expect(tileBox({ boundingVolume: { sphere: [0, 0, 0, 5] } })).toEqual({ min: [-5, -5, -5], max: [5, 5, 5] });
  });
});

/**
 * The real Autzen file (feet, Oregon GIC Lambert) tiled by the engine: the
 * profile's corridor holds the file's own points in it (counted by reading the
 * LAS), their elevations in metres, read from the tiles that meet the corridor only.
 */
describe.runIf(hasRealData())('loadProfile on a real tileset', () => {
  let dir = '';
  let crs: ProjectCrs;
  const las: { x: number[]; y: number[]; z: number[]; c: number[] } = { x: [], y: [], z: [], c: [] };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'nuage-profile-'));
    await tilePointCloud(realFile('autzen_trim.las'), dir);
    const reader = await openPointCloud(realFile('autzen_trim.las'));
    const info = reader.crs!;
    // The geoid grid the API sends (measure.service.ts): EGM96 N on nodes over the footprint.
    const tileset = JSON.parse(await readFile(path.join(dir, 'tileset.json'), 'utf8'));
    const box = tileset.extras.bboxWgs84 as { west: number; south: number; east: number; north: number };
    const nx = 5;
    const values: number[] = [];
    for (let r = 0; r < nx; r++) {
      for (let c = 0; c < nx; c++) {
        values.push(
          geoidUndulation(
            box.west + ((box.east - box.west) * c) / (nx - 1),
            box.south + ((box.north - box.south) * r) / (nx - 1),
          ),
        );
      }
    }
    expect(verticalReference(info).heights).toBe('orthometric');
    crs = createProjectCrs({
      vertical: { heights: 'orthometric', geoidModel: 'EGM96', undulation: { ...box, nx, ny: nx, values } },
      epsg: info.epsg,
      name: info.name,
      proj4: info.proj4,
      horizontalUnitToMetre: info.horizontalUnitToMetre,
      verticalUnitToMetre: info.verticalUnitToMetre,
    });
    for await (const chunk of reader.read()) {
      for (let i = 0; i < chunk.count; i++) {
        las.x.push(chunk.x[i]!);
        las.y.push(chunk.y[i]!);
        las.z.push(chunk.z[i]!);
        las.c.push(chunk.classification![i]!);
      }
    }
    await reader.close();
  }, 180_000);
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('finds the points of the file within the corridor, with their elevations and classes', async () => {
    // Across the file's extent (X 636001–637179 ft, Y 848935–849497 ft).
    const a: ProjectPoint = { x: 636_100, y: 849_000, z: 0 };
    const b: ProjectPoint = { x: 637_050, y: 849_400, z: 0 };
    const halfWidth = 1; // metres: 3.28 ft
    const seen: string[] = [];
    const profile = await loadProfile(
      'https://tiles.test/tileset.json',
      crs,
      a,
      b,
      halfWidth,
      { min: 406 * 0.3048 - 50, max: 521 * 0.3048 + 50 },
      { fetcher: folderFetcher(dir, seen) },
    );
    // The same corridor on the file's own coordinates.
    const len = Math.hypot(b.x - a.x, b.y - a.y);
    const ux = (b.x - a.x) / len;
    const uy = (b.y - a.y) / len;
    const half = halfWidth / 0.3048;
    const expected: Array<{ along: number; z: number; c: number }> = [];
    let borderline = 0;
    for (let i = 0; i < las.x.length; i++) {
      const px = las.x[i]! - a.x;
      const py = las.y[i]! - a.y;
      const along = px * ux + py * uy;
      const off = Math.abs(ux * py - uy * px);
      // Tiles hold positions within a millimetre: points that close to the edge may go either way.
      if (Math.abs(off - half) < 0.01 || Math.abs(along) < 0.01 || Math.abs(along - len) < 0.01) borderline++;
      if (along >= 0 && along <= len && off <= half)
        expected.push({ along: along * 0.3048, z: las.z[i]!, c: las.c[i]! });
    }
    expect(expected.length).toBeGreaterThan(200);
    expect(Math.abs(profile.samples.length - expected.length)).toBeLessThanOrEqual(borderline);
    expect(profile.length).toBeCloseTo(measureSegment(a, b, crs.units).horizontal, 6);
    // Same elevations (metres) and classes, in the same order along the line.
    expected.sort((p, q) => p.along - q.along);
    if (profile.samples.length === expected.length) {
      for (let i = 0; i < expected.length; i += 7) {
        expect(profile.samples[i]!.along).toBeCloseTo(expected[i]!.along, 2);
        expect(profile.samples[i]!.elevation).toBeCloseTo(expected[i]!.z * 0.3048, 2);
        expect(profile.samples[i]!.classification).toBe(expected[i]!.c);
      }
    }
    const classes = new Set(profile.samples.map((s) => s.classification));
    expect([...classes].sort()).toEqual([1, 2]);
    // Bins cover the line; their counts add up to the samples.
    expect(profile.bins.reduce((n, bin) => n + bin.count, 0)).toBe(profile.samples.length);
    expect(profile.truncated).toBe(false);
    // Only the tiles the corridor meets were read.
    const contents = seen.filter((p) => !p.endsWith('tileset.json'));
    expect(contents.length).toBe(profile.tilesRead);
    const all = (await readFile(path.join(dir, 'tileset.json'), 'utf8')).match(/"uri"/g)?.length ?? 0;
    expect(profile.tilesRead).toBeLessThanOrEqual(all);
    // A short line in a corner reads fewer tiles than the whole cloud has.
    const corner = await loadProfile(
      'https://tiles.test/tileset.json',
      crs,
      { x: 636_010, y: 848_940, z: 0 },
      { x: 636_060, y: 848_960, z: 0 },
      halfWidth,
      { min: 406 * 0.3048 - 50, max: 521 * 0.3048 + 50 },
      { fetcher: folderFetcher(dir, []) },
    );
    expect(corner.tilesRead).toBeLessThan(all);
  });
});
