import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { analyticSurface } from '@nuage/fixtures/synthetic/terrain-scene.js';
import { describe, expect, it } from 'vitest';
import { crsFromEpsg } from '../crs/index.js';
import { buildContours, contourFeatures } from '../products/contours.product.js';
import { writeWgs84GeoJson } from '../products/product-values.js';
import { createRaster } from '../raster/raster.js';
import { roundedText } from './decimal-bytes.js';
import type { Feature } from './geojson.writer.js';
import { copyWgs84Lines, type FlatLine, writeWgs84Lines } from './wgs84-lines.writer.js';

const dir = mkdtempSync(path.join(tmpdir(), 'nuage-wgs84-lines-'));

/** Both writers on the same lines: the bytes and the reported figures. */
async function both(lines: { coordinates: Float64Array; properties: Feature['properties'] }[], epsg: number) {
  const crs = crsFromEpsg(epsg);
  const features: Feature[] = [];
  for (const l of lines) {
    const coordinates: number[][] = [];
    for (let i = 0; i < l.coordinates.length; i += 2) coordinates.push([l.coordinates[i]!, l.coordinates[i + 1]!]);
    if (coordinates.length >= 2)
      features.push({ type: 'Feature', geometry: { type: 'LineString', coordinates }, properties: l.properties });
  }
  const a = path.join(dir, `ref-${epsg}.geojson`);
  const b = path.join(dir, `fast-${epsg}.geojson`);
  const ref = await writeWgs84GeoJson(a, features, crs);
  const fast = await writeWgs84Lines(b, lines, crs);
  return { ref, fast, refText: readFileSync(a, 'utf8'), fastText: readFileSync(b, 'utf8') };
}

describe('writeWgs84Lines', () => {
  it('writes the bytes of writeWgs84GeoJson for contour lines in Lambert-93', async () => {
    const dtm = createRaster(200, 150, 500_000, 6_000_000, 1, { epsg: 2154 });
    dtm.data.set(analyticSurface(200, 150, 1));
    const lines = buildContours(dtm, { minorCm: 50, majorCm: 250 });
    const flat = [...contourFeatures(lines)].map((f, i) => ({
      coordinates: lines[i]!.coordinates,
      properties: f.properties,
    }));
    // A one-point line is left out by both.
    flat.push({ coordinates: Float64Array.of(500_010, 6_000_010), properties: { elevation: 1, kind: 'minor' } });
    const { ref, fast, refText, fastText } = await both(flat, 2154);
    expect(lines.length).toBeGreaterThan(50);
    expect(fast.features).toBe(lines.length);
    expect(fast.features).toBe(ref.features);
    expect(fast.bytes).toBe(ref.bytes);
    expect(fastText).toBe(refText);
    expect(JSON.parse(fastText).features[0].geometry.coordinates[0][0]).toBeCloseTo(0.63, 1);
  });

  it('prints every kind of number as the rounded double prints (zeros, tiny, 15+ digits, non-finite)', async () => {
    const values = [
      0,
      -0,
      1e-7,
      -1e-7,
      4e-8,
      -4e-8,
      5e-8,
      1.5e-7,
      9.4e-7,
      1e-6,
      -1e-6,
      1.23e-6,
      0.1,
      -0.5,
      2.5e-7,
      123.4567891,
      -123.45678905,
      179.99999995,
      45.00000001,
      1e7,
      12345678.1234567,
      123456789.1234567,
      9.87654321e14,
      3e20,
      2e21,
      -7.1e22,
      1 / 3,
      -2 / 3,
      0.30000000000000004,
      99999999.99999999,
      1e-300,
      Number.MAX_VALUE,
    ];
    // Random values at every magnitude.
    let a = 12345;
    for (let i = 0; i < 4000; i++) {
      a = (Math.imul(a, 1103515245) + 12345) >>> 0;
      const m = a / 2 ** 32;
      a = (Math.imul(a, 1103515245) + 12345) >>> 0;
      values.push((m - 0.5) * 10 ** ((a % 24) - 9));
    }
    const lines = [];
    for (let i = 0; i + 1 < values.length; i += 2) {
      lines.push({ coordinates: Float64Array.of(values[i]!, values[i + 1]!, 1, 1), properties: { i } });
    }
    const { fastText, refText } = await both(lines, 4326);
    expect(fastText).toBe(refText);
    expect(fastText).toContain('[1e-7,-1e-7]');
    expect(roundedText(-0, 7)).toBe('0');
    expect(roundedText(Number.NaN, 7)).toBe('null');
    expect(roundedText(123.45678905, 7)).toBe(String(Math.round(123.45678905 * 1e7) / 1e7));
  });

  it('copies some features of a written file: the bytes writeWgs84Lines writes for those lines alone', async () => {
    const crs = crsFromEpsg(2154);
    const dtm = createRaster(120, 90, 500_000, 6_000_000, 1, { epsg: 2154 });
    dtm.data.set(analyticSurface(120, 90, 1));
    const lines: FlatLine[] = buildContours(dtm, { minorCm: 50, majorCm: 250 }).map((l, i) => ({
      coordinates: l.coordinates,
      properties: { elevation: Math.round(l.elevation * 1000) / 1000, kind: l.kind, i },
    }));
    // A one-point line, left out of every file.
    lines.splice(3, 0, {
      coordinates: Float64Array.of(500_010, 6_000_010),
      properties: { elevation: 1, kind: 'minor', i: -1 },
    });
    const all = path.join(dir, 'all.geojson');
    const written = await writeWgs84Lines(all, lines, crs);
    expect(written.ranges.length).toBe(2 * lines.length);
    expect([written.ranges[6], written.ranges[7]]).toEqual([-1, -1]);
    for (const pick of [lines.map((_, i) => i).filter((i) => i % 3 === 0), [3], [], lines.map((_, i) => i)]) {
      const copied = path.join(dir, 'copied.geojson');
      const alone = path.join(dir, 'alone.geojson');
      const got = await copyWgs84Lines(all, written.ranges, pick, copied);
      const want = await writeWgs84Lines(
        alone,
        pick.map((i) => lines[i]!),
        crs,
      );
      expect(readFileSync(copied, 'utf8')).toBe(readFileSync(alone, 'utf8'));
      expect(got.features).toBe(want.features);
      expect(got.bytes).toBe(want.bytes);
    }
    expect(JSON.parse(readFileSync(path.join(dir, 'copied.geojson'), 'utf8')).features).toHaveLength(lines.length - 1);
  });
});
