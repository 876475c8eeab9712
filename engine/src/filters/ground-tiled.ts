import { availableParallelism } from 'node:os';
import type { PointChunk, StepContext } from '../core/chunk.js';
import { Cancelled } from '../core/errors.js';
import { quantiles } from '../core/select.js';
import { threadPool } from '../core/thread-pool.js';
import type { GroundOptions } from './ground.filter.js';
import { type GroundTileTask, runGroundTile } from './ground-tile.task.js';
import type { NoiseOptions } from './noise.filter.js';
import { extent, meanSpacing } from './point-grid.js';

/** Options of {@link noiseAndGroundTiled}. */
export interface TiledGroundOptions {
  noise?: NoiseOptions;
  ground?: GroundOptions;
  /** Worker threads (default: available cores); 0 or 1 runs on the calling thread. */
  workers?: number;
  /** Overlap around each tile, metres: wider than the ground filter's largest window. */
  bufferMetres?: number;
  /** Clouds smaller than this run in one piece. */
  minPointsPerTile?: number;
}

const workerPool = threadPool(new URL('./ground.worker.mjs', import.meta.url));

/**
 * Strip limits by point count quantiles, so strips hold similar numbers of
 * points: the values a sorted copy would give (see `quantiles` in core/select.ts).
 */
function stripEdges(coord: Float64Array, count: number, tiles: number, lo: number, hi: number): number[] {
  const ranks = Array.from({ length: tiles - 1 }, (_, t) => Math.floor(((t + 1) * count) / tiles));
  return [lo, ...quantiles(coord, count, ranks, { lo, hi }), hi + 1e-9];
}

/**
 * The points with `from <= v < to`, in point order (a strip and its buffer),
 * from two passes over the cloud.
 */
export function stripMembers(coord: Float64Array, count: number, from: number, to: number): Int32Array {
  let n = 0;
  for (let i = 0; i < count; i++) {
    const v = coord[i]!;
    if (v >= from && v < to) n++;
  }
  const members = new Int32Array(n);
  for (let i = 0, k = 0; i < count; i++) {
    const v = coord[i]!;
    if (v >= from && v < to) members[k++] = i;
  }
  return members;
}

/** The task of one strip: copies of its members' coordinates. */
function stripTask(cloud: PointChunk, members: Int32Array, noise: NoiseOptions, ground: GroundOptions): GroundTileTask {
  const { x, y, z } = cloud;
  const n = members.length;
  const task: GroundTileTask = {
    x: new Float64Array(n),
    y: new Float64Array(n),
    z: new Float64Array(n),
    noise,
    ground,
  };
  const tx = task.x;
  const ty = task.y;
  const tz = task.z;
  for (let k = 0; k < n; k++) {
    const i = members[k]!;
    tx[k] = x[i]!;
    ty[k] = y[i]!;
    tz[k] = z[i]!;
  }
  return task;
}

/** Copies a strip's results to the points it owns (`start <= v < end`). */
function keepOwned(
  coord: Float64Array,
  members: Int32Array,
  start: number,
  end: number,
  result: { noise: Uint8Array; ground: Uint8Array },
  noise: Uint8Array,
  ground: Uint8Array,
): void {
  const rn = result.noise;
  const rg = result.ground;
  for (let k = 0; k < members.length; k++) {
    const i = members[k]!;
    const v = coord[i]!;
    if (v >= start && v < end) {
      noise[i] = rn[k]!;
      ground[i] = rg[k]!;
    }
  }
}

/**
 * Noise and ground filters over spatial tiles in worker threads: the cloud is
 * cut into strips along its longer side, each strip is filtered with an
 * overlap buffer (so morphology and the envelope TIN see the neighbours), and
 * each point takes the result of the strip that owns it. Results match the
 * single-piece filter except where a strip edge changes a neighbourhood.
 *
 * @example
 * const { noise, ground } = await noiseAndGroundTiled(cloud, { ground: { unitToMetre: 1 } });
 */
export async function noiseAndGroundTiled(
  cloud: PointChunk,
  options: TiledGroundOptions = {},
  context: StepContext = {},
): Promise<{ noise: Uint8Array; ground: Uint8Array }> {
  const threads = options.workers ?? availableParallelism();
  const { x, y, z, count } = cloud;
  const minPoints = options.minPointsPerTile ?? 250_000;
  const tiles = Math.min(threads * 2, Math.floor(count / minPoints));
  const b = count > 0 ? extent(x, y, count) : null;
  // Cell sizes follow the whole cloud's spacing, so every tile filters the same way.
  const pointSpacing = b ? meanSpacing(b, count) : 1;
  const noiseOptions = { pointSpacing, ...options.noise };
  const groundOptions = { pointSpacing, ...options.ground };
  if (threads <= 1 || tiles < 2 || !b) {
    return runGroundTile({
      x: x.subarray(0, count),
      y: y.subarray(0, count),
      z: z.subarray(0, count),
      noise: noiseOptions,
      ground: groundOptions,
    });
  }
  const alongX = b.maxX - b.minX >= b.maxY - b.minY;
  const coord = alongX ? x : y;
  const lo = alongX ? b.minX : b.minY;
  const hi = alongX ? b.maxX : b.maxY;
  const unit = groundOptions.unitToMetre ?? 1;
  const buffer = (options.bufferMetres ?? 40) / unit;
  const edges = stripEdges(coord, count, tiles, lo, hi);
  const noise = new Uint8Array(count);
  const ground = new Uint8Array(count);
  const runner = workerPool(threads);
  let done = 0;
  let next = 0;
  // A strip is cut when a thread is free to take it, so only `threads` strips' copies exist at once.
  const strip = async (t: number) => {
    const own = stripMembers(coord, count, edges[t]! - buffer, edges[t + 1]! + buffer);
    const task = stripTask(cloud, own, noiseOptions, groundOptions);
    if (context.signal?.aborted) throw new Cancelled();
    const result = (await runner.run(task, {
      transferList: [task.x.buffer, task.y.buffer, task.z.buffer] as never,
      signal: context.signal,
    })) as { noise: Uint8Array; ground: Uint8Array };
    keepOwned(coord, own, edges[t]!, edges[t + 1]!, result, noise, ground);
    done++;
    context.progress?.(done / tiles, 'ground');
  };
  await Promise.all(
    Array.from({ length: Math.min(threads, tiles) }, async () => {
      while (next < tiles) await strip(next++);
    }),
  );
  return { noise, ground };
}
