import { describe, expect, it } from 'vitest';
import { createRaster } from './raster.js';
import { rasterizeTin, thinToBins } from './tin.js';

type Bounds = { minX: number; minY: number; maxX: number; maxY: number };

/** The plain one-pass thinning over a bin grid: the result thinToBins must reproduce exactly. */
function thinReference(xs: Float64Array, ys: Float64Array, count: number, b: Bounds, binSize: number): number[] {
  const cols = Math.max(1, Math.ceil((b.maxX - b.minX) / binSize) + 1);
  const rows = Math.max(1, Math.ceil((b.maxY - b.minY) / binSize) + 1);
  const best = new Int32Array(cols * rows).fill(-1);
  const bestD = new Float32Array(cols * rows);
  const inv = 1 / binSize;
  for (let i = 0; i < count; i++) {
    const fx = (xs[i]! - b.minX) * inv;
    const fy = (ys[i]! - b.minY) * inv;
    const c = Math.floor(fx);
    const r = Math.floor(fy);
    if (c < 0 || r < 0 || c >= cols || r >= rows) continue;
    const dx = fx - c - 0.5;
    const dy = fy - r - 0.5;
    const d = dx * dx + dy * dy;
    if (best[r * cols + c] === -1 || d < bestD[r * cols + c]!) {
      best[r * cols + c] = i;
      bestD[r * cols + c] = d;
    }
  }
  return Array.from(best).filter((i) => i >= 0);
}

/** Points on a 5 cm lattice (many exact ties and duplicates), with a z that names each point. */
function lattice(n: number): { x: Float64Array; y: Float64Array; z: Float64Array } {
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  const z = new Float64Array(n);
  let seed = 7;
  const rnd = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  for (let i = 0; i < n; i++) {
    x[i] = 1000 + Math.round(rnd() * 600) * 0.05;
    y[i] = 2000 + Math.round(rnd() * 400) * 0.05;
    z[i] = i;
  }
  return { x, y, z };
}

describe('thinToBins', () => {
  const n = 20_000;
  const { x, y, z } = lattice(n);
  const bounds: Bounds = { minX: 1000, minY: 2000, maxX: 1030, maxY: 2020 };

  it('keeps, per bin, the point nearest its centre (the first on a tie), in row-major bin order', () => {
    const thin = thinToBins(x, y, z, n, bounds, 0.5);
    const expected = thinReference(x, y, n, bounds, 0.5);
    expect(thin.count).toBe(expected.length);
    // 61 × 41 bins of 0.5 m, nearly all holding a point.
    expect(thin.count).toBeGreaterThan(2400);
    expect(Array.from(thin.z)).toEqual(expected);
    expect(Array.from(thin.x)).toEqual(expected.map((i) => x[i]!));
    expect(Array.from(thin.y)).toEqual(expected.map((i) => y[i]!));
  });

  it('with a mask, thins only the marked points: the same as thinning a copy of them', () => {
    const keep = new Uint8Array(n);
    for (let i = 0; i < n; i++) keep[i] = i % 3 === 0 || x[i]! < 1010 ? 1 : 0;
    const members: number[] = [];
    for (let i = 0; i < n; i++) if (keep[i]) members.push(i);
    const sub = (a: Float64Array) => Float64Array.from(members, (i) => a[i]!);
    const copy = thinToBins(sub(x), sub(y), sub(z), members.length, bounds, 0.5);
    const masked = thinToBins(x, y, z, n, bounds, 0.5, keep);
    expect(masked.count).toBe(copy.count);
    expect(Array.from(masked.z)).toEqual(Array.from(copy.z));
    expect(Array.from(masked.x)).toEqual(Array.from(copy.x));
    for (const i of masked.z) expect(keep[i]).toBe(1);
  });

  it('keeps every marked point, in input order, when the bins outnumber the points', () => {
    const keep = new Uint8Array(n);
    keep[5] = 1;
    keep[17] = 1;
    keep[4000] = 1;
    const thin = thinToBins(x, y, z, n, bounds, 0.05, keep);
    expect(Array.from(thin.z)).toEqual([5, 17, 4000]);
  });
});

describe('rasterizeTin', () => {
  it('reproduces a plane at the cell centres inside the hull and leaves the rest nodata', () => {
    const { x, y } = lattice(5_000);
    const z = Float64Array.from(x, (xi, i) => 100 + 0.25 * (xi - 1000) - 0.5 * (y[i]! - 2000));
    // 0.5 m cells, row 0 at the north edge (y = 2020).
    const raster = createRaster(60, 40, 1000, 2020, 0.5, null, Number.NaN);
    const triangles = rasterizeTin(x, y, z, x.length, raster);
    expect(triangles).toBeGreaterThan(4_000);
    let inside = 0;
    for (let r = 0; r < 40; r++) {
      for (let c = 0; c < 60; c++) {
        const v = raster.data[r * 60 + c]!;
        if (Number.isNaN(v)) continue;
        inside++;
        const cx = 1000 + (c + 0.5) * 0.5;
        const cy = 2020 - (r + 0.5) * 0.5;
        expect(v).toBeCloseTo(100 + 0.25 * (cx - 1000) - 0.5 * (cy - 2000), 3);
      }
    }
    // The lattice covers the whole square but its outermost half-cells.
    expect(inside).toBeGreaterThan(2_300);
    // Beyond the points (x > 1030): no triangle, nodata.
    const east = createRaster(10, 10, 1031, 2020, 0.5, null, Number.NaN);
    rasterizeTin(x, y, z, x.length, east);
    expect(east.data.every(Number.isNaN)).toBe(true);
  });
});
