import { z } from 'zod';
import type { PointChunk, StepContext } from '../core/chunk.js';
import { Cancelled } from '../core/errors.js';
import { groundFilter, groundOptionsSchema } from './ground.filter.js';
import { noiseAndGroundTiled, type TiledGroundOptions } from './ground-tiled.js';
import { heightAboveGround } from './hag.filter.js';
import { noiseFilter, noiseOptionsSchema } from './noise.filter.js';
import { buildPointGrid, extent, meanSpacing } from './point-grid.js';

/**
 * Options of the classification (`filters.classify`). Heights in metres.
 *
 * Vegetation bands by height above ground (HAG), documented defaults:
 * - 3 low vegetation: `lowVegetation` ≤ HAG < `mediumVegetation` (0.3–2 m)
 * - 4 medium vegetation: `mediumVegetation` ≤ HAG < `highVegetation` (2–5 m)
 * - 5 high vegetation: HAG ≥ `highVegetation` (5 m and above)
 * Points that are neither ground, noise, building nor in a band (HAG below
 * 0.3 m) are 1 (unclassified).
 */
export const classifyOptionsSchema = z.object({
  /** `replace` classifies every point; `keep` keeps the input's classes other than 0 and 1. */
  existing: z.enum(['replace', 'keep']).default('replace'),
  noise: noiseOptionsSchema.partial().default({}),
  ground: groundOptionsSchema.partial().default({}),
  lowVegetation: z.number().min(0).max(5).default(0.3),
  mediumVegetation: z.number().min(0.5).max(20).default(2),
  highVegetation: z.number().min(1).max(50).default(5),
  /** Lowest roof above ground, metres. */
  buildingMinHeight: z.number().min(0.5).max(50).default(2.5),
  /** Smallest roof area kept as a building, square metres. */
  buildingMinArea: z.number().min(1).max(10000).default(20),
  /** Largest RMS distance of a roof point's neighbourhood to its fitted plane, metres. */
  roofPlanarity: z.number().min(0.01).max(1).default(0.15),
  /** Horizontal CRS unit in metres. */
  unitToMetre: z.number().positive().default(1),
  /** Vertical unit in metres. */
  verticalUnitToMetre: z.number().positive().optional(),
});
export type ClassifyOptions = z.input<typeof classifyOptionsSchema>;

/** Result of {@link classifyCloud}. */
export interface ClassifyResult {
  /** ASPRS class of every point. */
  classification: Uint8Array<ArrayBuffer>;
  /** Height above ground of every point, in the vertical unit. */
  hag: Float32Array;
  /** 1 where this run found ground (before `keep` is applied). */
  ground: Uint8Array;
  /** Points per class code. */
  counts: Record<number, number>;
}

/**
 * Classifies a cloud: noise (7, 18), ground (2, SMRF), height above ground,
 * buildings (6: planar roof segments above ground), vegetation (3, 4, 5 by
 * height bands) and 1 for the rest.
 *
 * @example
 * const { classification } = classifyCloud(cloud, { unitToMetre: crs.horizontalUnitToMetre });
 */
export function classifyCloud(
  cloud: PointChunk,
  options: ClassifyOptions = {},
  context: StepContext = {},
): ClassifyResult {
  const o = classifyOptionsSchema.parse(options);
  const units = unitsOf(o);
  context.progress?.(0, 'noise');
  const noise = noiseFilter(cloud, { ...o.noise, ...units }, context);
  context.progress?.(0.15, 'ground');
  const { ground } = groundFilter(cloud, noise, { ...o.ground, ...units }, context);
  return finishClassification(cloud, noise, ground, o, context);
}

/**
 * Same as {@link classifyCloud}, with the noise and ground filters run over
 * spatial tiles in worker threads (see `noiseAndGroundTiled`) for large clouds.
 *
 * @example
 * const { classification } = await classifyCloudTiled(cloud, { unitToMetre: 1 });
 */
export async function classifyCloudTiled(
  cloud: PointChunk,
  options: ClassifyOptions = {},
  context: StepContext = {},
  workers?: number,
): Promise<ClassifyResult> {
  const o = classifyOptionsSchema.parse(options);
  const units = unitsOf(o);
  context.progress?.(0, 'ground');
  const tiled: TiledGroundOptions = { noise: { ...o.noise, ...units }, ground: { ...o.ground, ...units } };
  if (workers !== undefined) tiled.workers = workers;
  const { noise, ground } = await noiseAndGroundTiled(cloud, tiled, context);
  return finishClassification(cloud, noise, ground, o, context);
}

