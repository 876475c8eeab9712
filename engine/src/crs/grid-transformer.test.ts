import { describe, expect, it } from 'vitest';
import { createGridTransformer } from './grid-transformer.js';
import { createTransformer, crsFromEpsg } from './index.js';

/** Points over a 6 km square from (x0, y0), deterministic, with runs of close vertices as in a contour line. */
function points(x0: number, y0: number, n: number, unit = 1) {
  let seed = 11;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  const z = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const walk = i % 50 !== 0 && i > 0;
    x[i] = walk ? x[i - 1]! + (random() - 0.5) * 2 : x0 + (random() * 6000) / unit;
    y[i] = walk ? y[i - 1]! + (random() - 0.5) * 2 : y0 + (random() * 6000) / unit;
    // Heights from -100 m to 3 km: with a datum shift, longitude and latitude move with the height.
    z[i] = -100 + (i % 3100);
  }
  return { x, y, z };
}

describe('createGridTransformer', () => {
  it.each([
    ['Lambert-93', 2154, 652_000, 6_862_000, 1],
    ['RD New (datum shift)', 28992, 120_000, 487_000, 1],
    ['UTM 10N NAD83', 26910, 500_000, 5_200_000, 1],
    ['Oregon Lambert, feet', 2994, 1_000_000, 700_000, 0.3048],
  ])('matches proj4 point by point within 1e-9 degree (%s)', (_name, epsg, x0, y0, unit) => {
    const crs = crsFromEpsg(epsg);
    const a = points(x0, y0, 20_000, unit);
    const b = { x: a.x.slice(), y: a.y.slice(), z: a.z.slice() };
    createTransformer(crs, 'EPSG:4326').forward(a.x, a.y, a.z, a.x.length);
    createGridTransformer(crs).forward(b.x, b.y, b.z, b.x.length);
    let worst = 0;
    for (let i = 0; i < a.x.length; i++) {
      worst = Math.max(worst, Math.abs(a.x[i]! - b.x[i]!), Math.abs(a.y[i]! - b.y[i]!));
      expect(b.z[i]).toBe(a.z[i]);
    }
    expect(worst).toBeLessThan(1e-9);
    // It did interpolate: some values differ from proj4's in the last bits.
    expect(worst).toBeGreaterThan(0);
  });

  it('falls back to proj4 for cells it cannot interpolate and for geographic CRSs', () => {
    const crs = crsFromEpsg(2154);
    const a = points(652_000, 6_862_000, 2_000);
    const b = { x: a.x.slice(), y: a.y.slice(), z: a.z.slice() };
    createTransformer(crs, 'EPSG:4326').forward(a.x, a.y, a.z, a.x.length);
    // A tolerance nothing meets: every point transformed exactly.
    createGridTransformer(crs, { toleranceDegrees: -1 }).forward(b.x, b.y, b.z, b.x.length);
    expect(Array.from(b.x)).toEqual(Array.from(a.x));
    expect(Array.from(b.y)).toEqual(Array.from(a.y));
    const geographic = crsFromEpsg(4326);
    const lon = Float64Array.of(2.35);
    const lat = Float64Array.of(48.85);
    createGridTransformer(geographic).forward(lon, lat, new Float64Array(1), 1);
    expect(lon[0]).toBeCloseTo(2.35, 12);
    expect(lat[0]).toBeCloseTo(48.85, 12);
  });
});
