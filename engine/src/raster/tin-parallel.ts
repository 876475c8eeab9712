import { availableParallelism } from 'node:os';
import { threadPool } from '../core/thread-pool.js';
import type { Raster } from './raster.js';
import { convexHullIndices } from './region-outlines.js';
import { rasterizeTin } from './tin.js';
import type { TinBandTask, TinExactBandTask } from './tin-band.task.js';

const workerPool = threadPool(new URL('./tin.worker.mjs', import.meta.url));

/**
 * {@link rasterizeTin} over horizontal bands in worker threads: each band
 * triangulates its points plus those within `buffer` (CRS units) of it, so
 * the TIN inside the band is the global one except where a triangle spans
 * more than the buffer (wide holes right at a band edge). Small inputs run on
 * the calling thread.
 */
export async function rasterizeTinParallel(
  xs: Float64Array,
  ys: Float64Array,
  zs: Float64Array,
  count: number,
  raster: Raster,
  options: { workers?: number; buffer?: number; minPoints?: number } = {},
): Promise<void> {
  const threads = options.workers ?? availableParallelism();
  const bands = Math.min(threads, Math.floor(count / (options.minPoints ?? 400_000)), raster.height);
  if (threads <= 1 || bands < 2) {
    rasterizeTin(xs, ys, zs, count, raster);
    return;
  }
  const buffer = Math.max(options.buffer ?? 0, 20 * raster.resolution);
  const rowsPerBand = Math.ceil(raster.height / bands);
  const runner = workerPool(threads);
  await Promise.all(
    Array.from({ length: bands }, async (_, b) => {
      const rowStart = b * rowsPerBand;
      const rowEnd = Math.min(raster.height, rowStart + rowsPerBand);
      if (rowEnd <= rowStart) return;
      const top = raster.originY - rowStart * raster.resolution;
      const bottom = raster.originY - rowEnd * raster.resolution;
      let n = 0;
      for (let i = 0; i < count; i++) {
        const y = ys[i]!;
        if (y <= top + buffer && y >= bottom - buffer) n++;
      }
      const task: TinBandTask = {
        x: new Float64Array(n),
        y: new Float64Array(n),
        z: new Float64Array(n),
        originX: raster.originX,
        originY: top,
        resolution: raster.resolution,
        width: raster.width,
        height: rowEnd - rowStart,
        nodata: raster.nodata,
      };
      let k = 0;
      for (let i = 0; i < count; i++) {
        const y = ys[i]!;
        if (y <= top + buffer && y >= bottom - buffer) {
          task.x[k] = xs[i]!;
          task.y[k] = y;
          task.z[k] = zs[i]!;
          k++;
        }
      }
      const band = (await runner.run(task, {
        transferList: [task.x.buffer, task.y.buffer, task.z.buffer] as never,
      })) as Float32Array;
      raster.data.set(band, rowStart * raster.width);
    }),
  );
}

/** Side of the buckets of {@link rasterizeTinExact}, in cells (a power of two: exact bucket bounds). */
const BUCKET = 4;

/**
 * {@link rasterizeTin} over horizontal bands in worker threads, with the same
 * result: each band draws only the triangles proven global (see
 * `rasterizeTinBandExact`) and triangulates a wider band until every triangle
 * over its rows is. Where four points or more are exactly cocircular (it
 * happens with centimetre coordinates) the triangulation is not unique and
 * Delaunator's choice follows its insertion order: every band starts from the
 * global seed triangle and shares the global bounding box, so it inserts its
 * points in the global order (equal bit for bit on every real test file, with
 * 2 to 5 bands). Small inputs run on the calling thread.
 */
