import type { PointChunk } from '../core/chunk.js';
import { findWires, SHADOW_CELL, type WireOptions } from './wires.filter.js';
import { type LowestReturns, lowestReturns } from './wires-shadow.js';

/**
 * Lowest height above ground of a wire candidate, metres: given to
 * `findWires` explicitly, so the returns cut out for the worker
 * ({@link wireCandidates}) are exactly those it tries.
 */
export const WIRE_MIN_HEIGHT = 3;

/** The returns `findWires` looks at, sent to a worker (see {@link runWiresTask}). */
export interface WiresTask {
  x: Float64Array;
  y: Float64Array;
  z: Float64Array;
  hag: Float32Array;
  excluded: Uint8Array;
  options: WireOptions;
  /** The lowest return of each column of the whole cloud: what `findWires` sees under a wire return. */
  lowest: LowestReturns;
}

/**
 * The points of `cloud` that `findWires` tries (neither excluded nor below
 * {@link WIRE_MIN_HEIGHT}), in cloud order, after the cloud's first point
 * (the origin `findWires` measures from; excluded unless a candidate), and
 * the lowest return of each column of the whole cloud (see `wires-shadow.ts`).
 * `members` maps the task's points back to the cloud.
 */
export function wireCandidates(
  cloud: PointChunk,
  hag: Float32Array,
  excluded: Uint8Array,
  options: WireOptions,
): { task: WiresTask; members: Int32Array } {
  const minHeight = (options.minHeight ?? WIRE_MIN_HEIGHT) / (options.verticalUnitToMetre ?? options.unitToMetre ?? 1);
  const { x, y, z, count } = cloud;
  const take = (i: number) => i === 0 || (!excluded[i] && hag[i]! >= minHeight);
  let n = 0;
  for (let i = 0; i < count; i++) if (take(i)) n++;
  const members = new Int32Array(n);
  const task: WiresTask = {
    x: new Float64Array(n),
    y: new Float64Array(n),
    z: new Float64Array(n),
    hag: new Float32Array(n),
    excluded: new Uint8Array(n),
    options,
    lowest: lowestReturns(x, y, z, count, x[0] ?? 0, y[0] ?? 0, SHADOW_CELL / (options.unitToMetre ?? 1)),
  };
  for (let i = 0, k = 0; i < count; i++) {
    if (!take(i)) continue;
    members[k] = i;
    task.x[k] = x[i]!;
    task.y[k] = y[i]!;
    task.z[k] = z[i]!;
    task.hag[k] = hag[i]!;
    task.excluded[k] = excluded[i]!;
    k++;
  }
  return { task, members };
}

/** Runs `findWires` on the candidates of one cloud; returns their classes (0, 14 or 15). */
export function runWiresTask(task: WiresTask): Uint8Array {
  const chunk: PointChunk = { count: task.x.length, x: task.x, y: task.y, z: task.z };
  return findWires(chunk, task.hag, task.excluded, task.options, {}, task.lowest).classes;
}
