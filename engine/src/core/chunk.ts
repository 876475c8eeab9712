import type { DimensionArray, DimensionName } from './dimensions.js';

/** Axis-aligned bounds in the chunk's CRS. */
export interface Bounds3 {
  minX: number;
  minY: number;
  minZ: number;
  maxX: number;
  maxY: number;
  maxZ: number;
}

/** Optional per-point dimensions of a chunk; x, y and z are always present. */
export type OptionalDims = { [N in Exclude<DimensionName, 'x' | 'y' | 'z'>]?: DimensionArray<N> };

/**
 * A bounded batch of points stored column by column. Every array has at least
 * `count` elements; readers may hand out arrays longer than `count` (reuse),
 * so consumers iterate `0..count-1`.
 */
export interface PointChunk extends OptionalDims {
  count: number;
  x: Float64Array;
  y: Float64Array;
  z: Float64Array;
  /** Extra-bytes attributes by name, already scaled and offset. */
  extra?: Record<string, Float64Array>;
}

/** Default number of points per chunk: ~64 k keeps each column within L2-friendly sizes. */
export const DEFAULT_CHUNK_SIZE = 65536;

/** Bounds of the first `count` points of a chunk. */
export function chunkBounds(chunk: PointChunk): Bounds3 {
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let minZ = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  let maxZ = Number.NEGATIVE_INFINITY;
  const { x, y, z, count } = chunk;
  for (let i = 0; i < count; i++) {
    const xi = x[i]!;
    const yi = y[i]!;
    const zi = z[i]!;
    if (xi < minX) minX = xi;
    if (xi > maxX) maxX = xi;
    if (yi < minY) minY = yi;
    if (yi > maxY) maxY = yi;
    if (zi < minZ) minZ = zi;
    if (zi > maxZ) maxZ = zi;
  }
  return { minX, minY, minZ, maxX, maxY, maxZ };
}

/** Context handed to every long-running engine step. */
export interface StepContext {
  signal?: AbortSignal;
  /** Reports progress as a fraction in [0, 1] with an optional step name. */
  progress?: (fraction: number, step?: string) => void;
  log?: (message: string, data?: Record<string, unknown>) => void;
  tmpDir?: string;
}