export async function rasterizeTinExact(
  xs: Float64Array,
  ys: Float64Array,
  zs: Float64Array,
  count: number,
  raster: Raster,
  options: { workers?: number; minPoints?: number } = {},
): Promise<void> {
  const threads = options.workers ?? availableParallelism();
  const bands = Math.min(threads, Math.floor(count / (options.minPoints ?? 400_000)), raster.height);
  if (threads <= 1 || bands < 2) {
    rasterizeTin(xs, ys, zs, count, raster);
    return;
  }
  const { originX: ox, originY: oy, resolution: res, width, height } = raster;
  // The same coordinates as rasterizeTin's, so that every triangle samples the same values.
  const coords = new Float64Array(new SharedArrayBuffer(count * 16));
  const z = new Float64Array(new SharedArrayBuffer(count * 8));
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < count; i++) {
    const x = (xs[i]! - ox) / res;
    const y = (oy - ys[i]!) / res;
    coords[2 * i] = x;
    coords[2 * i + 1] = y;
    z[i] = zs[i]!;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  const bucketCol0 = Math.floor(minX / BUCKET);
  const bucketRow0 = Math.floor(minY / BUCKET);
  const gridCols = Math.floor(maxX / BUCKET) - bucketCol0 + 1;
  const gridRows = Math.floor(maxY / BUCKET) - bucketRow0 + 1;
  const bucketOf = new Int32Array(count);
  const bucketStart = new Int32Array(new SharedArrayBuffer((gridCols * gridRows + 1) * 4));
  for (let i = 0; i < count; i++) {
    const k =
      (Math.floor(coords[2 * i + 1]! / BUCKET) - bucketRow0) * gridCols +
      Math.floor(coords[2 * i]! / BUCKET) -
      bucketCol0;
    bucketOf[i] = k;
    bucketStart[k + 1]!++;
  }
  for (let k = 0; k < gridCols * gridRows; k++) bucketStart[k + 1]! += bucketStart[k]!;
  const order = new Int32Array(new SharedArrayBuffer(count * 4));
  const fill = bucketStart.slice(0, gridCols * gridRows);
  for (let i = 0; i < count; i++) order[fill[bucketOf[i]!]!++] = i;
  const { frame, inFrame } = framePoints(coords, bucketStart, order, gridCols, gridRows);
  // Band edges on bucket rows, with about as many points in every band.
  const edges = [0];
  for (let j = 0, seen = 0; j < gridRows && edges.length < bands; j++) {
    seen += bucketStart[(j + 1) * gridCols]! - bucketStart[j * gridCols]!;
    if (seen >= (count * edges.length) / bands) edges.push(Math.max(0, (j + 1 + bucketRow0) * BUCKET));
  }
  edges.push(height);
  // Wide enough for most holes crossing a band edge (buildings, water); the others grow the band.
  const buffer = Math.max(20, Math.ceil(height * 0.1));
  const runner = workerPool(threads);
  await Promise.all(
    edges.slice(1).map(async (end, b) => {
      const rowStart = Math.min(height, edges[b]!);
      const rowEnd = Math.min(height, end);
      if (rowEnd <= rowStart) return;
      const task: TinExactBandTask = {
        coords,
        z,
        bucketStart,
        order,
        frame,
        inFrame,
        bucket: BUCKET,
        bucketCol0,
        bucketRow0,
        gridCols,
        gridRows,
        width,
        rowStart,
        rowEnd,
        buffer,
        nodata: raster.nodata,
      };
      const band = (await runner.run(task)) as Float32Array;
      raster.data.set(band, rowStart * width);
    }),
  );
}

/**
 * The points every band holds: those of the first and last bucket of every
 * bucket row and column, and the vertices of the convex hull of all the
 * points. Only the points of the first two and last two
 * buckets of a row or column can be hull vertices: a point farther in lies
 * more than a bucket behind one of its row's (or column's) ends.
 */