function unitsOf(o: z.output<typeof classifyOptionsSchema>): { unitToMetre: number; verticalUnitToMetre: number } {
  return { unitToMetre: o.unitToMetre, verticalUnitToMetre: o.verticalUnitToMetre ?? o.unitToMetre };
}

/** HAG, buildings, vegetation bands and the `existing` rule, once noise and ground are known. */
function finishClassification(
  cloud: PointChunk,
  noise: Uint8Array,
  ground: Uint8Array,
  o: z.output<typeof classifyOptionsSchema>,
  context: StepContext,
): ClassifyResult {
  if (context.signal?.aborted) throw new Cancelled();
  const { unitToMetre: hu, verticalUnitToMetre: vu } = unitsOf(o);
  const count = cloud.count;
  const progress = (f: number, step: string) => context.progress?.(f, step);
  progress(0.55, 'hag');
  const classification = new Uint8Array(count);
  let groundCount = 0;
  for (let i = 0; i < count; i++) groundCount += ground[i]!;
  let hag: Float32Array;
  if (groundCount >= 3) {
    const b = extent(cloud.x, cloud.y, count);
    const cell = Math.max(0.5 / hu, meanSpacing(b, count));
    hag = heightAboveGround(cloud, ground, cell, context).hag;
  } else {
    hag = new Float32Array(count);
  }
  progress(0.7, 'buildings');
  const building = findBuildings(cloud, ground, noise, hag, o, hu, vu);
  const low = o.lowVegetation / vu;
  const medium = o.mediumVegetation / vu;
  const high = o.highVegetation / vu;
  for (let i = 0; i < count; i++) {
    let c: number;
    if (noise[i]) c = noise[i]!;
    else if (ground[i]) c = 2;
    else if (building[i]) c = 6;
    else {
      const h = hag[i]!;
      c = h >= high ? 5 : h >= medium ? 4 : h >= low ? 3 : 1;
    }
    classification[i] = c;
  }
  if (o.existing === 'keep' && cloud.classification) {
    const input = cloud.classification;
    for (let i = 0; i < count; i++) {
      const c = input[i]!;
      if (c !== 0 && c !== 1) classification[i] = c;
    }
  }
  const counts: Record<number, number> = {};
  for (let i = 0; i < count; i++) {
    const c = classification[i]!;
    counts[c] = (counts[c] ?? 0) + 1;
  }
  progress(1, 'classify');
  return { classification, hag, ground, counts };
}

/**
 * Buildings: points above `buildingMinHeight` whose neighbourhood fits a plane
 * (RMS below `roofPlanarity`) and that are the last return of their pulse or
 * a single return (foliage lets later returns through, roofs do not), grouped
 * into connected roof segments of at least `buildingMinArea`.
 */
