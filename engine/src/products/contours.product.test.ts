import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { analyticSurface } from '@nuage/fixtures/synthetic/terrain-scene.js';
import { describe, expect, it } from 'vitest';
import { createGridTransformer } from '../crs/grid-transformer.js';
import { crsFromEpsg } from '../crs/index.js';
import { createRaster, type Raster } from '../raster/raster.js';
import { packFeatures, packFlatLines } from '../writers/ewkb.js';
import { writeGeoJson } from '../writers/geojson.writer.js';
import { writeGeoTiff } from '../writers/geotiff.writer.js';
import {
  buildContours,
  type ContourLine,
  chaikin,
  contourFeatures,
  SEGMENT_CELLS,
  SIMPLIFY_CELLS,
  simplifyLine,
  toleranceOfCells,
} from './contours.product.js';
import { featuresToWgs84 } from './product-values.js';
import { gdal, hasGdal } from './test-gdal.js';

function surface(): Raster {
  const dtm = createRaster(200, 150, 500_000, 6_000_000, 1, { epsg: 2154 });
  dtm.data.set(analyticSurface(200, 150, 1));
  for (let r = 60; r < 70; r++) for (let c = 80; c < 95; c++) dtm.data[r * 200 + c] = dtm.nodata;
  return dtm;
}

/** Segments of lines grouped by elevation, bucketed by 1-unit cells for nearest-distance queries. */
function index(lines: { elevation: number; coords: number[] }[]) {
  const byLevel = new Map<number, Map<string, number[]>>();
  for (const l of lines) {
    const key = Math.round(l.elevation * 1000);
    let buckets = byLevel.get(key);
    if (!buckets) {
      buckets = new Map();
      byLevel.set(key, buckets);
    }
    for (let i = 0; i + 3 < l.coords.length; i += 2) {
      const seg = l.coords.slice(i, i + 4);
      // In the bucket of every point along it, every half unit (a long segment is found from any of its parts).
      const steps = Math.ceil(2 * Math.hypot(seg[2]! - seg[0]!, seg[3]! - seg[1]!)) + 1;
      const keys = new Set<string>();
      for (let t = 0; t <= steps; t++) {
        const f = t / steps;
        keys.add(`${Math.floor(seg[0]! + f * (seg[2]! - seg[0]!))},${Math.floor(seg[1]! + f * (seg[3]! - seg[1]!))}`);
      }
      for (const k of keys) {
        const list = buckets.get(k);
        if (list) list.push(...seg);
        else buckets.set(k, [...seg]);
      }
    }
  }
  return (elevation: number, x: number, y: number): number => {
    const buckets = byLevel.get(Math.round(elevation * 1000));
    if (!buckets) return Number.POSITIVE_INFINITY;
    let best = Number.POSITIVE_INFINITY;
    for (let dx = -2; dx <= 2; dx++) {
      for (let dy = -2; dy <= 2; dy++) {
        const list = buckets.get(`${Math.floor(x) + dx},${Math.floor(y) + dy}`);
        if (!list) continue;
        for (let s = 0; s < list.length; s += 4) {
          const [ax, ay, bx, by] = [list[s]!, list[s + 1]!, list[s + 2]!, list[s + 3]!];
          const vx = bx - ax;
          const vy = by - ay;
          const len2 = vx * vx + vy * vy;
          const t = len2 > 0 ? Math.max(0, Math.min(1, ((x - ax) * vx + (y - ay) * vy) / len2)) : 0;
          best = Math.min(best, Math.hypot(ax + t * vx - x, ay + t * vy - y));
        }
      }
    }
    return best;
  };
}

