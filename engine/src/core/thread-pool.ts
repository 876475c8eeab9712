import { Piscina } from 'piscina';
import { threadExecArgv } from './worker-bundle.mjs';

/**
 * A lazily started pool of worker threads on one entry file (a `*.worker.mjs`
 * loading its TypeScript through core/worker-bundle.mjs): the same pool while
 * the thread count asked stays the same; threads end after 2 s idle.
 *
 * @example
 * const pool = threadPool(new URL('./ground.worker.mjs', import.meta.url));
 * await pool(2).run(task);
 */
export function threadPool(entry: URL): (threads: number) => Piscina {
  let pool: Piscina | null = null;
  return (threads) => {
    if (!pool || pool.maxThreads !== threads) {
      pool = new Piscina({
        filename: entry.href,
        minThreads: 0,
        maxThreads: threads,
        idleTimeout: 2000,
        execArgv: threadExecArgv(),
        // geotiff's web-worker shim takes a thread with no workerData for one of its own and fails; {} is the main thread's.
        workerData: {},
      });
    }
    return pool;
  };
}
