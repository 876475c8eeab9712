import type { PointChunk } from '../core/chunk.js';
import { type GroundOptions, groundFilter } from './ground.filter.js';
import { type NoiseOptions, noiseFilter } from './noise.filter.js';

/** One spatial tile (with its buffer) sent to a worker. */
export interface GroundTileTask {
  x: Float64Array;
  y: Float64Array;
  z: Float64Array;
  noise: NoiseOptions;
  ground: GroundOptions;
}

/** Runs the noise and ground filters on one tile; returns per-point noise codes and ground flags. */
export function runGroundTile(task: GroundTileTask): { noise: Uint8Array; ground: Uint8Array } {
  const chunk: PointChunk = { count: task.x.length, x: task.x, y: task.y, z: task.z };
  const noise = noiseFilter(chunk, task.noise);
  const { ground } = groundFilter(chunk, noise, task.ground);
  return { noise, ground };
}
