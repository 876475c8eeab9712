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
  const cells = new Int32Array(4);
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
    if (!triangleCells(x0, y0, x1, y1, x2, y2, width, 0, height - 1, cells)) continue;
    drawTriangle(x0, y0, zs[i0]!, x1, y1, zs[i1]!, x2, y2, zs[i2]!, cells, data, width, 0);
  }
  return tri.length / 3;
}

/**
 * Cells (column and row ranges, into `cells`) whose centre (c + 0.5, r + 0.5)
 * may fall inside the triangle, rows kept within [rowLo, rowHi]: false when
 * none or when the triangle is flat. Coordinates in cell units, rows downwards.
 */
export function triangleCells(
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  width: number,
  rowLo: number,
  rowHi: number,
  cells: Int32Array,
): boolean {
  const det = (y1 - y2) * (x0 - x2) + (x2 - x1) * (y0 - y2);
  if (det === 0) return false;
  const xLo = x0 < x1 ? (x0 < x2 ? x0 : x2) : x1 < x2 ? x1 : x2;
  const xHi = x0 > x1 ? (x0 > x2 ? x0 : x2) : x1 > x2 ? x1 : x2;
  let cMin = Math.ceil(xLo - 0.5);
  let cMax = Math.floor(xHi - 0.5);
  if (cMin < 0) cMin = 0;
  if (cMax > width - 1) cMax = width - 1;
  if (cMin > cMax) return false;
  const yLo = y0 < y1 ? (y0 < y2 ? y0 : y2) : y1 < y2 ? y1 : y2;
  const yHi = y0 > y1 ? (y0 > y2 ? y0 : y2) : y1 > y2 ? y1 : y2;
  let rMin = Math.ceil(yLo - 0.5);
  let rMax = Math.floor(yHi - 0.5);
  if (rMin < rowLo) rMin = rowLo;
  if (rMax > rowHi) rMax = rowHi;
  if (rMin > rMax) return false;
  cells[0] = cMin;
  cells[1] = cMax;
  cells[2] = rMin;
  cells[3] = rMax;
  return true;
}

/**
 * Writes, into every cell of `cells` (from {@link triangleCells}) whose centre
 * lies inside the triangle, the elevation linearly interpolated on it; row r
 * goes to `data` row r - `rowOffset`.
 */
export function drawTriangle(
  x0: number,
  y0: number,
  z0: number,
  x1: number,
  y1: number,
  z1: number,
  x2: number,
  y2: number,
  z2: number,
  cells: Int32Array,
  data: Float32Array,
  width: number,
  rowOffset: number,
): void {
  const det = (y1 - y2) * (x0 - x2) + (x2 - x1) * (y0 - y2);
  const cMin = cells[0]!;
  const cMax = cells[1]!;
  const rMax = cells[3]!;
  const inv = 1 / det;
  // The barycentric weights' factors, the same products as written out in full.
  const a0 = y1 - y2;
  const b0 = x2 - x1;
  const a1 = y2 - y0;
  const b1 = x0 - x2;
  const eps = -1e-9;
  for (let r = cells[2]!; r <= rMax; r++) {
    const dy = r + 0.5 - y2;
    const row = (r - rowOffset) * width;
    for (let c = cMin; c <= cMax; c++) {
      const dx = c + 0.5 - x2;
      const l0 = (a0 * dx + b0 * dy) * inv;
      if (l0 < eps) continue;
      const l1 = (a1 * dx + b1 * dy) * inv;
      if (l1 < eps) continue;
      const l2 = 1 - l0 - l1;
      if (l2 < eps) continue;
      data[row + c] = l0 * z0 + l1 * z1 + l2 * z2;
    }
  }
}

/**
 * Keeps at most one point per square bin of `binSize` (the one nearest the bin
 * centre, the first in input order on a tie), returned in row-major bin order.
 * A DTM sampled at cell centres needs no more than a few points per cell;
 * thinning bounds the triangulation cost on dense clouds and the bin order
 * gives Delaunator good locality. With `keep`, only the points where it is
 * non-zero are candidates (the same as thinning a copy of those points).
 */
