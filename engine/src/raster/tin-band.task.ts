import Delaunator from 'delaunator';
import { createRaster } from './raster.js';
import { drawTriangle, rasterizeTin, triangleCells } from './tin.js';

/** One horizontal band of a TIN rasterization, sent to a worker. */
export interface TinBandTask {
  x: Float64Array;
  y: Float64Array;
  z: Float64Array;
  originX: number;
  /** North edge of the band. */
  originY: number;
  resolution: number;
  width: number;
  height: number;
  nodata: number;
}

/** Triangulates the band's points and samples the TIN at the band's cell centres. */
export function rasterizeTinBand(task: TinBandTask): Float32Array {
  const band = createRaster(task.width, task.height, task.originX, task.originY, task.resolution, null, task.nodata);
  rasterizeTin(task.x, task.y, task.z, task.x.length, band);
  return band.data;
}

/**
 * One horizontal band of the exact banded TIN (see `rasterizeTinExact`). The
 * arrays are shared by every band: all the points in cell units (x from the
 * west edge, y down from the north edge, interleaved), their elevations, the
 * points bucketed in squares of `bucket` cells (row-major CSR: the points of
 * bucket k are `order[bucketStart[k]..bucketStart[k + 1]]`) and the frame:
 * points every band holds (the end buckets of every bucket row and column and
 * the vertices of the convex hull).
 */
export interface TinExactBandTask {
  coords: Float64Array;
  z: Float64Array;
  bucketStart: Int32Array;
  order: Int32Array;
  frame: Int32Array;
  /** 1 on the frame's points. */
  inFrame: Uint8Array;
  bucket: number;
  /** Bucket column and row of the grid's first bucket. */
  bucketCol0: number;
  bucketRow0: number;
  gridCols: number;
  gridRows: number;
  width: number;
  /** The band's raster rows: [rowStart, rowEnd). */
  rowStart: number;
  rowEnd: number;
  /** Rows of points taken beyond the band on each side at first. */
  buffer: number;
  nodata: number;
}

/**
 * Samples the global TIN of all the points at the band's cell centres, from
 * a triangulation of the points near the band only. The band's points are
 * those of the bucket rows within `buffer` rows of it, plus the frame (so
 * that the band's hull is the global one and its triangles beyond the rows
 * stay small near the cloud's edges). A triangle is drawn only when
 * its circumcircle holds no point left out: then it is a triangle of the
 * global Delaunay triangulation too. Otherwise the bucket rows grow to its
 * circumcircle and the band is triangulated again.
 */
export function rasterizeTinBandExact(task: TinExactBandTask): Float32Array {
  const { coords, z, bucketStart, order, frame, bucket, gridCols, gridRows, width, rowStart, rowEnd } = task;
  const out = new Float32Array(width * (rowEnd - rowStart));
  const bucketRow = (v: number) => Math.floor(v / bucket) - task.bucketRow0;
  let jLo = Math.max(0, bucketRow(rowStart - task.buffer));
  let jHi = Math.min(gridRows - 1, bucketRow(rowEnd + task.buffer));
  const cells = new Int32Array(4);
  for (;;) {
    out.fill(task.nodata);
    const first = bucketStart[jLo * gridCols]!;
    const last = bucketStart[(jHi + 1) * gridCols]!;
    const ids = new Int32Array(last - first + frame.length);
    let n = 0;
    for (let p = first; p < last; p++) ids[n++] = order[p]!;
    for (let h = 0; h < frame.length; h++) {
      const i = frame[h]!;
      const j = bucketRow(coords[2 * i + 1]!);
      if (j < jLo || j > jHi) ids[n++] = i;
    }
    const local = new Float64Array(2 * n);
    for (let k = 0; k < n; k++) {
      local[2 * k] = coords[2 * ids[k]!]!;
      local[2 * k + 1] = coords[2 * ids[k]! + 1]!;
    }
    const tri = new Delaunator(local).triangles;
    const whole = jLo === 0 && jHi === gridRows - 1;
    let needLo = jLo;
    let needHi = jHi;
    for (let t = 0; t < tri.length; t += 3) {
      const i0 = ids[tri[t]!]!;
      const i1 = ids[tri[t + 1]!]!;
      const i2 = ids[tri[t + 2]!]!;
      const x0 = coords[2 * i0]!;
      const y0 = coords[2 * i0 + 1]!;
      const x1 = coords[2 * i1]!;
      const y1 = coords[2 * i1 + 1]!;
      const x2 = coords[2 * i2]!;
      const y2 = coords[2 * i2 + 1]!;
      if (!triangleCells(x0, y0, x1, y1, x2, y2, width, rowStart, rowEnd - 1, cells)) continue;
      if (!whole) {
        // Once the band must grow, triangles inside the grown rows wait for the next round.
        const reach = leftOut(task, needLo, needHi, i0, i1, i2);
        if (reach !== null) {
          if (reach[0] < needLo) needLo = reach[0];
          if (reach[1] > needHi) needHi = reach[1];
          continue;
        }
        if (needLo !== jLo || needHi !== jHi) continue;
      }
      drawTriangle(x0, y0, z[i0]!, x1, y1, z[i1]!, x2, y2, z[i2]!, cells, out, width, rowStart);
    }
    if (needLo === jLo && needHi === jHi) return out;
    jLo = Math.max(0, needLo);
    jHi = Math.min(gridRows - 1, needHi);
  }
}

