import type { PointChunk } from '../core/chunk.js';
import { findWires, opaqueReturns, type WireOptions } from './wires.filter.js';

/**
 * Lowest height above ground of a wire candidate, metres: given to
 * `findWires` explicitly, so the returns cut out for the worker
 * ({@link wireCandidates}) are exactly those it tries.
 */
export const WIRE_MIN_HEIGHT = 3;

/** The returns `findWires` looks at, sent to a worker (see {@link runWiresTask}). */
export interface WiresTask {
  /** Coordinates relative to the cloud's first point (the origin `findWires` measures from). */
  x: Float64Array;
  y: Float64Array;
  z: Float64Array;
  hag: Float32Array;
  excluded: Uint8Array;
  options: WireOptions;
}

/**
 * The points of `cloud` that `findWires` tries (neither excluded nor below
 * {@link WIRE_MIN_HEIGHT}), in cloud order, after the cloud's first point
 * (the origin `findWires` measures from; excluded unless a candidate), their
 * coordinates relative to it (as `findWires` takes them: the same numbers).
 * `members` maps the task's points back to the cloud. The opacity test, which
 * needs the whole cloud, is left to {@link dropOpaqueWires}.
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
  };
  const ox = x[0] ?? 0;
  const oy = y[0] ?? 0;
  const oz = z[0] ?? 0;
  for (let i = 0, k = 0; i < count; i++) {
    if (!take(i)) continue;
    members[k] = i;
    task.x[k] = x[i]! - ox;
    task.y[k] = y[i]! - oy;
    task.z[k] = z[i]! - oz;
    task.hag[k] = hag[i]!;
    task.excluded[k] = excluded[i]!;
    k++;
  }
  return { task, members };
}

/**
 * Runs `findWires` on the candidates of one cloud; returns their classes (0,
 * 14 or 15) before the opacity test (see {@link dropOpaqueWires}).
 */
export function runWiresTask(task: WiresTask): Uint8Array {
  const chunk: PointChunk = { count: task.x.length, x: task.x, y: task.y, z: task.z };
  return findWires(chunk, task.hag, task.excluded, task.options, {}, 'deferred').classes;
}

/**
 * The opacity test of `findWires` on the classes {@link runWiresTask} found
 * for the candidates `members` of `cloud`: wire returns with nothing seen
 * under them become 0, in place (a wire return is never a tower too).
 */
export function dropOpaqueWires(cloud: PointChunk, members: Int32Array, found: Uint8Array, options: WireOptions): void {
  let m = 0;
  for (let k = 0; k < found.length; k++) if (found[k] === 14) m++;
  if (m === 0) return;
  const wires = new Int32Array(m);
  for (let k = 0, t = 0; k < found.length; k++) if (found[k] === 14) wires[t++] = k;
  const dark = opaqueReturns(
    cloud,
    wires.map((k) => members[k]!),
    options,
  );
  for (let t = 0; t < m; t++) if (dark[t]) found[wires[t]!] = 0;
}
