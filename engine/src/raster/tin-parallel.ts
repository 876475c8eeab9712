import { availableParallelism } from 'node:os';
import { threadPool } from '../core/thread-pool.js';
import type { Raster } from './raster.js';
import { rasterizeTin } from './tin.js';
import type { TinBandTask } from './tin-band.task.js';

const workerPool = threadPool(new URL('./tin.worker.mjs', import.meta.url));

/**
 * {@link rasterizeTin} over horizontal bands in worker threads: each band
 * triangulates its points plus those within `buffer` (CRS units) of it, so
 * the TIN inside the band is the global one except where a triangle spans
 * more than the buffer (wide holes right at a band edge). Small inputs run on
 * the calling thread.
 */
export async function rasterizeTinParallel(
  xs: Float64Array,
  ys: Float64Array,
  zs: Float64Array,
  count: number,
  raster: Raster,
  options: { workers?: number; buffer?: number; minPoints?: number } = {},
): Promise<void> {
  const threads = options.workers ?? availableParallelism();
  const bands = Math.min(threads, Math.floor(count / (options.minPoints ?? 400_000)), raster.height);
  if (threads <= 1 || bands < 2) {
    rasterizeTin(xs, ys, zs, count, raster);
    return;
  }
  const buffer = Math.max(options.buffer ?? 0, 20 * raster.resolution);
  const rowsPerBand = Math.ceil(raster.height / bands);
  const runner = workerPool(threads);
  await Promise.all(
    Array.from({ length: bands }, async (_, b) => {
      const rowStart = b * rowsPerBand;
      const rowEnd = Math.min(raster.height, rowStart + rowsPerBand);
      if (rowEnd <= rowStart) return;
      const top = raster.originY - rowStart * raster.resolution;
      const bottom = raster.originY - rowEnd * raster.resolution;
      let n = 0;
      for (let i = 0; i < count; i++) {
        const y = ys[i]!;
        if (y <= top + buffer && y >= bottom - buffer) n++;
      }
      const task: TinBandTask = {
        x: new Float64Array(n),
        y: new Float64Array(n),
        z: new Float64Array(n),
        originX: raster.originX,
        originY: top,
        resolution: raster.resolution,
        width: raster.width,
        height: rowEnd - rowStart,
        nodata: raster.nodata,
      };
      let k = 0;
      for (let i = 0; i < count; i++) {
        const y = ys[i]!;
        if (y <= top + buffer && y >= bottom - buffer) {
          task.x[k] = xs[i]!;
          task.y[k] = y;
          task.z[k] = zs[i]!;
          k++;
        }
      }
      const band = (await runner.run(task, {
        transferList: [task.x.buffer, task.y.buffer, task.z.buffer] as never,
      })) as Float32Array;
      raster.data.set(band, rowStart * raster.width);
    }),
  );
}