function framePoints(
  coords: Float64Array,
  bucketStart: Int32Array,
  order: Int32Array,
  gridCols: number,
  gridRows: number,
): { frame: Int32Array; inFrame: Uint8Array } {
  const count = order.length;
  const inFrame = new Uint8Array(new SharedArrayBuffer(count));
  const candidate = new Uint8Array(gridCols * gridRows);
  const filled = (k: number) => bucketStart[k + 1]! > bucketStart[k]!;
  // Every point of bucket k.
  const take = (k: number) => {
    for (let p = bucketStart[k]!; p < bucketStart[k + 1]!; p++) inFrame[order[p]!] = 1;
  };
  const ends = (first: number, step: number, length: number) => {
    let lo = -1;
    let hi = -1;
    for (let m = 0; m < length; m++) {
      if (!filled(first + m * step)) continue;
      if (lo < 0) lo = m;
      hi = m;
    }
    if (lo < 0) return;
    take(first + lo * step);
    take(first + hi * step);
    candidate[first + lo * step] = 1;
    candidate[first + hi * step] = 1;
    if (lo + 1 < length) candidate[first + (lo + 1) * step] = 1;
    if (hi > 0) candidate[first + (hi - 1) * step] = 1;
  };
  for (let j = 0; j < gridRows; j++) ends(j * gridCols, 1, gridCols);
  for (let c = 0; c < gridCols; c++) ends(c, gridCols, gridRows);
  for (const i of candidateHull(coords, bucketStart, order, candidate)) inFrame[i] = 1;
  for (const i of delaunatorSeeds(coords)) inFrame[i] = 1;
  let n = 0;
  for (let i = 0; i < count; i++) n += inFrame[i]!;
  const frame = new Int32Array(new SharedArrayBuffer(n * 4));
  for (let i = 0, k = 0; i < count; i++) if (inFrame[i]) frame[k++] = i;
  return { frame, inFrame };
}

/** Vertices of the convex hull of the points of the `candidate` buckets (no collinear ones). */
function candidateHull(
  coords: Float64Array,
  bucketStart: Int32Array,
  order: Int32Array,
  candidate: Uint8Array,
): number[] {
  const ids: number[] = [];
  for (let k = 0; k < candidate.length; k++) {
    if (!candidate[k]) continue;
    for (let p = bucketStart[k]!; p < bucketStart[k + 1]!; p++) ids.push(order[p]!);
  }
  return convexHullIndices(ids, coords);
}

/**
 * The three points Delaunator starts from on all the points (its own choice,
 * made again): a band holding them and the hull has the same bounding box, so
 * it starts from them too and adds its points in the global order, which
 * settles cocircular points the same way.
 */
function delaunatorSeeds(coords: Float64Array): [number, number, number] {
  const n = coords.length >> 1;
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const x = coords[2 * i]!;
    const y = coords[2 * i + 1]!;
    if (x < minX) minX = x;
    if (y < minY) minY = y;
    if (x > maxX) maxX = x;
    if (y > maxY) maxY = y;
  }
  const dist = (ax: number, ay: number, i: number) => {
    const dx = ax - coords[2 * i]!;
    const dy = ay - coords[2 * i + 1]!;
    return dx * dx + dy * dy;
  };
  const cx = (minX + maxX) / 2;
  const cy = (minY + maxY) / 2;
  let i0 = 0;
  for (let i = 0, best = Number.POSITIVE_INFINITY; i < n; i++) {
    const d = dist(cx, cy, i);
    if (d < best) {
      i0 = i;
      best = d;
    }
  }
  const x0 = coords[2 * i0]!;
  const y0 = coords[2 * i0 + 1]!;
  let i1 = 0;
  for (let i = 0, best = Number.POSITIVE_INFINITY; i < n; i++) {
    if (i === i0) continue;
    const d = dist(x0, y0, i);
    if (d < best && d > 0) {
      i1 = i;
      best = d;
    }
  }
  const dx = coords[2 * i1]! - x0;
  const dy = coords[2 * i1 + 1]! - y0;
  const bl = dx * dx + dy * dy;
  let i2 = 0;
  for (let i = 0, best = Number.POSITIVE_INFINITY; i < n; i++) {
    if (i === i0 || i === i1) continue;
    const ex = coords[2 * i]! - x0;
    const ey = coords[2 * i + 1]! - y0;
    const cl = ex * ex + ey * ey;
    const d = 0.5 / (dx * ey - dy * ex);
    const x = (ey * bl - dy * cl) * d;
    const y = (dx * cl - ex * bl) * d;
    const r = x * x + y * y;
    if (r < best) {
      i2 = i;
      best = r;
    }
  }
  return [i0, i1, i2];
}