export function thinToBins(
  xs: Float64Array,
  ys: Float64Array,
  zs: Float64Array,
  count: number,
  bounds: { minX: number; minY: number; maxX: number; maxY: number },
  binSize: number,
  keep?: Uint8Array,
): { x: Float64Array; y: Float64Array; z: Float64Array; count: number } {
  let candidates = count;
  if (keep) {
    candidates = 0;
    for (let i = 0; i < count; i++) candidates += keep[i] ? 1 : 0;
  }
  const cols = Math.max(1, Math.ceil((bounds.maxX - bounds.minX) / binSize) + 1);
  const rows = Math.max(1, Math.ceil((bounds.maxY - bounds.minY) / binSize) + 1);
  if (cols * rows > 1.5e8 || cols * rows > candidates * 64) {
    // Too many bins for the points: thinning would not help, keep everything.
    if (!keep) return { x: xs.slice(0, count), y: ys.slice(0, count), z: zs.slice(0, count), count };
    const x = new Float64Array(candidates);
    const y = new Float64Array(candidates);
    const z = new Float64Array(candidates);
    for (let i = 0, k = 0; i < count; i++) {
      if (!keep[i]) continue;
      x[k] = xs[i]!;
      y[k] = ys[i]!;
      z[k] = zs[i]!;
      k++;
    }
    return { x, y, z, count: candidates };
  }
  // Points bucketed by bin row (stable: input order within a row), then each row's bins resolved
  // in a row-sized buffer: the same choice as one pass over all bins, without their memory.
  const inv = 1 / binSize;
  const { minX, minY } = bounds;
  const rowStart = new Int32Array(rows + 1);
  for (let i = 0; i < count; i++) {
    if (keep && !keep[i]) continue;
    const c = Math.floor((xs[i]! - minX) * inv);
    const r = Math.floor((ys[i]! - minY) * inv);
    if (c < 0 || r < 0 || c >= cols || r >= rows) continue;
    rowStart[r + 1]!++;
  }
  for (let r = 0; r < rows; r++) rowStart[r + 1]! += rowStart[r]!;
  const order = new Int32Array(rowStart[rows]!);
  const fill = rowStart.slice(0, rows);
  for (let i = 0; i < count; i++) {
    if (keep && !keep[i]) continue;
    const c = Math.floor((xs[i]! - minX) * inv);
    const r = Math.floor((ys[i]! - minY) * inv);
    if (c < 0 || r < 0 || c >= cols || r >= rows) continue;
    order[fill[r]!++] = i;
  }
  // Per bin of the row: 1 + index of the point kept (0: empty), and its squared distance to the bin centre.
  const best = new Int32Array(cols);
  const bestD = new Float32Array(cols);
  const keptIndex = new Int32Array(Math.min(order.length, cols * rows));
  let kept = 0;
  for (let r = 0; r < rows; r++) {
    const start = rowStart[r]!;
    const end = rowStart[r + 1]!;
    if (start === end) continue;
    let cMin = cols;
    let cMax = -1;
    for (let p = start; p < end; p++) {
      const i = order[p]!;
      const fx = (xs[i]! - minX) * inv;
      const fy = (ys[i]! - minY) * inv;
      const c = Math.floor(fx);
      const dx = fx - c - 0.5;
      const dy = fy - r - 0.5;
      const d = dx * dx + dy * dy;
      if (best[c] !== 0 && !(d < bestD[c]!)) continue;
      best[c] = i + 1;
      bestD[c] = d;
      if (c < cMin) cMin = c;
      if (c > cMax) cMax = c;
    }
    for (let c = cMin; c <= cMax; c++) {
      if (best[c] === 0) continue;
      keptIndex[kept++] = best[c]! - 1;
      best[c] = 0;
    }
  }
  const x = new Float64Array(kept);
  const y = new Float64Array(kept);
  const z = new Float64Array(kept);
  for (let k = 0; k < kept; k++) {
    const i = keptIndex[k]!;
    x[k] = xs[i]!;
    y[k] = ys[i]!;
    z[k] = zs[i]!;
  }
  return { x, y, z, count: kept };
}