function crossings(lines: ContourLine[]): number {
  let found = 0;
  const segs: number[][] = [];
  lines.forEach((l, li) => {
    const c = l.coordinates;
    for (let i = 0; i + 3 < c.length; i += 2) segs.push([li, c[i]!, c[i + 1]!, c[i + 2]!, c[i + 3]!]);
  });
  // Buckets at least as wide as the longest segment: two crossing segments have midpoints in neighbouring ones.
  let size = 2;
  for (const s of segs) size = Math.max(size, Math.hypot(s[3]! - s[1]!, s[4]! - s[2]!));
  const buckets = new Map<string, number[][]>();
  for (const s of segs) {
    const k = `${Math.floor((s[1]! + s[3]!) / (2 * size))},${Math.floor((s[2]! + s[4]!) / (2 * size))}`;
    const list = buckets.get(k) ?? [];
    list.push(s);
    buckets.set(k, list);
  }
  const cross = (a: number[], b: number[]) => {
    const d = (px: number, py: number, qx: number, qy: number, rx: number, ry: number) =>
      (qx - px) * (ry - py) - (qy - py) * (rx - px);
    const d1 = d(b[1]!, b[2]!, b[3]!, b[4]!, a[1]!, a[2]!);
    const d2 = d(b[1]!, b[2]!, b[3]!, b[4]!, a[3]!, a[4]!);
    const d3 = d(a[1]!, a[2]!, a[3]!, a[4]!, b[1]!, b[2]!);
    const d4 = d(a[1]!, a[2]!, a[3]!, a[4]!, b[3]!, b[4]!);
    return d1 * d2 < 0 && d3 * d4 < 0;
  };
  for (const [k, list] of buckets) {
    const [bx, by] = k.split(',').map(Number) as [number, number];
    const near: number[][] = [];
    for (let dx = -1; dx <= 1; dx++)
      for (let dy = -1; dy <= 1; dy++) near.push(...(buckets.get(`${bx + dx},${by + dy}`) ?? []));
    for (const a of list) for (const b of near) if (a[0] !== b[0] && cross(a, b)) found++;
  }
  return found;
}

