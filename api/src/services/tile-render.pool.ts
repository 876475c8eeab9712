import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { threadExecArgv } from '@nuage/engine/core/worker-bundle.mjs';
import type { ByteSource } from '@nuage/engine/raster/byte-source.js';
import type { FromRenderThread, TileRenderResult, TileRenderTask, ToRenderThread } from './tile-render.task.js';

/**
 * A small pool of worker threads that render map tiles (tile-render.task.ts),
 * so that decoding a COG's blocks, resampling, colouring and PNG encoding
 * never hold the API's main thread: a burst of uncached tiles leaves every
 * other request free to be answered. Threads are started when tasks wait
 * (none before the first tile), at most {@link TileRenderPoolOptions.size};
 * tasks beyond what they take wait in order. A thread that dies fails the
 * tasks it held and is replaced by the next task. Ranged reads of sources
 * without a local path are made here, on the main thread, for the thread that
 * asks (I/O only). Threads do not keep the process alive when idle.
 */

/** Options of a {@link TileRenderPool}. */
export interface TileRenderPoolOptions {
  /** Threads at most (default: the available cores, 1 to 4). */
  size?: number;
  /** Tasks a thread holds at once (one renders while another waits for bytes). */
  perThread?: number;
}

/** Threads of the shared pool: the available cores, at least 1, at most 4. */
export function defaultPoolSize(cores = availableParallelism()): number {
  return Math.max(1, Math.min(4, cores));
}

interface Pending {
  id: number;
  task: TileRenderTask;
  bytes: ByteSource | undefined;
  resolve(result: TileRenderResult): void;
  reject(error: Error): void;
}

interface Thread {
  worker: Worker;
  running: Map<number, Pending>;
  gone: boolean;
}

const WORKER_FILE = new URL('./tile-render.worker.mjs', import.meta.url);

/** A task's error as the thread reported it. */
export class TileRenderError extends Error {
  readonly code: string | undefined;
  constructor(error: { name: string; message: string; code?: string }) {
    super(error.message);
    this.name = error.name;
    this.code = error.code;
  }
}

/**
 * Worker threads rendering tiles; see the top of this file.
 *
 * @example
 * const pool = new TileRenderPool({ size: 2 });
 * const result = await pool.run({ kind: 'raster', source: { id, size, path }, ... });
 * await pool.close();
 */
export class TileRenderPool {
  readonly size: number;
  private readonly perThread: number;
  private readonly threads: Thread[] = [];
  private readonly queue: Pending[] = [];
  /** Byte sources of the tasks in flight, by source id, for the threads' ranged reads. */
  private readonly sources = new Map<string, { bytes: ByteSource; users: number }>();
  private nextId = 0;
  private closed = false;

  constructor(options: TileRenderPoolOptions = {}) {
    this.size = Math.max(1, Math.floor(options.size ?? defaultPoolSize()));
    this.perThread = Math.max(1, Math.floor(options.perThread ?? 2));
  }

  /** Threads running now. */
  get threadCount(): number {
    return this.threads.length;
  }

  /** The running threads (a replaced thread has a new `threadId`). */
  get workers(): readonly Worker[] {
    return this.threads.map((t) => t.worker);
  }

  /** Tasks waiting for a thread. */
  get waiting(): number {
    return this.queue.length;
  }

  /**
   * Renders a task on a thread. `bytes` answers the thread's ranged reads
   * when the task's source has no local `path`.
   */
  run(task: TileRenderTask, bytes?: ByteSource): Promise<TileRenderResult> {
    if (this.closed) return Promise.reject(new Error('the tile render pool is closed'));
    if (!task.source.path && !bytes) {
      return Promise.reject(new Error(`source ${task.source.id} has neither a local path nor a byte source`));
    }
    return new Promise<TileRenderResult>((resolve, reject) => {
      const id = this.nextId++;
      const useBytes = task.source.path ? undefined : bytes;
      if (useBytes) {
        const held = this.sources.get(task.source.id);
        if (held) held.users++;
        else this.sources.set(task.source.id, { bytes: useBytes, users: 1 });
      }
      this.queue.push({ id, task, bytes: useBytes, resolve, reject });
      this.pump();
    });
  }

