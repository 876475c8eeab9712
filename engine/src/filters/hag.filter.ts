import type { PointChunk, StepContext } from '../core/chunk.js';
import { InvalidInput } from '../core/errors.js';
import { createRaster, type Raster } from '../raster/raster.js';
import { rasterizeTin, thinToBins } from '../raster/tin.js';
import { rasterizeTinExact } from '../raster/tin-parallel.js';
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
  const grid = modelGrid(cloud, isGround, cell, bounds);
  rasterizeTin(grid.thin.x, grid.thin.y, grid.thin.z, grid.thin.count, grid.raster);
  return finishModel(grid, cell, maxRings);
}

/**
 * {@link groundModel} with the TIN sampled over bands in worker threads (see
 * `rasterizeTinExact`): the same model.
 */
export async function groundModelParallel(
  cloud: PointChunk,
  isGround: Uint8Array,
  cell: number,
  maxRings = Number.POSITIVE_INFINITY,
  bounds?: { minX: number; minY: number; maxX: number; maxY: number },
  workers?: number,
): Promise<GroundModel> {
  const grid = modelGrid(cloud, isGround, cell, bounds);
  const options = workers === undefined ? {} : { workers };
  await rasterizeTinExact(grid.thin.x, grid.thin.y, grid.thin.z, grid.thin.count, grid.raster, options);
  return finishModel(grid, cell, maxRings);
}

interface ModelGrid {
  raster: Raster;
  thin: { x: Float64Array; y: Float64Array; z: Float64Array; count: number };
  bounds: { minX: number; minY: number };
}

/** The model's empty raster (row 0 at the north) and the thinned ground points to triangulate. */
function modelGrid(
  cloud: PointChunk,
  isGround: Uint8Array,
  cell: number,
  bounds?: { minX: number; minY: number; maxX: number; maxY: number },
): ModelGrid {
  const { x, y, z, count } = cloud;
  let n = 0;
  for (let i = 0; i < count; i++) n += isGround[i]! ? 1 : 0;
  if (n < 3) throw new InvalidInput('ground', `height above ground needs at least 3 ground points, found ${n}`);
  const b = bounds ?? extent(x, y, count);
  const cols = Math.max(1, Math.floor((b.maxX - b.minX) / cell) + 1);
  const rows = Math.max(1, Math.floor((b.maxY - b.minY) / cell) + 1);
  const raster = createRaster(cols, rows, b.minX, b.minY + rows * cell, cell, null, Number.NaN);
  // Thinned straight from the cloud: no copy of the ground points.
  const thin = thinToBins(x, y, z, count, b, cell / 2, isGround);
  return { raster, thin, bounds: b };
}

/** The model of a sampled TIN: rows flipped (row 0 at the south), gaps filled. */
function finishModel({ raster, bounds }: ModelGrid, cell: number, maxRings: number): GroundModel {
  const { width: cols, height: rows } = raster;
  const surface = new Float32Array(cols * rows);
  for (let r = 0; r < rows; r++) {
    surface.set(raster.data.subarray((rows - 1 - r) * cols, (rows - r) * cols), r * cols);
  }
  inpaint(surface, cols, rows, maxRings);
  return { surface, cols, rows, minX: bounds.minX, minY: bounds.minY, cell };
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
  const model = groundModel(cloud, isGround, cell, HAG_RINGS, bounds);
  return { hag: heightsOver(cloud, model, context), model };
}

/**
 * {@link heightAboveGround} with the ground TIN sampled in worker threads
 * (`workers`, default: all cores): the same heights.
 *
 * @example
 * const { hag } = await heightAboveGroundParallel(cloud, ground, 0.5);
 */
export async function heightAboveGroundParallel(
  cloud: PointChunk,
  isGround: Uint8Array,
  cell: number,
  context: StepContext = {},
  bounds?: { minX: number; minY: number; maxX: number; maxY: number },
  workers?: number,
): Promise<{ hag: Float32Array; model: GroundModel }> {
  const model = await groundModelParallel(cloud, isGround, cell, HAG_RINGS, bounds, workers);
  return { hag: heightsOver(cloud, model, context), model };
}

/**
 * Rings of cells the HAG's ground model fills: points lie within a few cells
 * of the ground hull, farther cells are empty bounding box.
 */
const HAG_RINGS = 64;

/** Every point's height over the model. */
function heightsOver(cloud: PointChunk, model: GroundModel, context: StepContext): Float32Array {
  const hag = new Float32Array(cloud.count);
  for (let i = 0; i < cloud.count; i++) {
    hag[i] = cloud.z[i]! - groundAt(model, cloud.x[i]!, cloud.y[i]!);
  }
  context.progress?.(1, 'hag');
  return hag;
}
