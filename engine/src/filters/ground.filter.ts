import { z } from 'zod';
import type { PointChunk, StepContext } from '../core/chunk.js';
import { Cancelled, InvalidInput } from '../core/errors.js';
import { groundAt, groundModel } from './hag.filter.js';
import { bilinear, gradient, inpaint, open } from './morphology.js';
import { buildPointGrid, extent, meanSpacing } from './point-grid.js';

/**
 * Options of the ground filter (`filters.smrf`): a Simple Morphological Filter
 * (Pingel, Clarke & McBride 2013). Lengths are in metres and converted to the
 * CRS unit with `unitToMetre`.
 */
export const groundOptionsSchema = z.object({
  /** Cell size of the minimum surface, metres. */
  cell: z.number().min(0.1).max(10).default(1),
  /** Terrain slope tolerated by the progressive opening (rise over run). */
  slope: z.number().min(0.01).max(5).default(0.15),
  /** Largest opening window radius, metres: the widest object removed (buildings). */
  window: z.number().min(1).max(500).default(18),
  /** Elevation threshold of the final ground test, metres. */
  threshold: z.number().min(0.05).max(10).default(0.5),
  /** Extra threshold per unit of local terrain slope, metres. */
  scalar: z.number().min(0).max(10).default(1.25),
  /**
   * Refinement: the lowest SMRF ground point of every cell of this size
   * (metres) seeds a lower-envelope TIN of the terrain; 0 disables it.
   */
  envelopeCell: z.number().min(0).max(20).default(2),
  /** Refinement passes; each halves the envelope cell. */
  envelopePasses: z.number().int().min(0).max(4).default(2),
  /** Refinement: points at most this far above the envelope TIN are ground, metres. */
  offset: z.number().min(0.01).max(2).default(0.15),
  /** Refinement: extra tolerance per unit of envelope slope (the TIN cuts convex breaks), metres. */
  offsetSlopeScalar: z.number().min(0).max(5).default(0.2),
  /** Mean point spacing in CRS units; measured on the cloud when absent (tiles pass the whole cloud's). */
  pointSpacing: z.number().positive().optional(),
  /** Horizontal CRS unit in metres (0.3048 for feet). */
  unitToMetre: z.number().positive().default(1),
  /** Vertical unit in metres. */
  verticalUnitToMetre: z.number().positive().optional(),
});
export type GroundOptions = z.input<typeof groundOptionsSchema>;

/** The provisional bare-earth surface the filter built, reusable for HAG. */
export interface GroundSurface {
  surface: Float32Array;
  cols: number;
  rows: number;
  minX: number;
  minY: number;
  cell: number;
}

/**
 * Marks ground points (SMRF). `exclude[i] = 1` leaves a point out (noise).
 * Returns 1 for ground, 0 otherwise, plus the provisional surface.
 *
 * @example
 * const { ground } = groundFilter(cloud, noiseMask);
 */
