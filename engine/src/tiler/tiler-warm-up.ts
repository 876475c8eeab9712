import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { LAZ_WARM_UP_CHUNKS } from './laz-warm-up-chunks.js';
import { syntheticTilerInput } from './synthetic-input.js';
import { DEFAULT_TUNING, tileInput } from './tiler.js';
import { resolveTilerOptions } from './tiler-options.js';
import { acquireTilerPool, hasSparePool, releaseTilerPool } from './tiler-pool.js';

/**
 * Warm-up tilings: enough points for every hot loop to be compiled, bucketed
 * 8 ways as a big file is, with small nodes so that each bucket is split over
 * several levels as the buckets of a big file are.
 */
const WARM_UP_POINTS = 300_000;
const WARM_UP_TUNING = { ...DEFAULT_TUNING, singleBucketMax: 50_000, bucketTarget: 100_000 };
const WARM_UP_MAX_POINTS = 4_000;
/** Passes over the LAZ warm-up chunks (1,000 points each) per thread. */
const LAZ_WARM_UP_ROUNDS = 30;

/**
 * Starts the tiler's worker threads before the first tiling and warms them
 * up: two small synthetic tilings (into a temporary folder, deleted) load
 * their code and compiles every hot loop, on the workers and on this thread
 * (which merges the top levels). The pool is then kept idle for the next
 * tiling, as after any tiling; idle threads do not keep the process alive.
 * A process that tiles file after file (the job worker) calls it when it
 * boots, so that its first tiling does not pay the start-up (about a
 * CPU-second). `workers` defaults to the tiler's default (one per core, at
 * most 8); a tiling asking for another count starts its own pool. The
 * threads then also decode small LAZ chunks (laz-warm-up-chunks.ts) through
 * the LAZ bucket step, and start laz-perf.
 *
 * @example
 * await warmTilerPool(); // at worker start-up
 */
export async function warmTilerPool(workers?: number, tmpDir: string = os.tmpdir()): Promise<void> {
  const size = workers ?? resolveTilerOptions({}).workers;
  if (size <= 0 || hasSparePool(size)) return;
  const dir = await mkdtemp(path.join(tmpDir, 'nuage-tiler-warm-up-'));
  try {
    // With and without colour: code first run on a real file would be compiled again (deoptimised) there.
    for (const color of [false, true]) {
      const input = syntheticTilerInput({ count: WARM_UP_POINTS, side: 400, seed: 1, color });
      await tileInput(
        input,
        path.join(dir, String(color)),
        { workers: size, maxPoints: WARM_UP_MAX_POINTS },
        { tmpDir: dir },
        WARM_UP_TUNING,
      );
    }
    // LAZ decoding (the synthetic input came as columns): one task per thread, as every thread is idle.
    const pool = acquireTilerPool(size);
    let healthy = false;
    try {
      const chunks = LAZ_WARM_UP_CHUNKS.map((c) => ({ ...c, bytes: Buffer.from(c.base64, 'base64') }));
      await Promise.all(
        Array.from({ length: size }, () => pool.run({ op: 'warm-up-laz', chunks, rounds: LAZ_WARM_UP_ROUNDS })),
      );
      healthy = true;
    } finally {
      await releaseTilerPool(pool, healthy);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