function findBuildings(
  cloud: PointChunk,
  ground: Uint8Array,
  noise: Uint8Array,
  hag: Float32Array,
  o: z.output<typeof classifyOptionsSchema>,
  hu: number,
  vu: number,
): Uint8Array {
  const { x, y, z: zs, count } = cloud;
  const out = new Uint8Array(count);
  const minH = o.buildingMinHeight / vu;
  const candidate = (i: number) => !ground[i] && !noise[i] && hag[i]! >= minH;
  const b = extent(x, y, count);
  let candidates = 0;
  for (let i = 0; i < count; i++) if (candidate(i)) candidates++;
  if (candidates < 10) return out;
  // Cells hold ~4 points on average, at least 1 m wide.
  const spacing = meanSpacing(b, count);
  const cell = Math.max(1 / hu, 2 * spacing);
  const grid = buildPointGrid(x, y, count, cell, candidate, b);
  const { cols, rows } = grid;
  const rn = cloud.returnNumber;
  const nr = cloud.numberOfReturns;
  const planar = new Uint8Array(count);
  const maxRms = o.roofPlanarity / vu;
  const zWindow = 1 / vu;
  // Neighbours within one cell: small enough to stay on one roof face.
  const radius2 = cell * cell;
  for (let i = 0; i < count; i++) {
    const k = grid.cellOf[i]!;
    if (k < 0) continue;
    if (rn && nr && nr[i]! > 1 && rn[i]! < nr[i]!) continue;
    const r = (k / cols) | 0;
    const c = k - r * cols;
    // Least-squares plane z = a dx + b dy + d over the neighbours in the 3×3 cells.
    let n = 0;
    let sx = 0;
    let sy = 0;
    let sz = 0;
    let sxx = 0;
    let syy = 0;
    let sxy = 0;
    let sxz = 0;
    let syz = 0;
    let szz = 0;
    const xi = x[i]!;
    const yi = y[i]!;
    const zi = zs[i]!;
    for (let dr = -1; dr <= 1; dr++) {
      const rr = r + dr;
      if (rr < 0 || rr >= rows) continue;
      for (let dc = -1; dc <= 1; dc++) {
        const cc = c + dc;
        if (cc < 0 || cc >= cols) continue;
        const kk = rr * cols + cc;
        for (let p = grid.start[kk]!; p < grid.start[kk + 1]!; p++) {
          const j = grid.index[p]!;
          const dz = zs[j]! - zi;
          if (dz > zWindow || dz < -zWindow) continue;
          const dx = x[j]! - xi;
          const dy = y[j]! - yi;
          if (dx * dx + dy * dy > radius2) continue;
          n++;
          sx += dx;
          sy += dy;
          sz += dz;
          sxx += dx * dx;
          syy += dy * dy;
          sxy += dx * dy;
          sxz += dx * dz;
          syz += dy * dz;
          szz += dz * dz;
        }
      }
    }
    if (n < 5) continue;
    // Centre the sums and solve the 2×2 normal equations.
    const mx = sx / n;
    const my = sy / n;
    const mz = sz / n;
    const cxx = sxx / n - mx * mx;
    const cyy = syy / n - my * my;
    const cxy = sxy / n - mx * my;
    const cxz = sxz / n - mx * mz;
    const cyz = syz / n - my * mz;
    const czz = szz / n - mz * mz;
    const det = cxx * cyy - cxy * cxy;
    if (det <= 1e-12) continue;
    const a = (cxz * cyy - cyz * cxy) / det;
    const bb = (cyz * cxx - cxz * cxy) / det;
    const residual = czz - a * cxz - bb * cyz;
    if (residual < maxRms * maxRms) planar[i] = 1;
  }
  // Cells where most candidate points are planar form roof segments.
  const roofCell = new Uint8Array(cols * rows);
  for (let k = 0; k < cols * rows; k++) {
    const s = grid.start[k]!;
    const e = grid.start[k + 1]!;
    if (e === s) continue;
    let p = 0;
    for (let q = s; q < e; q++) p += planar[grid.index[q]!]!;
    if (p * 2 >= e - s) roofCell[k] = 1;
  }
  // Connected segments (8-neighbourhood) of roof cells large enough to be buildings.
  const label = new Int32Array(cols * rows).fill(-1);
  const minCells = o.buildingMinArea / (cell * hu) ** 2;
  const stack: number[] = [];
  const members: number[] = [];
  for (let k0 = 0; k0 < cols * rows; k0++) {
    if (!roofCell[k0] || label[k0] !== -1) continue;
    members.length = 0;
    stack.push(k0);
    label[k0] = k0;
    while (stack.length) {
      const k = stack.pop()!;
      members.push(k);
      const r = (k / cols) | 0;
      const c = k - r * cols;
      for (let dr = -1; dr <= 1; dr++) {
        for (let dc = -1; dc <= 1; dc++) {
          const rr = r + dr;
          const cc = c + dc;
          if (rr < 0 || cc < 0 || rr >= rows || cc >= cols) continue;
          const kk = rr * cols + cc;
          if (roofCell[kk] && label[kk] === -1) {
            label[kk] = k0;
            stack.push(kk);
          }
        }
      }
    }
    if (members.length < minCells) continue;
    for (const k of members) {
      for (let p = grid.start[k]!; p < grid.start[k + 1]!; p++) {
        const i = grid.index[p]!;
        // Within a roof cell, keep roof points: planar ones and last/single returns.
        if (planar[i] || !rn || !nr || rn[i]! === nr[i]!) out[i] = 1;
      }
    }
  }
  return out;
}
