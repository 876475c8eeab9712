import { describe, expect, it } from 'vitest';
import { createTransformer, crsFromEpsg } from '../crs/index.js';
import { createTransformGrid } from './ecef-grid-transform.js';
import { ecefToGeodetic, ecefToLocal, enuFrameAt, geodeticToEcef, localToEcef } from './local-frame.js';

describe('local frame', () => {
  it('round-trips geodetic ↔ ECEF to sub-millimetre', () => {
    for (const [lon, lat, h] of [
      [5, 45, 200],
      [-122.3, 47.6, -30],
      [151.2, -33.9, 4000],
      [0, 89.99, 10],
      [179.9, 0.1, 0],
    ] as const) {
      const [x, y, z] = geodeticToEcef(lon, lat, h);
      const g = ecefToGeodetic(x, y, z);
      expect(g.lon).toBeCloseTo(lon, 9);
      expect(g.lat).toBeCloseTo(lat, 9);
      expect(g.height).toBeCloseTo(h, 4);
    }
    // Known value: (0°, 0°, 0 m) is the semi-major axis on X.
    expect(geodeticToEcef(0, 0, 0)).toEqual([6378137, 0, 0]);
  });

  it('maps ECEF to east-north-up and back', () => {
    const origin = geodeticToEcef(2.35, 48.85, 35);
    const frame = enuFrameAt(...origin);
    const north = geodeticToEcef(2.35, 48.851, 35);
    const x = Float64Array.of(north[0]);
    const y = Float64Array.of(north[1]);
    const z = Float64Array.of(north[2]);
    ecefToLocal(frame, x, y, z, 1);
    expect(x[0]!).toBeCloseTo(0, 6);
    expect(y[0]!).toBeGreaterThan(111);
    expect(y[0]!).toBeLessThan(111.3);
    expect(z[0]!).toBeLessThan(0); // the ellipsoid curves away from the tangent plane
    const back = localToEcef(frame, x[0]!, y[0]!, z[0]!);
    for (let k = 0; k < 3; k++) expect(back[k]!).toBeCloseTo(north[k]!, 6);
  });
});

describe('createTransformGrid', () => {
  it('interpolates proj4 within its verified tolerance', () => {
    const exact = createTransformer(crsFromEpsg(2154), 'EPSG:4978');
    const bounds = { minX: 480_000, minY: 6_630_000, maxX: 490_000, maxY: 6_640_000, minZ: 0, maxZ: 500 };
    const grid = createTransformGrid(exact, bounds, { tolerance: 0.0005 });
    expect(grid.exact).toBe(false);
    expect(grid.maxError).toBeLessThan(0.0005);
    const n = 5000;
    const x = new Float64Array(n);
    const y = new Float64Array(n);
    const z = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      x[i] = 480_000 + ((i * 7919) % 10_000);
      y[i] = 6_630_000 + ((i * 104_729) % 10_000) + 0.37;
      z[i] = (i * 13) % 500;
    }
    // A few points off the grid go through the exact transform.
    x[0] = 400_000;
    const ex = Float64Array.from(x);
    const ey = Float64Array.from(y);
    const ez = Float64Array.from(z);
    exact.forward(ex, ey, ez, n);
    grid.forward(x, y, z, n);
    let worst = 0;
    for (let i = 0; i < n; i++) worst = Math.max(worst, Math.hypot(x[i]! - ex[i]!, y[i]! - ey[i]!, z[i]! - ez[i]!));
    expect(worst).toBeLessThan(0.001);
    expect(Math.hypot(x[0]! - ex[0]!, y[0]! - ey[0]!, z[0]! - ez[0]!)).toBe(0);
  });

  it('falls back to the exact transform when no grid meets the tolerance', () => {
    const exact = createTransformer(crsFromEpsg(2154), 'EPSG:4978');
    const grid = createTransformGrid(
      exact,
      { minX: 0, minY: 6_000_000, maxX: 1_200_000, maxY: 7_200_000, minZ: 0, maxZ: 100 },
      { tolerance: 1e-9, maxCells: 16 },
    );
    expect(grid.exact).toBe(true);
  });
});
