import type { PointChunk, StepContext } from '../core/chunk.js';
import { InvalidInput } from '../core/errors.js';
import { createRaster } from '../raster/raster.js';
import { rasterizeTin, thinToBins } from '../raster/tin.js';
import { bilinear, inpaint } from './morphology.js';
import { extent } from './point-grid.js';

/** A gap-free bare-earth surface on a regular grid (r grows northwards). */
export interface GroundModel {
  surface: Float32Array;
  cols: number;
  rows: number;
  minX: number;
  minY: number;
  cell: number;
}

/**
 * Builds a ground model: a TIN of the ground points sampled at `cell` (CRS
 * units), gaps outside the hull filled from the nearest cells up to
 * `maxRings` cells away (NaN beyond: empty parts of a corridor's bounding box).
 * `bounds`, when given, must be the extent of the whole cloud (saves a pass).
 */
export function groundModel(
  cloud: PointChunk,
  isGround: Uint8Array,
  cell: number,
  maxRings = Number.POSITIVE_INFINITY,
  bounds?: { minX: number; minY: number; maxX: number; maxY: number },
): GroundModel {
  const { x, y, z, count } = cloud;
  let n = 0;
  for (let i = 0; i < count; i++) n += isGround[i]! ? 1 : 0;
  if (n < 3) throw new InvalidInput('ground', `height above ground needs at least 3 ground points, found ${n}`);
  const b = bounds ?? extent(x, y, count);
  const cols = Math.max(1, Math.floor((b.maxX - b.minX) / cell) + 1);
  const rows = Math.max(1, Math.floor((b.maxY - b.minY) / cell) + 1);
  // The raster helper has row 0 at the north; the model keeps row 0 at the south.
  const raster = createRaster(cols, rows, b.minX, b.minY + rows * cell, cell, null, Number.NaN);
  // Thinned straight from the cloud: no copy of the ground points.
  const thin = thinToBins(x, y, z, count, b, cell / 2, isGround);
  rasterizeTin(thin.x, thin.y, thin.z, thin.count, raster);
  const surface = new Float32Array(cols * rows);
  for (let r = 0; r < rows; r++) {
    surface.set(raster.data.subarray((rows - 1 - r) * cols, (rows - r) * cols), r * cols);
  }
  inpaint(surface, cols, rows, maxRings);
  return { surface, cols, rows, minX: b.minX, minY: b.minY, cell };
}

/** Ground elevation of the model at (x, y). */
export function groundAt(model: GroundModel, x: number, y: number): number {
  return bilinear(model.surface, model.cols, model.rows, model.minX, model.minY, model.cell, x, y);
}

/**
 * Height above ground of every point (`filters.hag`), in the vertical unit of
 * the cloud, from a TIN of the ground points (class 2 where `isGround` is 1).
 * `bounds`: the cloud's extent, when the caller already has it.
 *
 * @example
 * const hag = heightAboveGround(cloud, ground, 0.5);
 */
export function heightAboveGround(
  cloud: PointChunk,
  isGround: Uint8Array,
  cell: number,
  context: StepContext = {},
  bounds?: { minX: number; minY: number; maxX: number; maxY: number },
): { hag: Float32Array; model: GroundModel } {
  // Points lie within a few cells of the ground hull; farther cells are empty bounding box.
  const model = groundModel(cloud, isGround, cell, 64, bounds);
  const hag = new Float32Array(cloud.count);
  for (let i = 0; i < cloud.count; i++) {
    hag[i] = cloud.z[i]! - groundAt(model, cloud.x[i]!, cloud.y[i]!);
  }
  context.progress?.(1, 'hag');
  return { hag, model };
}
