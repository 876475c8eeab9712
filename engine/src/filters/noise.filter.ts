import { z } from 'zod';
import type { PointChunk, StepContext } from '../core/chunk.js';
import { CountTable } from '../core/count-table.js';
import { Cancelled } from '../core/errors.js';
import { rangeOf } from '../core/select.js';
import { buildMaskedPointGrid, extent, meanSpacing } from './point-grid.js';

/**
 * Options of the noise filter (`filters.noise`). Lengths in metres.
 */
export const noiseOptionsSchema = z.object({
  /** Voxel size of the isolation test, metres (lasnoise-style 3×3×3 neighbourhood). */
  step: z.number().min(0.5).max(50).default(4),
  /** A point with at most this many other points in its 3×3×3 voxel neighbourhood is isolated. */
  isolated: z.number().int().min(0).max(100).default(3),
  /** Cell size of the low-point test, metres. */
  lowCell: z.number().min(1).max(100).default(5),
  /** A cell's lowest point this far below the lowest point of every neighbouring cell is a low point (class 7), metres. */
  lowDrop: z.number().min(0.2).max(100).default(1.5),
  /** Mean point spacing in CRS units; measured on the cloud when absent (tiles pass the whole cloud's). */
  pointSpacing: z.number().positive().optional(),
  /** Horizontal CRS unit in metres. */
  unitToMetre: z.number().positive().default(1),
  /** Vertical unit in metres. */
  verticalUnitToMetre: z.number().positive().optional(),
});
export type NoiseOptions = z.input<typeof noiseOptionsSchema>;

/** Passes of the low-point test: a cell's cursor walks past at most this many points. */
const LOW_PASSES = 8;

/**
 * Puts in `index[start .. start + m]` the `m` points of `index[start .. end]`
 * lowest in z, in increasing z (ties in their order there): what a stable sort
 * by z would put first. What follows them is left unspecified (only the first
 * `m` are read), which costs one comparison per point mostly, not a sort.
 */
export function lowestFirst(index: Int32Array, start: number, end: number, zs: Float64Array, m: number): void {
  const n = end - start;
  if (n < 2) return;
  const keep = Math.min(m, n);
  const best = keep <= LOWEST_BUFFER.length ? LOWEST_BUFFER : new Int32Array(keep);
  let held = 0;
  for (let p = start; p < end; p++) {
    const i = index[p]!;
    const zi = zs[i]!;
    if (held === keep) {
      if (!(zi < zs[best[keep - 1]!]!)) continue;
      held--;
    }
    // After the equal ones already held: they come first in point order.
    let q = held;
    while (q > 0 && zs[best[q - 1]!]! > zi) {
      best[q] = best[q - 1]!;
      q--;
    }
    best[q] = i;
    held++;
  }
  for (let q = 0; q < keep; q++) index[start + q] = best[q]!;
}

const LOWEST_BUFFER = new Int32Array(LOW_PASSES + 1);

/** Voxel blocks of at most this many voxels (or two per point) are counted in an array. */
const DENSE_VOXELS = 1 << 20;

/**
 * Marks 18 (high noise) the points whose voxel and its 26 neighbours hold at
 * most `isolated` other points (`voxels(key)`: the points of a voxel).
 */
function markIsolated(
  keyOf: Float64Array,
  voxels: (key: number) => number,
  rows: number,
  cols: number,
  isolated: number,
  out: Uint8Array,
): void {
  const neighbourCount = new Map<number, number>();
  for (let i = 0; i < keyOf.length; i++) {
    const key = keyOf[i]!;
    if (voxels(key) - 1 > isolated) continue;
    let n = neighbourCount.get(key);
    if (n === undefined) {
      n = 0;
      for (let dl = -1; dl <= 1; dl++) {
        for (let dr = -1; dr <= 1; dr++) {
          for (let dc = -1; dc <= 1; dc++) {
            n += voxels(key + (dl * rows + dr) * cols + dc);
          }
        }
      }
      neighbourCount.set(key, n);
    }
    if (n - 1 <= isolated) out[i] = HIGH_NOISE;
  }
}

/** Class codes the noise filter assigns. */
export const LOW_POINT = 7;
export const HIGH_NOISE = 18;

/**
 * Finds noise: isolated points (few neighbours in a 3×3×3 voxel block) and
 * low outliers (a cell's lowest point well below the lowest points of all
 * neighbouring cells, like PDAL's ELM). Returns per point 0 (not noise), 7 (low point) or 18 (high noise).
 *
 * @example
 * const noise = noiseFilter(cloud); // noise[i] is 0, 7 or 18
 */
