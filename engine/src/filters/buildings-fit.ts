/**
 * Roof plane fits over ranges of slots in worker threads: each slot's fit
 * reads only the slots around it, so ranges are independent and the result
 * is the one `fitPlanes` gives on one thread.
 */
import { availableParallelism } from 'node:os';
import { threadPool } from '../core/thread-pool.js';
import type { FitSlots, PlaneFits } from './buildings.js';
import type { FitTask } from './buildings-fit.task.js';

const workerPool = threadPool(new URL('./buildings-fit.worker.mjs', import.meta.url));

function shared<T extends Float64Array | Int32Array | Uint8Array>(a: T): T {
  if (a.buffer instanceof SharedArrayBuffer) return a;
  const Ctor = a.constructor as new (b: SharedArrayBuffer) => T;
  const s = new Ctor(new SharedArrayBuffer(a.byteLength));
  s.set(a);
  return s;
}

/** Ranges per thread: the threads that finish first take the ranges left. */
const PARTS_PER_THREAD = 4;

/**
 * Bounds of `parts` consecutive ranges of `n` slots holding about as many
 * slots to fit each (those `only` marks, or all): a fit costs about the
 * same anywhere, and the marked slots crowd where the candidates are high
 * (a forest) and thin out elsewhere (fields under a power line).
 */
function rangeCuts(n: number, parts: number, only?: Uint8Array): Int32Array {
  const cuts = new Int32Array(parts + 1);
  let total = n;
  if (only) {
    total = 0;
    for (let q = 0; q < n; q++) total += only[q]!;
  }
  let k = 1;
  let seen = 0;
  for (let q = 0; q < n && k < parts; q++) {
    seen += only ? only[q]! : 1;
    while (k < parts && seen * parts >= k * total) cuts[k++] = q + 1;
  }
  while (k <= parts) cuts[k++] = n;
  return cuts;
}

/**
 * `fitPlanes` of every slot (or of those `only` marks), in
 * `PARTS_PER_THREAD × threads` ranges over worker threads (default: one
 * per core); ranges are cut to hold as many slots to fit.
 */
export async function fitPlanesParallel(
  s: FitSlots,
  metre: number,
  planarity: number,
  workers?: number,
  only?: Uint8Array,
): Promise<PlaneFits> {
  const threads = Math.max(1, workers ?? availableParallelism());
  const slots: FitSlots = {
    x: shared(s.x),
    y: shared(s.y),
    z: shared(s.z),
    cell: shared(s.cell),
    single: shared(s.single),
    count: s.count,
    radius: s.radius,
    grid: { cols: s.grid.cols, rows: s.grid.rows, start: shared(s.grid.start) },
  };
  const sharedOnly = only && shared(only);
  const n = s.count;
  const fits: PlaneFits = {
    radius: new Float32Array(n),
    rms: new Float32Array(n),
    seedable: new Uint8Array(n),
    nx: new Float32Array(n),
    ny: new Float32Array(n),
    nz: new Float32Array(n),
  };
  const parts = Math.min(n, PARTS_PER_THREAD * threads);
  const cuts = rangeCuts(n, parts, only);
  const runner = workerPool(threads);
  await Promise.all(
    Array.from({ length: parts }, async (_, k) => {
      const from = cuts[k]!;
      const to = cuts[k + 1]!;
      const task: FitTask = { slots, metre, planarity, from, to, only: sharedOnly };
      const part = (await runner.run(task)) as PlaneFits;
      fits.radius.set(part.radius, from);
      fits.rms.set(part.rms, from);
      fits.seedable.set(part.seedable, from);
      fits.nx.set(part.nx, from);
      fits.ny.set(part.ny, from);
      fits.nz.set(part.nz, from);
    }),
  );
  return fits;
}