describe('contours', () => {
  it('traces a cone as closed rings at every level, majors not repeated as minors', () => {
    const dtm = createRaster(101, 101, 0, 101, 1, null);
    for (let r = 0; r < 101; r++) {
      for (let c = 0; c < 101; c++) dtm.data[r * 101 + c] = 20 - Math.hypot(c - 50, r - 50) * 0.3;
    }
    const lines = buildContours(dtm, { minorCm: 100, majorCm: 500 });
    const levels = lines.map((l) => `${l.elevation}:${l.kind}`).sort();
    // The cone spans 20 - 0.3 × 70.7 ≈ -1.2 .. 20: levels -1 .. 20; rings inside the square (radius < 50) close.
    expect(lines.filter((l) => l.elevation >= 6).every((l) => l.closed)).toBe(true);
    expect(lines.filter((l) => l.elevation <= 4).every((l) => !l.closed)).toBe(true);
    const kinds = new Map<number, Set<string>>();
    for (const l of lines) kinds.set(l.elevation, (kinds.get(l.elevation) ?? new Set()).add(l.kind));
    expect([...kinds.values()].every((k) => k.size === 1)).toBe(true);
    expect(new Set(levels).size).toBe(22);
    const majors = [...kinds.entries()].filter(([, k]) => k.has('major')).map(([e]) => e);
    expect(majors.sort((a, b) => a - b)).toEqual([0, 5, 10, 15, 20]);
    // Ring of level 14 has radius 20 around the centre (50.5, 50.5).
    const ring = lines.find((l) => l.elevation === 14)!;
    const c = ring.coordinates;
    for (let i = 0; i < c.length; i += 2)
      expect(Math.abs(Math.hypot(c[i]! - 50.5, c[i + 1]! - 50.5) - 20)).toBeLessThan(0.3);
  });

  it('refuses a major interval not above the minor one', () => {
    expect(() => buildContours(surface(), { minorCm: 200, majorCm: 100 })).toThrow(/major/);
  });

  it('smoothing keeps the end points of open lines and never makes lines cross', () => {
    const open = Float64Array.from([0, 0, 1, 0, 1, 1, 2, 1]);
    const smooth = chaikin(open, false, 2);
    expect([smooth[0], smooth[1]]).toEqual([0, 0]);
    expect([smooth[smooth.length - 2], smooth[smooth.length - 1]]).toEqual([2, 1]);
    const lines = buildContours(surface(), { minorCm: 50, majorCm: 250, smoothing: 2 });
    expect(lines.length).toBeGreaterThan(50);
    expect(crossings(lines)).toBe(0);
  });

  it('smooths pass after pass as one pass at a time does, each line in its own array (scratch between passes)', () => {
    const zigzag = Float64Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? i : (i % 4) * 1.5));
    const ring = Float64Array.from([0, 0, 4, 0, 4, 3, 0, 3, 0, 0]);
    for (const [coords, closed] of [
      [zigzag, false],
      [ring, true],
    ] as const) {
      for (const passes of [1, 2, 3, 4]) {
        let step: Float64Array = coords;
        for (let p = 0; p < passes; p++) step = chaikin(step, closed, 1);
        const whole = chaikin(coords, closed, passes);
        expect(Array.from(whole)).toEqual(Array.from(step));
        // A later line does not write over an earlier result.
        const again = Array.from(whole);
        chaikin(Float64Array.from([9, 9, 8, 7, 6, 5, 4, 3]), false, passes);
        expect(Array.from(whole)).toEqual(again);
      }
    }
    // A ring of 4 corners: 8 points after a pass, 16 after two, and the first repeated.
    expect(chaikin(ring, true, 2).length).toBe(34);
    // Too short to smooth: the line itself.
    const pair = Float64Array.from([0, 0, 1, 1]);
    expect(chaikin(pair, false, 2)).toBe(pair);
  });

  it('simplifies a line within its tolerance, keeping its ends, its closure and no segment above the longest', () => {
    /** Distance from (x, y) to the polyline `c`. */
    const distance = (c: Float64Array, x: number, y: number) => {
      let best = Number.POSITIVE_INFINITY;
      for (let i = 0; i + 3 < c.length; i += 2) {
        const vx = c[i + 2]! - c[i]!;
        const vy = c[i + 3]! - c[i + 1]!;
        const len2 = vx * vx + vy * vy;
        const t = len2 > 0 ? Math.max(0, Math.min(1, ((x - c[i]!) * vx + (y - c[i + 1]!) * vy) / len2)) : 0;
        best = Math.min(best, Math.hypot(c[i]! + t * vx - x, c[i + 1]! + t * vy - y));
      }
      return best;
    };
    // A wavy open line (amplitude 0.3) and a ring of radius 10, sampled every 0.1 unit.
    const wave = Float64Array.from({ length: 802 }, (_, i) => (i % 2 === 0 ? i / 20 : 0.3 * Math.sin(i / 40)));
    const ring = Float64Array.from({ length: 1258 }, (_, i) => {
      const a = (Math.floor(i / 2) / 628) * 2 * Math.PI;
      return i % 2 === 0 ? 10 * Math.cos(a) : 10 * Math.sin(a);
    });
    ring[1256] = ring[0]!;
    ring[1257] = ring[1]!;
    for (const [line, tolerance, longest] of [
      [wave, 0.02, 2],
      [wave, 0.05, 100],
      [ring, 0.025, 2],
    ] as const) {
      const out = simplifyLine(line, tolerance, longest);
      expect(out.length).toBeLessThan(line.length / 4);
      expect(Array.from(out.slice(0, 2))).toEqual(Array.from(line.slice(0, 2)));
      expect(Array.from(out.slice(-2))).toEqual(Array.from(line.slice(-2)));
      for (let i = 0; i < line.length; i += 2) {
        expect(distance(out, line[i]!, line[i + 1]!)).toBeLessThanOrEqual(tolerance + 1e-12);
      }
      for (let i = 0; i + 3 < out.length; i += 2) {
        expect(Math.hypot(out[i + 2]! - out[i]!, out[i + 3]! - out[i + 1]!)).toBeLessThanOrEqual(longest);
      }
    }
    // A small ring within the tolerance keeps a triangle (with its closing point), not a spike there and back.
    const small = Float64Array.from({ length: 18 }, (_, i) => {
      const a = (Math.floor(i / 2) / 8) * 2 * Math.PI;
      return i % 2 === 0 ? 0.01 * Math.cos(a) : 0.01 * Math.sin(a);
    });
    small[16] = small[0]!;
    small[17] = small[1]!;
    const triangle = simplifyLine(small, 0.05);
    expect(triangle.length).toBe(8);
    expect(new Set([0, 2, 4].map((i) => `${triangle[i]},${triangle[i + 1]}`)).size).toBe(3);
    expect([triangle[6], triangle[7]]).toEqual([triangle[0], triangle[1]]);
    // Nothing to leave out: the line itself; a straight line: its two ends.
    const corner = Float64Array.from([0, 0, 1, 0, 1, 1]);
    expect(simplifyLine(corner, 0.1)).toBe(corner);
    expect(Array.from(simplifyLine(Float64Array.from([0, 0, 1, 1, 2, 2, 3, 3]), 0.01))).toEqual([0, 0, 3, 3]);
  });

  it('simplifies less where lines crowd: a quarter of their spacing on a steep slope, the full tolerance on a gentle one', () => {
    // A plane rising 0.1 a unit eastwards, then 4 a unit (10 cm contours 2.5 cm apart on a 1 m grid).
    const dtm = createRaster(20, 3, 0, 3, 1, null);
    for (let r = 0; r < 3; r++)
      for (let c = 0; c < 20; c++) dtm.data[r * 20 + c] = c < 10 ? 0.1 * c : 0.9 + 4 * (c - 9);
    const allowed = toleranceOfCells(dtm, 0.05, 0.1);
    expect(allowed[1 * 20 + 3]).toBeCloseTo(0.05, 6);
    // 0.25 × 0.1 / 4 (the steepest gradient around the cell).
    expect(allowed[1 * 20 + 15]).toBeCloseTo(0.00625, 6);
    // Beside the break, the steeper side counts.
    expect(allowed[1 * 20 + 9]).toBeLessThan(0.05);
  });

  it('makes lines with far fewer vertices than the smoothed ones, still within a cell of them', () => {
    const dtm = surface();
    const smoothed = buildContours(dtm, { minorCm: 100, majorCm: 500, simplify: 0 });
    const lines = buildContours(dtm, { minorCm: 100, majorCm: 500 });
    expect(lines.length).toBe(smoothed.length);
    const vertices = (set: ContourLine[]) => set.reduce((n, l) => n + l.coordinates.length / 2, 0);
    expect(vertices(lines)).toBeLessThan(vertices(smoothed) / 3);
    expect(crossings(lines)).toBe(0);
    const near = index(smoothed.map((l) => ({ elevation: l.elevation, coords: Array.from(l.coordinates) })));
    for (const l of lines) {
      for (let i = 0; i < l.coordinates.length; i += 2) {
        expect(near(l.elevation, l.coordinates[i]!, l.coordinates[i + 1]!)).toBeLessThanOrEqual(
          SIMPLIFY_CELLS * dtm.resolution + 1e-9,
        );
      }
      for (let i = 0; i + 3 < l.coordinates.length; i += 2) {
        const c = l.coordinates;
        expect(Math.hypot(c[i + 2]! - c[i]!, c[i + 3]! - c[i + 1]!)).toBeLessThanOrEqual(
          SEGMENT_CELLS * dtm.resolution,
        );
      }
    }
  });

  it.runIf(hasGdal())('lies within one DTM cell of gdal_contour on the same DTM', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'nuage-contours-'));
    const dtm = surface();
    const tif = path.join(dir, 'dtm.tif');
    await writeGeoTiff(tif, dtm);
    const gdalOut = path.join(dir, 'gdal.geojson');
    gdal('gdal_contour', ['-q', '-a', 'elevation', '-i', '1', '-f', 'GeoJSON', tif, gdalOut]);
    const reference = JSON.parse(readFileSync(gdalOut, 'utf8')) as {
      features: { geometry: { coordinates: number[][] }; properties: { elevation: number } }[];
    };
    const ours = buildContours(dtm, { minorCm: 100, majorCm: 500 });
    const nearestGdal = index(
      reference.features.map((f) => ({ elevation: f.properties.elevation, coords: f.geometry.coordinates.flat() })),
    );
    const nearestOurs = index(ours.map((l) => ({ elevation: l.elevation, coords: Array.from(l.coordinates) })));
    let worst = 0;
    let checked = 0;
    for (const l of ours) {
      for (let i = 0; i < l.coordinates.length; i += 2) {
        worst = Math.max(worst, nearestGdal(l.elevation, l.coordinates[i]!, l.coordinates[i + 1]!));
        checked++;
      }
    }
    let worstBack = 0;
    let checkedBack = 0;
    for (const f of reference.features) {
      for (const [x, y] of f.geometry.coordinates) {
        worstBack = Math.max(worstBack, nearestOurs(f.properties.elevation, x!, y!));
        checkedBack++;
      }
    }
    // Every vertex of gdal_contour's lines (one a cell edge crossed) lies within a cell of ours, and ours
    // (simplified: fewer than gdal's) within a cell of its lines.
    expect(checkedBack).toBeGreaterThan(5000);
    expect(checked).toBeGreaterThan(2000);
    expect(worst).toBeLessThanOrEqual(dtm.resolution);
    expect(worstBack).toBeLessThanOrEqual(dtm.resolution);
  });

  it('writes GeoJSON LineStrings with elevation and kind in the DTM CRS', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'nuage-contours-'));
    const lines = buildContours(surface(), { minorCm: 100, majorCm: 500 });
    const file = path.join(dir, 'c.geojson');
    const record = await writeGeoJson(file, contourFeatures(lines), { epsg: 2154 });
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    expect(record.features).toBe(lines.length);
    expect(doc.crs.properties.name).toBe('urn:ogc:def:crs:EPSG::2154');
    expect(doc.features[0].geometry.type).toBe('LineString');
    expect(['minor', 'major']).toContain(doc.features[0].properties.kind);
  });

  it('gives EPSG:4326 features for the API', () => {
    const lines = buildContours(surface(), { minorCm: 100, majorCm: 500 });
    const features = [...featuresToWgs84(contourFeatures(lines), crsFromEpsg(2154))];
    expect(features).toHaveLength(lines.length);
    const [lon, lat] = (features[0]!.geometry.coordinates as number[][])[0]!;
    // (500000, 6000000) in Lambert-93 is near 0.63° E, 41.07° N.
    expect(lon).toBeGreaterThan(0.6);
    expect(lon).toBeLessThan(0.7);
    expect(lat).toBeGreaterThan(41.0);
    expect(lat).toBeLessThan(41.1);
    expect(features[0]!.properties.elevation).toBe(lines[0]!.elevation);
  });

  it('packs the lines for PostGIS straight from their coordinates: the pack of their EPSG:4326 features, byte for byte', () => {
    const lines = buildContours(surface(), { minorCm: 25, majorCm: 100 });
    // A line of one position is no feature.
    lines.push({ ...lines[0]!, coordinates: Float64Array.of(500_010, 6_000_010) });
    const crs = crsFromEpsg(2154);
    const toWgs84 = createGridTransformer(crs);
    const flat = lines.map((l) => ({
      coordinates: l.coordinates,
      properties: { elevation: Math.round(l.elevation * 1000) / 1000, kind: l.kind },
    }));
    const direct = packFlatLines(flat, (x, y, z, n) => toWgs84.forward(x, y, z, n));
    const viaGeoJson = packFeatures(featuresToWgs84(contourFeatures(lines), crs));
    expect(direct.ends.length).toBe(lines.length - 1);
    expect(direct.ends.length).toBeGreaterThan(50);
    expect(Buffer.from(direct.ewkb).equals(Buffer.from(viaGeoJson.ewkb))).toBe(true);
    expect([...direct.ends]).toEqual([...viaGeoJson.ends]);
    expect(direct.properties).toEqual(viaGeoJson.properties);
    expect(direct.refused).toEqual([]);

    // A position the transform cannot give: that line is refused as its GeoJSON text, as the encoder refuses it.
    const spoilt = packFlatLines(flat.slice(0, 3), (x, y, z, n) => {
      toWgs84.forward(x, y, z, n);
      if (n === flat[1]!.coordinates.length / 2) y[1] = Number.NaN;
    });
    expect(spoilt.refused.map(([i]) => i)).toContain(1);
    const [, text] = spoilt.refused.find(([i]) => i === 1)!;
    expect(JSON.parse(text).coordinates[1][1]).toBeNull();
  });
});