export function groundFilter(
  cloud: PointChunk,
  exclude: Uint8Array | null,
  options: GroundOptions = {},
  context: StepContext = {},
): { ground: Uint8Array; surface: GroundSurface } {
  const o = groundOptionsSchema.parse(options);
  const { x, y, z: zs, count } = cloud;
  const ground = new Uint8Array(count);
  const hu = o.unitToMetre;
  const vu = o.verticalUnitToMetre ?? hu;
  if (count === 0) {
    return { ground, surface: { surface: new Float32Array(1), cols: 1, rows: 1, minX: 0, minY: 0, cell: o.cell } };
  }
  const b = extent(x, y, count);
  if (!Number.isFinite(b.minX)) throw new InvalidInput('points', 'coordinates are not finite');
  // Sparse clouds: cells never smaller than the mean point spacing.
  const spacing = o.pointSpacing ?? meanSpacing(b, count);
  const cell = Math.max(o.cell / hu, spacing);
  const cellMetres = cell * hu;
  const grid = buildPointGrid(x, y, count, cell, exclude ? (i) => exclude[i] === 0 : undefined, b);
  const { cols, rows } = grid;
  // 1. Minimum surface.
  const zmin = new Float32Array(cols * rows).fill(Number.NaN);
  for (let k = 0; k < cols * rows; k++) {
    let m = Number.POSITIVE_INFINITY;
    for (let p = grid.start[k]!; p < grid.start[k + 1]!; p++) {
      const v = zs[grid.index[p]!]!;
      if (v < m) m = v;
    }
    if (m !== Number.POSITIVE_INFINITY) zmin[k] = m;
  }
  inpaint(zmin, cols, rows);
  context.progress?.(0.2, 'ground');
  // 2. Progressive opening: cells lifted above the opened surface by more than slope × window are objects.
  const isObject = new Uint8Array(cols * rows);
  const maxRadius = Math.max(1, Math.ceil(o.window / cellMetres));
  let last: Float32Array = zmin;
  for (let r = 1; r <= maxRadius; r++) {
    if (context.signal?.aborted) throw new Cancelled();
    const cur = open(last, cols, rows, r);
    const t = (o.slope * r * cellMetres) / vu;
    for (let k = 0; k < cur.length; k++) if (last[k]! - cur[k]! > t) isObject[k] = 1;
    last = cur;
  }
  context.progress?.(0.6, 'ground');
  // 3. Provisional DTM from the non-object minimum cells.
  const surface = new Float32Array(cols * rows);
  for (let k = 0; k < surface.length; k++) {
    const empty = grid.start[k] === grid.start[k + 1];
    surface[k] = isObject[k] || empty ? Number.NaN : zmin[k]!;
  }
  inpaint(surface, cols, rows);
  // 4. Points near the provisional surface are ground; steeper terrain tolerates more.
  const grad = gradient(surface, cols, rows, cell);
  const threshold = o.threshold / vu;
  // grad is in vertical units per horizontal unit; the tolerance is in vertical units.
  const scalar = o.scalar / hu;
  for (let i = 0; i < count; i++) {
    if (exclude && exclude[i] !== 0) continue;
    const zi = bilinear(surface, cols, rows, b.minX, b.minY, cell, x[i]!, y[i]!);
    if (Number.isNaN(zi)) continue;
    const k = grid.cellOf[i]!;
    const s = k >= 0 ? grad[k]! : 0;
    if (Math.abs(zs[i]! - zi) <= threshold + scalar * s) ground[i] = 1;
  }
  // Each pass halves the seed cell so the TIN follows convex breaks (bank tops) the coarse one cuts.
  // A sparse cloud (thinned, or a few points per 10 m²) has no lower envelope to
  // follow: seeds two spacings apart flatten every ridge between them, so the
  // refinement runs only where its first cell holds a few points.
  const envelopeFits = o.envelopeCell / hu >= 2 * spacing;
  for (let pass = 0; envelopeFits && pass < o.envelopePasses && o.envelopeCell > 0; pass++) {
    refineOnEnvelope(
      cloud,
      exclude,
      ground,
      Math.max(o.envelopeCell / 2 ** pass / hu, 2 * spacing),
      o.offset / vu,
      o.offsetSlopeScalar / hu,
      1 / vu,
    );
  }
  context.progress?.(1, 'ground');
  return { ground, surface: { surface, cols, rows, minX: b.minX, minY: b.minY, cell } };
}

/**
 * Second pass, close to how LAStools' lasground settles ground: a TIN through
 * the lowest ground point of every `cell` follows the lower envelope of the
 * ground returns; every non-excluded point from `below` under it to `offset`
 * above it is ground, the rest is not.
 */
function refineOnEnvelope(
  cloud: PointChunk,
  exclude: Uint8Array | null,
  ground: Uint8Array,
  cell: number,
  offset: number,
  slopeScalar: number,
  below: number,
): void {
  const { x, y, z: zs, count } = cloud;
  const grid = buildPointGrid(x, y, count, cell, (i) => ground[i] === 1);
  const seed = new Uint8Array(count);
  let seeds = 0;
  for (let k = 0; k < grid.cols * grid.rows; k++) {
    let best = -1;
    for (let p = grid.start[k]!; p < grid.start[k + 1]!; p++) {
      const i = grid.index[p]!;
      if (best < 0 || zs[i]! < zs[best]!) best = i;
    }
    if (best >= 0) {
      seed[best] = 1;
      seeds++;
    }
  }
  if (seeds < 3) return;
  const b = extent(x, y, count);
  // Sample the TIN finely enough that bilinear reading stays on its facets; bound the cell count.
  const area = Math.max(1e-9, (b.maxX - b.minX) * (b.maxY - b.minY));
  const modelCell = Math.max(cell / 2, Math.sqrt(area / 20e6));
  const model = groundModel(cloud, seed, modelCell, Math.ceil((2 * cell) / modelCell) + 2);
  const grad = gradient(model.surface, model.cols, model.rows, model.cell);
  for (let i = 0; i < count; i++) {
    if (exclude && exclude[i] !== 0) {
      ground[i] = 0;
      continue;
    }
    const d = zs[i]! - groundAt(model, x[i]!, y[i]!);
    const c = Math.min(model.cols - 1, Math.max(0, Math.floor((x[i]! - model.minX) / model.cell)));
    const r = Math.min(model.rows - 1, Math.max(0, Math.floor((y[i]! - model.minY) / model.cell)));
    ground[i] = d <= offset + slopeScalar * grad[r * model.cols + c]! && d >= -below ? 1 : 0;
  }
}