  /** Stops every thread; waiting and running tasks fail. */
  async close(): Promise<void> {
    this.closed = true;
    const error = new Error('the tile render pool is closed');
    for (const p of this.queue.splice(0)) this.settle(p, error);
    const threads = this.threads.splice(0);
    await Promise.all(
      threads.map(async (t) => {
        t.gone = true;
        for (const p of t.running.values()) this.settle(p, error);
        t.running.clear();
        await t.worker.terminate();
      }),
    );
  }

  private pump(): void {
    while (this.queue.length > 0 && !this.closed) {
      let thread: Thread | undefined;
      for (const t of this.threads) {
        if (t.running.size < this.perThread && (!thread || t.running.size < thread.running.size)) thread = t;
      }
      // A new thread only when every running one is busy (and an idle thread takes the task at once).
      if ((!thread || thread.running.size > 0) && this.threads.length < this.size) thread = this.start();
      if (!thread) return;
      const p = this.queue.shift()!;
      thread.running.set(p.id, p);
      thread.worker.ref();
      thread.worker.postMessage({ type: 'task', id: p.id, task: p.task } satisfies ToRenderThread);
    }
  }

  private start(): Thread {
    const worker = new Worker(WORKER_FILE, { execArgv: threadExecArgv() });
    const thread: Thread = { worker, running: new Map(), gone: false };
    worker.unref();
    worker.on('message', (m: FromRenderThread) => this.onMessage(thread, m));
    worker.on('error', (err) => this.lose(thread, err));
    worker.on('exit', (code) => this.lose(thread, new Error(`a tile render thread exited (code ${code})`)));
    this.threads.push(thread);
    return thread;
  }

  private onMessage(thread: Thread, m: FromRenderThread): void {
    if (m.type === 'read') {
      const held = this.sources.get(m.source);
      const answer = (message: ToRenderThread, transfer: ArrayBuffer[] = []) => {
        if (!thread.gone) thread.worker.postMessage(message, transfer);
      };
      if (!held) {
        answer({ type: 'bytes', id: m.id, error: `no byte source ${m.source}` });
        return;
      }
      held.bytes.read(m.offset, m.length).then(
        (bytes) => answer({ type: 'bytes', id: m.id, bytes }),
        (err: unknown) => answer({ type: 'bytes', id: m.id, error: (err as Error)?.message ?? String(err) }),
      );
      return;
    }
    const p = thread.running.get(m.id);
    if (!p) return;
    thread.running.delete(m.id);
    if (thread.running.size === 0) thread.worker.unref();
    if (m.type === 'done') this.settle(p, null, m.result);
    else this.settle(p, new TileRenderError(m.error));
    this.pump();
  }

  /** A thread died (crash, exit, termination): its tasks fail, the next task starts a new one. */
  private lose(thread: Thread, error: Error): void {
    if (thread.gone) return;
    thread.gone = true;
    const at = this.threads.indexOf(thread);
    if (at >= 0) this.threads.splice(at, 1);
    for (const p of thread.running.values()) this.settle(p, error);
    thread.running.clear();
    this.pump();
  }

  private settle(p: Pending, error: Error | null, result?: TileRenderResult): void {
    if (p.bytes) {
      const held = this.sources.get(p.task.source.id);
      if (held && --held.users <= 0) this.sources.delete(p.task.source.id);
    }
    if (error) p.reject(error);
    else p.resolve(result!);
  }
}

/** Numbers the stores seen, for source ids (keys are unique within one store, not across stores). */
const storeNumbers = new WeakMap<object, number>();
let storesSeen = 0;

/** The id render tasks give the object `key` of `store` (threads keep what they opened under it). */
export function sourceId(store: object, key: string): string {
  let n = storeNumbers.get(store);
  if (n === undefined) {
    n = storesSeen++;
    storeNumbers.set(store, n);
  }
  return `${n}:${key}`;
}

let shared: TileRenderPool | null = null;

/** The process's tile render pool (created on first use). */
export function tileRenderPool(): TileRenderPool {
  shared ??= new TileRenderPool();
  return shared;
}

/** Closes the process's pool, if it was created (the next tile starts a new one). */
export async function closeTileRenderPool(): Promise<void> {
  const pool = shared;
  shared = null;
  await pool?.close();
}
