import Delaunator from 'delaunator';
import type { Raster } from './raster.js';

/** Growable columns of x, y, z used to gather points before triangulation. */
export class PointBuffer {
  x: Float64Array;
  y: Float64Array;
  z: Float64Array;
  count = 0;
  constructor(capacity = 1 << 16) {
    this.x = new Float64Array(capacity);
    this.y = new Float64Array(capacity);
    this.z = new Float64Array(capacity);
  }
  push(x: number, y: number, z: number): void {
    if (this.count === this.x.length) this.grow(this.count * 2);
    this.x[this.count] = x;
    this.y[this.count] = y;
    this.z[this.count] = z;
    this.count++;
  }
  private grow(capacity: number): void {
    const nx = new Float64Array(capacity);
    const ny = new Float64Array(capacity);
    const nz = new Float64Array(capacity);
    nx.set(this.x.subarray(0, this.count));
    ny.set(this.y.subarray(0, this.count));
    nz.set(this.z.subarray(0, this.count));
    this.x = nx;
    this.y = ny;
    this.z = nz;
  }
}

/**
 * Triangulates points (Delaunay) and writes, into every raster cell whose
 * centre lies inside a triangle, the elevation linearly interpolated on that
 * triangle. Cells outside the convex hull keep their value (nodata).
 * Triangles whose longest edge exceeds `maxEdge` (CRS units) are skipped when
 * given. Returns the number of triangles.
 */
export function rasterizeTin(
  xs: Float64Array,
  ys: Float64Array,
  zs: Float64Array,
  count: number,
  raster: Raster,
  maxEdge = Number.POSITIVE_INFINITY,
): number {
  if (count < 3) return 0;
  const ox = raster.originX;
  const oy = raster.originY;
  const res = raster.resolution;
  // Coordinates relative to the raster origin, in cell units: better conditioning and cheaper loops.
  const coords = new Float64Array(count * 2);
  for (let i = 0; i < count; i++) {
    coords[2 * i] = (xs[i]! - ox) / res;
    coords[2 * i + 1] = (oy - ys[i]!) / res;
  }
  const delaunay = new Delaunator(coords);
  const tri = delaunay.triangles;
  const { width, height, data } = raster;
  const maxEdge2 = (maxEdge / res) ** 2;
  for (let t = 0; t < tri.length; t += 3) {
    const i0 = tri[t]!;
    const i1 = tri[t + 1]!;
    const i2 = tri[t + 2]!;
    const x0 = coords[2 * i0]!;
    const y0 = coords[2 * i0 + 1]!;
    const x1 = coords[2 * i1]!;
    const y1 = coords[2 * i1 + 1]!;
    const x2 = coords[2 * i2]!;
    const y2 = coords[2 * i2 + 1]!;
    if (maxEdge2 !== Number.POSITIVE_INFINITY) {
      const e0 = (x1 - x0) ** 2 + (y1 - y0) ** 2;
      const e1 = (x2 - x1) ** 2 + (y2 - y1) ** 2;
      const e2 = (x0 - x2) ** 2 + (y0 - y2) ** 2;
      if (e0 > maxEdge2 || e1 > maxEdge2 || e2 > maxEdge2) continue;
    }
    const z0 = zs[i0]!;
    const z1 = zs[i1]!;
    const z2 = zs[i2]!;
    const det = (y1 - y2) * (x0 - x2) + (x2 - x1) * (y0 - y2);
    if (det === 0) continue;
    const inv = 1 / det;
    // Cells whose centre (c + 0.5, r + 0.5) may fall inside the triangle.
    let cMin = Math.ceil(Math.min(x0, x1, x2) - 0.5);
    let cMax = Math.floor(Math.max(x0, x1, x2) - 0.5);
    let rMin = Math.ceil(Math.min(y0, y1, y2) - 0.5);
    let rMax = Math.floor(Math.max(y0, y1, y2) - 0.5);
    if (cMin < 0) cMin = 0;
    if (rMin < 0) rMin = 0;
    if (cMax > width - 1) cMax = width - 1;
    if (rMax > height - 1) rMax = height - 1;
    const eps = -1e-9;
    for (let r = rMin; r <= rMax; r++) {
      const py = r + 0.5;
      const row = r * width;
      for (let c = cMin; c <= cMax; c++) {
        const px = c + 0.5;
        const l0 = ((y1 - y2) * (px - x2) + (x2 - x1) * (py - y2)) * inv;
        if (l0 < eps) continue;
        const l1 = ((y2 - y0) * (px - x2) + (x0 - x2) * (py - y2)) * inv;
        if (l1 < eps) continue;
        const l2 = 1 - l0 - l1;
        if (l2 < eps) continue;
        data[row + c] = l0 * z0 + l1 * z1 + l2 * z2;
      }
    }
  }
  return tri.length / 3;
}

/**
 * Keeps at most one point per square bin of `binSize` (the one nearest the bin
 * centre), returned in row-major bin order. A DTM sampled at cell centres
 * needs no more than a few points per cell; thinning bounds the triangulation
 * cost on dense clouds and the bin order gives Delaunator good locality.
 */
export function thinToBins(
  xs: Float64Array,
  ys: Float64Array,
  zs: Float64Array,
  count: number,
  bounds: { minX: number; minY: number; maxX: number; maxY: number },
  binSize: number,
): { x: Float64Array; y: Float64Array; z: Float64Array; count: number } {
  const cols = Math.max(1, Math.ceil((bounds.maxX - bounds.minX) / binSize) + 1);
  const rows = Math.max(1, Math.ceil((bounds.maxY - bounds.minY) / binSize) + 1);
  if (cols * rows > 1.5e8 || cols * rows > count * 64) {
    // Too many bins for the points: thinning would not help, keep everything.
    return { x: xs.slice(0, count), y: ys.slice(0, count), z: zs.slice(0, count), count };
  }
  const best = new Int32Array(cols * rows).fill(-1);
  const bestD = new Float32Array(cols * rows);
  const inv = 1 / binSize;
  for (let i = 0; i < count; i++) {
    const fx = (xs[i]! - bounds.minX) * inv;
    const fy = (ys[i]! - bounds.minY) * inv;
    const c = Math.floor(fx);
    const r = Math.floor(fy);
    if (c < 0 || r < 0 || c >= cols || r >= rows) continue;
    const b = r * cols + c;
    const dx = fx - c - 0.5;
    const dy = fy - r - 0.5;
    const d = dx * dx + dy * dy;
    if (best[b] === -1 || d < bestD[b]!) {
      best[b] = i;
      bestD[b] = d;
    }
  }
  let kept = 0;
  for (let b = 0; b < best.length; b++) if (best[b] !== -1) kept++;
  const x = new Float64Array(kept);
  const y = new Float64Array(kept);
  const z = new Float64Array(kept);
  let k = 0;
  for (let b = 0; b < best.length; b++) {
    const i = best[b]!;
    if (i === -1) continue;
    x[k] = xs[i]!;
    y[k] = ys[i]!;
    z[k] = zs[i]!;
    k++;
  }
  return { x, y, z, count: kept };
}

