import { Worker } from 'node:worker_threads';
import { EngineError } from '../core/errors.js';
import { threadExecArgv } from '../core/worker-bundle.mjs';
import type { TilerReply, TilerTask } from './tiler-protocol.js';
import { runTilerTask } from './tiler-tasks.js';

interface Job {
  task: TilerTask;
  transfer: ArrayBuffer[];
  resolve: (r: TilerReply) => void;
  reject: (e: Error) => void;
}

/**
 * Runs tiler tasks on worker threads (one per core by default); with size 0
 * the tasks run inline on the calling thread (tests, tiny inputs).
 */
export class TilerPool {
  private readonly workers: Worker[] = [];
  private readonly idle: Worker[] = [];
  private readonly queue: Job[] = [];
  private readonly running = new Map<number, Job>();
  private readonly busy = new Map<Worker, number>();
  private nextId = 0;
  private failed: Error | undefined;
  private closing = false;
  /** Thread ids of the workers (for memory sampling). */
  readonly threadIds: number[] = [];

  constructor(readonly size: number) {
    for (let i = 0; i < size; i++) {
      const worker = new Worker(new URL('./tiler.worker.mjs', import.meta.url), { execArgv: threadExecArgv() });
      this.threadIds.push(worker.threadId);
      worker.on('message', (m: { id: number; reply?: TilerReply; error?: { message: string; code?: string } }) => {
        const job = this.running.get(m.id);
        this.running.delete(m.id);
        this.busy.delete(worker);
        if (job) {
          if (m.reply) job.resolve(m.reply);
          else
            job.reject(
              new EngineError(m.error?.code ?? 'TILER_WORKER_FAILED', m.error?.message ?? 'tiler worker failed'),
            );
        }
        this.next(worker);
      });
      worker.on('exit', (code) => {
        if (this.closing) return;
        // A worker that dies (out of memory, killed) must not leave its job, or the queue, waiting forever.
        const error = new EngineError('TILER_WORKER_FAILED', `a tiler worker exited unexpectedly (code ${code})`);
        this.failed ??= error;
        const id = this.busy.get(worker);
        if (id !== undefined) this.running.get(id)?.reject(error);
        for (const job of this.queue.splice(0)) job.reject(error);
        const at = this.idle.indexOf(worker);
        if (at >= 0) this.idle.splice(at, 1);
      });
      worker.on('error', (error) => {
        this.failed = error;
        const id = this.busy.get(worker);
        if (id !== undefined) this.running.get(id)?.reject(error);
        for (const job of this.queue.splice(0)) job.reject(error);
      });
      this.workers.push(worker);
      this.idle.push(worker);
    }
  }

  /** Runs a task on the next free worker; `transfer` buffers move to the worker (unusable here afterwards). */
  run(task: TilerTask, transfer: ArrayBuffer[] = []): Promise<TilerReply> {
    if (this.size === 0) return runTilerTask(task);
    if (this.failed) return Promise.reject(this.failed);
    if (this.workers.length > 0 && this.idle.length === 0 && this.busy.size === 0) {
      return Promise.reject(new EngineError('TILER_WORKER_FAILED', 'no tiler worker is left'));
    }
    return new Promise((resolve, reject) => {
      const job = { task, transfer, resolve, reject };
      const worker = this.idle.pop();
      if (worker) this.dispatch(worker, job);
      else this.queue.push(job);
    });
  }

  private dispatch(worker: Worker, job: Job): void {
    const id = this.nextId++;
    this.running.set(id, job);
    this.busy.set(worker, id);
    worker.postMessage({ id, task: job.task }, job.transfer);
  }

  private next(worker: Worker): void {
    const job = this.queue.shift();
    if (job) this.dispatch(worker, job);
    else this.idle.push(worker);
  }

  /** True when the pool has no failure, no work and every worker idle: safe to hand to another tiling. */
  reusable(): boolean {
    return (
      !this.failed &&
      !this.closing &&
      this.queue.length === 0 &&
      this.busy.size === 0 &&
      this.idle.length === this.workers.length
    );
  }

  /** Whether idle workers keep the process alive (a pool kept for later tilings must not). */
  keepAlive(on: boolean): void {
    for (const worker of this.workers) {
      if (on) worker.ref();
      else worker.unref();
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    for (const job of this.queue.splice(0)) job.reject(new EngineError('CANCELLED', 'the tiler pool was closed'));
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

let spare: TilerPool | null = null;

/**
 * A pool for one tiling: the pool a previous tiling left healthy when its size
 * fits (its workers have loaded their code already: starting two workers
 * costs about 0.4 CPU-second, a quarter of tiling a 1.7 M-point file), else a
 * new one. Hand it back with {@link releaseTilerPool}.
 */
export function acquireTilerPool(size: number): TilerPool {
  if (size > 0 && spare?.size === size) {
    const pool = spare;
    spare = null;
    pool.keepAlive(true);
    return pool;
  }
  return new TilerPool(size);
}

/** Keeps a pool that ended its tiling healthy for the next one (idle, not keeping the process alive); closes any other. */
export async function releaseTilerPool(pool: TilerPool, healthy: boolean): Promise<void> {
  if (healthy && pool.size > 0 && pool.reusable()) {
    pool.keepAlive(false);
    const previous = spare;
    spare = pool;
    if (previous && previous !== pool) await previous.close();
    return;
  }
  await pool.close();
}

/** Whether a healthy idle pool of `size` workers is kept for the next tiling. */
export function hasSparePool(size: number): boolean {
  return spare?.size === size;
}