/**
 * Null when the circumcircle of the triangle (i0, i1, i2) holds no point
 * outside the bucket rows [jLo, jHi] (the frame is in every band), else
 * the bucket rows the circle spans. Points within a hair of the circle count
 * as inside.
 */
function leftOut(
  task: TinExactBandTask,
  jLo: number,
  jHi: number,
  i0: number,
  i1: number,
  i2: number,
): [number, number] | null {
  const { coords, bucketStart, order, inFrame, bucket, gridCols, gridRows } = task;
  const ax = coords[2 * i0]!;
  const ay = coords[2 * i0 + 1]!;
  const dx = coords[2 * i1]! - ax;
  const dy = coords[2 * i1 + 1]! - ay;
  const ex = coords[2 * i2]! - ax;
  const ey = coords[2 * i2 + 1]! - ay;
  const bl = dx * dx + dy * dy;
  const cl = ex * ex + ey * ey;
  const d = 0.5 / (dx * ey - dy * ex);
  const ox = (ey * bl - dy * cl) * d;
  const oy = (dx * cl - ex * bl) * d;
  const ux = ax + ox;
  const uy = ay + oy;
  const r = Math.sqrt(ox * ox + oy * oy) * (1 + 1e-9) + 1e-6;
  const all: [number, number] = [0, gridRows - 1];
  if (!Number.isFinite(r) || !Number.isFinite(ux) || !Number.isFinite(uy)) return all;
  const row0 = task.bucketRow0;
  const col0 = task.bucketCol0;
  const lo = Math.max(0, Math.floor((uy - r) / bucket) - row0);
  const hi = Math.min(gridRows - 1, Math.floor((uy + r) / bucket) - row0);
  if (lo >= jLo && hi <= jHi) return null;
  const r2 = r * r;
  for (let j = lo; j <= hi; j++) {
    if (j >= jLo && j <= jHi) continue;
    // The circle's widest chord within the bucket row.
    const top = (j + row0) * bucket;
    const off = uy < top ? top - uy : uy > top + bucket ? uy - top - bucket : 0;
    if (off > r) continue;
    const h = Math.sqrt(r2 - off * off);
    const c0 = Math.max(0, Math.floor((ux - h) / bucket) - col0);
    const c1 = Math.min(gridCols - 1, Math.floor((ux + h) / bucket) - col0);
    if (c0 > c1) continue;
    const end = bucketStart[j * gridCols + c1 + 1]!;
    for (let p = bucketStart[j * gridCols + c0]!; p < end; p++) {
      const i = order[p]!;
      if (inFrame[i] || i === i0 || i === i1 || i === i2) continue;
      const px = coords[2 * i]! - ux;
      const py = coords[2 * i + 1]! - uy;
      if (px * px + py * py < r2) return [lo, hi];
    }
  }
  return null;
}