export function noiseFilter(cloud: PointChunk, options: NoiseOptions = {}, context: StepContext = {}): Uint8Array {
  const o = noiseOptionsSchema.parse(options);
  const { x, y, z: zs, count } = cloud;
  const out = new Uint8Array(count);
  if (count === 0) return out;
  const hu = o.unitToMetre;
  const vu = o.verticalUnitToMetre ?? hu;
  const b = extent(x, y, count);

  // 1. Isolation: count points per voxel, then sum the 27 voxels around each point's voxel.
  // Sparse clouds: the voxel is never smaller than three mean point spacings.
  const spacing = o.pointSpacing ?? meanSpacing(b, count);
  const step = Math.max(o.step / hu, 3 * spacing);
  const stepZ = (step * hu) / vu;
  const { lo: minZ, hi: maxZ } = rangeOf(zs, count);
  const cols = Math.floor((b.maxX - b.minX) / step) + 3;
  const rows = Math.floor((b.maxY - b.minY) / step) + 3;
  // Voxel (c, r, l) is key (l * rows + r) * cols + c; c, r and l start at 1, so every voxel's 26 neighbours have keys too.
  const levels = Math.floor((maxZ - minZ) / stepZ) + 3;
  const keyOf = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const c = Math.floor((x[i]! - b.minX) / step) + 1;
    const r = Math.floor((y[i]! - b.minY) / step) + 1;
    const l = Math.floor((zs[i]! - minZ) / stepZ) + 1;
    keyOf[i] = (l * rows + r) * cols + c;
  }
  // Counts per voxel: an array over the voxel block when it is small (a few per point), else a hash table.
  const blockSize = cols * rows * levels;
  if (blockSize <= Math.max(DENSE_VOXELS, 2 * count)) {
    const voxels = new Int32Array(blockSize);
    for (let i = 0; i < count; i++) voxels[keyOf[i]!]!++;
    markIsolated(keyOf, (key) => voxels[key]!, rows, cols, o.isolated, out);
  } else {
    const voxels = new CountTable();
    for (let i = 0; i < count; i++) voxels.add(keyOf[i]!);
    markIsolated(keyOf, (key) => voxels.get(key), rows, cols, o.isolated, out);
  }
  if (context.signal?.aborted) throw new Cancelled();

  // 2. Low outliers: a cell's lowest remaining point far below the lowest points around it.
  const cell = Math.max(o.lowCell / hu, 3 * spacing);
  const drop = o.lowDrop / vu;
  const grid = buildMaskedPointGrid(x, y, count, cell, out, 0, b);
  const cells = grid.cols * grid.rows;
  // Each cell's lowest points first, by z (then point order); `cursor` walks past points flagged low.
  for (let k = 0; k < cells; k++) lowestFirst(grid.index, grid.start[k]!, grid.start[k + 1]!, zs, LOW_PASSES + 1);
  const cursor = grid.start.slice(0, cells);
  const lowest = (k: number) => (cursor[k]! < grid.start[k + 1]! ? zs[grid.index[cursor[k]!]!]! : Number.NaN);
  for (let pass = 0; pass < LOW_PASSES; pass++) {
    let changed = 0;
    for (let r = 0; r < grid.rows; r++) {
      for (let c = 0; c < grid.cols; c++) {
        const k = r * grid.cols + c;
        const m = lowest(k);
        if (Number.isNaN(m)) continue;
        // Extended local minimum: lower than every neighbour's lowest point (a slope never is).
        let ref = Number.POSITIVE_INFINITY;
        let around = 0;
        for (let dr = -1; dr <= 1; dr++) {
          for (let dc = -1; dc <= 1; dc++) {
            if (dr === 0 && dc === 0) continue;
            const rr = r + dr;
            const cc = c + dc;
            if (rr < 0 || cc < 0 || rr >= grid.rows || cc >= grid.cols) continue;
            const v = lowest(rr * grid.cols + cc);
            if (Number.isNaN(v)) continue;
            around++;
            if (v < ref) ref = v;
          }
        }
        if (around < 3) continue;
        if (ref - m > drop) {
          out[grid.index[cursor[k]!]!] = LOW_POINT;
          cursor[k]!++;
          changed++;
        }
      }
    }
    if (changed === 0) break;
  }
  // Isolated points below the surrounding ground are low points, not high noise.
  for (let i = 0; i < count; i++) {
    if (out[i] !== HIGH_NOISE) continue;
    let c = Math.floor((x[i]! - grid.minX) / cell);
    let r = Math.floor((y[i]! - grid.minY) / cell);
    c = Math.min(Math.max(c, 0), grid.cols - 1);
    r = Math.min(Math.max(r, 0), grid.rows - 1);
    const m = lowest(r * grid.cols + c);
    if (!Number.isNaN(m) && zs[i]! < m) out[i] = LOW_POINT;
  }
  return out;
}
