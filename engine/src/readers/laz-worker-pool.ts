import { Worker } from 'node:worker_threads';

interface Pending {
  resolve: (records: Uint8Array) => void;
  reject: (error: Error) => void;
}

/**
 * A small pool of worker threads decoding LAZ chunks with laz-perf. Chunks of
 * a LAZ file are independent, so decoding spreads over every core; results
 * come back as transferred buffers (no copy).
 */
export class LazWorkerPool {
  private readonly workers: Worker[] = [];
  private readonly idle: Worker[] = [];
  private readonly queue: Array<{ message: Record<string, unknown>; transfer: ArrayBuffer[]; pending: Pending }> = [];
  private readonly pending = new Map<number, Pending>();
  private readonly busy = new Map<Worker, number>();
  private nextId = 0;

  constructor(readonly size: number) {
    for (let i = 0; i < size; i++) {
      const worker = new Worker(new URL('./laz.worker.mjs', import.meta.url));
      worker.unref();
      worker.on('message', (reply: { id: number; records?: ArrayBuffer; error?: string }) => {
        const task = this.pending.get(reply.id);
        this.pending.delete(reply.id);
        this.busy.delete(worker);
        if (task) {
          if (reply.records) task.resolve(new Uint8Array(reply.records));
          else task.reject(new Error(reply.error ?? 'LAZ worker failed'));
        }
        this.release(worker);
      });
      worker.on('error', (error) => {
        const id = this.busy.get(worker);
        if (id !== undefined) this.pending.get(id)?.reject(error);
      });
      this.workers.push(worker);
      this.idle.push(worker);
    }
  }

  /** Decodes one compressed chunk (the buffer is transferred to the worker). */
  decode(compressed: Uint8Array, pointFormat: number, recordLength: number, pointCount: number): Promise<Uint8Array> {
    return new Promise((resolve, reject) => {
      const copy =
        compressed.byteOffset === 0 && compressed.byteLength === compressed.buffer.byteLength
          ? compressed
          : compressed.slice();
      const buffer = copy.buffer as ArrayBuffer;
      const message = { compressed: buffer, pointFormat, recordLength, pointCount };
      const entry = { message, transfer: [buffer], pending: { resolve, reject } };
      const worker = this.idle.pop();
      if (worker) this.dispatch(worker, entry);
      else this.queue.push(entry);
    });
  }

  private dispatch(
    worker: Worker,
    entry: { message: Record<string, unknown>; transfer: ArrayBuffer[]; pending: Pending },
  ): void {
    const id = this.nextId++;
    // A busy worker keeps the process alive until its answer arrives; idle ones do not.
    worker.ref();
    this.pending.set(id, entry.pending);
    this.busy.set(worker, id);
    worker.postMessage({ id, ...entry.message }, entry.transfer);
  }

  private release(worker: Worker): void {
    const next = this.queue.shift();
    if (next) this.dispatch(worker, next);
    else {
      worker.unref();
      this.idle.push(worker);
    }
  }

  /** Stops every worker. */
  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

let shared: LazWorkerPool | null = null;

/**
 * The process-wide pool (workers compile the WASM module once, so they are
 * kept between files; idle workers do not keep the process alive).
 */
export function sharedLazPool(size: number): LazWorkerPool {
  if (!shared || shared.size < size) {
    void shared?.close();
    shared = new LazWorkerPool(size);
  }
  return shared;
}
